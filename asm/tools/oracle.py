"""Oracle: the whole game of RYG (mouse and cats) solved exactly.

For every position (mouse square, set of four cat squares, side to move) the
oracle knows who wins with perfect play and in how many plies (the winner
hurries, the loser holds out as long as possible).  It is the yardstick of
the strength tests of ryg3 and of the benchmarks.

Squares are algebraic, as in ryg3: A1 = 0 (bottom left) .. H8 = 63; the cats
start on B8 D8 F8 H8 and move south, the mouse starts on E1 and wins on rank
8.  The classic versions number squares from the top left (offset = row*8 +
col); `from_classic` converts (square = 63 - offset).

Rules (the game as every RYG version plays it), checked in this order:
1. the mouse on rank 8 has won;
2. after the mouse moves (cats to move): cats with no legal move -> mouse wins;
3. after the cats move (mouse to move): mouse with no legal move -> cats win.

How it is solved: every cat move advances a cat one rank, so ordering the cat
sets by the sum of their ranks (most advanced first) gives a topological
order of the position graph.  Within one cat set the cats-to-move positions
only lead to sets solved earlier, and the mouse-to-move positions only lead
to cats-to-move positions of the same set.  One sweep fills the table; there
is no recursion.

Scores (used for comparisons): from the mouse's side, WIN - plies when the
mouse wins, -(WIN - plies) when the cats win; 0 marks an impossible position
(mouse on a cat).  The mouse maximises, the cats minimise.

The table (2.3 million 16-bit scores) can be kept on disk: pass a cache
directory, or set RYG_ORACLE_CACHE; by default `get_oracle()` uses
`.cache/oracle/` at the repository root (ignored by git).  Run this module to
time a full solve:  python -m asm.tools.oracle
"""

from __future__ import annotations

import array
import itertools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

WIN = 1000                     # score of a win in 0 plies
CACHE_VERSION = 1              # bump when the table layout or rules change
MOUSE, CATS = "mouse", "cats"

# Directions (ryg3 numbering): SW = 0, SE = 1 (cats use only these), NE = 2, NW = 3.
DIRECTIONS = ((-1, -1), (-1, +1), (+1, +1), (+1, -1))   # (rank step, file step)

START_MOUSE = 4                         # E1
START_CATS = frozenset((57, 59, 61, 63))  # B8 D8 F8 H8


def square_name(square: int) -> str:
    """'E1' for square 4."""
    return "ABCDEFGH"[square % 8] + str(square // 8 + 1)


def parse_square(name: str) -> int:
    """4 for 'E1' (case-insensitive)."""
    name = name.strip().upper()
    return (int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0])


def from_classic(offset: int) -> int:
    """Algebraic square of a classic board offset (row 0 at the top)."""
    return 63 - offset


def is_dark(square: int) -> bool:
    """Pieces stand only on squares whose rank + file is even (A1 is one)."""
    return 0 <= square < 64 and (square // 8 + square % 8) % 2 == 0


def _dark_index(square: int) -> int:
    return square >> 1


def dark_square(index: int) -> int:
    rank = index >> 2
    return rank * 8 + 2 * (index & 3) + (rank & 1)


def _step(square: int, direction: int) -> int:
    """Destination square one step away, or -1 off the board."""
    rank, file = divmod(square, 8)
    dr, df = DIRECTIONS[direction]
    rank, file = rank + dr, file + df
    if 0 <= rank < 8 and 0 <= file < 8:
        return rank * 8 + file
    return -1


def mouse_destinations(square: int) -> list[int]:
    """The four diagonal neighbours in direction order, -1 off the board."""
    return [_step(square, d) for d in range(4)]


def cat_destinations(square: int) -> list[int]:
    """SW and SE neighbours, -1 off the board."""
    return [_step(square, d) for d in range(2)]


def legal_mouse_moves(mouse: int, cats) -> list[int]:
    """Destinations of the mouse in direction order."""
    return [d for d in mouse_destinations(mouse) if d >= 0 and d not in cats]


def legal_cat_moves(mouse: int, cats) -> list[tuple[int, int]]:
    """(from, to) pairs, cats in ascending square order, SW before SE."""
    moves = []
    for cat in sorted(cats):
        for dest in cat_destinations(cat):
            if dest >= 0 and dest != mouse and dest not in cats:
                moves.append((cat, dest))
    return moves


@dataclass(frozen=True)
class Verdict:
    """Perfect-play result of a position."""
    winner: str      # MOUSE or CATS
    plies: int       # plies until the game ends (0: it has ended)


def verdict_of(score: int) -> Verdict:
    if score > 0:
        return Verdict(MOUSE, WIN - score)
    if score < 0:
        return Verdict(CATS, WIN + score)
    raise ValueError("score 0 is not a position")


# Precomputed on dark indices 0..31.
_MOUSE_STEPS = [[_dark_index(s) if s >= 0 else -1 for s in mouse_destinations(dark_square(i))]
                for i in range(32)]
_CAT_STEPS = [[_dark_index(s) if s >= 0 else -1 for s in cat_destinations(dark_square(i))]
              for i in range(32)]


def _cat_sets() -> list[tuple[int, ...]]:
    """All 4-sets of dark indices, most advanced cats (lowest rank sum) first."""
    return sorted(itertools.combinations(range(32), 4),
                  key=lambda c: sum(i >> 2 for i in c))


class Oracle:
    """The solved game.  Build with Oracle() (solves, ~1 min) or get_oracle()."""

    def __init__(self, cache_dir: str | os.PathLike | None = None):
        self.sets = _cat_sets()
        self.set_index = {sum(1 << i for i in c): n for n, c in enumerate(self.sets)}
        self.solve_seconds = None
        path = Path(cache_dir) / f"oracle-v{CACHE_VERSION}.bin" if cache_dir else None
        expected = len(self.sets) * 64
        if path is not None and path.exists() and path.stat().st_size == 2 * expected:
            self.table = array.array("h")
            with open(path, "rb") as f:
                self.table.fromfile(f, expected)
            return
        started = time.perf_counter()
        self.table = self._solve()
        self.solve_seconds = time.perf_counter() - started
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            with open(tmp, "wb") as f:
                self.table.tofile(f)
            os.replace(tmp, path)

    def _solve(self) -> array.array:
        table = array.array("h", bytes(2 * len(self.sets) * 64))
        set_index = self.set_index
        mouse_steps, cat_steps = _MOUSE_STEPS, _CAT_STEPS
        for n, cats in enumerate(self.sets):
            mask = sum(1 << i for i in cats)
            # Cat moves of this set, ignoring the mouse: (dest, child base index).
            moves = []
            for c in cats:
                for dest in cat_steps[c]:
                    if dest >= 0 and not (mask >> dest) & 1:
                        child = set_index[mask ^ (1 << c) ^ (1 << dest)]
                        moves.append((dest, child * 64))
            base = n * 64
            # Cats to move (odd entries): children are solved sets, mouse to move.
            for m in range(32):
                if (mask >> m) & 1:
                    continue
                if m >= 28:                      # rank 8: the mouse has won
                    table[base + 2 * m + 1] = WIN
                    continue
                best = None
                for dest, child in moves:
                    if dest != m:
                        s = table[child + 2 * m]
                        if best is None or s < best:
                            best = s
                if best is None:                 # cats stuck: the mouse slipped past
                    table[base + 2 * m + 1] = WIN
                else:
                    table[base + 2 * m + 1] = best - 1 if best > 0 else best + 1
            # Mouse to move (even entries): children are this set, cats to move.
            for m in range(32):
                if (mask >> m) & 1:
                    continue
                if m >= 28:
                    table[base + 2 * m] = WIN
                    continue
                best = None
                for dest in mouse_steps[m]:
                    if dest >= 0 and not (mask >> dest) & 1:
                        s = table[base + 2 * dest + 1]
                        if best is None or s > best:
                            best = s
                if best is None:                 # mouse trapped
                    table[base + 2 * m] = -WIN
                else:
                    table[base + 2 * m] = best - 1 if best > 0 else best + 1
        return table

    # -- queries (squares are algebraic) ---------------------------------

    def score(self, mouse: int, cats, mouse_to_move: bool) -> int:
        """Perfect-play score from the mouse's side (see module docstring)."""
        cats = frozenset(cats)
        if len(cats) != 4 or mouse in cats or not is_dark(mouse) or not all(map(is_dark, cats)):
            raise ValueError(f"not a position: mouse {mouse}, cats {sorted(cats)}")
        mask = sum(1 << _dark_index(c) for c in cats)
        index = self.set_index[mask] * 64 + 2 * _dark_index(mouse) + (0 if mouse_to_move else 1)
        return self.table[index]

    def solve(self, mouse: int, cats, mouse_to_move: bool) -> Verdict:
        """Who wins and in how many plies."""
        return verdict_of(self.score(mouse, cats, mouse_to_move))

    def mouse_move_scores(self, mouse: int, cats) -> dict[int, int]:
        """Score after each legal mouse move (destination -> score)."""
        return {d: self.score(d, cats, False) for d in legal_mouse_moves(mouse, cats)}

    def cat_move_scores(self, mouse: int, cats) -> dict[tuple[int, int], int]:
        """Score after each legal cat move ((from, to) -> score)."""
        cats = frozenset(cats)
        return {(a, b): self.score(mouse, (cats - {a}) | {b}, True)
                for a, b in legal_cat_moves(mouse, cats)}

    def best_mouse_moves(self, mouse: int, cats) -> list[int]:
        scores = self.mouse_move_scores(mouse, cats)
        top = max(scores.values())
        return [d for d, s in scores.items() if s == top]

    def best_cat_moves(self, mouse: int, cats) -> list[tuple[int, int]]:
        scores = self.cat_move_scores(mouse, cats)
        top = min(scores.values())
        return [m for m, s in scores.items() if s == top]


def default_cache_dir() -> Path:
    env = os.environ.get("RYG_ORACLE_CACHE")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / ".cache" / "oracle"


_shared: Oracle | None = None


def get_oracle() -> Oracle:
    """One Oracle per process, kept on disk between runs."""
    global _shared
    if _shared is None:
        _shared = Oracle(default_cache_dir())
    return _shared


def main() -> int:
    started = time.perf_counter()
    oracle = Oracle(None)
    seconds = time.perf_counter() - started
    v = oracle.solve(START_MOUSE, START_CATS, True)
    valid = sum(1 for s in oracle.table if s)
    print(f"full solve: {seconds:.1f} s, {valid} positions, start: {v.winner} win in {v.plies} plies")
    started = time.perf_counter()
    Oracle(default_cache_dir())
    cached = Oracle(default_cache_dir())
    print(f"cache: {default_cache_dir()}, load {time.perf_counter() - started:.2f} s (incl. one save)")
    assert cached.table == oracle.table
    return 0


if __name__ == "__main__":
    sys.exit(main())
