"""Windows and macOS as far as they can be checked here: the front end's Windows code paths.

Two kinds of test.  The front end's own tests run again in a subprocess with
tests/terminal/windows_like.py, which makes this host look like Windows (sys.platform
"win32", termios/tty/pty/fcntl unimportable, only Windows' signals).  And
what PDCurses (windows-curses) does differently from ncurses is put into
fakes here: no set_escdelay, resize_term instead of update_lines_cols, its
own key codes (PADENTER, ALT_A ...), a 16-bit wchar_t, fewer colour pairs,
and a curses module without get_wch.
"""

import os
import signal
import subprocess
import sys

from c64.terminal.colours import CursesColours, detect_depth
from c64.terminal.glyphmode import choose_glyph_mode, libc_wcwidth
from c64.terminal.keys import Command, KeyDecoder
from c64.terminal.surface import Style
from charset.keys import build_host_keymap
from tests.terminal.test_terminal_app import make_app, settle, type_keys
from tests.terminal.test_terminal_render import FakeCurses
from tests.terminal.windows_like import WINDOWS_SIGNALS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT_END_TESTS = ["tests/terminal/test_terminal_app.py", "tests/terminal/test_terminal_keys.py",
                   "tests/terminal/test_terminal_render.py", "tests/terminal/test_terminal_colours.py",
                   "tests/terminal/test_terminal_status.py", "tests/terminal/test_terminal_screenshot.py",
                   "tests/terminal/test_settings.py", "tests/terminal/test_terminal_logfile.py",
                   "tests/charset/test_keys.py"]


def test_the_front_end_tests_pass_on_a_host_made_to_look_like_windows():
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.terminal.windows_like", "-p", "no:cacheprovider"]
                            + FRONT_END_TESTS, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "windows-like: sys.platform=win32" in result.stdout
    assert "SIGWINCH gone" in result.stdout
    assert " passed" in result.stdout.splitlines()[-1] and "failed" not in result.stdout.splitlines()[-1]


class PDCurses(FakeCurses):
    """What windows-curses (PDCurses) offers where ncurses differs: its extra key names, resize_term,
    no update_lines_cols / set_escdelay; KEY_F0 is 264 in both."""

    PADENTER, PADSLASH, PADSTAR, PADMINUS, PADPLUS, PADSTOP = 0x1CB, 0x1CA, 0x1CF, 0x1D0, 0x1D1, 0x1C5
    ALT_A = 0x1A1

    def __init__(self, colour_pairs=256):
        super().__init__(colour_pairs)
        self.resized_to = []

    def resize_term(self, rows, cols):
        self.resized_to.append((rows, cols))

    update_lines_cols = None


def test_pdcurses_keypad_keys_are_the_c64_keys_and_alt_letters_are_ignored():
    decoder = KeyDecoder(PDCurses(), build_host_keymap(PDCurses()))
    assert decoder.decode(PDCurses.PADENTER) == 0x0D
    assert [decoder.decode(k) for k in (PDCurses.PADSLASH, PDCurses.PADSTAR, PDCurses.PADMINUS,
                                        PDCurses.PADPLUS, PDCurses.PADSTOP)] == [0x2F, 0x2A, 0x2D, 0x2B, 0x2E]
    assert decoder.decode(PDCurses.ALT_A) is None          # ncurses sends Esc, A: RUN/STOP then A
    assert decoder.decode(264 + 12) is Command.WARP        # F12
    assert decoder.decode(264 + 13) == 0x89                # Shift+F1 = KEY_F(13) in PDCurses too: C64 F2


def test_on_windows_a_resize_asks_pdcurses_for_the_new_size(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    app, window, _ = make_app()
    app.curses = PDCurses()
    settle(app, 0.3)
    window.resize(32, 90)
    app.resized()
    assert app.curses.resized_to == [(0, 0)]
    assert app.renderer.layout.cols == 90


def test_on_windows_glyphs_stay_in_the_basic_multilingual_plane():
    # PDCurses keeps a character in a 16-bit wchar_t: U+1FBxx cannot be drawn, whatever the font.
    assert choose_glyph_mode(None, "cp1252", lambda c: None, platform="win32") == "legacy"
    assert choose_glyph_mode("unicode", "utf-8", lambda c: None, platform="win32") == "legacy"
    assert choose_glyph_mode("ascii", "utf-8", lambda c: None, platform="win32") == "ascii"
    assert choose_glyph_mode(None, "utf-8", lambda c: 1, platform="linux") == "unicode"


def test_on_windows_there_is_no_libc_wcwidth(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    assert libc_wcwidth(0x1FB70) is None


def test_without_ctypes_the_glyph_probe_says_unknown(monkeypatch):
    monkeypatch.setitem(sys.modules, "ctypes", None)
    monkeypatch.setitem(sys.modules, "ctypes.util", None)
    assert libc_wcwidth(0x1FB70) is None


def test_on_windows_truecolor_is_not_chosen_from_colorterm():
    env = {"COLORTERM": "truecolor"}
    assert detect_depth("auto", env, 256, True, platform="win32") == 256
    assert detect_depth("auto", env, 256, True, platform="darwin") == "truecolor"


def test_fewer_colour_pairs_than_combinations_fall_back_to_the_default_pair():
    fake = PDCurses(colour_pairs=64)
    colours = CursesColours(fake, 256)
    attrs = [colours.attr(Style(fg, bg, False)) for fg in range(16) for bg in range(16)]
    assert len(fake.pairs) == 63                           # pairs 1..63; 0 is the terminal's own
    assert attrs.count(0) == 256 - 63


def test_a_curses_without_get_wch_is_read_with_getch(monkeypatch):
    app, window, _ = make_app()
    settle(app, 0.5)
    get_wch = window.get_wch

    class OldWindow:
        """Only getch: an int, or -1 after the timeout."""
        def __getattr__(self, name):
            if name == "get_wch":
                raise AttributeError(name)
            return getattr(window, name)

        def getch(self):
            try:
                key = get_wch()
            except Exception:
                return -1
            return ord(key) if isinstance(key, str) else key

    app.window = OldWindow()
    type_keys(app, window, "h", "i", "\n")
    assert "HI" in window.text()


def test_without_curses_the_c64_screen_says_to_install_windows_curses(monkeypatch, capsys):
    from c64.terminal.session import run_terminal
    monkeypatch.setitem(sys.modules, "curses", None)
    assert run_terminal(None, None, None) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "windows-curses" in err


def test_with_only_windows_signals_the_fatal_ones_there_are_caught_and_given_back(monkeypatch):
    from c64.host import signals as hostsignals
    for name in dir(signal):
        if name.startswith("SIG") and not name.startswith("SIG_") and name not in WINDOWS_SIGNALS:
            monkeypatch.delattr(signal, name)
    installed = []
    real_signal = signal.signal

    def recording_signal(number, handler):
        installed.append(number)
        return real_signal(number, handler)

    monkeypatch.setattr(signal, "signal", recording_signal)
    before = signal.getsignal(signal.SIGTERM)
    with hostsignals.ended_by_signals():
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before
    assert installed[0] == signal.SIGTERM and set(installed) == {signal.SIGTERM}   # then given back
