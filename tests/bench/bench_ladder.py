"""Benchmark: ryg3's ladder of levels, measured the way it is played.

    python tests/bench/bench_ladder.py [--levels 1-9] [--games 40] [--positions 500]

For each level (asm/ryg3/levels.oph), through the real ryg3en .prg with its
thinking display on, the level chosen with L, moves typed and the screen read
(tests/tools/ladder.py): games from varied starts lost to a perfect mouse and
to a fallible one (a random move 30% of the time), critical won positions
given away, C64 seconds per reply.  Judged by the oracle.  Prints a Markdown
table (the one in docs/playing.md) and checks the ladder's required shape
(ladder_problems); exit status 1 when it does not hold.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from asm.tools import ryg3_model as M                          # noqa: E402
from asm.tools.oracle import get_oracle                        # noqa: E402
from tests.tools.ladder import ladder_problems, measure_level  # noqa: E402

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
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--positions", type=int, default=500)
    args = ap.parse_args(argv)
    try:
        levels = parse_levels(args.levels)
        if not all(n in M.LEVELS for n in levels):
            raise ValueError
    except ValueError:
        print("bench_ladder: --levels takes levels 1-9 as 3-7 or 1,4,9")
        return 2
    oracle = get_oracle()
    print("| level | what it is | games lost to a perfect mouse (of %d) | to a fallible mouse (of %d) "
          "| critical won positions given away (of %d) | C64 s per reply: average | most |"
          % (args.games, args.games, args.positions))
    print("|---|---|---|---|---|---|---|")
    results = {}
    for n in levels:
        start = time.time()
        m = results[n] = measure_level(n, oracle, args.games, args.positions)
        name = NAMES.get(n, "")
        print("| %d%s | %s | %d | %d | %d | %.2f | %.2f |" % (
            n, " (%s)" % name if name else "", describe(M.LEVELS[n]), m.lost, m.fallible_lost,
            m.given_away, m.average, m.most))
        print("<!-- level %d: %d replies, %.0f s wall -->" % (n, len(m.seconds), time.time() - start), file=sys.stderr)
        sys.stdout.flush()
    problems = ladder_problems(results, levels)
    for p in problems:
        print("LADDER:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
