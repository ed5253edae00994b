"""The terminal is given back as it was, whatever signal ends the front end.

`python ryg.py` runs on a pseudo-terminal made here; once its screen is
drawn, the test sends it a signal and, when it has ended, reads the
terminal's modes back: ICANON, ECHO, ICRNL and IXON must be on again
(curses' raw mode turns them off), the exit status is 128 + the signal's
number and the reason is one line.  POSIX only (pty, termios).
"""

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from tests.tools.processes import signals_as_from_a_shell

termios = pytest.importorskip("termios")
pty = pytest.importorskip("pty")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _start(tmp_path, rows=32, cols=90):
    import fcntl
    import struct
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "TMUX")}
    env.update(TERM="xterm-256color", LC_ALL="C.UTF-8", XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "ryg.py"), "--disk", str(tmp_path), "ryg23"],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=str(tmp_path), env=env,
                            start_new_session=True, **signals_as_from_a_shell())
    return proc, master, slave


def _drain(master, until, timeout=30.0):
    """Read what the program draws until `until(text)` or the timeout; returns the text."""
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
        if until(seen):
            break
    return seen


FATAL = [name for name in ("SIGHUP", "SIGQUIT", "SIGTERM", "SIGINT", "SIGUSR1", "SIGALRM")
         if hasattr(signal, name)]


@pytest.mark.parametrize("name", FATAL)
def test_a_fatal_signal_restores_the_terminal_and_exits_128_plus_its_number(tmp_path, name):
    number = getattr(signal, name)
    proc, master, slave = _start(tmp_path)
    try:
        before = termios.tcgetattr(slave)
        assert before[3] & termios.ICANON and before[3] & termios.ECHO
        _drain(master, lambda text: b"PROFUNDIDAD" in text)
        raw = termios.tcgetattr(slave)
        assert not raw[3] & termios.ICANON and not raw[3] & termios.ECHO   # curses is running
        proc.send_signal(number)
        _drain(master, lambda text: proc.poll() is not None, timeout=20)
        status = proc.wait(timeout=20)
        after = termios.tcgetattr(slave)
        err = proc.stderr.read().decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    assert after[3] & termios.ICANON and after[3] & termios.ECHO
    assert after[0] & termios.ICRNL and after[0] & termios.IXON
    assert status == 128 + number, err
    assert err.count("\n") == 1 and "Traceback" not in err, err


# -- terminals that cannot show the C64 screen ------------------------------------------------------

def _run_briefly(tmp_path, env_changes, seconds=6.0):
    """Start ryg.py on a pty with env_changes; (exit status or None, stderr, what it drew)."""
    import fcntl
    import struct
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 90, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "TMUX")}
    env.update(XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.update(env_changes)
    env = {k: v for k, v in env.items() if v is not None}
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "ryg.py"), "--disk", str(tmp_path), "ryg23"],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=str(tmp_path), env=env,
                            start_new_session=True)
    try:
        drawn = _drain(master, lambda text: proc.poll() is not None, timeout=seconds)
        status = proc.poll()
        modes = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        os.close(slave)
    return status, proc.stderr.read().decode("utf-8", "replace"), drawn, modes


@pytest.mark.parametrize("term", ["dumb", "no-such-terminal-type"])
def test_a_terminal_that_cannot_place_the_cursor_gets_a_clear_message_and_status_2(tmp_path, term):
    status, err, drawn, modes = _run_briefly(tmp_path, {"TERM": term, "LC_ALL": "C.UTF-8"})
    assert status == 2, (status, err)
    assert "TERM=%s" % term in err and "--headless" in err and err.count("\n") == 1, err
    assert modes[3] & termios.ICANON and modes[3] & termios.ECHO


def test_without_term_the_message_says_so(tmp_path):
    status, err, drawn, modes = _run_briefly(tmp_path, {"TERM": None, "LC_ALL": "C.UTF-8"})
    assert status == 2 and "TERM" in err, err


@pytest.mark.parametrize("lc_all, mode", [("C", "ascii"), ("POSIX", "ascii"), ("C.UTF-8", None)])
def test_a_locale_that_cannot_encode_the_glyphs_gets_ascii_glyphs_by_itself(lc_all, mode):
    # Python's UTF-8 mode (on by itself in the C locale) makes Python say UTF-8 while the
    # C library, which ncurses encodes with, has only ASCII: the glyphs came out blank.
    code = ("from c64.terminal.session import set_host_locale; from c64.terminal.glyphmode import "
            "choose_glyph_mode; set_host_locale(); print(choose_glyph_mode())")
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_CTYPE", "PYTHONUTF8")}
    env["LC_ALL"] = lc_all
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    if mode is None:
        assert proc.stdout.strip() in ("unicode", "legacy")
    else:
        assert proc.stdout.strip() == mode
