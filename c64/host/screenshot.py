"""The C64 screen as a picture, SVG or PNG: 40x25 character cells inside the border.

What the VIC would show is taken from the machine (`screen_state`): screen
RAM at the address $D018 selects, colour RAM per cell, the border $D020,
the background $D021 and the character set ($D018 bit 1: upper case and
graphics, or lower and upper case).  With the display off ($D011 bit 4 = 0)
the VIC shows the border colour everywhere, and so does the picture.

`screen_pixels()` draws a ScreenState as the VIC would, pixel by pixel: each
cell is the 8x8 picture of its screen code as the VIC reads it (the machine's
`character_data`: the character ROM, which holds charset.bitmaps, this
project's own drawing, codes $80-$FF inverted; or a program's own characters
in RAM), a set pixel in the cell's colour-RAM
colour, a clear one in the background colour, and BORDER_X / BORDER_Y C64
pixels of border round the 320x200 (about what a PAL screen shows).  From
those pixels `svg()` makes an SVG of rectangles, one <path> per colour (no
font needed, so it looks the same in any viewer), with the screen's text in
its <desc> to be searched and read aloud, and `png()` a PNG (the text in its
Description), both at SCALE screen pixels per C64 pixel.  `picture()` picks the kind by the file name.

The output depends only on the ScreenState and the palette (no time stamp,
no random ids), so the same run gives a byte-identical file.
"""

import os
from collections import namedtuple
from xml.sax.saxutils import escape

from c64.host import files as hostfiles
from c64.host.pngwrite import indexed_png
from charset.bitmaps import bitmap
from charset.colours import DEFAULT_PALETTE, PALETTES
from charset.glyphs import screen_to_text

COLUMNS, ROWS = 40, 25
SCALE = 2                         # picture pixels per C64 pixel
CELL = 8 * SCALE                  # one character cell, in picture pixels
BORDER_X, BORDER_Y = 32, 36       # C64 pixels of border left/right, top/bottom
PIXELS_X = COLUMNS * 8 + 2 * BORDER_X            # the picture in C64 pixels: 384 x 272
PIXELS_Y = ROWS * 8 + 2 * BORDER_Y
WIDTH, HEIGHT = PIXELS_X * SCALE, PIXELS_Y * SCALE
KINDS = (".png", ".svg")          # the file names picture() takes
DEFAULT_TITLE = "C64 screen"

# What the VIC shows: 25 rows of 40 screen codes and 40 colour nibbles,
# $D020, $D021, True for the lower/upper-case character set, and the 2 KB of
# character pictures the VIC reads (None: the character ROM's set `lower` picks).
ScreenState = namedtuple("ScreenState", "codes colours border background lower font", defaults=(None,))


def screen_state(machine):
    """The machine's screen as a ScreenState ($D018 for screen RAM and charset, $D020, $D021, colour RAM)."""
    vic = machine.vic
    if hasattr(vic, "display_enabled") and not vic.display_enabled():
        border = vic.border()
        return ScreenState([bytes([0x20]) * COLUMNS] * ROWS, [bytes([border]) * COLUMNS] * ROWS,
                           border, border, vic.lower_case())
    font = machine.character_data() if hasattr(machine, "character_data") else None
    return ScreenState([bytes(row) for row in machine.screen_codes()],
                       [bytes(c & 0x0F for c in row) for row in machine.colour_codes()],
                       vic.border() & 0x0F, vic.background() & 0x0F, vic.lower_case(), font)


def hex_colour(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


def colours_of(palette):
    """The 16 (r, g, b) of a palette named in charset.colours.PALETTES."""
    try:
        return PALETTES[palette]
    except KeyError:
        raise ValueError("unknown palette %r (have %s)" % (palette, ", ".join(sorted(PALETTES)))) from None


def screen_pixels(state):
    """The picture as the VIC draws it: PIXELS_Y rows of PIXELS_X colour numbers (0-15),
    the border round 40x25 cells of 8x8 pixels."""
    border, background = state.border & 15, state.background & 15
    rows = [bytearray([border]) * PIXELS_X for _ in range(BORDER_Y)]
    side = bytes([border]) * BORDER_X
    for codes, colours in zip(state.codes, state.colours):
        font = state.font
        cells = [(bitmap(code, state.lower) if font is None else font[code * 8:code * 8 + 8], colour & 15)
                 for code, colour in zip(codes, colours)]
        for line in range(8):
            row = bytearray(side)
            for picture, colour in cells:
                bits = picture[line]
                row += bytes(colour if bits & (0x80 >> x) else background for x in range(8))
            rows.append(row + side)
    rows += [bytearray([border]) * PIXELS_X for _ in range(BORDER_Y)]
    return rows


def rectangles(pixels, left, top, width, height, skip):
    """{colour: [(x, y, w, h)]}: the pixels of the area not of colour `skip`, as runs along
    the rows, a run stretched down while the rows below repeat it."""
    found, open_runs = {}, {}               # (x, w, colour) -> index of its rectangle
    for y in range(top, top + height):
        row, runs, x = pixels[y], {}, left
        while x < left + width:
            end = x
            while end < left + width and row[end] == row[x]:
                end += 1
            if row[x] != skip:
                key = (x, end - x, row[x])
                rects = found.setdefault(row[x], [])
                if key in open_runs:
                    rx, ry, rw, rh = rects[open_runs[key]]
                    rects[open_runs[key]] = (rx, ry, rw, rh + 1)
                    runs[key] = open_runs[key]
                else:
                    runs[key] = len(rects)
                    rects.append((x, y, end - x, 1))
            x = end
        open_runs = runs
    return found


def path_data(rects):
    """An SVG path of rectangles, each moved to from the start of the one before."""
    out, last_x, last_y = [], 0, 0
    for x, y, w, h in rects:
        out.append("m%d %dh%dv%dh-%dz" % (x - last_x, y - last_y, w, h, w))
        last_x, last_y = x, y
    return "".join(out)


def screen_text(state):
    """The screen's 25 lines as text (charset.glyphs' Unicode characters, reverse video
    not shown), trailing spaces and blank lines at the end left out."""
    lines = [screen_to_text(codes, state.lower, "unicode").replace("\u00a0", " ").rstrip()
             for codes in state.codes]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def svg(state, palette=DEFAULT_PALETTE, title=None):
    """The SVG document (a str) for a ScreenState in one of charset.colours.PALETTES."""
    rgb = [hex_colour(c) for c in colours_of(palette)]
    left, top = BORDER_X, BORDER_Y
    border, background = state.border & 15, state.background & 15
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'shape-rendering="crispEdges" role="img" aria-labelledby="title screen">'
           % (WIDTH, HEIGHT, PIXELS_X, PIXELS_Y),
           '<title id="title">%s</title>' % escape(title or DEFAULT_TITLE),
           '<desc id="screen">%s</desc>' % escape(screen_text(state)),
           '<rect width="%d" height="%d" fill="%s"/>' % (PIXELS_X, PIXELS_Y, rgb[border])]
    if background != border:
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>'
                   % (left, top, COLUMNS * 8, ROWS * 8, rgb[background]))
    drawn = rectangles(screen_pixels(state), left, top, COLUMNS * 8, ROWS * 8, background)
    for colour in sorted(drawn):
        out.append('<path fill="%s" d="%s"/>' % (rgb[colour], path_data(drawn[colour])))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(state, palette=DEFAULT_PALETTE, title=None):
    """The PNG file (bytes) for a ScreenState, WIDTH x HEIGHT, 16 colours, the title and the
    screen's text in its Title and Description."""
    colours = colours_of(palette)
    rows = []
    for row in screen_pixels(state):
        wide = bytearray(len(row) * SCALE)
        for offset in range(SCALE):               # each pixel SCALE times along the row ...
            wide[offset::SCALE] = row
        rows += [bytes(wide)] * SCALE             # ... and each row SCALE times
    return indexed_png(rows, colours, [("Title", title or DEFAULT_TITLE), ("Description", screen_text(state))])


def kind_of(path):
    """'.svg' or '.png' from a file name, else ValueError naming the kinds."""
    kind = os.path.splitext(str(path))[1].lower()
    if kind not in KINDS:
        raise ValueError("a screenshot is FILE.svg or FILE.png, not %s" % os.path.basename(str(path)))
    return kind


def picture(state, path, palette=DEFAULT_PALETTE, title=None):
    """The bytes of the picture the file name asks for: SVG (UTF-8) or PNG."""
    if kind_of(path) == ".png":
        return png(state, palette, title)
    return svg(state, palette, title).encode("utf-8")


def write_picture(machine, path, palette=DEFAULT_PALETTE, title=None):
    """Write the machine's screen to `path` as SVG or PNG, by its name: a regular file there
    is replaced, a link, a FIFO, a device or a folder refused (c64.host.files.replace)."""
    hostfiles.replace(path, picture(screen_state(machine), path, palette, title))
