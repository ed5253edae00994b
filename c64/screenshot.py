"""The C64 screen as an SVG picture: 40x25 character cells inside the border.

What the VIC would show is taken from the machine (`screen_state`): screen
RAM at the address $D018 selects, colour RAM per cell, the border $D020,
the background $D021 and the character set ($D018 bit 1: upper case and
graphics, or lower and upper case).  With the display off ($D011 bit 4 = 0)
the VIC shows the border colour everywhere, and so does the picture.

`svg()` draws a ScreenState without curses or a terminal: each cell is a
CELL x CELL square (a C64 character is 8x8 pixels, drawn at SCALE), the
border is BORDER_X / BORDER_Y C64 pixels wide, about what a PAL screen
shows.  Glyphs are Unicode text (charset.glyphs, "unicode" mode: Symbols
for Legacy Computing for the graphics), in the font FONT_FAMILY names:
C64 Pro Mono first (made for exactly these cells), then common monospace
fonts that have the block elements.  Every glyph gets its own x, so the
grid holds whatever font the viewer substitutes (one <text> per glyph:
not every renderer supports a list of x positions in one <text>).  Reverse video is drawn
as the VIC does it: the cell takes its colour-RAM colour and the glyph the
background colour.

The output depends only on the ScreenState and the palette (no time stamp,
no random ids), so the same run gives a byte-identical file.
"""

from collections import namedtuple
from xml.sax.saxutils import escape

from charset.colours import DEFAULT_PALETTE, PALETTES
from charset.glyphs import glyph

COLUMNS, ROWS = 40, 25
SCALE = 2                         # SVG units per C64 pixel
CELL = 8 * SCALE                  # one character cell
BORDER_X, BORDER_Y = 32, 36       # C64 pixels of border left/right, top/bottom
WIDTH = (COLUMNS * 8 + 2 * BORDER_X) * SCALE
HEIGHT = (ROWS * 8 + 2 * BORDER_Y) * SCALE
FONT_SIZE = CELL                  # C64 Pro Mono: one em is one 8x8 cell
BASELINE = 13 * SCALE // 2        # from the top of a cell: 6.5 C64 pixels (block glyphs reach the cell's edges)
FONT_FAMILY = "'C64 Pro Mono', 'C64 Pro', 'DejaVu Sans Mono', 'Noto Sans Mono', 'Noto Sans Symbols 2', monospace"

# What the VIC shows: 25 rows of 40 screen codes and 40 colour nibbles,
# $D020, $D021, and True for the lower/upper-case character set.
ScreenState = namedtuple("ScreenState", "codes colours border background lower")

BLANK = frozenset(" \u00a0")


def screen_state(machine):
    """The machine's screen as a ScreenState ($D018 for screen RAM and charset, $D020, $D021, colour RAM)."""
    vic = machine.vic
    if hasattr(vic, "display_enabled") and not vic.display_enabled():
        border = vic.border()
        return ScreenState([bytes([0x20]) * COLUMNS] * ROWS, [bytes([border]) * COLUMNS] * ROWS,
                           border, border, vic.lower_case())
    return ScreenState([bytes(row) for row in machine.screen_codes()],
                       [bytes(c & 0x0F for c in row) for row in machine.colour_codes()],
                       vic.border() & 0x0F, vic.background() & 0x0F, vic.lower_case())


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def _runs(values):
    """[(first, last, value)] for the runs of equal values in a sequence."""
    runs = []
    for index, value in enumerate(values):
        if runs and runs[-1][2] == value and runs[-1][1] == index - 1:
            runs[-1] = (runs[-1][0], index, value)
        else:
            runs.append((index, index, value))
    return runs


def svg(state, palette=DEFAULT_PALETTE, title=None):
    """The SVG document (a str) for a ScreenState in one of charset.colours.PALETTES."""
    try:
        colours = PALETTES[palette]
    except KeyError:
        raise ValueError("unknown palette %r (have %s)" % (palette, ", ".join(sorted(PALETTES)))) from None
    rgb = [hex_colour(c) for c in colours]
    left, top = BORDER_X * SCALE, BORDER_Y * SCALE
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (WIDTH, HEIGHT, WIDTH, HEIGHT)]
    if title:
        out.append("<title>%s</title>" % escape(title))
    out.append('<style>text{font-family:%s;font-size:%dpx;white-space:pre}</style>' % (FONT_FAMILY, FONT_SIZE))
    out.append('<rect width="%d" height="%d" fill="%s"/>' % (WIDTH, HEIGHT, rgb[state.border & 15]))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>'
               % (left, top, COLUMNS * CELL, ROWS * CELL, rgb[state.background & 15]))
    background = state.background & 15
    for row in range(ROWS):
        y = top + row * CELL
        cells = []                # (char, fg, bg) per column
        for column in range(COLUMNS):
            char, reverse = glyph(state.codes[row][column], state.lower, "unicode")
            colour = state.colours[row][column] & 15
            cells.append((char, background, colour) if reverse else (char, colour, background))
        for first, last, bg in _runs([cell[2] for cell in cells]):
            if bg != background:
                out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>'
                           % (left + first * CELL, y, (last - first + 1) * CELL, CELL, rgb[bg]))
        shown = [(column, cell) for column, cell in enumerate(cells) if cell[0] not in BLANK]
        for first, last, fg in _runs([cell[1] for _, cell in shown]):
            # One <text> per glyph: renderers differ in their support of per-glyph x lists.
            glyphs = "".join('<text x="%d">%s</text>' % (left + column * CELL, escape(cell[0]))
                             for column, cell in shown[first:last + 1])
            out.append('<g fill="%s" transform="translate(0 %d)">%s</g>' % (rgb[fg], y + BASELINE, glyphs))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg(machine, path, palette=DEFAULT_PALETTE, title=None):
    """Write the machine's screen to `path` as SVG (UTF-8)."""
    document = svg(screen_state(machine), palette, title)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(document)
