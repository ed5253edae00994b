"""Host keys in the curses front end: emulator commands, C64 keys, and keys that are ignored."""

import pytest

from charset.keys import build_host_keymap
from c64.terminal.keys import HELP_LINES, Command, KeyDecoder
from tests.terminal.test_terminal_render import FakeCurses

F0 = FakeCurses.KEY_F0


@pytest.fixture(name="decode")
def decode_fixture():
    return KeyDecoder(FakeCurses, build_host_keymap(FakeCurses)).decode


@pytest.mark.parametrize("key, command", [
    (F0 + 12, Command.WARP), ("\x17", Command.WARP),
    (F0 + 10, Command.MENU), ("\x16", Command.MENU),
    (F0 + 9, Command.RESET), ("\x12", Command.RESET),
    (F0 + 11, Command.HELP), ("\x0b", Command.HELP),
    ("\x11", Command.QUIT), ("\x03", Command.INTERRUPT),
    (FakeCurses.KEY_RESIZE, Command.RESIZE),
])
def test_emulator_keys_decode_to_their_commands(decode, key, command):
    assert decode(key) is command


@pytest.mark.parametrize("key, petscii", [
    ("a", 0x41), ("z", 0x5A), ("A", 0xC1), ("0", 0x30), ("9", 0x39), ("!", 0x21), (" ", 0x20),
    ("\n", 0x0D), ("\r", 0x0D), (FakeCurses.KEY_ENTER, 0x0D),
    ("\x7f", 0x14), ("\x08", 0x14), (FakeCurses.KEY_BACKSPACE, 0x14), (FakeCurses.KEY_DC, 0x14),
    (FakeCurses.KEY_IC, 0x94), (FakeCurses.KEY_HOME, 0x13), (FakeCurses.KEY_SHOME, 0x93),
    (FakeCurses.KEY_UP, 0x91), (FakeCurses.KEY_DOWN, 0x11),
    (FakeCurses.KEY_LEFT, 0x9D), (FakeCurses.KEY_RIGHT, 0x1D),
    (F0 + 1, 0x85), (F0 + 2, 0x89), (F0 + 3, 0x86), (F0 + 8, 0x8C),
    (F0 + 13, 0x89), (F0 + 19, 0x8C),           # Shift+F1 / Shift+F7 as xterm sends them
    ("\x1b", 0x03),                             # Esc = RUN/STOP
    ("\\", 0x5C), ("\u00a3", 0x5C), ("^", 0x5E), (FakeCurses.KEY_NPAGE, 0x5E), (FakeCurses.KEY_END, 0x5F),
])
def test_host_keys_give_the_petscii_a_c64_keyboard_gives(decode, key, petscii):
    assert decode(key) == petscii


def test_page_up_is_restore(decode):
    assert decode(FakeCurses.KEY_PPAGE) == "restore"


def test_ctrl_s_is_the_ctrl_key_held_down(decode):
    assert decode("\x13") == "ctrl"


@pytest.mark.parametrize("key", ["\t", "{", "}", "`", "\x01", "\x1a", "\u00e9", F0 + 30, 999, -1])
def test_keys_the_c64_does_not_have_are_ignored(decode, key):
    assert decode(key) is None


def test_ctrl_h_stays_backspace_and_is_not_the_help_key(decode):
    assert decode("\x08") == 0x14


def test_the_help_panel_names_every_emulator_key():
    text = " ".join(keys + " " + what for keys, what in HELP_LINES)
    for name in ("F12", "Ctrl-W", "F10", "Ctrl-V", "F9", "Ctrl-R", "F11", "Ctrl-K", "Ctrl-Q", "Ctrl-C",
                 "Esc", "PageUp", "RESTORE", "RUN/STOP", "Ctrl-S"):
        assert name in text


def test_the_ryg_help_epilog_names_the_same_keys():
    import ryg
    for name in ("F12 or Ctrl-W", "F10 or Ctrl-V", "F9 or Ctrl-R", "Ctrl-Q", "F11 or Ctrl-K", "PageUp",
                 "Ctrl-S", "{ctrl}"):
        assert name in ryg.EPILOG
