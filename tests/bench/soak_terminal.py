"""Soak: ryg3's demo in the curses front end, in warp, under tmux, for a given time.

    nice -n 15 python tests/bench/soak_terminal.py --minutes 30 > soak_terminal.log 2>&1

Starts `python ryg.py --warp ryg3` in a private tmux server (its own socket,
90x32, TERM=tmux-256color), presses M (demo: the computer plays both sides)
and, whenever a game is over, N and M again.  Every minute it prints the
front end's resident memory (VmRSS from /proc/PID/status: Linux only), the
demo games finished and the status line; at the end the first and last RSS
and the growth, then it quits the program with Ctrl-Q y and removes the
tmux server.  Saved files, if any, go to a temporary folder (--disk).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAME_OVER = ("HA GANADO EL RATON", "HAN GANADO LOS GATOS", "THE MOUSE HAS WON", "THE CATS HAVE WON")


class Tmux:
    def __init__(self, socket):
        self.socket = socket

    def __call__(self, *args, check=True):
        proc = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise SystemExit("tmux %s: %s" % (" ".join(args), proc.stderr.strip()))
        return proc.stdout

    def screen(self):
        return self("capture-pane", "-p", "-t", "soak")

    def keys(self, *keys):
        self("send-keys", "-t", "soak", *keys)


def rss_kb(pid):
    with open("/proc/%d/status" % pid, encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS for process %d" % pid)


def status_line(screen):
    lines = [line.strip() for line in screen.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30, help="how long to run (default 30)")
    ap.add_argument("--every", type=float, default=60, help="seconds between samples (default 60)")
    ap.add_argument("--program", default="ryg3", help="version to run (default ryg3)")
    args = ap.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is not installed")
    socket = "ryg-soak-%d" % os.getpid()
    tmux = Tmux(socket)
    disk = tempfile.mkdtemp(prefix="ryg-soak-disk-")
    command = "cd %s && TERM=tmux-256color exec %s ryg.py --warp --disk %s %s" % (ROOT, sys.executable, disk, args.program)
    tmux("new-session", "-d", "-s", "soak", "-x", "90", "-y", "32", command)
    try:
        pid = int(tmux("display-message", "-p", "-t", "soak", "#{pane_pid}").strip())
        time.sleep(3)
        tmux.keys("M")
        start = time.monotonic()
        end = start + args.minutes * 60
        next_sample = start
        games = 0
        over = False
        first = rss = None
        print("soak: %s demo in the terminal front end, warp, tmux 90x32, %s minutes, pid %d"
              % (args.program, args.minutes, pid), flush=True)
        print("%8s %10s %7s  %s" % ("minutes", "RSS KB", "games", "status line"), flush=True)
        while True:
            now = time.monotonic()
            screen = tmux.screen()
            if now >= next_sample or now >= end:
                rss = rss_kb(pid)
                first = rss if first is None else first
                print("%8.1f %10d %7d  %s" % ((now - start) / 60, rss, games, status_line(screen)),
                      flush=True)
                next_sample += args.every
                if now >= end:
                    break
            if any(text in screen for text in GAME_OVER):
                if not over:
                    games += 1
                    over = True
                    tmux.keys("N")
                    time.sleep(0.5)
                    tmux.keys("M")
            else:
                over = False
            time.sleep(2)
        print("RSS first %d KB, last %d KB, growth %+d KB over %d demo games (%.1f minutes)"
              % (first, rss, rss - first, games, (time.monotonic() - start) / 60), flush=True)
        tmux.keys("C-q")
        time.sleep(1)
        tmux.keys("y")
        time.sleep(2)
    finally:
        tmux("kill-server", check=False)
        shutil.rmtree(disk, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
