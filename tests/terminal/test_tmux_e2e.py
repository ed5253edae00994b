"""End to end: the real curses UI in tmux, driven by keys a person would press, read back with capture-pane.

Starts `python ryg.py ryg23` (or, if no RYG version is built, a small test
program), types a move, toggles warp, opens the version menu, shrinks the
terminal below 40x26 and back, and quits.
Skipped only when tmux is not installed.
"""

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from asm.versions import find_version
from tests.conftest import assemble, echo_lines_source

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ECHO_PROGRAM = echo_lines_source("TYPE SOMETHING")


class Tmux:
    """One private tmux server (its own socket) with one session running a command."""

    def __init__(self, command, cols=90, rows=32):
        self.socket = "ryg-e2e-%d" % os.getpid()
        self.run("-f", os.devnull, "new-session", "-d", "-s", "e2e", "-x", str(cols), "-y", str(rows), command)

    def run(self, *args):
        # LINES/COLUMNS (set by pytest) would be inherited by the tmux server and its panes
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS", "TMUX")}
        return subprocess.run(["tmux", "-L", self.socket] + list(args), capture_output=True, text=True,
                              check=False, env=env)

    def send(self, *keys):
        self.run("send-keys", "-t", "e2e", *keys)

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "e2e").stdout

    def wait_for(self, text, timeout=20.0):
        """The pane once `text` shows in it (or once text(pane) is true, for a function);
        fails with the pane's content after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text(screen) if callable(text) else text in screen:
                return screen
            if time.monotonic() > deadline:
                pytest.fail("%r did not appear; the pane shows:\n%s" % (text, screen))
            time.sleep(0.1)

    def kill(self):
        self.run("kill-server")


def real_time_status(name):
    """A pane test: the status line shows about real speed (90-110 %, the host may be busy) and WAIT."""
    pattern = re.compile(r"(?<!WARP )\b(\d+)%  " + re.escape(name) + "  WAIT")

    def shown(screen):
        match = pattern.search(screen)
        return match is not None and 90 <= int(match.group(1)) <= 110
    return shown


@pytest.fixture(name="program_args")
def program_args_fixture(tmp_path):
    version = find_version("ryg23")
    if version is not None and version.available():
        return "ryg23"
    path = tmp_path / "echo.prg"
    path.write_bytes(assemble(ECHO_PROGRAM))
    return str(path)


def test_play_warp_menu_and_quit_in_a_real_terminal(program_args, tmp_path):
    command = "cd %s && %s ryg.py %s; echo EXIT=$?; sleep 30" % (ROOT, sys.executable, program_args)
    tmux = Tmux("sh -c '%s'" % command)
    try:
        name = os.path.basename(program_args).replace(".prg", "")
        tmux.wait_for(real_time_status(name))
        if program_args == "ryg23":
            tmux.wait_for("PROFUNDIDAD (01-0F) ?")
            tmux.send("01", "Enter")
            screen = tmux.wait_for("QUE JUGADA DESEA?")
            assert "00> (07,03)-(06,02)" in screen
            tmux.send("00", "Enter")                              # the mouse to (06,02)
            screen = tmux.wait_for("00> (06,02)-(05,01)")
            assert "7........" in screen                             # the mouse left row 7
        else:
            tmux.wait_for("TYPE SOMETHING")
            tmux.send("hello", "Enter")
            tmux.wait_for("HELLO")
        tmux.send("F12")
        screen = tmux.wait_for("WARP")
        tmux.send("F12")
        tmux.wait_for(lambda screen: "%  " + name in screen and "WARP" not in screen)   # warp off again
        tmux.send("F10")
        # (the menu is drawn in more than one write: wait for its last line too)
        screen = tmux.wait_for(lambda screen: "Versions" in screen and "Esc closes" in screen)
        if program_args == "ryg23":
            assert "ryg23" in screen and "classic final" in screen
        tmux.send("Escape")
        tmux.run("resize-window", "-t", "e2e", "-x", "30", "-y", "20")
        tmux.wait_for("enlarge to 40x26")
        tmux.run("resize-window", "-t", "e2e", "-x", "90", "-y", "32")
        screen = tmux.wait_for("help")
        assert "enlarge" not in screen and name in screen
        tmux.send("C-q")
        tmux.wait_for("Quit RYG64? (y/n)")
        tmux.send("y")
        screen = tmux.wait_for("EXIT=0")
        assert "Traceback" not in screen
    finally:
        tmux.kill()


def test_truecolor_ascii_ntsc_screen_with_a_blinking_cursor(program_args):
    """The raw-SGR truecolor surface in a real terminal: C64 colours as 24-bit SGR, the cursor blinks."""
    command = "cd %s && COLORTERM=truecolor %s ryg.py --ascii --ntsc %s; echo EXIT=$?; sleep 30" % (
        ROOT, sys.executable, program_args)
    tmux = Tmux("sh -c '%s'" % command)
    try:
        name = os.path.basename(program_args).replace(".prg", "")
        tmux.wait_for(real_time_status(name))
        # light blue (colodore 6864FF) text and border on blue (2724C4)
        screen = tmux.run("capture-pane", "-p", "-e", "-t", "e2e").stdout
        assert "48;2;39;36;196" in screen and "104;100;255" in screen
        # the cursor: a light blue block after the prompt that comes and goes (~1.5 blinks a
        # second); the prompt's row has light blue backgrounds in the border left and right,
        # and a third one while the cursor is shown
        phases = set()
        deadline = time.monotonic() + 10      # a loaded host may stall the pane for a while
        while time.monotonic() < deadline and len(phases) < 2:
            pane = tmux.run("capture-pane", "-p", "-e", "-t", "e2e").stdout.splitlines()
            prompt_row = [line for line in pane if "?" in line or "TYPE SOMETHING" in line][-1]
            phases.add(prompt_row.count("48;2;104;100;255"))
            time.sleep(0.05)
        assert phases == {2, 3}, "the cursor did not blink: %s" % phases
        tmux.send("C-c")
        screen = tmux.wait_for("EXIT=130")
        assert "ryg: interrupted (Ctrl-C)" in screen
    finally:
        tmux.kill()
