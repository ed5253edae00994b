"""Benchmark: ryg3's search per level on fixed positions, against the oracle
and next to ryg23 on the same positions.

    python tests/bench/bench_ryg3.py [--positions 8] [--ryg23-depths 4,6]

Positions: cats to move, won for the cats according to the oracle, taken from
games where the mouse plays at random and the cats pick random winning moves
(fixed seed).  For each level the real .prg thinks on the emulated C64 (the
book switched off, so the search is measured; the last row is the game's
default level with its book, which answers the search's misses; depth 0
there means a book move) and the script prints per
position and in total: nodes, C64 seconds (cycles / 985248), depth reached,
and whether the move keeps the oracle's win ("ok") or gives it away ("LOST").
ryg23 (if asm/ryg23.prg exists) searches the same positions, converted to its
board (offset = 63 - square), at the depths given: boards, C64 seconds and
oracle agreement.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.tools.positions import cats_won_positions             # noqa: E402
from asm.tools import ryg3_model as M                          # noqa: E402
from asm.tools.oracle import get_oracle, square_name           # noqa: E402
from tests.tools.ryg3_harness import ASM_DIR, EngineOnC64        # noqa: E402

# (name, depth, seconds, book): the last row is the game as played, its book on.
LEVELS = [("depth 4", 4, 0, False), ("depth 6", 6, 0, False), ("depth 8", 8, 0, False),
          ("default 8/10s", 8, 10, False), ("game: + book", 8, 10, True)]


def ryg3_rows(positions, oracle):
    engine = EngineOnC64()
    print("ryg3: %d positions" % len(positions))
    print("%-14s %8s %9s %9s %7s %6s %6s" % ("level", "nodes", "avg C64s", "max C64s", "depth", "ok", "LOST"))
    for name, depth, seconds, book in LEVELS:
        nodes = secs = 0
        worst = 0.0
        depths, ok, lost = [], 0, 0
        for mouse, cats in positions:
            engine.call("clear_hash")
            engine.set_position(mouse, sorted(cats), M.SIDE_CATS)
            t = engine.think(depth, seconds, book=book)
            nodes += t.nodes
            secs += t.seconds
            worst = max(worst, t.seconds)
            depths.append(t.depth)
            a, b = t.move
            if oracle.score(mouse, (cats - {a}) | {b}, True) < 0:
                ok += 1
            else:
                lost += 1
        n = len(positions)
        print("%-14s %8d %9.2f %9.2f %3d-%-3d %6d %6d"
              % (name, nodes // n, secs / n, worst, min(depths), max(depths), ok, lost))
        sys.stdout.flush()


def ryg23_rows(positions, oracle, depths):
    if not (ASM_DIR / "ryg23.prg").exists():
        print("ryg23: asm/ryg23.prg not built, skipped")
        return
    from tests.tools import classic_model as C
    from tests.tools.classic_runner import ClassicProgram
    program = ClassicProgram("ryg23")
    print("ryg23 on the same positions (its book off: 9 plies played)")
    print("%-14s %10s %9s %9s %6s %6s" % ("level", "boards", "avg C64s", "max C64s", "ok", "LOST"))
    for depth in depths:
        boards = secs = 0
        worst = 0.0
        ok = lost = 0
        for mouse, cats in positions:
            pos = C.Pos(63 - mouse, tuple(63 - c for c in sorted(cats, reverse=True)), False, 9)
            got = program.think(pos, depth)
            boards += got["boards"]
            s = got["cycles"] / 985248
            secs += s
            worst = max(worst, s)
            child = got["child"]
            after = frozenset(63 - c for c in child.cats)
            if oracle.score(mouse, after, True) < 0:
                ok += 1
            else:
                lost += 1
        n = len(positions)
        print("%-14s %10d %9.2f %9.2f %6d %6d" % ("depth %d" % depth, boards // n, secs / n, worst, ok, lost))
        sys.stdout.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=8)
    ap.add_argument("--ryg23-depths", default="4,6")
    args = ap.parse_args(argv)
    oracle = get_oracle()
    positions = cats_won_positions(args.positions, 99, oracle)
    for mouse, cats in positions:
        print("  mouse %s, cats %s" % (square_name(mouse), " ".join(square_name(c) for c in sorted(cats))))
    ryg3_rows(positions, oracle)
    depths = [int(d) for d in args.ryg23_depths.split(",") if d]
    if depths:
        ryg23_rows(positions, oracle, depths)
    return 0


if __name__ == "__main__":
    sys.exit(main())
