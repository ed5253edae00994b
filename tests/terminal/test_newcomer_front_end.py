"""What a newcomer met in the front end (issue 36), on the fake window with the real
programs: the version menu asks before it drops a game, ryg3's level stays, the classic
versions' last move is on the status line."""

from asm.versions import available_versions, find_version
from c64.host import settings
from c64.loader import read_prg
from c64.machine import C64
from c64.terminal.app import TerminalApp
from c64.terminal.last_move import LastMove
from c64.terminal.surface import CursesSurface
from tests.terminal.test_terminal_app import settle, status_line, type_keys
from tests.terminal.test_terminal_render import FakeClock, FakeCurses, FakeCursesError, FakeWindow, RecordingColours

F0 = FakeCurses.KEY_F0


def ryg_app(name, level=0, last_move=True, cols=80, rows=30):
    clock = FakeClock(0.0005)
    window = FakeWindow(rows, cols, clock=clock)
    surface = CursesSurface(window, RecordingColours(), FakeCursesError)
    app = TerminalApp(read_prg(find_version(name).path), window, surface, FakeCurses(), C64, clock=clock,
                      versions=available_versions, warp=True, level=level, last_move=last_move)
    return app, window


def wait_for(app, window, text, seconds=30):
    for _ in range(int(seconds / 0.5)):
        if text in window.text():
            return
        settle(app, 0.5)
    raise AssertionError("%r did not appear:\n%s" % (text, window.text()))


def test_the_version_menu_asks_before_it_drops_a_game_in_progress():
    app, window = ryg_app("ryg3en")
    wait_for(app, window, "YOUR MOVE?")
    type_keys(app, window, F0 + 10)
    assert "asks first" not in window.text()           # no game yet: a number starts at once
    type_keys(app, window, "\x1b")
    type_keys(app, window, "D", "2", "\n", seconds=1)
    wait_for(app, window, "COMPUTER: ")
    type_keys(app, window, F0 + 10)
    words = " ".join(word for word in window.text().split() if word != "|")          # the box's lines joined
    assert "the game in progress is lost (asks first)" in words
    type_keys(app, window, "4")
    assert "Start ryg23en? The C64 resets: the game in progress is lost. (y/n)" in window.text()
    assert app.program.name == "ryg3en.prg"
    type_keys(app, window, "n")                        # back to the list, the game kept
    assert app.overlay is not None and "Start ryg23en?" not in window.text()
    type_keys(app, window, "\x1b")
    assert app.overlay is None and "1 E1-D2" in window.text()
    type_keys(app, window, F0 + 10)
    type_keys(app, window, "4", "y", seconds=1)
    assert app.program.name == "ryg23en.prg"


def test_another_program_is_asked_about_once_keys_were_typed_to_it():
    app, window = ryg_app("ryg23en")
    wait_for(app, window, "DEPTH (01-0F) ?")
    type_keys(app, window, "0", "1", "\n")
    type_keys(app, window, F0 + 10)
    type_keys(app, window, "1")
    assert "Start ryg3? The C64 resets: the game in progress is lost. (y/n)" in window.text()
    type_keys(app, window, "y", seconds=1)
    assert app.program.name == "ryg3.prg"


def test_ryg3_starts_at_the_level_last_played_and_keeps_the_one_chosen():
    app, window = ryg_app("ryg3en", level=1)
    wait_for(app, window, "LEVEL 1: DEPTH 1 2 SEC")
    type_keys(app, window, "L", "3", seconds=1)
    wait_for(app, window, "LEVEL 3: DEPTH 3 3 SEC")
    type_keys(app, window, "\x12", seconds=1)         # F9/Ctrl-R: a fresh C64, the level kept
    wait_for(app, window, "LEVEL 3: DEPTH 3 3 SEC")
    assert app.keep_level() == 3
    type_keys(app, window, "L", "0", "3", "0", "5", seconds=1)     # a level of one's own: not a level to keep
    wait_for(app, window, "LEVEL: DEPTH 3 5 SEC")
    assert app.keep_level() == 3


def test_the_level_is_a_setting_that_stays(tmp_path):
    path = str(tmp_path / "settings.ini")
    assert settings.save(path, settings.Settings(level=2)) is None
    assert "level = 2" in open(path).read()
    assert settings.load(path)[0].level == 2
    with open(path, "w") as handle:
        handle.write("[ryg64]\nlevel = 12\n")
    loaded, warning = settings.load(path)
    assert loaded.level == 0 and "level = 12 (have 1-9" in warning


def test_the_classic_versions_last_move_is_on_the_status_line():
    app, window = ryg_app("ryg23en")
    wait_for(app, window, "DEPTH (01-0F) ?")
    type_keys(app, window, "0", "1", "\n")
    wait_for(app, window, "YOUR MOVE?")
    assert "CATS (" not in status_line(app, window)
    type_keys(app, window, "0", "0", "\n", seconds=2)
    wait_for(app, window, "00> (06,02)-(05,01)")
    settle(app, 0.5)
    line = status_line(app, window)
    assert "ryg23en" in line and "CATS (00," in line and ")-(01," in line, line
    # for purists: the screen as the program prints it
    app, window = ryg_app("ryg23en", last_move=False)
    wait_for(app, window, "DEPTH (01-0F) ?")
    type_keys(app, window, "0", "1", "\n")
    type_keys(app, window, "0", "0", "\n", seconds=2)
    wait_for(app, window, "00> (06,02)-(05,01)")
    assert "CATS (" not in status_line(app, window)


def board(rows):
    return [" 01234567"] + ["%d%s" % (number, row) for number, row in enumerate(rows)]


def test_last_move_is_told_from_the_change_of_the_newest_board():
    start = board(["G.G.G.G.", "........", "........", "........", "........", "........", "........",
                   "...R...."])
    after = board(["..G.G.G.", ".G......", "........", "........", "........", "........", "..R.....",
                   "........"])
    moved = board(["..G.G.G.", ".G......", "........", "........", "........", ".R......", "........",
                   "........"])
    last = LastMove()
    assert last.update(["QUE JUGADA DESEA?"] + start) is None
    assert last.update(start + ["", "PENSANDO:"] + after) == "GATOS (00,00)-(01,01)"
    assert last.update(after + moved[:4]) == "GATOS (00,00)-(01,01)"   # a board half printed: not yet
    assert last.update(moved) == "RATON (06,02)-(05,01)"
    assert last.update(start) is None                                    # a new game


def test_the_list_marks_the_version_played_last_which_ryg_alone_starts(tmp_path, monkeypatch, capsys):
    import ryg
    monkeypatch.setenv(settings.ENV_DIR, str(tmp_path))
    monkeypatch.setenv("LANG", "C.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / settings.FILE_NAME).write_text("[ryg64]\nversion = ryg23en\n")
    assert ryg.main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines if line.endswith("(played last: what `ryg` starts)")] == ["ryg23en"]
    assert [line.split()[0] for line in lines if line.endswith("(default)")] == ["ryg3en"]


def box_edges_doubled(window):
    """Rows where a box edge stands beside an old one: `||`, `++`, `|+`, `+|`."""
    return [window.line(y) for y in range(window.rows)
            if any(pair in window.line(y) for pair in ("||", "++", "|+", "+|"))]


def test_the_version_menu_leaves_no_old_edges_when_its_box_changes_size():
    app, window = ryg_app("ryg3en", cols=90)
    wait_for(app, window, "YOUR MOVE?")
    type_keys(app, window, "D", "2", "\n", seconds=1)
    wait_for(app, window, "COMPUTER: ")
    type_keys(app, window, F0 + 10)
    type_keys(app, window, "4")                          # the question takes the footer's place
    assert "Start ryg23en?" in window.text()
    assert box_edges_doubled(window) == []
    type_keys(app, window, "n")
    assert box_edges_doubled(window) == []
    type_keys(app, window, "\x1b")
    # 40x26: the list scrolls under the selection, the box as wide as the lines shown
    app, window = ryg_app("ryg3en", cols=40, rows=26)
    wait_for(app, window, "YOUR MOVE?")
    type_keys(app, window, F0 + 10)
    entries = len(app.overlay.entries)
    title = window.line(0) + window.line(1)
    assert "+- Versions 1-" in title and " of %d -" % entries in title          # the rest is a key away
    assert "COMMODORE 64 BASIC" not in window.text()
    type_keys(app, window, FakeCurses.KEY_UP, FakeCurses.KEY_UP, seconds=0.1)    # from ryg3en round to the last
    assert "COMMODORE 64 BASIC" in window.text() and "-%d of %d -" % (entries, entries) in window.text()
    assert box_edges_doubled(window) == []
    for _ in range(10):
        type_keys(app, window, FakeCurses.KEY_DOWN, seconds=0.1)
        assert box_edges_doubled(window) == []


def test_the_status_line_says_paused_while_a_panel_stops_the_c64_not_0_percent():
    app, window = ryg_app("ryg3en")
    wait_for(app, window, "YOUR MOVE?")
    for opens in (F0 + 10, F0 + 11):                      # the version menu, the help panel
        type_keys(app, window, opens, seconds=2)
        speed = status_line(app, window).split()[0]
        assert speed == "PAUSED", status_line(app, window)
        type_keys(app, window, "\x1b", seconds=2)
        speed = status_line(app, window).split()
        assert speed[:2] == ["WARP", "100%"] or speed[0] == "100%", status_line(app, window)


def test_f9_asks_before_it_drops_a_game_in_progress_as_the_menu_does():
    app, window = ryg_app("ryg3en", cols=40, rows=26)
    wait_for(app, window, "YOUR MOVE?")
    type_keys(app, window, "D", "2", "\n", seconds=1)
    wait_for(app, window, "COMPUTER: ")
    first = app.machine
    type_keys(app, window, F0 + 9)
    assert status_line(app, window).strip() == "Restart and lose the game? (y/n)"      # whole in 40 columns
    type_keys(app, window, "n")
    assert app.machine is first and "1 E1-D2" in window.text()
    type_keys(app, window, "\x12", "y", seconds=1)                     # Ctrl-R, the same key
    assert app.machine is not first
    wait_for(app, window, "YOUR MOVE?")
    assert "1 E1-D2" not in window.text()
    type_keys(app, window, F0 + 9, seconds=1)                          # nothing played: at once
    assert app.question is None and "Restart" not in status_line(app, window)
