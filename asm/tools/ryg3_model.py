"""Python model of ryg3's search, move for move what the 6502 engine does.

The 6502 engine (asm/ryg3/) is tested against this model: given the same
position, Zobrist keys and level, both must choose the same move.  The
model is also where the evaluation was tuned against the oracle.

Layout mirrors the engine (see asm/ryg3/globals.oph):
* `board`: 64 bytes, A1 = 0 .. H8 = 63, EMPTY / MOUSE / CAT;
* `mouse_sq`, `cat_sq[4]`: piece list (cat slots keep their cat all game);
* `MOUSE_MOVES[sq*4+dir]`, `CAT_MOVES[sq*2+dir]`: destinations, $FF off board;
  directions SW = 0, SE = 1, NE = 2, NW = 3 (cats: SW, SE only);
* one move list `move_start`/`move_dest` for the whole search, the moves of
  ply p at first_move[p] .. first_move[p+1]-1;
* Zobrist key: three bytes (lo, hi, lock) XORed per piece and square; the
  hash tables (one per side, HASH_SIZE entries of start, dest, lock) keep the
  best move found; the entry index is lo + 256*(hi & HASH_HI_MASK).

Values are unsigned bytes from the side to move (negamax): the other side's
view is 255 - v (EOR #$FF on the 6502).  The static evaluation is made from
the mouse's view ($80 neutral, higher good for the mouse) and flipped when
the cats are to move.  A side with no legal move (or the cats when the mouse
stands on rank 8) has lost: LOSS + ply, so the winner prefers short wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

EMPTY, MOUSE, CAT = 0, 1, 2
SIDE_MOUSE, SIDE_CATS = 0, 1
NO_SQUARE = 0xFF
MAX_PLY = 32
INFINITY = 0xFF

# --- evaluation weights (mouse's view, $80 neutral) --------------------------
# The evaluation measures how far the mouse is from getting free: the length
# of its shortest walk (cats standing still) to a square level with or behind
# the rear cat; from there no cat can ever stop it.  A wide way out (several
# such squares reached at that distance) is harder to close than one gap, but
# only when it is near.  Spread-out cats (rear rank - front rank) leave holes.
# A mouse that cannot get free at all is valued by the size of its cage and
# its rank.
# Second look, the cats' line as the cats see it: can the mouse climb
# straight to the rear cat's rank (every step up) without stepping on a
# square a cat can step on (diagonally below it)?  Then no single cat move
# shuts its way: a clean way out.  Its first step may be guarded when both
# squares above the mouse are free of cats: the cats can shut only one of
# them (a cat two ranks straight above the mouse is forked: whichever side
# it closes, its own square opens -- unless another cat can step on it).
# With the mouse to move its first step cannot be shut at all: the climb
# is looked at from the squares above it.  Against the oracle a clean way out wins
# for the mouse far more often than the plain distance says (at distance 3:
# 1% cats' wins, against 40% when there is none), so it adds
# PASS_BONUS[distance].  (A shortest way out through unguarded squares that
# is not a straight climb: none in 5000 sampled positions.)
# The sum is clamped to MAX_EVAL, below the smallest win (255 - 31 plies).
NEUTRAL = 0x80
LOSS = 0x00                      # side to move has lost at ply 0; + ply
WIN_VALUE = 0xE0                 # values from here up: a known win (globals.oph)
LOSS_VALUE = 0x1F                # values up to here: a known loss
DIST_CAP = 10
MAX_EVAL = 0xDF
FREE_BY_DISTANCE = (0xB0, 0xAC, 0xA8, 0x98, 0x94, 0x90, 0x8C, 0x88, 0x84, 0x80, 0x7C)
SPREAD_PENALTY = (0x00, 0x00, 0x08, 0x10, 0x14, 0x18, 0x18, 0x18)   # added: helps the mouse
_WIDTH = (0x00, 0x00, 0x0E, 0x13)   # by free squares reached at that distance (1, 2, 3+)
# WIDTH_BONUS[distance*4 + min(width, 3)]: full up to distance 4, half at 5-6, none beyond.
WIDTH_BONUS = tuple(w if d <= 4 else w // 2 if d <= 6 else 0
                    for d in range(DIST_CAP + 1) for w in _WIDTH)
# PASS_BONUS[min(distance, DIST_CAP)] when the way out is clean.
PASS_BONUS = (0x28, 0x28, 0x24, 0x20, 0x1C, 0x18, 0x14, 0x10, 0x0C, 0x08, 0x04)
CAGED_BASE = 0x40                # + squares in the cage + mouse rank



@dataclass(frozen=True)
class Level:
    """A level of the ladder (asm/ryg3/levels.oph): depth, seconds per move
    (a cap), the book on or off, and the margin of the root moves the move
    is picked among at random (0: the best)."""
    depth: int
    seconds: int
    book: bool
    margin: int


LEVELS = {1: Level(1, 2, False, 64), 2: Level(2, 2, False, 32), 3: Level(3, 3, False, 16),
          4: Level(4, 4, False, 12), 5: Level(5, 5, False, 12), 6: Level(6, 5, False, 0),
          7: Level(7, 8, False, 0), 8: Level(8, 10, True, 0), 9: Level(9, 30, True, 0)}
DEFAULT_LEVEL = 8
HASH_SIZE = 1024
TIME_CHECK = 16                   # the engine looks at its clock every 16 nodes
EXACT, LOWER, UPPER = 0, 1, 2      # what a stored value is: exact, >=, <=
MOUSE_ORDER = (2, 3, 0, 1)        # NE, NW, SW, SE
HASH_HI_MASK = 0x03


def _build_tables():
    steps = ((-1, -1), (-1, +1), (+1, +1), (+1, -1))   # SW SE NE NW as (rank, file)
    mouse = [NO_SQUARE] * 256
    cat = [NO_SQUARE] * 128
    for sq in range(64):
        r, f = divmod(sq, 8)
        if (r + f) % 2:
            continue
        for d, (dr, df) in enumerate(steps):
            rr, ff = r + dr, f + df
            if 0 <= rr < 8 and 0 <= ff < 8:
                mouse[sq * 4 + d] = rr * 8 + ff
                if d < 2:
                    cat[sq * 2 + d] = rr * 8 + ff
    return mouse, cat


MOUSE_MOVES, CAT_MOVES = _build_tables()
START_MOUSE = 4
START_CATS = (57, 59, 61, 63)


def python_zobrist(seed: int = 1):
    """Zobrist keys from a Python RNG, for use without a C64 (tests of the model)."""
    import random
    rng = random.Random(seed)
    return [[[rng.randrange(256) for _ in range(64)] for _ in range(3)] for _ in range(2)]


@dataclass
class SearchResult:
    move: tuple[int, int] | None   # (start, dest)
    value: int                     # from the side to move, 0..255
    depth: int                     # last completed iteration
    nodes: int
    pv: list = field(default_factory=list)


class Model:
    """ryg3's engine state and search.

    zobrist[piece][part][square]: piece 0 mouse, 1 cat; part 0 lo, 1 hi, 2 lock.
    """

    def __init__(self, mouse=START_MOUSE, cats=START_CATS, side=SIDE_MOUSE, zobrist=None):
        self.zobrist = zobrist or python_zobrist()
        self.stop_at, self.aborted, self.depth_done = None, False, 0
        self.margin, self.root_vals = 0, [0] * 8
        self.set_position(mouse, cats, side)
        self.clear_hash()

    # --- position ------------------------------------------------------------
    def set_position(self, mouse, cats, side):
        self.board = [EMPTY] * 64
        self.mouse_sq = mouse
        self.cat_sq = list(cats)
        self.board[mouse] = MOUSE
        for c in self.cat_sq:
            self.board[c] = CAT
        self.side = side
        self.ply = 0
        self.first_move = [0] * (MAX_PLY + 1)
        self.move_start = []
        self.move_dest = []
        self.history = []
        self.key = [0, 0, 0]
        for part in range(3):
            k = self.zobrist[0][part][mouse]
            for c in self.cat_sq:
                k ^= self.zobrist[1][part][c]
            self.key[part] = k

    def clear_hash(self):
        self.hash_tables = [[(0, 0, 0, 0, 0, 0)] * HASH_SIZE for _ in range(2)]
        self.collisions = 0

    # --- move generation -----------------------------------------------------
    def gen(self):
        """Moves of the side to move into the list at first_move[ply].

        Order (it decides ties and speeds up alpha-beta): the mouse tries
        NE, NW, SW, SE; the cats go from the rear one (highest square) to
        the front one, SW before SE."""
        start = self.first_move[self.ply]
        del self.move_start[start:]
        del self.move_dest[start:]
        board = self.board
        if self.side == SIDE_MOUSE:
            m = self.mouse_sq
            for d in MOUSE_ORDER:
                t = MOUSE_MOVES[m * 4 + d]
                if t != NO_SQUARE and board[t] == EMPTY:
                    self.move_start.append(m)
                    self.move_dest.append(t)
        else:
            for c in sorted(self.cat_sq, reverse=True):   # rear cats first
                for d in range(2):
                    t = CAT_MOVES[c * 2 + d]
                    if t != NO_SQUARE and board[t] == EMPTY:
                        self.move_start.append(c)
                        self.move_dest.append(t)
        self.first_move[self.ply + 1] = len(self.move_start)

    def make(self, i):
        """Play move i of the list; the side to move changes, ply + 1."""
        a, b = self.move_start[i], self.move_dest[i]
        piece = self.board[a]
        self.board[a] = EMPTY
        self.board[b] = piece
        z = self.zobrist[0 if piece == MOUSE else 1]
        for part in range(3):
            self.key[part] ^= z[part][a] ^ z[part][b]
        if piece == MOUSE:
            self.mouse_sq = b
            slot = -1
        else:
            slot = self.cat_sq.index(a)
            self.cat_sq[slot] = b
        self.history.append((a, b, slot))
        self.side ^= 1
        self.ply += 1

    def unmake(self):
        a, b, slot = self.history.pop()
        self.ply -= 1
        self.side ^= 1
        piece = self.board[b]
        self.board[b] = EMPTY
        self.board[a] = piece
        z = self.zobrist[0 if piece == MOUSE else 1]
        for part in range(3):
            self.key[part] ^= z[part][a] ^ z[part][b]
        if slot < 0:
            self.mouse_sq = a
        else:
            self.cat_sq[slot] = a

    # --- evaluation ------------------------------------------------------------
    def distance_to_freedom(self):
        """(distance, squares visited, width): breadth-first walk of the mouse
        over empty squares, cats standing still, until a square whose rank is
        at least the rear cat's; width = how many such squares that step
        reached.  Distance None when there is none (caged): then squares
        visited is the size of the cage."""
        board = self.board
        free_from = max(self.cat_sq) >> 3 << 3          # first square of the rear cat's rank
        if self.mouse_sq >= free_from:
            return 0, 1, 1
        seen = {self.mouse_sq}
        level = [self.mouse_sq]
        dist = 0
        while level:
            dist += 1
            nxt = []
            width = 0
            for s in level:
                for d in range(4):
                    t = MOUSE_MOVES[s * 4 + d]
                    if t != NO_SQUARE and board[t] == EMPTY and t not in seen:
                        seen.add(t)
                        if t >= free_from:
                            width += 1
                        else:
                            nxt.append(t)
            if width:
                return dist, len(seen), width
            level = nxt
        return None, len(seen), 0

    def clean_climb(self):
        """True when the way out is clean (see climb_from).  With the mouse
        to move, its first step up cannot be shut: clean when the climb is
        clean from one of the squares above it."""
        m = self.mouse_sq
        if self.side == SIDE_CATS:
            return self.climb_from(m)
        rear = max(self.cat_sq) >> 3
        for d in (2, 3):
            t = MOUSE_MOVES[m * 4 + d]
            if t != NO_SQUARE and self.board[t] == EMPTY and (t >> 3 >= rear or self.climb_from(t)):
                return True
        return False

    def climb_from(self, m):
        """True when the mouse, cats to move, can climb straight from m
        (NE/NW every step) to the rear cat's rank over empty squares no cat
        can step on (squares
        diagonally below a cat).  The first step may be guarded when both
        squares above the mouse are free of cats (a fork): one cat move
        cannot shut both -- unless a cat stands two ranks straight above the
        mouse and another cat can step on its square: that cat shuts one
        side and the other refills the hole it leaves.  m is below the rear
        cat."""
        board = self.board
        rear = max(self.cat_sq) >> 3
        guarded = {CAT_MOVES[c * 2 + d] for c in self.cat_sq for d in range(2)}
        up = [MOUSE_MOVES[m * 4 + d] for d in (2, 3)]
        fork = all(t != NO_SQUARE and board[t] == EMPTY for t in up)
        top = m + 16                      # the cat straight above, guarding both
        if fork and top < 64 and board[top] == CAT and top in guarded:
            fork = False                  # whichever side it closes, a cat refills its square
        if fork:
            guarded -= set(up)
        level = {m}
        for _ in range((m >> 3) + 1, rear + 1):
            level = {t for s in level for t in (MOUSE_MOVES[s * 4 + 2], MOUSE_MOVES[s * 4 + 3])
                     if t != NO_SQUARE and board[t] == EMPTY and t not in guarded}
            if not level:
                return False
        return True

    def evaluate(self):
        """Static value from the mouse's view ($80 neutral)."""
        dist, count, width = self.distance_to_freedom()
        if dist is None:
            return CAGED_BASE + count + (self.mouse_sq >> 3)
        clean = dist == 0 or self.clean_climb()
        dist = min(dist, DIST_CAP)
        ranks = [c >> 3 for c in self.cat_sq]
        v = (FREE_BY_DISTANCE[dist] + SPREAD_PENALTY[max(ranks) - min(ranks)]
             + WIDTH_BONUS[dist * 4 + min(width, 3)])
        if clean:
            v += PASS_BONUS[dist]
        return min(MAX_EVAL, v)

    # --- hash ------------------------------------------------------------------
    def hash_index(self):
        return self.key[0] | ((self.key[1] & HASH_HI_MASK) << 8)

    def probe(self, depth, alpha, beta):
        """(cut-off value or None, list index of the stored best move or -1).

        An entry is (start, dest, lock, depth, value, flag); start = dest
        means empty.  Its value settles the node when it was searched at
        least as deep and its bound allows (never at the root)."""
        start, dest, lock, e_depth, value, flag = self.hash_tables[self.side][self.hash_index()]
        if start == dest:
            return None, -1
        if lock != self.key[2]:
            self.collisions += 1
            return None, -1
        if e_depth >= depth and self.ply > 0:
            if flag == EXACT:
                return value, -1
            if flag == LOWER and value >= beta:
                return beta, -1
            if flag == UPPER and value <= alpha:
                return alpha, -1
        for i in range(self.first_move[self.ply], self.first_move[self.ply + 1]):
            if self.move_start[i] == start and self.move_dest[i] == dest:
                return None, i
        return None, -1

    def store(self, i, depth, value, flag):
        self.hash_tables[self.side][self.hash_index()] = (
            self.move_start[i], self.move_dest[i], self.key[2], depth, value, flag)

    # --- search ----------------------------------------------------------------
    def search(self, depth, alpha, beta):
        """Negamax alpha-beta (fail-hard): value of the position for the side to move.

        The engine looks at its clock and the keyboard every TIME_CHECK
        nodes once an iteration is done (check_time); the model stops at the
        first such look at or past stop_at nodes, where the engine stopped.
        A stopped search's values are not used."""
        self.nodes += 1
        if (self.stop_at is not None and self.nodes % TIME_CHECK == 0 and self.depth_done
                and self.nodes >= self.stop_at):
            self.aborted = True
        if self.aborted:
            return 0
        self.gen()
        lo, hi = self.first_move[self.ply], self.first_move[self.ply + 1]
        if (self.side == SIDE_CATS and self.mouse_sq >= 56) or lo == hi:
            return LOSS + self.ply
        if depth == 0:
            e = self.evaluate()
            return e if self.side == SIDE_MOUSE else 0xFF - e
        cut, h = self.probe(depth, alpha, beta)
        if cut is not None:
            return cut
        if h > lo:                                  # hash move first
            self.move_start[lo], self.move_start[h] = self.move_start[h], self.move_start[lo]
            self.move_dest[lo], self.move_dest[h] = self.move_dest[h], self.move_dest[lo]
        best = lo
        alpha0 = alpha
        root = self.ply == 0
        for i in range(lo, hi):
            self.make(i)
            # at the root, moves within the margin of the best get exact values
            low = max(alpha - self.margin, 0) if root else alpha
            v = 0xFF - self.search(depth - 1, 0xFF - beta, 0xFF - low)
            self.unmake()
            if self.aborted:
                return 0
            if root:
                self.root_vals[i] = v
            if v > alpha:
                alpha = v
                best = i
                if alpha >= beta:
                    break
            if root:
                self.root_done = (best, alpha)      # the best root move finished so far
                self.root_done_count = i + 1
        flag = LOWER if alpha >= beta else UPPER if alpha == alpha0 else EXACT
        self.store(best, depth, alpha, flag)
        if self.ply == 0:
            self.root_best = best
        return alpha

    def think(self, max_depth, node_limit=None, book=None, stop_at=None, margin=0, rand=0):
        """Iterative deepening from depth 1, the hash tables emptied first;
        stops after max_depth or when the next iteration would start beyond
        node_limit.  Returns a SearchResult.
        stop_at: the node count at which the engine's search was stopped (by
        its clock or a key; see search); the stopped iteration's best root
        move finished so far is played, when it finished one.
        margin, rand: a level's randomness (pick_move): the move is the k-th
        (k = rand modulo their number) of the root moves valued more than
        best - margin (and more than 0), in the list's order.
        With a book (see build_book), a position found in it is answered
        from the book: depth 0, no nodes, value None (the engine's book
        record carries the result, book_result)."""
        self.nodes = 0
        self.ply = 0
        if book is not None:
            move = book.get((self.side, self.mouse_sq, frozenset(self.cat_sq)))
            if move is not None:
                return SearchResult(move, None, 0, 0)
        self.clear_hash()               # as the engine: a position always gets the same move
        self.stop_at, self.aborted, self.depth_done = stop_at, False, 0
        self.margin = margin
        result = SearchResult(None, 0, 0, 0)
        root_end = 0
        for depth in range(1, max_depth + 1):
            if node_limit is not None and depth > 1 and self.nodes >= node_limit:
                break
            self.root_done = None
            v = self.search(depth, 0, 0xFF)
            if self.aborted:
                root_end = 0
                if self.root_done is not None:
                    b, v = self.root_done
                    root_end = self.root_done_count
                    result = SearchResult((self.move_start[b], self.move_dest[b]), v,
                                          self.depth_done, self.nodes)
                break
            lo, hi = self.first_move[0], self.first_move[1]
            if lo == hi:
                return SearchResult(None, v, depth, self.nodes)
            b = self.root_best
            self.depth_done = depth
            root_end = hi
            result = SearchResult((self.move_start[b], self.move_dest[b]), v, depth, self.nodes)
        result.nodes = self.nodes
        if margin and root_end:
            floor = max(result.value - margin, 0)
            if result.value >= WIN_VALUE:           # a known win: only the wins
                floor = max(floor, WIN_VALUE - 1)
            elif result.value > LOSS_VALUE:         # never a known loss unless all lose
                floor = max(floor, LOSS_VALUE)
            chosen = [i for i in range(root_end) if self.root_vals[i] > floor]
            i = chosen[rand % len(chosen)]
            result.move, result.value = (self.move_start[i], self.move_dest[i]), self.root_vals[i]
        return result


def cat_move_order(mouse, cats):
    """The cats' legal moves in the engine's order (rear cat first, SW, SE)."""
    board = set(cats) | {mouse}
    moves = []
    for c in sorted(cats, reverse=True):
        for d in range(2):
            t = CAT_MOVES[c * 2 + d]
            if t != NO_SQUARE and t not in board:
                moves.append((c, t))
    return moves


def oracle_cat_move(oracle, mouse, cats):
    """The cats' book move: the oracle's fastest win (or longest defence),
    ties broken by the engine's move order."""
    cats = frozenset(cats)
    moves = cat_move_order(mouse, cats)
    scores = [oracle.score(mouse, (cats - {a}) | {b}, True) for a, b in moves]
    return moves[scores.index(min(scores))]


def oracle_mouse_move(oracle, mouse, cats):
    """The mouse's book move: the oracle's best (fastest win, or longest
    defence), ties broken by the engine's move order (NE, NW, SW, SE)."""
    scores = oracle.mouse_move_scores(mouse, cats)
    moves = [t for t in (MOUSE_MOVES[mouse * 4 + d] for d in MOUSE_ORDER) if t in scores]
    best = max(scores.values())
    return mouse, next(t for t in moves if scores[t] == best)


def build_book(oracle=None, misses=None):
    """The book: {(side to move, mouse, frozenset cats): (from, to)}.

    * Every cats-to-move position reachable from the start when the cats
      play the book and the mouse plays anything (about 990 positions; with
      them the cats cannot lose a game from the start).
    * misses = {side: [(mouse, cats)]}: positions where the search would
      choose worse than the oracle (asm/tools/ryg3_misses.py).
    The cats' moves are oracle_cat_move's, the mouse's oracle_mouse_move's."""
    if oracle is None:
        from asm.tools.oracle import get_oracle
        oracle = get_oracle()
    book = {}
    seen = set()
    todo = [(START_MOUSE, frozenset(START_CATS))]          # mouse to move
    while todo:
        mouse, cats = todo.pop()
        if (mouse, cats) in seen:
            continue
        seen.add((mouse, cats))
        for d in MOUSE_ORDER:
            m = MOUSE_MOVES[mouse * 4 + d]
            if m == NO_SQUARE or m in cats or m >= 56 or not cat_move_order(m, cats):
                continue
            a, b = book[(SIDE_CATS, m, cats)] = oracle_cat_move(oracle, m, cats)
            after = (cats - {a}) | {b}
            if any(t != NO_SQUARE and t not in after for t in
                   (MOUSE_MOVES[m * 4 + k] for k in range(4))):
                todo.append((m, after))
    choose = {SIDE_CATS: oracle_cat_move, SIDE_MOUSE: oracle_mouse_move}
    for side, positions in (misses or {}).items():
        for mouse, cats in positions:
            cats = frozenset(cats)
            book.setdefault((side, mouse, cats), choose[side](oracle, mouse, cats))
    return book


# The positions where the search chooses worse than the oracle, swept by
# asm/tools/ryg3_misses.py and kept in this file; the book answers them.
MISSES_FILE = Path(__file__).with_name("ryg3_misses.txt")
SIDE_LETTER = {SIDE_MOUSE: "M", SIDE_CATS: "C"}


def read_misses(side, path=MISSES_FILE) -> list[tuple[int, tuple[int, ...]]]:
    """The listed misses of `side` to move: (mouse, cats)."""
    out = []
    for line in Path(path).read_text().splitlines():
        if line and not line.startswith("#"):
            letter, mouse, *cats = line.split()
            if letter == SIDE_LETTER[side]:
                out.append((int(mouse), tuple(int(c) for c in cats)))
    return out


def game_book(oracle):
    """The book as built into the game: build_book with the listed misses."""
    return build_book(oracle, {side: read_misses(side) for side in SIDE_LETTER})


def book_result(oracle, side, mouse, cats) -> int:
    """The result a book record carries, from the side to move's view as
    the search's values: 255 - P when it wins in P moves (plies), P when it
    loses in P."""
    from asm.tools.oracle import WIN
    score = oracle.score(mouse, cats, side == SIDE_MOUSE)
    plies = WIN - abs(score)
    mouse_wins = score > 0
    return 0xFF - plies if mouse_wins == (side == SIDE_MOUSE) else plies


def ophis_book(book, from_start, oracle=None) -> str:
    """Source of asm/ryg3/book.oph; from_start = how many of the cats'
    positions are the ones reachable from the start (build_book without misses)."""
    if oracle is None:
        from asm.tools.oracle import get_oracle
        oracle = get_oracle()
    cats_count = sum(1 for key in book if key[0] == SIDE_CATS)
    mouse_count = len(book) - cats_count
    lines = ["; book.oph -- ryg3: the book of both sides.",
             "; GENERATED by `python -m asm.tools.ryg3_model --book > asm/ryg3/book.oph`",
             "; from the oracle (asm/tools/oracle.py).  DO NOT EDIT.",
             ";",
             "; Cats to move, %d positions: every one reachable from the start when the" % cats_count,
             "; cats play the book and the mouse plays anything (%d), and the won ones" % from_start,
             "; where the search would give the win away (%d more).  Mouse to move, %d" % (
                 cats_count - from_start, mouse_count),
             "; positions where the search would miss a win or not hold out longest.",
             "; Those misses are listed in asm/tools/ryg3_misses.txt.  The move is the",
             "; oracle's best.",
             "; Records are grouped by mouse square: in a side's book, the records of",
             "; square sq run from <side>_book_lo/hi[sq] up to <side>_book_lo/hi[sq+1];",
             "; a record is the cats as a 32-bit mask of dark squares (bit = square / 2,",
             "; low byte first), from- and to-square, and the result from the side to",
             "; move's view (wins in P moves: 255 - P, loses in P: P)."]
    for side, name in ((SIDE_CATS, "cats"), (SIDE_MOUSE, "mouse")):
        by_mouse = {sq: [] for sq in range(64)}
        for (s, mouse, cats), (a, b) in book.items():
            if s == side:
                mask = sum(1 << (c >> 1) for c in cats)       # dark index = square / 2
                by_mouse[mouse].append((mask.to_bytes(4, "little"), a, b,
                                        book_result(oracle, side, mouse, cats)))
        offsets, body = [], []
        pos = 0
        for sq in range(64):
            offsets.append(pos)
            for mask, a, b, result in sorted(by_mouse[sq]):
                body.append("        .byte " + ", ".join("$%02X" % v for v in (*mask, a, b, result)))
                pos += 7
        offsets.append(pos)
        lines.append("")
        for half, op in (("lo", "<"), ("hi", ">")):
            lines.append(f"{name}_book_{half}:")
            lines += ["        .byte " + ", ".join(f"{op}({name}_book_records+{o})" for o in offsets[i:i + 8])
                      for i in range(0, 65, 8)]
        lines.append(f"{name}_book_records:")
        lines += body
    return "\n".join(lines) + "\n"


def ophis_tables() -> str:
    """Source of asm/ryg3/tables.oph (move tables and evaluation weights)."""
    def rows(values, per=16):
        return "\n".join("        .byte " + ", ".join("$%02X" % v for v in values[i:i + per])
                         for i in range(0, len(values), per))
    return f"""; tables.oph -- ryg3: move tables and evaluation weights.
; GENERATED by `python -m asm.tools.ryg3_model --tables > asm/ryg3/tables.oph`
; from asm/tools/ryg3_model.py (the Python model the engine is tested
; against).  DO NOT EDIT: change the model and regenerate.

; mouse_moves[square*4 + direction]: destination, $FF off the board.
; Directions SW = 0, SE = 1, NE = 2, NW = 3; only dark squares are filled.
mouse_moves:
{rows(MOUSE_MOVES)}

; cat_moves[square*2 + direction]: destination (SW, SE), $FF off the board.
cat_moves:
{rows(CAT_MOVES)}

; Bitboard walk of the evaluation: a rank is a byte, bit f = file f.
; dark_bits[rank]: the dark squares of a rank.  sideways[b]: (b << 1) | (b >> 1),
; the files one step left or right.  popcount[b]: bits set in b.
; square_bit[sq]: 1 << (sq & 7).
dark_bits:
{rows([0x55 if r % 2 == 0 else 0xAA for r in range(8)])}
sideways:
{rows([((b << 1) | (b >> 1)) & 0xFF for b in range(256)])}
popcount:
{rows([bin(b).count("1") for b in range(256)])}
square_bit:
{rows([1 << (q & 7) for q in range(64)])}

; Evaluation, mouse's view: value by the mouse's distance to freedom
; (0..DIST_CAP), and what spread-out cats add (rear rank - front rank).
free_by_distance:
{rows(list(FREE_BY_DISTANCE))}
spread_penalty:
{rows(list(SPREAD_PENALTY))}
; ... what a wide way out adds, by distance*4 + free squares reached (0..3+),
width_bonus:
{rows(list(WIDTH_BONUS))}
; ... and what a clean way out (a straight climb past no guarded square) adds,
; by distance.
; The sum is clamped to MAX_EVAL = ${MAX_EVAL:02X}.
pass_bonus:
{rows(list(PASS_BONUS))}
"""


if __name__ == "__main__":
    import sys
    if "--tables" in sys.argv:
        sys.stdout.write(ophis_tables())
    if "--book" in sys.argv:
        from asm.tools.oracle import get_oracle
        oracle = get_oracle()
        sys.stdout.write(ophis_book(game_book(oracle), len(build_book(oracle)), oracle))
