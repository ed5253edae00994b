"""Every path the program opens, against what a hostile or careless folder can hold there.

At the path each test puts one of KINDS: a dangling link to a file elsewhere, a link
to a file elsewhere, a FIFO nobody writes or reads, a link to /dev/zero (an endless
"file"), a folder.  Where the program writes (Ctrl-P and --screenshot pictures,
--transcript, --log, the monitor's s, the settings file, SAVE to drive 8) nothing is
written through a link or into a special file: the file elsewhere keeps its bytes,
the dangling link's target is never created.  Where it reads (--keys-file,
--moncommands, a .prg named on the command line, the version menu, the settings file,
the monitor's l and ll, LOAD from drive 8 and ryg3's saved games) only a regular file
is read, and only up to a bound.  Nothing blocks (an alarm ends a case that would),
nothing ends in a traceback: each refusal is one line.
"""

import contextlib
import os
import signal
import stat

import pytest

import ryg
from c64.host import settings
from c64.machine import C64
from c64.monitor import Monitor
from c64.host.settings import Settings
from c64.host import logfile
from c64.terminal.menu import menu_entries
from kernal.disk import HostDisk
from kernal.errors import KernalError
from tests.terminal.test_terminal_app import make_app, settle, status_line, type_keys

pytestmark = pytest.mark.skipif(os.name != "posix" or not hasattr(os, "mkfifo"),
                                reason="links, FIFOs and /dev/zero")

KINDS = ["dangling link", "link to a file", "FIFO", "link to /dev/zero", "folder"]
SPECIAL = ["dangling link", "FIFO", "link to /dev/zero", "folder"]     # what a reader must refuse
PRECIOUS = b"precious\n"
PROGRAM = bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes([0, 0, 0, 0x60])
CASE_SECONDS = 30


class Blocked(Exception):
    pass


@pytest.fixture(autouse=True)
def never_blocks():
    """A case that blocks (a FIFO opened for good) fails instead of hanging the suite."""
    def alarm(*_):
        raise Blocked("blocked for %d s" % CASE_SECONDS)
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(CASE_SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


class Planted:
    """One of KINDS at `path`, with a file elsewhere it may point to."""

    def __init__(self, tmp_path, path, kind):
        self.path, self.kind = path, kind
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(exist_ok=True)
        self.victim, self.target = elsewhere / "victim.txt", elsewhere / "created-through-a-link"
        self.victim.write_bytes(PRECIOUS)
        if kind == "dangling link":
            path.symlink_to(self.target)
        elif kind == "link to a file":
            path.symlink_to(self.victim)
        elif kind == "FIFO":
            os.mkfifo(path)
        elif kind == "link to /dev/zero":
            path.symlink_to("/dev/zero")
        else:
            path.mkdir()

    def untouched(self):
        """Nothing was written through it: the file elsewhere is as it was, nothing created."""
        return self.victim.read_bytes() == PRECIOUS and not self.target.exists()

    def still_there(self):
        """It is still what was planted (not replaced: for files the program numbers or refuses)."""
        info = os.lstat(self.path)
        if self.kind == "FIFO":
            return stat.S_ISFIFO(info.st_mode)
        if self.kind == "folder":
            return stat.S_ISDIR(info.st_mode)
        return stat.S_ISLNK(info.st_mode)


def one_line_error(capsys, start):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(start) and "Traceback" not in err, err
    return err


# -- where the program writes ------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_ctrl_p_takes_the_next_number_past_anything_already_at_a_name(tmp_path, monkeypatch, kind):
    monkeypatch.chdir(tmp_path)
    planted = Planted(tmp_path, tmp_path / "ryg64-001.svg", kind)
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, "\x10")
    assert "saved ryg64-002.png and ryg64-002.svg" in status_line(app, window)
    assert (tmp_path / "ryg64-002.svg").read_text(encoding="utf-8").startswith("<svg")
    assert not (tmp_path / "ryg64-001.png").exists()
    assert planted.untouched() and planted.still_there()


def test_ctrl_p_does_not_write_through_a_link_planted_after_the_name_was_chosen(tmp_path, monkeypatch):
    """The race the old exists-then-open had: the name is free when looked at, a link when opened."""
    from c64.terminal import app as app_module
    monkeypatch.chdir(tmp_path)
    elsewhere = tmp_path / "victim.txt"
    elsewhere.write_bytes(PRECIOUS)
    looked_at = app_module.free_number

    def then_planted(base, number=1):
        found = looked_at(base, number)
        if found == 1:
            os.symlink(str(elsewhere), app_module.numbered_paths(base, 1)[-1])     # ryg64-001.svg
        return found
    monkeypatch.setattr(app_module, "free_number", then_planted)
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, "\x10")
    assert "saved ryg64-002.png and ryg64-002.svg" in status_line(app, window)
    assert elsewhere.read_bytes() == PRECIOUS
    assert not (tmp_path / "ryg64-001.png").exists()                   # all of a number's files or none


@pytest.mark.parametrize("kind", KINDS)
def test_headless_screenshot_refuses_a_name_that_is_not_a_regular_file(tmp_path, capsys, kind):
    planted = Planted(tmp_path, tmp_path / "shot.svg", kind)
    assert ryg.main(["--headless", "--screenshot", str(planted.path), "--max-cycles", "100000", "ryg23"]) == 2
    one_line_error(capsys, "ryg: cannot write the screenshot")
    assert planted.untouched() and planted.still_there()


def test_headless_screenshot_replaces_a_regular_file_keeping_its_mode(tmp_path, capsys):
    path = tmp_path / "shot.svg"
    path.write_text("old picture")
    os.chmod(path, 0o640)
    assert ryg.main(["--headless", "--screenshot", str(path), "--max-cycles", "100000", "ryg23"]) == 0
    assert path.read_text(encoding="utf-8").startswith("<svg") and stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.svg"]        # no temporary left


@pytest.mark.parametrize("kind", KINDS)
def test_transcript_refuses_a_name_that_is_not_a_regular_file(tmp_path, capsys, kind):
    planted = Planted(tmp_path, tmp_path / "out.txt", kind)
    ryg.main(["--headless", "--transcript", str(planted.path), "--max-cycles", "100000", "ryg23"])
    assert "ryg: cannot write the transcript %s: " % planted.path in capsys.readouterr().err
    assert planted.untouched() and planted.still_there()


@pytest.mark.parametrize("kind", KINDS)
def test_the_log_refuses_a_name_that_is_not_a_regular_file(tmp_path, kind):
    planted = Planted(tmp_path, tmp_path / "ryg64.log", kind)
    handler, problem = logfile.open_log(str(planted.path))
    logfile.close_log(handler)
    assert problem is not None and problem.startswith("cannot open the log") and "\n" not in problem
    assert planted.untouched() and planted.still_there()


@pytest.mark.parametrize("kind", KINDS)
def test_monitor_save_refuses_a_name_that_is_not_a_regular_file(tmp_path, kind):
    planted = Planted(tmp_path, tmp_path / "dump.prg", kind)
    answer = Monitor(C64()).execute("s %s 0801 0810" % planted.path)
    assert answer.startswith("ERROR -- cannot write %s: " % planted.path) and "\n" not in answer
    assert planted.untouched() and planted.still_there()


@pytest.mark.parametrize("kind", KINDS)
def test_saving_settings_never_writes_through_or_into_what_is_there(tmp_path, kind):
    planted = Planted(tmp_path, tmp_path / "settings.ini", kind)
    warning = settings.save(str(planted.path), Settings(palette="grey"))
    assert warning is None or (warning.startswith("cannot write the settings file") and "\n" not in warning)
    assert planted.untouched()
    if kind in ("FIFO", "link to /dev/zero", "folder"):
        assert warning is not None and planted.still_there()


@pytest.mark.parametrize("kind", KINDS)
def test_save_to_drive_8_never_writes_through_or_into_what_is_there(tmp_path, kind):
    drive = tmp_path / "drive"
    drive.mkdir()
    planted = Planted(tmp_path, drive / "game.prg", kind)
    disk = HostDisk(str(drive))
    with contextlib.suppress(KernalError):          # the KERNAL's SAVE error, for a write that failed
        disk.save(b"@0:GAME", PROGRAM)
    assert disk.pending_error() is not None
    assert planted.untouched() and planted.still_there()


# -- where the program reads -------------------------------------------------------------------

@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("option,what", [("--keys-file", "the keys file"), ("--moncommands", "the monitor commands")])
def test_option_files_must_be_regular_files(tmp_path, capsys, kind, option, what):
    planted = Planted(tmp_path, tmp_path / "named.txt", kind)
    assert ryg.main(["--headless", option, str(planted.path), "ryg23"]) == 2
    one_line_error(capsys, "ryg: cannot read %s %s: " % (what, planted.path))


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_program_named_on_the_command_line_must_be_a_regular_file(tmp_path, capsys, kind):
    planted = Planted(tmp_path, tmp_path / "game.prg", kind)
    assert ryg.main(["--headless", str(planted.path)]) == 2
    one_line_error(capsys, "ryg: ")


@pytest.mark.parametrize("kind", SPECIAL)
def test_the_version_menu_lists_only_regular_prg_files(tmp_path, kind):
    Planted(tmp_path, tmp_path / "odd.prg", kind)
    (tmp_path / "fine.prg").write_bytes(PROGRAM)
    names = [entry.name for entry in menu_entries([], str(tmp_path))]
    assert "fine.prg" in names and "odd.prg" not in names


@pytest.mark.parametrize("kind", SPECIAL)
def test_a_settings_file_that_is_not_a_regular_file_is_one_line_and_the_defaults(tmp_path, kind):
    planted = Planted(tmp_path, tmp_path / "settings.ini", kind)
    loaded, warning = settings.load(str(planted.path))
    assert loaded == Settings()
    if kind != "dangling link":                     # a link to nothing is no file: the defaults, silently
        assert warning.startswith("ignoring the settings file") and "\n" not in warning and len(warning) < 200


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("command", ["l", "ll"])
def test_monitor_load_and_load_labels_read_only_regular_files(tmp_path, kind, command):
    planted = Planted(tmp_path, tmp_path / "thing.prg", kind)
    answer = Monitor(C64()).execute("%s %s" % (command, planted.path))
    assert answer.startswith("ERROR -- cannot read %s: " % planted.path) and "\n" not in answer


@pytest.mark.parametrize("kind", SPECIAL)
def test_drive_8_sees_only_regular_files(tmp_path, kind):
    drive = tmp_path / "drive"
    drive.mkdir()
    Planted(tmp_path, drive / "odd.prg", kind)
    (drive / "fine.prg").write_bytes(PROGRAM)
    disk = HostDisk(str(drive))
    assert [entry.host_name for entry in disk.entries()] == ["fine.prg"]
    with pytest.raises(KernalError):
        disk.load(b"ODD")
    assert disk.error_text() == "62,FILE NOT FOUND,00,00"


@pytest.mark.parametrize("kind", ["FIFO", "link to /dev/zero", "folder"])
def test_ryg3_lists_no_saved_game_that_is_not_a_regular_file(tmp_path, kind):
    from tests.games.test_ryg3_ui import ROW_MSG, Game
    Planted(tmp_path, tmp_path / "ryg3partida.prg", kind)
    game = Game(disk=tmp_path)
    game.keys("O")
    assert "NO HAY PARTIDAS EN EL DISCO" in game.row(ROW_MSG)
