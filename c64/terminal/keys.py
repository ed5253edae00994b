"""Host keys in the C64 screen: emulator commands first, then C64 keys through charset.keys.

The emulator's own keys are chosen not to collide with anything the C64
keyboard needs: F9-F12 (the C64 has F1-F8) and Ctrl-letters (a terminal
cannot send CTRL+digit or C= combinations anyway).  Ctrl-H is avoided for
help because many terminals send it for Backspace (= DEL); Ctrl-C quits at
once, as a terminal user expects; Ctrl-Q asks first.

    F12 / Ctrl-W   warp on/off          F10 / Ctrl-V   version menu
    F9  / Ctrl-R   reset (restart)      F11 / Ctrl-K   help panel
    Ctrl-Q         quit (asks y/n)      Ctrl-C         quit now
    Ctrl-O         monitor (c64.monitor: stops the machine; x leaves it)
    Ctrl-P         screenshot (SVG)
    PageUp         RESTORE              Esc            RUN/STOP
    Ctrl-S         CTRL held down (a terminal cannot report a held modifier key: each
                   Ctrl-S holds the C64's CTRL for half a second, and the terminal's
                   auto-repeat keeps it down while Ctrl-S is held; the C64 slows its
                   scrolling while CTRL is down, the terminal tradition of Ctrl-S too)
"""

import enum

from charset.keys import CTRL, host_key_to_c64


class Command(enum.Enum):
    WARP = "warp"
    MENU = "menu"
    RESET = "reset"
    HELP = "help"
    QUIT = "quit"
    INTERRUPT = "interrupt"
    RESIZE = "resize"
    MONITOR = "monitor"
    SCREENSHOT = "screenshot"


# Control characters (as get_wch returns them) -> command.
CONTROL_COMMANDS = {
    "\x17": Command.WARP,        # Ctrl-W
    "\x16": Command.MENU,        # Ctrl-V
    "\x12": Command.RESET,       # Ctrl-R
    "\x0b": Command.HELP,        # Ctrl-K
    "\x11": Command.QUIT,        # Ctrl-Q
    "\x10": Command.SCREENSHOT,  # Ctrl-P (picture)
    "\x03": Command.INTERRUPT,   # Ctrl-C (raw mode: no SIGINT)
    "\x0f": Command.MONITOR,     # Ctrl-O
}
# Control characters that are C64 keys the terminal cannot send otherwise.
CONTROL_KEYS = {"\x13": CTRL}    # Ctrl-S: CTRL held down
FUNCTION_COMMANDS = {9: Command.RESET, 10: Command.MENU, 11: Command.HELP, 12: Command.WARP}
# Shift+F1..F8 arrive as F13..F20 in xterm-like terminals: the C64's F2/F4/F6/F8.
SHIFTED_FUNCTION_KEYS = {13: 0x89, 14: 0x89, 15: 0x8A, 16: 0x8A, 17: 0x8B, 18: 0x8B, 19: 0x8C, 20: 0x8C}

# For the help panel: (keys, what they do), in the order shown.
HELP_LINES = (
    ("F12 or Ctrl-W", "warp on/off (as fast as the host can)"),
    ("F10 or Ctrl-V", "version menu: bundled RYG versions, .prg files here"),
    ("F9 or Ctrl-R", "reset the C64 and start the program again (during a game it asks first)"),
    ("F11 or Ctrl-K", "this help"),
    ("Ctrl-P", "screenshot: the C64 screen as PNG and SVG files"),
    ("Ctrl-Q", "quit (asks y/n); Ctrl-C quits at once"),
    ("Ctrl-O", "monitor: stops the C64 (help, x leaves, Tab: screen)"),
    ("", ""),
    ("letters, digits", "C64 keys, either case types the letter you see;"),
    ("Alt+letter", "SHIFT+letter: a graphic in upper-case mode"),
    ("Enter", "RETURN"),
    ("Backspace/Delete", "DEL        Insert  INST"),
    ("Home", "CLR/HOME   Shift+Home  CLR"),
    ("arrow keys", "cursor keys"),
    ("F1-F8", "C64 function keys (Shift+F1 = F2, ...)"),
    ("Esc", "RUN/STOP"),
    ("Ctrl-S", "CTRL held (hold it: slower scrolling, as in LIST)"),
    ("PageUp", "RESTORE (after a stop: warm start, memory kept)"),
    ("PageDown / End", "up-arrow (Shift: pi) / left-arrow"),
    ("\\", "pound"),
)


class KeyDecoder:
    """Turns what get_wch() returned into a Command, a PETSCII byte, "restore", "ctrl", or None.

    curses_module: provides KEY_F0 and KEY_RESIZE (the real module or a stand-in);
    keymap: charset.keys.build_host_keymap(curses_module).
    """

    def __init__(self, curses_module, keymap):
        self.key_f0 = getattr(curses_module, "KEY_F0", None)
        self.key_resize = getattr(curses_module, "KEY_RESIZE", None)
        self.keymap = keymap

    def decode(self, key):
        if isinstance(key, str):
            if key in CONTROL_COMMANDS:
                return CONTROL_COMMANDS[key]
            if key in CONTROL_KEYS:
                return CONTROL_KEYS[key]
            return host_key_to_c64(key, self.keymap)
        if key == self.key_resize:
            return Command.RESIZE
        if self.key_f0 is not None and self.key_f0 < key <= self.key_f0 + 63:
            number = key - self.key_f0
            if number in FUNCTION_COMMANDS:
                return FUNCTION_COMMANDS[number]
            if number in SHIFTED_FUNCTION_KEYS:
                return SHIFTED_FUNCTION_KEYS[number]
        return host_key_to_c64(key, self.keymap)
