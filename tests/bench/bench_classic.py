"""Benchmark: ryg23's search on our emulator, in C64 time and host time.

    python tests/bench/bench_classic.py [--depths 2,4,6,8] [--version ryg23]

For each depth the program's own `think` runs once on a fixed position (the
mouse on (6,2) facing the book's closed line on row 1, cats to move) and the
script prints: boards generated, C64 time per move (cycles / 985248, PAL),
boards per second of C64 time, host seconds and the emulation speed (C64
seconds per host second), next to the published real-C64 figures for the
original program (depth 6 about 1-2 minutes per move, depth 8 about 15
minutes, depth 10 about 2 hours).  Depth 8 takes a few minutes of host time
on plain py65.  The root value and move are checked against the model.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.tools import classic_model as M              # noqa: E402
from tests.tools.classic_runner import ClassicProgram   # noqa: E402

PAL_HZ = 985248
PUBLISHED = {6: "1-2 min", 8: "~15 min", 10: "~2 h (33.5 M boards)"}
POSITION = M.Pos(50, (9, 11, 13, 15), False, 9)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="2,4,6,8", help="comma-separated depths (default 2,4,6,8)")
    ap.add_argument("--version", default="ryg23", choices=sorted(M.VERSIONS))
    args = ap.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    cp = ClassicProgram(args.version)
    print("%s on %s, position: mouse (%d,%d), cats %s, cats to move"
          % (args.version, "our emulator", POSITION.mouse >> 3, POSITION.mouse & 7,
             ["(%d,%d)" % (c >> 3, c & 7) for c in POSITION.cats]))
    print("%5s %10s %12s %12s %10s %9s %8s  %s" % ("depth", "boards", "C64 s/move", "boards/C64s",
                                                  "host s", "C64s/host", "model", "real C64 (published)"))
    for depth in depths:
        if depth > cp.version.max_depth:
            print("%5d  (above the version's maximum depth)" % depth)
            continue
        t0 = time.perf_counter()
        got = cp.think(POSITION, depth)
        host = time.perf_counter() - t0
        c64 = got["cycles"] / PAL_HZ
        check = "-"
        if depth <= 6:
            index, value, _, _ = M.decide(POSITION, depth, cp.version)
            check = "ok" if (index, value) == (got["index"], got["value"]) else "DIFFERS"
        print("%5d %10d %12.1f %12.0f %10.1f %9.2f %8s  %s"
              % (depth, got["boards"], c64, got["boards"] / c64, host, c64 / host, check,
                 PUBLISHED.get(depth, "")))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
