"""The front end's log (c64.host.logfile): the user's own folder, never through a link, bounded."""

import logging
import os
import stat
import sys
import tempfile

import pytest

from c64.host import logfile
from c64.terminal.session import setup_log

log = logging.getLogger("ryg64")


def ours():
    """The handlers the session made (others, e.g. pytest's log capture, may be attached too)."""
    return [handler for handler in log.handlers if logfile.is_log_handler(handler)]


@pytest.fixture(autouse=True)
def no_handlers_left():
    yield
    for handler in ours():
        log.removeHandler(handler)
        logfile.close_log(handler)


def test_the_default_log_is_in_the_users_state_folder_not_the_shared_temp_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = logfile.default_log_path()
    from platformdirs import user_state_dir
    assert path == os.path.join(user_state_dir("ryg64", appauthor=False), "ryg64.log")
    if sys.platform.startswith("linux"):
        assert path == str(tmp_path / "state" / "ryg64" / "ryg64.log")


@pytest.mark.skipif(os.name != "posix", reason="modes and links as POSIX has them")
def test_the_default_log_and_its_folder_are_the_users_alone(monkeypatch, tmp_path):
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(tmp_path / "state" / "ryg64.log"))
    path = setup_log()
    log.info("hello")
    assert path == str(tmp_path / "state" / "ryg64.log")
    assert stat.S_IMODE(os.stat(tmp_path / "state").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    ours()[0].flush()
    assert "hello" in (tmp_path / "state" / "ryg64.log").read_text()


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="symbolic links")
@pytest.mark.parametrize("default", [True, False], ids=["default log", "--log FILE"])
def test_a_log_path_that_is_a_symbolic_link_is_not_followed(monkeypatch, tmp_path, default):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = tmp_path / "ryg64.log"
    planted.symlink_to(victim)
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(planted))
    where = setup_log(None if default else str(planted))
    log.info("three")
    log.info("lines")
    log.info("appended")
    for handler in ours():
        handler.flush()
    assert victim.read_text() == "precious\n"
    assert "cannot open the log" in where and logfile.current_path() is None


def test_log_file_option_writes_there(tmp_path):
    path = setup_log(str(tmp_path / "mine.log"))
    log.info("to my file")
    ours()[0].flush()
    assert path == str(tmp_path / "mine.log")
    assert "to my file" in (tmp_path / "mine.log").read_text()


def test_a_default_log_past_a_megabyte_starts_again_keeping_one_old_generation(monkeypatch, tmp_path):
    path = tmp_path / "ryg64.log"
    path.write_bytes(b"x" * (logfile.MAX_BYTES + 1))
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(path))
    setup_log()
    log.info("fresh")
    ours()[0].flush()
    assert path.stat().st_size < 1000
    assert (tmp_path / "ryg64.log.1").stat().st_size == logfile.MAX_BYTES + 1


def test_the_temp_folder_gets_no_log(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(logfile, "default_log_path", lambda: str(tmp_path / "state" / "ryg64.log"))
    setup_log()
    log.info("x")
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_new_log_leaves_handlers_it_did_not_make_attached_and_open(tmp_path):
    import io
    theirs = logging.StreamHandler(io.StringIO())
    log.addHandler(theirs)
    try:
        setup_log(str(tmp_path / "first.log"))
        setup_log(str(tmp_path / "second.log"))
        log.info("both see this")
        assert theirs in log.handlers
        assert "both see this" in theirs.stream.getvalue()
        assert len(ours()) == 1
        ours()[0].flush()
        assert "both see this" in (tmp_path / "second.log").read_text()
        assert "both see this" not in (tmp_path / "first.log").read_text()
    finally:
        log.removeHandler(theirs)
