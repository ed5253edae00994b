"""The monitor in the terminal: a text panel over the whole screen, c64.monitor behind it.

The panel only draws and edits: the output so far (the last lines that fit),
then the prompt ``(C:$0ea4) `` with the line being typed.  Keys reach it raw,
as get_wch() returned them; it answers what the app should do next:

    Enter      EXECUTE (the typed line is in .pending)
    Tab        SCREEN: show the C64 screen until the next key
    Ctrl-O     CLOSE: leave the monitor, the program goes on (as the x command)
    Up/Down    earlier commands;  Backspace  deletes;  PageUp/PageDown  scroll
"""

from collections import deque

from charset.colours import BLACK, LIGHT_GREEN, WHITE
from c64.terminal.surface import Style
from c64.textfit import fitting, wrapped

TEXT = Style(LIGHT_GREEN, BLACK, False)
PROMPT = Style(WHITE, BLACK, True)
SCROLLBACK = 2000
CONTINUED = "  "                  # starts the rest of an output line wrapped to the panel's width
TITLES = (" monitor: help lists the commands, x leaves, Tab shows the C64 screen ",
          " monitor: help, x leaves, Tab: the C64 screen ", " monitor: help, x leaves ", " monitor ")

CLOSE = "close"
EXECUTE = "execute"
SCREEN = "screen"


class MonitorPanel:
    """Output lines, an input line with history; draw() fills the whole surface."""

    def __init__(self, curses_module, prompt_address=0):
        self.lines = deque(maxlen=SCROLLBACK)
        self.input = ""
        self.pending = None
        self.history = []
        self.recall = None
        self.scroll = 0
        self.address = prompt_address
        self.assembling = None          # the monitor's next address for `a`: the prompt shows it
        self.showing_screen = False
        self.key_up = getattr(curses_module, "KEY_UP", -1)
        self.key_down = getattr(curses_module, "KEY_DOWN", -1)
        self.key_backspace = getattr(curses_module, "KEY_BACKSPACE", -1)
        self.key_enter = getattr(curses_module, "KEY_ENTER", -1)
        self.key_ppage = getattr(curses_module, "KEY_PPAGE", -1)
        self.key_npage = getattr(curses_module, "KEY_NPAGE", -1)

    def add(self, text):
        if text:
            self.lines.extend(text.split("\n"))
        self.scroll = 0

    def prompt(self):
        if self.assembling is not None:
            return ".C:%04x  " % self.assembling
        return "(C:$%04x) " % self.address

    def handle(self, key):
        """EXECUTE, SCREEN, CLOSE or None (stay, redraw)."""
        if self.showing_screen:
            self.showing_screen = False
            return None
        if key in ("\n", "\r", self.key_enter):
            self.pending = self.input
            self.lines.append(self.prompt() + self.input)
            if self.input.strip():
                self.history.append(self.input)
            self.input, self.recall, self.scroll = "", None, 0
            return EXECUTE
        if key == "\t":
            self.showing_screen = True
            return SCREEN
        if key == "\x0f":
            return CLOSE
        if key in ("\x7f", "\x08", self.key_backspace):
            self.input = self.input[:-1]
        elif key == self.key_up and self.history:
            self.recall = len(self.history) - 1 if self.recall is None else max(0, self.recall - 1)
            self.input = self.history[self.recall]
        elif key == self.key_down and self.recall is not None:
            self.recall += 1
            if self.recall >= len(self.history):
                self.recall, self.input = None, ""
            else:
                self.input = self.history[self.recall]
        elif key == self.key_ppage:
            self.scroll = min(max(0, len(self.lines) - 1), self.scroll + 10)
        elif key == self.key_npage:
            self.scroll = max(0, self.scroll - 10)
        elif isinstance(key, str) and key.isprintable() and len(key) == 1:
            self.input += key
        return None

    def shown_lines(self, count, width):
        """The last `count` screen lines of the output up to the scroll position, each
        output line wrapped to `width` (its continuation indented)."""
        end = len(self.lines) - self.scroll
        shown, index = [], end
        while index > 0 and len(shown) < count:
            index -= 1
            shown[:0] = wrapped(self.lines[index], width, CONTINUED)
        return shown[-count:] if count > 0 else []

    def draw(self, surface):
        rows, cols = surface.size()
        height = max(1, rows - 1)
        shown = self.shown_lines(height, cols)
        surface.put(0, 0, fitting(TITLES, cols).ljust(cols), PROMPT)
        first = 1 + (height - 1 - len(shown)) if len(shown) < height - 1 else 1
        for row in range(1, rows - 1):
            surface.put(row, 0, " " * cols, TEXT)
        for offset, line in enumerate(shown[-(height - 1):] if height > 1 else []):
            surface.put(first + offset, 0, line[:cols], TEXT)
        text = self.prompt() + self.input + "_"
        surface.put(rows - 1, 0, text[-cols:].ljust(cols), PROMPT)
