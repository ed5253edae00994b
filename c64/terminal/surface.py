"""Where the front end draws: a curses window, or the raw terminal in truecolor.

Both surfaces take text with a Style (C64 foreground and background colour
numbers, None for the terminal's own colour, and a reverse flag used when
there are no colours) and hide their edge cases: curses raises an error
for a write into the bottom-right cell or past the edge; the surfaces clip
and swallow that, so the layout code never has to.
"""

from collections import namedtuple

from c64.terminal.colours import rgb
from c64.textfit import printable            # (a file name's control characters drawn as "?")
from charset.colours import DEFAULT_PALETTE

try:
    import curses
    CURSES_ERROR = curses.error
except ImportError:            # Windows without windows-curses: the surfaces still import for tests
    curses = None
    CURSES_ERROR = OSError

# fg, bg: C64 colour 0-15 or None (terminal default); reverse: for mono terminals.
Style = namedtuple("Style", "fg bg reverse")
PLAIN = Style(None, None, False)


class CursesSurface:
    """Draws into a curses window (or any object with the same methods, e.g. a test fake).

    colours: colours.CursesColours (style -> attribute); error: the exception the
    window raises at its edges (curses.error).
    """

    def __init__(self, window, colours, error=CURSES_ERROR):
        self.window = window
        self.colours = colours
        self.error = error

    def size(self):
        return self.window.getmaxyx()

    def clear(self):
        self.window.erase()

    def put(self, y, x, text, style):
        rows, cols = self.window.getmaxyx()
        if y < 0 or y >= rows or x >= cols or not text:
            return
        text = printable(text[:cols - x])
        try:
            self.window.addstr(y, x, text, self.colours.attr(style))
        except self.error:
            pass                  # the bottom-right cell: written, but curses reports the cursor overflow

    def flush(self):
        self.window.refresh()

    def resized(self):
        """After a resize: the next refresh repaints the whole terminal."""
        self.window.clear()

    def close(self):
        pass


class AnsiSurface:
    """Truecolor: writes cursor moves and SGR 38;2 / 48;2 sequences to a stream itself.

    curses stays in charge of the keyboard and knows the size; it is never
    asked to draw, so its picture of the screen and ours do not fight.
    size: a function returning (rows, cols); window: the curses window whose
    pending repaint (ncurses schedules one on resize) is let happen first;
    palette: a charset.colours palette name.
    """

    def __init__(self, stream, size, window=None, palette=DEFAULT_PALETTE):
        self.stream = stream
        self.palette = palette
        self._size = size
        self.window = window
        self.buffer = []
        self._sgr = None

    def size(self):
        return self._size()

    def clear(self):
        self.buffer.append("\x1b[0m\x1b[2J")
        self._sgr = None

    def put(self, y, x, text, style):
        rows, cols = self._size()
        if y < 0 or y >= rows or x >= cols or not text:
            return
        text = printable(text[:cols - x])
        sgr = self._style_sgr(style, self.palette)
        self.buffer.append("\x1b[%d;%dH" % (y + 1, x + 1))
        if sgr != self._sgr:
            self.buffer.append(sgr)
            self._sgr = sgr
        self.buffer.append(text)

    @staticmethod
    def _style_sgr(style, palette=DEFAULT_PALETTE):
        parts = ["0"]
        if style.fg is not None:
            parts.append("38;2;%d;%d;%d" % rgb(style.fg, palette))
        if style.bg is not None:
            parts.append("48;2;%d;%d;%d" % rgb(style.bg, palette))
        if style.fg is None and style.bg is None and style.reverse:
            parts.append("7")
        return "\x1b[" + ";".join(parts) + "m"

    def resized(self):
        if self.window is not None:
            self.window.clear()
            self.window.refresh()      # curses blanks the terminal now, not later over our picture
        self.buffer = []
        self._sgr = None

    def flush(self):
        if self.buffer:
            self.stream.write("".join(self.buffer))
            self.buffer = []
        self.stream.flush()

    def close(self):
        """Write what is pending, then leave the terminal's attributes as we found them."""
        self.stream.write("".join(self.buffer) + "\x1b[0m")
        self.buffer = []
        self.stream.flush()
        self._sgr = None
