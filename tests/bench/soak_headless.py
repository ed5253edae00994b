"""Soak: ryg23 at depth 6 against a random mouse, headless and in warp, for a given time.

    nice -n 15 python tests/bench/soak_headless.py --minutes 120 > soak_headless.log 2>&1

One machine, built as headless mode builds it (the fast core, no transcript),
plays game after game of the real ryg23.prg: the mouse answers each
"QUE JUGADA DESEA?" with one of the listed moves chosen at random (seeded),
the depth question with 06 and "PULSA UNA TECLA" with a space.  Every minute
the script prints the process's resident memory (VmRSS from /proc, or the
peak from getrusage elsewhere), the games played and who won them, and the
emulated C64 time; at the end the first and last RSS and the growth.  Flat
memory over hours is what it is for: nothing the machine keeps may grow
with the games it plays.
"""

import argparse
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from c64.machine import C64, StopReason      # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOVE = re.compile(r"^(0[0-3])> \(")


def rss_kb():
    """Resident set size of this process in KB (the current one on Linux, else the peak)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    import resource
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak


def cpu_class():
    try:
        from c64.fastcpu import FastCPU
        return FastCPU
    except ImportError:
        from c64.cpu import CPU
        return CPU


class Soak:
    def __init__(self, depth, seed):
        self.rng = random.Random(seed)
        self.depth = depth
        self.m = C64(sid_seed=seed, cpu_class=cpu_class(), disk_folder=None)
        self.m.run_program(os.path.join(ROOT, "asm", "ryg23.prg"))
        self.games = self.mouse_wins = self.cat_wins = self.moves = 0

    def step(self):
        """Run to the next prompt and answer it."""
        reason = self.m.run(max_cycles=20_000_000_000)
        if reason is not StopReason.IDLE:
            raise SystemExit("ryg23 stopped: %s %s" % (reason.value, self.m.error or ""))
        lines = [line.rstrip() for line in self.m.screen_lines()]
        while lines and not lines[-1]:
            lines.pop()
        last = lines[-1] if lines else ""
        if last.startswith("PULSA UNA TECLA"):
            self.games += 1
            if any("HA GANADO EL RATON" in line for line in lines[-3:]):
                self.mouse_wins += 1
            else:
                self.cat_wins += 1
            self.m.type(" ")
        elif last.startswith("PROFUNDIDAD"):
            self.m.type("%02X{return}" % self.depth)
        elif last.startswith("QUE JUGADA DESEA"):
            choices = [MOVE.match(line).group(1) for line in lines if MOVE.match(line)]
            if not choices:
                raise SystemExit("no listed move on the screen:\n" + "\n".join(lines))
            # the moves listed last are the ones on the screen now (older lists scrolled up)
            tail = []
            for line in reversed(lines[:-1]):
                match = MOVE.match(line)
                if not match:
                    break
                tail.append(match.group(1))
            self.moves += 1
            self.m.type(self.rng.choice(tail or choices) + "{return}")
        else:
            raise SystemExit("unexpected screen:\n" + "\n".join(lines))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=120, help="how long to run (default 120)")
    ap.add_argument("--depth", type=int, default=6, help="ryg23's search depth (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the mouse's choices and the SID")
    ap.add_argument("--every", type=float, default=60, help="seconds between samples (default 60)")
    args = ap.parse_args(argv)
    soak = Soak(args.depth, args.seed)
    start = time.monotonic()
    end = start + args.minutes * 60
    next_sample = start
    first = None
    print("soak: ryg23 depth %d against a random mouse (seed %d), headless warp, %s minutes, python %s"
          % (args.depth, args.seed, args.minutes, sys.version.split()[0]), flush=True)
    print("%8s %10s %7s %6s %6s %8s %12s" % ("minutes", "RSS KB", "games", "mouse", "cats", "moves",
                                            "C64 hours"), flush=True)
    while True:
        now = time.monotonic()
        if now >= next_sample or now >= end:
            rss = rss_kb()
            first = rss if first is None else first
            print("%8.1f %10d %7d %6d %6d %8d %12.2f" % (
                (now - start) / 60, rss, soak.games, soak.mouse_wins, soak.cat_wins, soak.moves,
                soak.m.cycles / soak.m.clock_hz / 3600), flush=True)
            next_sample += args.every
            if now >= end:
                break
        soak.step()
    print("RSS first %d KB, last %d KB, growth %+d KB over %d games (%.1f minutes)"
          % (first, rss, rss - first, soak.games, (time.monotonic() - start) / 60), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
