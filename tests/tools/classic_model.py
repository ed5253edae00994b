"""Reference model of the classic RYG versions (ryg15, ryg17, ryg19, ryg23).

A plain-Python restatement of the classic programs (asm/README.md and the
asm/classic sources: rules, move generation, evaluation, trees), used by the
tests to predict exactly what the 6502 programs do: move generation in the
same order, evaluation v1/v3, minimax for the whole-tree and the
depth-first tree styles (they differ when a side has no legal move above the
depth limit), the tie-break "first child in generation order whose value
equals the root's value", the opening book, the end checks, and the memory
the depth-first tree uses.

A position is a Pos(mouse, cats, mouse_to_move, level): offsets
row*8 + col.  `cats` is the tuple of the four cat offsets in slot order.
For the 88-byte-record versions cats have no identity, they are numbered by
scanning the board in offset order: those versions keep `cats` sorted.
"""

from collections import namedtuple
from dataclasses import dataclass
import random

WHITE = frozenset(r * 8 + c for r in range(8) for c in range(8) if (r + c) % 2 == 0)
MOUSE_DELTAS = (-9, -7, 9, 7)          # direction 0..3
CAT_DELTAS = (7, 9)                    # direction 0..1
START_CATS = (0, 2, 4, 6)
START_MOUSE = 59

ROW_VALUE = (0x20, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x00)
MOBILITY_VALUE = (0xE0, 0xFD, 0xFE, 0xFF, 0x00)
SPREAD_VALUE = (0xF0, 0xF8, 0, 0, 0, 0, 0, 0)
PASSED_VALUE = 0x20

BOOK = {1: (0, 9), 3: (1, 11), 5: (2, 13), 7: (3, 15)}   # ply -> (cat slot, target)


@dataclass(frozen=True)
class Version:
    """What distinguishes one classic program from another."""
    name: str
    record_size: int        # 88 (matrix) or 29 (piece offsets)
    eval_version: int       # 1 or 3
    tree: str               # "whole" or "depthfirst"
    max_depth: int
    book: bool

    @property
    def sorted_cats(self):
        """88-byte records number cats by scanning the matrix."""
        return self.record_size == 88


VERSIONS = {
    "ryg15": Version("ryg15", 88, 1, "whole", 3, False),
    "ryg17": Version("ryg17", 88, 3, "whole", 3, False),
    "ryg19": Version("ryg19", 29, 3, "whole", 4, True),
    "ryg23": Version("ryg23", 29, 3, "depthfirst", 15, True),
}


class Pos(namedtuple("Pos", "mouse cats mouse_to_move level")):
    """A position: mouse offset, cat offsets (slot order), side to move, plies played."""

    def occupied(self):
        return {self.mouse, *self.cats}


def start_position():
    return Pos(START_MOUSE, START_CATS, True, 0)


def square_ok(dest, occupied):
    """The destination rule: a white square on the board, not occupied."""
    return 0 <= dest < 64 and dest in WHITE and dest not in occupied


def mouse_moves(pos):
    """[(direction, destination)] of the legal mouse moves, direction order."""
    occ = pos.occupied()
    return [(d, pos.mouse + dl) for d, dl in enumerate(MOUSE_DELTAS)
            if square_ok(pos.mouse + dl, occ)]


def cat_moves(pos, sorted_cats=False):
    """[(slot, direction, destination)] of the legal cat moves, in order
    cat 0 dir 0, cat 0 dir 1, cat 1 dir 0, ..."""
    occ = pos.occupied()
    cats = sorted(pos.cats) if sorted_cats else pos.cats
    return [(i, d, c + dl) for i, c in enumerate(cats) for d, dl in enumerate(CAT_DELTAS)
            if square_ok(c + dl, occ)]


def children(pos, sorted_cats=False):
    """The child positions in generation order."""
    if pos.mouse_to_move:
        return [Pos(dest, pos.cats, False, pos.level + 1) for _, dest in mouse_moves(pos)]
    cats = tuple(sorted(pos.cats)) if sorted_cats else pos.cats
    out = []
    for i, _, dest in cat_moves(pos, sorted_cats):
        new = cats[:i] + (dest,) + cats[i + 1:]
        if sorted_cats:
            new = tuple(sorted(new))
        out.append(Pos(pos.mouse, new, True, pos.level + 1))
    return out


def evaluate(pos, eval_version):
    """Evaluation v1 (row + mobility) or v3 (+ cat spread + passed), one byte."""
    row = pos.mouse >> 3
    v = 0x80 + ROW_VALUE[row] + MOBILITY_VALUE[len(mouse_moves(pos))]
    if eval_version >= 3:
        rows = [c >> 3 for c in pos.cats]
        v += SPREAD_VALUE[max(rows) - min(rows)]
        if min(rows) >= row:
            v += PASSED_VALUE
    return v & 0xFF


def minimax(pos, depth, version):
    """Value of pos searched `depth` plies deep, as the version computes it."""
    kids = children(pos, version.sorted_cats) if depth > 0 else []
    if version.tree == "whole":
        if not kids:
            return evaluate(pos, version.eval_version)
    elif depth == 0:
        return evaluate(pos, version.eval_version)
    if pos.mouse_to_move:
        best = 0x00
        for k in kids:
            best = max(best, minimax(k, depth - 1, version))
    else:
        best = 0xFF
        for k in kids:
            best = min(best, minimax(k, depth - 1, version))
    return best


def decide(pos, depth, version):
    """The cats' search: (chosen child index, root value, child values, children)."""
    assert not pos.mouse_to_move
    kids = children(pos, version.sorted_cats)
    values = [minimax(k, depth - 1, version) for k in kids]
    if version.tree == "whole" and not kids:
        raise ValueError("no cat move")
    root = min(values) if values else 0xFF
    return values.index(root), root, values, kids


def book_move(pos):
    """The opening-book position after the cats' move, or None."""
    if pos.level < 8 and pos.level in BOOK:
        slot, target = BOOK[pos.level]
        cats = pos.cats[:slot] + (target,) + pos.cats[slot + 1:]
        return Pos(pos.mouse, cats, True, pos.level + 1)
    return None


def cats_reply(pos, depth, version):
    """The position after the computer's (cats') move."""
    if version.book:
        b = book_move(pos)
        if b is not None:
            return b
    index, _, _, kids = decide(pos, depth, version)
    return kids[index]


def play(version, depth, mouse_dirs):
    """Play a game: the mouse plays the given directions, the cats answer.

    Returns (result, positions): result is "mouse" / "cats" when the game
    ended (the end checks in the design's order) or None if the moves ran
    out first; positions lists each position after every move.
    Raises ValueError on an illegal mouse direction.
    """
    pos = start_position()
    if version.sorted_cats:
        pos = pos._replace(cats=tuple(sorted(pos.cats)))
    seen = [pos]
    for d in mouse_dirs:
        legal = dict(mouse_moves(pos))
        if d not in legal:
            raise ValueError("illegal mouse direction %d" % d)
        pos = Pos(legal[d], pos.cats, False, pos.level + 1)
        seen.append(pos)
        if pos.mouse < 8:
            return "mouse", seen
        if not cat_moves(pos):
            return "mouse", seen
        pos = cats_reply(pos, depth, version)
        seen.append(pos)
        if not mouse_moves(pos):
            return "cats", seen
    return None, seen


def random_positions(count, seed, sorted_cats=False):
    """`count` distinct cats-to-move positions reached by random legal play
    from the start, where the game is not over (mouse below row 0, the
    cats can move)."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < count:
        pos = start_position()
        while True:
            if pos.mouse_to_move:
                moves = mouse_moves(pos)
                if not moves:
                    break
                _, dest = rng.choice(moves)
                pos = Pos(dest, pos.cats, False, pos.level + 1)
                if pos.mouse < 8 or not cat_moves(pos):
                    break
                key = (pos.mouse, tuple(sorted(pos.cats)) if sorted_cats else pos.cats)
                if key not in seen and rng.random() < 0.35:
                    seen.add(key)
                    p = pos._replace(cats=tuple(sorted(pos.cats))) if sorted_cats else pos
                    out.append(p)
                    if len(out) == count:
                        break
            else:
                i, _, dest = rng.choice(cat_moves(pos))
                cats = pos.cats[:i] + (dest,) + pos.cats[i + 1:]
                pos = Pos(pos.mouse, cats, True, pos.level + 1)
    return out


def depthfirst_high_water(pos, depth, record_size=29):
    """Bytes above tree_root the depth-first search writes (the highest
    free-pointer value minus tree_root): root + the path + its siblings."""
    peak = [1]

    def search(p, d, node_slot):
        # node occupies slot node_slot (units of records); free = node_slot + 1
        free = node_slot + 1
        if d == 0:
            return
        for k in children(p):
            child_slot = free
            free += 1
            peak[0] = max(peak[0], free)
            search(k, d - 1, child_slot)
            free = child_slot + 1
    search(pos, depth, 0)
    return peak[0] * record_size


def count_boards(pos, depth, version):
    """Boards generated by one search (the root copy not counted)."""
    if depth == 0:
        return 0
    kids = children(pos, version.sorted_cats)
    return len(kids) + sum(count_boards(k, depth - 1, version) for k in kids)


def whole_tree_bytes(pos, depth, version):
    """Bytes the whole tree occupies above tree_root (root included)."""
    return (1 + count_boards(pos, depth, version)) * version.record_size
