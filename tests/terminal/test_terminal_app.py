"""The interactive loop on a fake window and a fake clock, with a real C64 running small programs."""

import curses as real_curses
import logging
from collections import namedtuple

import pytest

from c64.loader import parse_prg
from c64.machine import C64
from c64.host import logfile
from c64.terminal import session as session_module
from c64.terminal.app import IDLE_FRAMES, TerminalApp
from c64.terminal.session import run_terminal
from kernal.basic import detokenise
from c64.terminal.surface import CursesSurface
from tests.conftest import assemble, echo_lines_source
from tests.terminal.test_terminal_render import FakeClock, FakeCurses, FakeCursesError, FakeWindow, RecordingColours

F0 = FakeCurses.KEY_F0
PAL_HZ = 985248

# Prints a greeting, then reads lines with CHRIN for ever (the cursor blinks, typed keys echo).
HELLO = echo_lines_source("HELLO THERE")

# Counts in the border colour for ever: a program that never waits.
BUSY = """
.word $c000
.org $c000
loop:   inc $d020
        jmp loop
"""

# Prints, then hits a JAM opcode.
JAM = """
.word $c000
.org $c000
        lda #$41
        jsr $ffd2
        .byte $02
"""

# Prints and returns to BASIC.
BYE = """
.word $c000
.org $c000
        lda #$42
        jsr $ffd2
        rts
"""

Version = namedtuple("Version", "name description path")


def close_session_log():
    """Close the log run_terminal opened (only the session's own handlers)."""
    ryg_log = logging.getLogger("ryg64")
    for handler in [h for h in ryg_log.handlers if logfile.is_log_handler(h)]:
        ryg_log.removeHandler(handler)
        logfile.close_log(handler)


def program(source, name="hello.prg"):
    return parse_prg(assemble(source), name)


def make_app(source=HELLO, rows=30, cols=80, versions=(), folder=".", warp=False, tick=0.0005):
    """tick: fake seconds per clock reading; warp tests take a coarse one (few frames per redraw)."""
    clock = FakeClock(tick)
    window = FakeWindow(rows, cols, clock=clock)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    app = TerminalApp(program(source), window, surface, FakeCurses(), C64, clock=clock, folder=folder,
                      versions=lambda: list(versions), warp=warp)
    return app, window, clock


def settle(app, seconds):
    """Run the loop for `seconds` of (fake) time."""
    end = app.clock.now + seconds
    while app.clock.now < end and app.quit_code is None:
        app.step()


def type_keys(app, window, *keys, seconds=0.3):
    window.keys.extend(keys)
    settle(app, seconds)


def status_line(app, window):
    return window.line(app.renderer.layout.status_y)


# -- screen and keyboard ----------------------------------------------------------------------------
def test_the_program_output_appears_on_the_screen():
    app, window, _ = make_app()
    settle(app, 0.5)
    assert "HELLO THERE" in window.text()


def test_typed_keys_reach_the_program_and_are_echoed():
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, "h", "i", "\n")
    layout = app.renderer.layout
    assert window.line(layout.screen_top + 1)[layout.screen_left:layout.screen_left + 2] == "HI"


def test_more_keys_than_the_c64_buffer_holds_are_all_delivered():
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, *"abcdefghijklmnopqrst", seconds=1.0)
    assert "ABCDEFGHIJKLMNOPQRST" in window.text()


def test_keys_the_c64_lacks_are_ignored():
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, "\t", "{", F0 + 30, "x")
    layout = app.renderer.layout
    assert window.line(layout.screen_top + 1)[layout.screen_left:layout.screen_left + 2] == "X "


def test_the_status_line_shows_speed_name_and_wait():
    app, window, _ = make_app()
    settle(app, 2.0)
    words = status_line(app, window).split()
    assert words[:3] == ["100%", "hello", "WAIT"]


# -- pacing in the loop -------------------------------------------------------------------------------
def test_a_program_waiting_for_a_key_wakes_the_loop_only_every_few_frames():
    app, window, _ = make_app()
    settle(app, 1.0)
    window.timeouts.clear()
    settle(app, 2.0)
    frame_ms = 1000 * 19656 / PAL_HZ
    assert len(window.timeouts) <= 2.0 / (IDLE_FRAMES * frame_ms / 1000) + 2
    assert min(window.timeouts) >= (IDLE_FRAMES - 1) * frame_ms


def test_emulated_time_keeps_to_real_time_while_waiting():
    app, _, clock = make_app()
    settle(app, 1.0)
    start_cycles, start_time = app.machine.cycles, clock.now
    settle(app, 10.0)
    assert abs((app.machine.cycles - start_cycles) - (clock.now - start_time) * PAL_HZ) <= 3 * 19656 * IDLE_FRAMES


def test_warp_toggles_with_f12_and_ctrl_w_and_shows_on_the_status_line():
    app, window, _ = make_app(BUSY, tick=0.01)
    settle(app, 0.2)
    type_keys(app, window, F0 + 12, seconds=0.1)
    assert app.warp and status_line(app, window).split()[0] == "WARP"
    type_keys(app, window, "\x17", seconds=0.1)
    assert not app.warp and "WARP" not in status_line(app, window)


def test_warp_runs_a_busy_program_faster_than_real_time():
    app, _, clock = make_app(BUSY, warp=True, tick=0.002)
    settle(app, 0.05)
    start_cycles, start_time = app.machine.cycles, clock.now
    settle(app, 0.15)
    assert app.machine.cycles - start_cycles > 2 * (clock.now - start_time) * PAL_HZ


def test_warp_while_waiting_for_a_key_keeps_real_time():
    app, _, clock = make_app(HELLO, warp=True)
    settle(app, 0.5)
    start_cycles, start_time = app.machine.cycles, clock.now
    settle(app, 5.0)
    assert abs((app.machine.cycles - start_cycles) - (clock.now - start_time) * PAL_HZ) <= 0.05 * 5 * PAL_HZ


# -- emulator keys -------------------------------------------------------------------------------------
def test_quit_asks_first_and_n_keeps_running():
    app, window, _ = make_app()
    settle(app, 0.3)
    type_keys(app, window, "\x11")
    assert "Quit RYG64? (y/n)" in status_line(app, window)
    type_keys(app, window, "n")
    assert app.quit_code is None and "Quit" not in status_line(app, window)
    type_keys(app, window, "\x11", "y")
    assert app.quit_code == 0


def test_ctrl_c_quits_at_once_with_a_reason():
    app, window, _ = make_app()
    settle(app, 0.3)
    type_keys(app, window, "\x03")
    assert app.quit_code == 130 and "Ctrl-C" in app.quit_message


def test_the_version_menu_lists_versions_and_prg_files_and_starts_the_choice(tmp_path):
    other = tmp_path / "other.prg"
    other.write_bytes(assemble(BYE))
    (tmp_path / "notes.txt").write_text("not a program")
    version = Version("ryg99", "a test version", str(tmp_path / "hello99.prg"))
    (tmp_path / "hello99.prg").write_bytes(assemble(HELLO))
    app, window, _ = make_app(BUSY, versions=[version], folder=str(tmp_path))
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    text = window.text()
    assert "ryg99" in text and "a test version" in text and "other.prg" in text
    assert "notes.txt" not in text and "hello99.prg" not in text       # the version's own file is listed once
    cycles = app.machine.cycles
    settle(app, 0.5)
    assert app.machine.cycles == cycles                                 # paused while the menu is open
    type_keys(app, window, FakeCurses.KEY_DOWN, "\n", seconds=0.5)
    assert app.program.name == "other.prg"
    assert "READY." in window.text() and "ryg99" not in window.text()


def test_a_program_from_the_version_menu_is_loaded_and_run_its_basic_after_the_sys_too(tmp_path):
    from kernal.basic.direct import crunch
    line = crunch(b"SYS 2080:PRINT PEEK(251)")                  # then LDA #42 / STA 251 / RTS
    body = bytes([0x01 + 5 + len(line), 0x08, 10, 0]) + line + b"\0\0\0"
    (tmp_path / "sys251.prg").write_bytes(b"\x01\x08" + body + bytes(2080 - 0x0801 - len(body))
                                          + bytes([0xA9, 42, 0x85, 251, 0x60]))
    app, window, _ = make_app(BUSY, folder=str(tmp_path))
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    assert "sys251.prg" in window.text()
    type_keys(app, window, "\n", seconds=1.0)
    assert app.program.name == "sys251.prg"
    assert "RUN" in window.text() and " 42" in window.text()         # the PRINT after the SYS


def test_a_bad_listing_chosen_in_the_version_menu_says_why_on_the_status_line(tmp_path):
    (tmp_path / "bad.bas").write_text('10 PRINT "{clr"\n', encoding="utf-8")
    app, window, _ = make_app(BUSY, folder=str(tmp_path))
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    assert "bad.bas" in window.text()
    type_keys(app, window, "\n", seconds=0.3)
    assert app.error == "bad.bas:1: a { without its } at column 11"
    line = status_line(app, window)
    assert "STOPPED: bad.bas:1: a { without its }" in line and "F9 reset" in line     # (not just "bad.bas:1")


def test_the_version_menu_shows_saved_games_and_other_data_files_apart_and_never_starts_them(tmp_path):
    from tests.games.test_ryg3_ui import Game
    Game(disk=tmp_path).keys("W{return}")                        # a saved game, written by the real ryg3
    assert (tmp_path / "ryg3partida.prg").stat().st_size == 2 + 136
    (tmp_path / "other.prg").write_bytes(assemble(BYE))                  # machine code at $C000
    (tmp_path / "basic.prg").write_bytes(b"\x01\x08\x07\x08\x0a\x00\x99\x00\x00\x00")   # 10 PRINT
    (tmp_path / "midpage.prg").write_bytes(b"\x10\xc0" + bytes(40))    # loaded at $C010
    app, window, _ = make_app(BUSY, versions=[], folder=str(tmp_path))
    settle(app, 0.3)
    type_keys(app, window, F0 + 10)
    entries = [entry.name for entry in app.overlay.entries]
    assert entries == ["basic.prg", "other.prg", "BASIC"]                # BASIC RUNs basic.prg
    assert app.overlay.data_files == ["midpage.prg", "ryg3partida.prg"]
    text = window.text()
    assert "data files, not programs (a saved game: O in ryg3 loads it):" in text and "ryg3partida.prg" in text
    type_keys(app, window, "4", "5", "6", seconds=0.3)                   # no number starts a data file
    assert app.overlay is not None and app.program.name != "ryg3partida.prg"


def test_the_version_menu_closes_with_esc_and_ctrl_v_opens_it():
    app, window, _ = make_app(versions=[Version("ryg99", "a test version", "/nonexistent.prg")])
    settle(app, 0.3)
    type_keys(app, window, "\x16")
    assert "ryg99" in window.text()
    type_keys(app, window, "\x1b")
    assert "ryg99" not in window.text() and "HELLO THERE" in window.text()


def test_the_help_panel_lists_the_keys_and_any_key_closes_it():
    app, window, _ = make_app()
    settle(app, 0.3)
    type_keys(app, window, F0 + 11)
    assert "RESTORE" in window.text() and "warp" in window.text()
    type_keys(app, window, "x")
    assert "RESTORE" not in window.text()
    layout = app.renderer.layout
    assert window.line(layout.screen_top + 1)[layout.screen_left] == " "   # the closing key is not typed


def test_reset_starts_the_program_again_on_a_fresh_machine():
    app, window, _ = make_app()
    settle(app, 0.3)
    type_keys(app, window, "q", "q")
    first = app.machine
    type_keys(app, window, "\x12")
    assert app.machine is first and "Restart, losing the C64's memory? (y/n)" in window.text()     # keys typed: asks
    type_keys(app, window, "y")
    assert app.machine is not first
    assert "QQ" not in window.text() and "HELLO THERE" in window.text()


def test_a_6502_error_stops_the_machine_and_shows_the_reason():
    app, window, _ = make_app(JAM)
    settle(app, 0.5)
    assert app.error and "JAM" in app.error
    assert "STOPPED" in status_line(app, window) and "F9 reset" in status_line(app, window)
    cycles = app.machine.cycles
    type_keys(app, window, "a")
    assert app.machine.cycles == cycles
    type_keys(app, window, F0 + 9)
    assert "STOPPED" in status_line(app, window)     # it jams again, but on a fresh machine


def test_a_program_that_returns_to_basic_leaves_ready_on_the_screen():
    app, window, _ = make_app(BYE)
    settle(app, 1.0)
    assert "READY." in window.text()
    assert app.error is None


# -- terminal size ---------------------------------------------------------------------------------------
def test_a_too_small_terminal_pauses_with_a_message_and_resumes_when_enlarged():
    app, window, _ = make_app(rows=20, cols=30)
    settle(app, 0.5)
    assert "enlarge to 40x26" in window.text()
    assert "HELLO" not in window.text()
    cycles = app.machine.cycles
    settle(app, 0.5)
    assert app.machine.cycles == cycles
    type_keys(app, window, ("resize", 30, 80), seconds=0.5)
    assert "HELLO THERE" in window.text() and "enlarge" not in window.text()


def test_resizing_while_running_moves_the_picture():
    app, window, _ = make_app(rows=30, cols=80)
    settle(app, 0.5)
    type_keys(app, window, ("resize", 40, 120), seconds=0.5)
    layout = app.renderer.layout
    assert layout.cols == 120
    assert window.line(layout.screen_top)[layout.screen_left:layout.screen_left + 5] == "HELLO"


def test_keys_typed_while_the_terminal_is_too_small_reach_the_program_once_it_is_enlarged():
    app, window, _ = make_app(rows=20, cols=30)
    settle(app, 0.5)
    type_keys(app, window, "h", "i", "\n", seconds=0.3)
    type_keys(app, window, ("resize", 30, 80), seconds=0.5)
    layout = app.renderer.layout
    assert window.line(layout.screen_top + 1)[layout.screen_left:layout.screen_left + 2] == "HI"


def test_a_pasted_flood_is_bounded_and_what_was_dropped_is_said_on_the_status_line():
    from c64.terminal.app import TYPEAHEAD_LIMIT
    app, window, _ = make_app()
    settle(app, 0.5)
    delivered = []
    press = app.machine.press
    app.machine.press = lambda key: press(key) and (delivered.append(key) or True)
    window.keys.extend("x" * 5000)
    while window.keys:
        app.step()
        assert len(app.typeahead) <= TYPEAHEAD_LIMIT
    assert "KEYS DROPPED" in status_line(app, window)
    during_the_paste = len(delivered)
    settle(app, 2.0)
    assert len(app.typeahead) == 0
    assert len(delivered) - during_the_paste <= TYPEAHEAD_LIMIT     # what was left to do after it
    assert len(delivered) + app.dropped_keys == 5000
    settle(app, 5.0)
    assert "KEYS DROPPED" not in status_line(app, window)        # the note goes after a while


def test_ctrl_q_in_a_too_small_terminal_quits_without_a_question():
    app, window, _ = make_app(rows=10, cols=20)
    settle(app, 0.2)
    type_keys(app, window, "\x11")
    assert app.quit_code == 0


# -- the session wrapper ------------------------------------------------------------------------------------
Args = namedtuple("Args", "warp ntsc colors ascii disk seed")


@pytest.fixture(name="tty")
def tty_fixture(monkeypatch):
    """Let run_terminal believe stdin and stdout are a terminal (pytest captures them)."""
    monkeypatch.setattr(session_module, "has_terminal", lambda: True)


def test_without_a_terminal_run_terminal_says_to_use_headless(monkeypatch, capsys):
    monkeypatch.setattr(session_module, "has_terminal", lambda: False)
    status = run_terminal(program(HELLO), Args(False, False, "auto", False, ".", None), C64)
    assert status == 2 and "--headless" in capsys.readouterr().err


def test_a_crash_restores_the_terminal_prints_a_short_reason_and_logs_the_details(tmp_path, monkeypatch, capsys,
                                                                                  tty):
    def exploding_wrapper(function, *args):
        raise RuntimeError("boom")
    monkeypatch.setattr(real_curses, "wrapper", exploding_wrapper)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))          # the default log's folder on Linux
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(tmp_path / "ryg64.log"))
    status = run_terminal(program(HELLO), Args(False, False, "auto", False, ".", None), C64)
    err = capsys.readouterr().err
    assert status == 1
    assert "crashed: RuntimeError: boom" in err and "Traceback" not in err
    assert str(tmp_path / "ryg64.log") in err
    log_text = (tmp_path / "ryg64.log").read_text()
    assert "Traceback" in log_text and "boom" in log_text
    close_session_log()


def test_the_session_reason_is_printed_on_the_way_out(tmp_path, monkeypatch, capsys, tty):
    monkeypatch.setattr(real_curses, "wrapper", lambda function, *args: (130, "interrupted (Ctrl-C)"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))          # the default log's folder on Linux
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(tmp_path / "ryg64.log"))
    status = run_terminal(program(HELLO), Args(False, False, "auto", False, ".", None), C64)
    assert status == 130
    assert capsys.readouterr().err.strip() == "ryg: interrupted (Ctrl-C)"
    close_session_log()


def test_page_up_presses_restore_and_letters_go_to_the_keyboard_buffer():
    pressed = []

    class RecordingC64(C64):
        def press(self, key):
            pressed.append(key)
            return super().press(key)

    clock = FakeClock()
    window = FakeWindow(30, 80, clock=clock)
    app = TerminalApp(program(HELLO), window, CursesSurface(window, RecordingColours(), FakeCursesError),
                      FakeCurses(), RecordingC64, clock=clock)
    settle(app, 0.3)
    type_keys(app, window, FakeCurses.KEY_PPAGE, "a", "A", "\x1b", "a")
    assert pressed == ["restore", 0x41, 0x41, 0xC1]          # the upper-case set: A is A; Alt+A SHIFT+A
    assert app.error is None


def test_an_exception_inside_the_emulator_stops_the_machine_but_not_the_session():
    class BrokenC64(C64):
        def run(self, *args, **kwargs):
            raise ZeroDivisionError("a bug in a trap")

    clock = FakeClock()
    window = FakeWindow(30, 80, clock=clock)
    app = TerminalApp(program(HELLO), window, CursesSurface(window, RecordingColours(), FakeCursesError),
                      FakeCurses(), BrokenC64, clock=clock)
    settle(app, 0.3)
    assert "ZeroDivisionError: a bug in a trap" in app.error
    assert "STOPPED: emulator error" in status_line(app, window)
    type_keys(app, window, "\x11", "y")
    assert app.quit_code == 0


def test_ctrl_q_inside_the_version_menu_closes_it_and_asks_to_quit():
    app, window, _ = make_app(versions=[Version("ryg99", "a test version", "/nonexistent.prg")])
    settle(app, 0.3)
    type_keys(app, window, F0 + 10, "\x11")
    assert "ryg99" not in window.text()
    assert "Quit RYG64? (y/n)" in status_line(app, window)
    type_keys(app, window, "y")
    assert app.quit_code == 0


def test_a_locale_the_host_has_not_installed_does_not_stop_the_front_end(monkeypatch):
    import locale
    saved = locale.setlocale(locale.LC_ALL)
    try:
        for name in ("LC_ALL", "LC_CTYPE", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", "xx_NOWHERE.UTF-8")          # named, never installed
        ctype = session_module.set_host_locale()
        assert "utf" in ctype.lower().replace("-", "")
    finally:
        locale.setlocale(locale.LC_ALL, saved)


def test_a_drive_error_at_ready_shows_on_the_status_line_until_the_drive_succeeds(tmp_path):
    clock = FakeClock(0.0005)
    window = FakeWindow(30, 80, clock=clock)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    app = TerminalApp(program(BYE), window, surface, FakeCurses(), lambda: C64(disk_folder=str(tmp_path)),
                      clock=clock, versions=lambda: [])
    settle(app, 0.5)
    assert "READY." in window.text()
    type_keys(app, window, *'save"../x",8\n', seconds=0.5)
    assert "33,SYNTAX ERROR" in status_line(app, window)          # a 1541 would blink its LED
    assert list(tmp_path.iterdir()) == [] and not (tmp_path.parent / "x.prg").exists()
    type_keys(app, window, *'save"good",8\n', seconds=0.5)
    assert "ERROR" not in status_line(app, window)
    assert (tmp_path / "good.prg").exists()


def test_after_load_and_run_from_basic_the_status_line_names_the_loaded_program(tmp_path):
    (tmp_path / "other.prg").write_bytes(b"\x01\x08\x0b\x08\x0a\x00\x9e2061\x00\x00\x00\x60")
    clock = FakeClock(0.0005)
    window = FakeWindow(30, 80, clock=clock)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    app = TerminalApp(program(BYE, name="first.prg"), window, surface, FakeCurses(),
                      lambda: C64(disk_folder=str(tmp_path)), clock=clock, versions=lambda: [])
    settle(app, 0.5)
    assert "first" in status_line(app, window)
    type_keys(app, window, *'load"other",8\n', seconds=0.5)
    type_keys(app, window, *'run\n', seconds=0.5)
    assert "other" in status_line(app, window) and "first" not in status_line(app, window)



# -- typing what you see, and pasting BASIC listings --------------------------------------------------
def make_basic_app(**kwargs):
    from c64.loader import basic_program
    clock = FakeClock(0.0005)
    window = FakeWindow(30, 80, clock=clock)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    app = TerminalApp(basic_program(), window, surface, FakeCurses(), C64, clock=clock, folder=".",
                      versions=lambda: [], **kwargs)
    settle(app, 0.5)
    return app, window


def screen_rows(app):
    return [row.rstrip() for row in app.machine.screen_lines()]


def test_upper_case_letters_type_letters_in_the_upper_case_set():
    app, window = make_basic_app()
    type_keys(app, window, *'PRINT "HELLO"', "\n", seconds=1.0)
    assert 'PRINT "HELLO"' in screen_rows(app)
    assert "HELLO" in screen_rows(app)


def test_in_the_lower_case_set_case_is_kept_as_shown():
    app, window = make_basic_app()
    app.machine.mem[0xD018] |= 0x02                         # the lower/upper-case set
    type_keys(app, window, *"aB", seconds=0.5)
    row = [app.machine.mem[0x0400 + 40 * 6 + i] for i in range(2)]     # the line below READY.
    assert row == [0x01, 0x42]                          # screen codes: 'a' plain, 'B' shifted


def test_alt_letter_types_shift_letter_and_a_lone_esc_is_still_run_stop():
    app, window = make_basic_app()
    type_keys(app, window, "\x1b", "s", seconds=0.5)        # Alt+S: SHIFT+S, the heart graphic
    assert app.machine.mem[0x0400 + 40 * 6] == 0x53          # screen code of PETSCII $D3
    assert app.decoder.decode("\x1b") == 0x03                 # Esc alone: RUN/STOP


def test_a_basic_listing_typed_at_ready_is_entered_whole():
    app, window = make_basic_app()
    lines = ['%d PRINT "LINE %d OF A LONG LISTING TYPED IN"' % (n, n) for n in range(10, 1010, 10)]
    keys = "".join(line + "\n" for line in lines)
    assert len(keys) > 3000
    window.keys.extend(keys)
    while window.keys:
        app.step()
    settle(app, 20.0)
    assert app.dropped_keys == 0
    stored = app.machine.basic.lines()
    assert [number for _, number, _ in stored] == list(range(10, 1010, 10))
    assert detokenise(stored[-1][2]) == b'PRINT "LINE 1000 OF A LONG LISTING TYPED IN"'


def test_the_same_flood_into_a_running_program_stays_bounded():
    from c64.terminal.app import TYPEAHEAD_LIMIT
    app, window = make_basic_app()
    type_keys(app, window, *"10 GET A$:GOTO 10", "\n", *"RUN", "\n", seconds=1.0)
    assert not app.machine.basic.reading_lines()
    window.keys.extend("x" * 3000)
    while window.keys:
        app.step()
        assert len(app.typeahead) <= TYPEAHEAD_LIMIT
    assert app.dropped_keys > 0


def test_restore_after_a_stop_warm_starts_and_keeps_the_basic_program():
    # a real C64 answers a BRK with the warm start; here the machine stops to show where,
    # and PageUp (RESTORE) gives the warm start: READY., the program typed in still there
    app, window = make_basic_app()
    type_keys(app, window, *'10 PRINT "KEPT"', "\n", *"SYS 49152", "\n", seconds=1.0)
    assert app.error and "BRK" in app.error
    assert "PgUp warm start" in status_line(app, window)
    type_keys(app, window, FakeCurses.KEY_PPAGE, seconds=1.0)
    assert app.error is None and "STOPPED" not in status_line(app, window)
    assert "WARM START" in status_line(app, window)
    type_keys(app, window, *"RUN", "\n", seconds=1.0)
    assert "KEPT" in screen_rows(app)


def test_restore_does_nothing_when_the_program_runs():
    app, window = make_basic_app()
    type_keys(app, window, FakeCurses.KEY_PPAGE, seconds=0.5)
    assert app.error is None and "WARM START" not in status_line(app, window)
