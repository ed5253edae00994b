"""The positions ryg3's search gets wrong, found by sweeping all of them.

The game is small enough to look at every position where a choice matters:

* cats to move, won for the cats, where some cat move gives the win away
  (about 42,000 of the positions that can arise in a game);
* mouse to move, where some mouse move is worse than the best: a winning
  move missed, or, when the mouse is lost, a move that does not hold out as
  long as possible (about 35,000).

This tool searches each of them with the Python model of the engine
(asm/tools/ryg3_model.py) in every run asked -- a depth and a set of
Zobrist keys (the keys decide which hash entries collide, so they can tip a
close choice) -- and lists the positions where the move chosen is worse than
the oracle's: the search's misses.  The book (asm/ryg3/book.oph) answers
those positions with the oracle's move.

Only positions that can arise in a game are swept: after k moves of each
side the cats' ranks (0-based) sum to 28 - k and the mouse, which moves
first from rank 1, has made k moves (mouse to move) or k + 1 (cats to move),
which fixes the parity of its rank.

The list is kept in asm/tools/ryg3_misses.txt because a sweep takes half
an hour under PyPy (several hours under CPython):

    pypy3 -m asm.tools.ryg3_misses 7:1 7:2 8:1 8:2 9:1 9:2 10:1 > asm/tools/ryg3_misses.txt

(from the repository root; progress goes to stderr).
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool

from asm.tools import ryg3_model as M
from asm.tools.ryg3_model import SIDE_LETTER
from asm.tools.oracle import dark_square, get_oracle


_oracle = None


def reachable_parity(mouse: int, cats, side: int) -> bool:
    """Can the position arise in a game (see the module docstring)?"""
    moves_made = 28 - sum(c >> 3 for c in cats) + (1 if side == M.SIDE_CATS else 0)
    return (mouse >> 3) % 2 == moves_made % 2


def is_miss(oracle, mouse, cats, side, move) -> bool:
    """Is `move` worse than the oracle's best?  The cats: it gives a win
    away.  The mouse: it misses a win, or it does not hold out longest."""
    cats = frozenset(cats)
    if side == M.SIDE_CATS:
        a, b = move
        return oracle.score(mouse, (cats - {a}) | {b}, True) > 0
    scores = oracle.mouse_move_scores(mouse, cats)
    best, chosen = max(scores.values()), scores[move[1]]
    return chosen < 0 if best > 0 else chosen < best


def is_critical(oracle, mouse, cats, side) -> bool:
    """Does some legal move count as a miss (is_miss)?"""
    cats = frozenset(cats)
    if side == M.SIDE_CATS:
        return (oracle.score(mouse, cats, False) < 0
                and any(s > 0 for s in oracle.cat_move_scores(mouse, cats).values()))
    scores = list(oracle.mouse_move_scores(mouse, cats).values())
    if not scores:
        return False
    return min(scores) < 0 if max(scores) > 0 else min(scores) < max(scores)


def critical_positions(oracle, side) -> list[tuple[int, tuple[int, ...]]]:
    """Positions of `side` to move that can arise in a game and where a move
    can be a miss: (mouse, sorted cats), the mouse below rank 8."""
    out = []
    for dark in oracle.sets:
        cats = tuple(sorted(dark_square(i) for i in dark))
        for m in range(28):
            mouse = dark_square(m)
            if (mouse not in cats and reachable_parity(mouse, cats, side)
                    and is_critical(oracle, mouse, cats, side)):
                out.append((mouse, cats))
    return out


def misses_in(positions, side, depth: int, key_seed: int, oracle):
    """The positions where the model's search to `depth` (fresh hash tables,
    Zobrist keys from python_zobrist(key_seed)) chooses a miss."""
    keys = M.python_zobrist(key_seed)
    return [(mouse, cats) for mouse, cats in positions
            if is_miss(oracle, mouse, cats, side,
                       M.Model(mouse, list(cats), side, zobrist=keys).think(depth).move)]


def _init_worker():
    global _oracle
    _oracle = get_oracle()


def _work(job):
    positions, side, depth, key_seed = job
    return [(side, *p) for p in misses_in(positions, side, depth, key_seed, _oracle)]


def sweep(runs, sides=(M.SIDE_CATS, M.SIDE_MOUSE), processes=2, log=sys.stderr):
    """Misses of the sides in every run (depth, key seed): a set of
    (side, mouse, cats), and how many critical positions there are per side."""
    oracle = get_oracle()
    found, totals = set(), {}
    with Pool(processes, initializer=_init_worker) as pool:
        for side in sides:
            positions = critical_positions(oracle, side)
            totals[side] = len(positions)
            chunks = [positions[i:i + 400] for i in range(0, len(positions), 400)]
            for depth, key_seed in runs:
                started = time.time()
                jobs = [(chunk, side, depth, key_seed) for chunk in chunks]
                misses = [p for part in pool.imap_unordered(_work, jobs) for p in part]
                found.update(misses)
                print(f"{SIDE_LETTER[side]} depth {depth}, keys {key_seed}: {len(misses)} misses "
                      f"of {len(positions)} ({time.time() - started:.0f} s)", file=log, flush=True)
    return found, totals


def format_misses(misses, runs, totals) -> str:
    lines = ["# ryg3's search misses (asm/tools/ryg3_misses.py): positions where the",
             "# model's search chooses a worse move than the oracle's in a run",
             "# (depth:Zobrist key seed) of " + " ".join(f"{d}:{k}" for d, k in runs) + "."]
    for side, total in totals.items():
        count = sum(1 for m in misses if m[0] == side)
        lines.append(f"# {'Cats' if side == M.SIDE_CATS else 'Mouse'} to move ({SIDE_LETTER[side]}): "
                     f"{count} of the {total} positions where a move can be worse.")
    lines.append("# GENERATED; one position per line: side, mouse, then the cats.")
    lines += [" ".join(map(str, (SIDE_LETTER[side], mouse, *cats)))
              for side, mouse, cats in sorted(misses)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", metavar="DEPTH:KEYS",
                        help="a search depth and the seed of python_zobrist, e.g. 8:1")
    parser.add_argument("--sides", default="CM", help="C cats, M mouse (default both)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    runs = [tuple(int(x) for x in run.split(":")) for run in args.runs]
    sides = [side for side, letter in SIDE_LETTER.items() if letter in args.sides.upper()]
    misses, totals = sweep(runs, sides, args.processes)
    sys.stdout.write(format_misses(misses, runs, totals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
