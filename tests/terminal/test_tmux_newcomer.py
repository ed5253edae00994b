"""A newcomer's way through the README in a real terminal (issue 36): tmux, the keys a
person presses, the screen read back with capture-pane.  ryg3 from the start: the rules,
level 1, a move, undo, a square off the board, the version menu during a game; the next
`ryg` at the same level, a won game with the cats and a lost one, ryg23en's last move on
the status line; the monitor at READY.
Skipped only when tmux is not installed.
"""

import os
import re
import shutil
import sys

import pytest

from tests.terminal.test_tmux_e2e import ROOT, Tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class OwnTmux(Tmux):
    """A tmux server of its own for each run of ryg (a server just killed may linger)."""
    started = 0

    def __init__(self, command, cols, rows):
        OwnTmux.started += 1
        self.socket = "ryg-newcomer-%d-%d" % (os.getpid(), OwnTmux.started)
        self.run("-f", os.devnull, "new-session", "-d", "-s", "e2e", "-x", str(cols), "-y", str(rows), command)


def ryg_in_tmux(config, arguments=""):
    command = "cd %s && RYG64_CONFIG_DIR=%s LANG=C.UTF-8 LC_ALL= %s ryg.py %s; echo EXIT=$?; sleep 30" % (
        ROOT, config, sys.executable, arguments)
    return OwnTmux("sh -c '%s'" % command, cols=80, rows=30)


def quit_ryg(tmux):
    tmux.send("C-q")
    tmux.wait_for("Quit RYG64? (y/n)")
    tmux.send("y")
    screen = tmux.wait_for("EXIT=0")
    assert "Traceback" not in screen


REPLIED = re.compile(r"COMPUTER: [A-H][1-8]-[A-H][1-8]")


def replied(screen):
    """The computer has answered and the game waits for the player's move."""
    return REPLIED.search(screen) is not None and "YOUR MOVE?" in screen


def test_a_newcomer_plays_ryg3_as_the_readme_says(tmp_path):
    config = tmp_path / "config"
    tmux = ryg_in_tmux(config)
    try:
        tmux.wait_for("YOUR MOVE?")
        screen = tmux.screen()
        assert "RYG3 - MOUSE AND CATS" in screen and "◘" in screen           # the mouse on E1
        tmux.send("?")
        screen = tmux.wait_for("PRESS A KEY TO GO BACK")
        assert "THE MOUSE (◘) STARTS" in screen                              # drawn as on the board
        assert "COMPUTER'S GUESS OF WHO IS AHEAD" in screen
        tmux.send("Space")
        tmux.wait_for("YOUR MOVE?")
        tmux.send("L", "1")
        tmux.wait_for("LEVEL 1: DEPTH 1 2 SEC")
        tmux.send("D", "2", "Enter")
        tmux.wait_for(lambda s: replied(s) and "NODES" in s)
        tmux.send("U")                                       # the thinking of the later position goes
        tmux.wait_for(lambda s: "NODES" not in s and " 1 E1-D2" not in s)
        tmux.send("Z", "9")
        tmux.wait_for("NOT A SQUARE (A1-H8) NOR A KEY BELOW")
        tmux.send("D", "2", "Enter")
        tmux.wait_for(replied)
        tmux.send("F10")
        tmux.wait_for("(asks first); Esc closes")
        tmux.send("4")
        tmux.wait_for("Start ryg23en? The C64 resets: the game in progress is lost. (y/n)")
        tmux.send("n")
        tmux.wait_for(lambda s: "Start ryg23en?" not in s and "(asks first)" in s)
        tmux.send("Escape")
        screen = tmux.wait_for(lambda s: "Versions" not in s and " 1 E1-D2" in s)
        assert "ryg3en" in screen
        quit_ryg(tmux)
    finally:
        tmux.kill()
    assert "level = 1" in (config / "settings.ini").read_text()

    tmux = ryg_in_tmux(config)                # plain `ryg` again: ryg3en at level 1
    try:
        tmux.wait_for("LEVEL 1: DEPTH 1 2 SEC")
        tmux.send("S")                        # the player takes the cats
        tmux.wait_for("YOU PLAY: CATS")
        tmux.wait_for(lambda s: " 1 E1-" in s and "YOUR MOVE?" in s)
        tmux.send("T", "A", "1", "Enter", "A", "3", "E", "5", "G", "5", "H", "8", "Enter", "C")
        tmux.wait_for(lambda s: "EDIT:" not in s and "EDIT POSITION" not in s and "YOUR MOVE?" in s)
        tmux.send("A", "3", "B", "2", "Enter")                # the mouse on A1 is trapped
        # (the two lines are printed one after the other: a frame may come between them)
        screen = tmux.wait_for(lambda s: "THE CATS HAVE WON!! CONGRATULATIONS!!" in s
                               and "YOU HAVE BEATEN LEVEL 1!!" in s)
        assert "YOU HAVE BEATEN LEVEL 1!!" in screen
        tmux.send("N")
        tmux.wait_for(lambda s: " 1 E1-" in s and "YOUR MOVE?" in s)
        tmux.send("T", "C", "7", "Enter", "A", "3", "C", "3", "E", "3", "G", "3", "Enter", "C")
        tmux.wait_for(lambda s: "EDIT:" not in s and "EDIT POSITION" not in s and "YOUR MOVE?" in s)
        tmux.send("A", "3", "B", "2", "Enter")                # the computer's mouse steps to rank 8
        screen = tmux.wait_for("THE MOUSE HAS WON.")
        assert "CONGRATULATIONS" not in screen and "BEATEN" not in screen
        tmux.send("F10")                                      # the game is over: nothing to lose
        tmux.wait_for("(the C64 resets); Esc closes")
        tmux.send("4")
        tmux.wait_for("DEPTH (01-0F) ?")
        tmux.send("0", "1", "Enter")
        tmux.wait_for("YOUR MOVE?")
        tmux.send("0", "0", "Enter")
        tmux.wait_for("00> (06,02)-(05,01)")
        # the cats' reply, which the program prints only as a new board, on the status line
        tmux.wait_for(lambda s: any("ryg23en" in line and re.search(r"CATS \(00,0\d\)-\(01,0\d\)", line)
                                    for line in s.splitlines()))
        quit_ryg(tmux)
    finally:
        tmux.kill()
    assert "version = ryg23en" in (config / "settings.ini").read_text()


def test_the_monitor_at_ready_names_basics_routines(tmp_path):
    tmux = ryg_in_tmux(tmp_path / "config", "--basic")
    try:
        tmux.wait_for("READY.")
        tmux.send("C-o")
        screen = tmux.wait_for("in Python")
        assert "BASIC_MAIN: BASIC's main loop" in screen and "JAM" not in screen
        tmux.send("d", "Space", "p", "c", "Enter")
        screen = tmux.wait_for("stub ROM filler")
        assert "TRAP" in screen and "JAM" not in screen
        tmux.send("x", "Enter")
        tmux.wait_for(lambda s: "READY." in s and "in Python" not in s)
        quit_ryg(tmux)
    finally:
        tmux.kill()
    assert not os.path.exists(os.path.join(ROOT, "ryg64-001.png"))
