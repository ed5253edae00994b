"""Benchmark: ryg3's ladder of levels on the real .prg against the oracle.

    python tests/bench/bench_ladder.py [--levels 1-9] [--games 20] [--positions 1000]

For each level (asm/ryg3/levels.oph): games from the start won and lost by
the computer's cats against a perfect mouse (oracle moves, random ties), won
positions given away on a fixed sample of reachable cats' wins, and C64
seconds per move (average, most) over both.  Prints a Markdown table (the
README's) and checks the ladder: each level gives away no more than the one
below, level 1 loses at least half of its games, the default and top levels
lose none and give none away, no move over the level's seconds.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from asm.tools import ryg3_model as M                          # noqa: E402
from tests.tools.ladder import measure_level                     # noqa: E402
from asm.tools.oracle import get_oracle                        # noqa: E402
from tests.tools.ryg3_harness import EngineOnC64                 # noqa: E402

NAMES = {1: "beginner", 5: "middle", 8: "default", 9: "master"}


def describe(level):
    what = "depth %d, %d s, book %s" % (level.depth, level.seconds, "on" if level.book else "off")
    return what + (", margin %d" % level.margin if level.margin else "")


def parse_levels(text):
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="1-9")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--model-from", type=int, default=None,
                    help="positions from this one on are played by the Python model (no clock)")
    args = ap.parse_args(argv)
    try:
        levels = parse_levels(args.levels)
        if not all(n in M.LEVELS for n in levels):
            raise ValueError
    except ValueError:
        print("bench_ladder: --levels takes levels 1-9 as 3-7 or 1,4,9")
        return 2
    oracle = get_oracle()
    print("| level | what it is | games lost (of %d) | won positions given away (of %d) | C64 s per move: average | most |"
          % (args.games, args.positions))
    print("|---|---|---|---|---|---|")
    results = {}
    for n in levels:
        start = time.time()
        level = M.LEVELS[n]
        m = measure_level(EngineOnC64(sid_seed=1000 + n), n, oracle, args.games, args.positions,
                          args.model_from)
        results[n] = m
        name = NAMES.get(n, "")
        print("| %d%s | %s | %d | %d | %.2f | %.2f |" % (
            n, " (%s)" % name if name else "", describe(level), m.lost, m.given_away, m.average, m.most))
        print("<!-- level %d: %d moves, %.0f s wall -->" % (n, len(m.seconds), time.time() - start), file=sys.stderr)
        sys.stdout.flush()
    problems = []
    for n in levels:
        if n - 1 in results and results[n].given_away > results[n - 1].given_away:
            problems.append("level %d gives away more than level %d" % (n, n - 1))
        if results[n].most > M.LEVELS[n].seconds:
            problems.append("level %d: a move took %.2f s" % (n, results[n].most))
    if 1 in results and 2 * results[1].lost < results[1].games:
        problems.append("level 1 loses fewer than half of its games")
    for n in (M.DEFAULT_LEVEL, max(M.LEVELS)):
        if n in results and (results[n].lost or results[n].given_away):
            problems.append("level %d loses or gives away" % n)
    for p in problems:
        print("LADDER:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
