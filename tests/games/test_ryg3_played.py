"""The move ryg3 plays is the move its search valued, with the thinking
display on, at every level of the ladder -- and the value row tells the truth
about it.

The real ryg3en .prg as a player meets it (tests/tools/ryg3_play.py): the
level chosen with L, a critical won position typed with T, the cats to move
by the computer; the move is read from the screen.  Then memory is read (not
written) for what the search held: the root moves and their values.  The
display used to rebuild the root's move list in another order between
iterations, so a level with a margin gave the best move's value to another
move (`L5TD2{return}A3C3E1E3{return}C`: "CATS WIN IN 3 MOVES: A3-B2" on the
screen, E3-F2 played, the mouse won).
"""

import pytest

from asm.tools import ryg3_model as M
from asm.tools.oracle import legal_cat_moves
from asm.tools.ryg3_model import game_book
from tests.tools.ladder import critical_positions
from tests.tools.ryg3_play import ROW_PV, PlayedGame

WIN_VALUE, LOSS_VALUE = M.WIN_VALUE, M.LOSS_VALUE


def zobrist(game):
    return [[[game.peek(p, piece * 64 + sq) for sq in range(64)] for p in ("zob_lo", "zob_hi", "zob_lock")]
            for piece in range(2)]


def verdict_after(value, book=False):
    """The value row's words once the cats' move valued `value` (their view)
    is on the board and the mouse is to move (asm/ryg3/display.oph:
    show_after_move, print_verdict)."""
    if book or value >= WIN_VALUE or value <= LOSS_VALUE:
        if value >= 0x80:
            plies = 0xFF - value - 1
            return f"CATS WIN IN {plies} MOVE" + ("" if plies == 1 else "S")
        plies = value - 1
        return f"MOUSE WINS IN {plies} MOVE" + ("" if plies == 1 else "S")
    mine = 0xFF - value                      # the mouse's view
    amount = mine - 0x80 if mine >= 0x80 else 0x7F - mine
    leader = "MOUSE" if mine >= 0x80 else "CATS"
    return f"{leader} +{amount}" if amount else "EVEN"


def check_level(n, positions, oracle, book):
    level = M.LEVELS[n]
    game = PlayedGame(sid_seed=100 + n)
    game.level(n)
    assert f"LEVEL {n}: DEPTH {level.depth} {level.seconds} SEC" in game.row(14)
    checked = 0
    for mouse, cats in positions:
        game.edit(mouse, cats, False)
        played = game.computer_move()
        assert played in legal_cat_moves(mouse, cats), game.text()
        after = (cats - {played[0]}) | {played[1]}
        if game.peek("depth_done") == 0:                  # answered from the book
            assert level.book and book[(M.SIDE_CATS, mouse, frozenset(cats))] == played
            assert game.row(ROW_PV).startswith(verdict_after(game.peek("best_value"), book=True)) \
                or game.row(ROW_PV).strip() == ""
            continue
        roots = {(a, b): v for a, b, v in game.root_moves()}
        assert played in roots, (roots, played, game.text())
        best, value = max(roots.values()), roots[played]
        assert game.peek("best_value") == value           # the value shown is the move's
        if level.margin:
            assert value > best - level.margin, (n, roots, played)
        else:
            assert value == best, (n, roots, played)
        if best >= WIN_VALUE:                             # the search saw a forced win ...
            assert value >= WIN_VALUE                     # ... so the move played is one
        if value >= WIN_VALUE:                            # and the oracle agrees it wins
            assert oracle.score(mouse, after, True) < 0, (n, mouse, cats, played)
        if best > LOSS_VALUE:
            assert value > LOSS_VALUE                     # never a known loss by choice
        shown = game.row(ROW_PV)
        if shown.strip():                                 # (empty when the move ended the game)
            assert shown.startswith(verdict_after(value)), (shown, value)
        # the model and the 6502 in lockstep, as played: the same keys, the same SID byte
        if not game.peek("aborted") and game.peek("depth_done") == level.depth:
            model = M.Model(mouse, sorted(cats), M.SIDE_CATS, zobrist=zobrist(game))
            want = model.think(level.depth, margin=level.margin, rand=game.peek("rand_byte"))
            assert (want.move, want.value) == (played, value), (n, mouse, cats)
            checked += 1
    return checked


@pytest.fixture(scope="module")
def book(oracle):
    return game_book(oracle)


@pytest.mark.parametrize("n", range(1, 10))
def test_the_move_played_is_the_move_valued(n, oracle, book):
    positions = critical_positions(12 if n <= 6 else 5, oracle, seed=11)
    checked = check_level(n, positions, oracle, book)
    if n <= 6:
        assert checked >= len(positions) // 2          # the model followed most of them


@pytest.mark.slow
@pytest.mark.parametrize("n", range(1, 10))
def test_the_move_played_is_the_move_valued_in_many_positions(n, oracle, book):
    check_level(n, critical_positions(100, oracle, seed=12), oracle, book)
