"""The C64 picture on a terminal: 40x25 cells from screen and colour RAM, the border, the status line.

The renderer only draws a ScreenState (a snapshot of what the VIC would
show); it never touches the machine.  It remembers what it drew and, per
frame, redraws only the cells that changed: a blinking cursor costs one
cell, not a screen.  A change of size, background ($D021), character set
($D018 bit 1) or an overlay closing forces a full redraw.

Layout: the 40x25 screen, centred, with the border ($D020) as a frame of
up to 4 columns and 2 rows round it when the terminal has room (cells are
about twice as tall as wide, so that is roughly the C64's proportion), and
the status line on the row under the picture.  Below 40x26 the picture
cannot be shown and an "enlarge to 40x26" message is drawn instead.

Reverse video (screen codes $80-$FF) is drawn by swapping the colours, as
the VIC does: the cell takes its colour-RAM colour and the glyph shows the
background.  The KERNAL cursor blink flips that bit in screen RAM, so the
C64's blinking block appears here without any help.
"""

from collections import namedtuple

from charset.glyphs import glyph
from c64.terminal.surface import Style

COLUMNS, ROWS = 40, 25
MIN_COLS, MIN_ROWS = COLUMNS, ROWS + 1          # the screen and the status line
MAX_BORDER_COLS, MAX_BORDER_ROWS = 4, 2

# What the VIC shows, taken from the machine once per frame.
ScreenState = namedtuple("ScreenState", "codes colours border background lower")

# Where everything goes on the terminal.
Layout = namedtuple("Layout", "rows cols top left border_rows border_cols screen_top screen_left status_y width")


BLANK_ROWS = [bytes([0x20]) * COLUMNS] * ROWS


def snapshot(machine):
    """The machine's screen as a ScreenState (25 rows of codes and colours, $D020, $D021, $D018).

    With the display switched off ($D011 bit 4 = 0, which programs do to compute faster)
    the VIC shows the border colour all over, and so does the snapshot.
    """
    vic = machine.vic
    if hasattr(vic, "display_enabled") and not vic.display_enabled():
        border = vic.border()
        return ScreenState(BLANK_ROWS, [bytes([border]) * COLUMNS] * ROWS, border, border, vic.lower_case())
    return ScreenState(machine.screen_codes(), machine.colour_codes(), vic.border(), vic.background(),
                       vic.lower_case())


def compute_layout(rows, cols):
    """The Layout for a terminal of rows x cols, or None when it is smaller than 40x26."""
    if rows < MIN_ROWS or cols < MIN_COLS:
        return None
    border_rows = min(MAX_BORDER_ROWS, (rows - MIN_ROWS) // 2)
    border_cols = min(MAX_BORDER_COLS, (cols - COLUMNS) // 2)
    width = COLUMNS + 2 * border_cols
    height = ROWS + 2 * border_rows
    top = (rows - height - 1) // 2
    left = (cols - width) // 2
    return Layout(rows, cols, top, left, border_rows, border_cols, top + border_rows, left + border_cols,
                  top + height, width)


def too_small_message(rows, cols):
    """The lines shown when the terminal cannot hold the screen."""
    return ["enlarge to %dx%d" % (MIN_COLS, MIN_ROWS),
            "(the terminal is %dx%d)" % (cols, rows),
            "Ctrl-Q quits"]


def glyph_table(lower, mode):
    """Screen code 0-255 -> (character, reverse) for one character set and glyph mode."""
    return [glyph(code, lower, mode) for code in range(256)]


class Renderer:
    """Draws ScreenStates and the status line on a surface, redrawing only what changed."""

    def __init__(self, surface, glyph_mode="unicode"):
        self.surface = surface
        self.glyph_mode = glyph_mode
        self._tables = {}
        self.layout = None
        self.invalidate()

    def invalidate(self):
        """Forget what is on the terminal: the next draw repaints everything."""
        self._rows = [None] * ROWS
        self._key = None
        self._border = None
        self._status = None
        self._too_small = None

    def _table(self, lower):
        table = self._tables.get(lower)
        if table is None:
            table = self._tables[lower] = glyph_table(lower, self.glyph_mode)
        return table

    # -- the picture ------------------------------------------------------------------
    def update_layout(self):
        """Recompute the layout for the surface's current size; True when it fits."""
        rows, cols = self.surface.size()
        layout = compute_layout(rows, cols)
        if layout != self.layout:
            self.layout = layout
            self.invalidate()
        return layout is not None

    def draw(self, state):
        """Draw a ScreenState; returns the number of cells written (0 when nothing changed)."""
        layout = self.layout
        if layout is None:
            return 0
        surface = self.surface
        key = (state.background, state.lower, layout)
        written = 0
        if key != self._key:
            surface.clear()
            self._key = key
            self._rows = [None] * ROWS
            self._border = None
            self._status = None
        if state.border != self._border:
            written += self._draw_border(state.border)
        table = self._table(state.lower)
        background = state.background
        for row in range(ROWS):
            codes, colours = state.codes[row], state.colours[row]
            shown = self._rows[row]
            if shown is not None and shown[0] == codes and shown[1] == colours:
                continue
            if shown is None:
                first, last = 0, COLUMNS - 1
            else:
                old_codes, old_colours = shown
                changed = [c for c in range(COLUMNS)
                           if codes[c] != old_codes[c] or colours[c] != old_colours[c]]
                first, last = changed[0], changed[-1]
            written += self._draw_span(row, first, last, codes, colours, background, table)
            self._rows[row] = (bytes(codes), bytes(colours))
        return written

    def _draw_span(self, row, first, last, codes, colours, background, table):
        """Cells first..last of a row, written as runs of one style."""
        layout = self.layout
        y, x0 = layout.screen_top + row, layout.screen_left
        run_start, run_text, run_style = first, [], None
        for column in range(first, last + 1):
            char, reverse = table[codes[column]]
            colour = colours[column] & 0x0F
            style = Style(background, colour, True) if reverse else Style(colour, background, False)
            if style != run_style and run_text:
                self.surface.put(y, x0 + run_start, "".join(run_text), run_style)
                run_start, run_text = column, []
            run_style = style
            run_text.append(char)
        if run_text:
            self.surface.put(y, x0 + run_start, "".join(run_text), run_style)
        return last - first + 1

    def _draw_border(self, colour):
        """The frame round the screen in the border colour; returns the cells written."""
        self._border = colour
        layout = self.layout
        if not layout.border_rows and not layout.border_cols:
            return 0
        style = Style(colour, colour, True)
        put = self.surface.put
        written = 0
        full = " " * layout.width
        for y in list(range(layout.top, layout.screen_top)) + \
                list(range(layout.screen_top + ROWS, layout.status_y)):
            put(y, layout.left, full, style)
            written += layout.width
        side = " " * layout.border_cols
        if side:
            for y in range(layout.screen_top, layout.screen_top + ROWS):
                put(y, layout.left, side, style)
                put(y, layout.screen_left + COLUMNS, side, style)
                written += 2 * layout.border_cols
        return written

    # -- the status line and messages -------------------------------------------------
    def status_room(self):
        """The most columns draw_status may use (None while the terminal is too small)."""
        layout = self.layout
        return None if layout is None else max(layout.width, layout.cols - layout.left)

    def draw_status(self, left, right, style):
        """The status line: `left` from its start, `right` flush right; redrawn only on change."""
        layout = self.layout
        if layout is None:
            return
        width = max(layout.width, min(len(left) + len(right) + 1, layout.cols - layout.left))
        text = fit_line(left, right, width)
        if (text, style) == self._status:
            return
        if self._status is not None and len(self._status[0]) > width:
            self.surface.put(layout.status_y, layout.left, " " * len(self._status[0]), Style(None, None, False))
        self._status = (text, style)
        self.surface.put(layout.status_y, layout.left, text, style)

    def draw_too_small(self):
        """The 'enlarge' message for a terminal below 40x26; drawn once per size."""
        rows, cols = self.surface.size()
        if self._too_small == (rows, cols):
            return
        self._too_small = (rows, cols)
        self.surface.clear()
        lines = too_small_message(rows, cols)
        top = max(0, (rows - len(lines)) // 2)
        for offset, line in enumerate(lines):
            line = line[:cols]
            self.surface.put(top + offset, max(0, (cols - len(line)) // 2), line, Style(None, None, False))


MIN_LEFT = 20     # columns the left part keeps before the right part gives way


def fit_line(left, right, width):
    """`left` and `right` in exactly `width` columns.

    When both do not fit, left is cut, down to MIN_LEFT columns; below that
    right is dropped instead.
    """
    if len(left) + len(right) > width and width - len(right) < MIN_LEFT:
        right = ""
    return (left[:width] + " " * width)[:width - len(right)] + right
