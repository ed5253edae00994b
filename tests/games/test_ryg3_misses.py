"""The book answers the positions ryg3's search gets wrong.

asm/tools/ryg3_misses.py swept every position where a move can be worse
than the oracle's (cats to move: won, and a move gives the win away; mouse
to move: a win to take, or a longest defence to find) and listed the ones
where the model's search chooses worse, at depths 7 to 10 with two sets of
Zobrist keys.  The book (asm/ryg3/book.oph) answers them with the oracle's
move.  These tests check the list against the oracle, check that it is
complete on samples searched with a third set of keys, and run the real
.prg on positions its search alone gives away.
"""

import random

import pytest

from asm.tools import ryg3_model as M
from tests.tools.ryg3_harness import EngineOnC64
from asm.tools.ryg3_misses import critical_positions, is_critical, is_miss, reachable_parity
from asm.tools.ryg3_model import game_book, read_misses

SIDES = (M.SIDE_CATS, M.SIDE_MOUSE)
UNSWEPT_KEYS = 3        # the sweep used python_zobrist(1) and (2)

# Cats-to-move positions the search alone (book off) gives away at the
# default level, found on the real .prg in the samples of
# test_ryg3_strength.py (seeds 3 and 4, 2026-11-22).
GIVEN_AWAY_BY_THE_SEARCH = [
    (38, (18, 36, 45, 54)),     # mouse G5, cats C3 E5 F6 G7: only E5-F4 wins
    (25, (27, 34, 41, 54)),
    (13, (29, 41, 59, 61)),
]


@pytest.fixture(scope="module")
def misses():
    return {side: read_misses(side) for side in SIDES}


@pytest.fixture(scope="module")
def book(oracle):
    return game_book(oracle)


@pytest.fixture(scope="module")
def critical(oracle):
    return {side: critical_positions(oracle, side) for side in SIDES}


def test_the_misses_are_positions_of_games_where_a_move_can_be_worse(oracle, misses):
    assert len(misses[M.SIDE_CATS]) > 500 and len(misses[M.SIDE_MOUSE]) > 50
    for side in SIDES:
        assert len(set(misses[side])) == len(misses[side])
        for mouse, cats in misses[side]:
            assert reachable_parity(mouse, cats, side)
            assert is_critical(oracle, mouse, cats, side), (side, mouse, cats)


def test_every_book_move_is_as_good_as_the_oracles_best(oracle, book):
    for (side, mouse, cats), move in book.items():
        assert not is_miss(oracle, mouse, cats, side, move), (side, mouse, sorted(cats), move)


def test_every_listed_miss_is_in_the_book(misses, book):
    for side in SIDES:
        for mouse, cats in misses[side]:
            assert (side, mouse, frozenset(cats)) in book


def sample_misses(oracle, book, critical, side, n, depths, seed):
    """Positions of a random sample of critical ones where the model at one
    of `depths`, with keys the sweep did not use, chooses worse -- book on."""
    keys = M.python_zobrist(UNSWEPT_KEYS)
    found = []
    for mouse, cats in random.Random(seed).sample(critical[side], n):
        for depth in depths:
            move = M.Model(mouse, list(cats), side, zobrist=keys).think(depth, book=book).move
            if is_miss(oracle, mouse, cats, side, move):
                found.append((depth, mouse, cats))
    return found


@pytest.mark.parametrize("side", SIDES, ids=["cats", "mouse"])
def test_with_the_book_the_default_depth_misses_nothing_on_a_sample(oracle, book, critical, side):
    # 120 critical positions per side; the search alone misses about 1 in 100
    # of the cats' and 1 in 30 of the mouse's at depth 8.
    assert sample_misses(oracle, book, critical, side, 120, [8], seed=side) == []


@pytest.mark.slow
@pytest.mark.parametrize("side", SIDES, ids=["cats", "mouse"])
def test_with_the_book_depths_7_to_10_miss_nothing_on_2000_positions(oracle, book, critical, side):
    assert sample_misses(oracle, book, critical, side, 2000, [7, 8, 9, 10], seed=10 + side) == []


def test_the_c64_answers_from_the_book_what_its_search_alone_gives_away(oracle, misses):
    engine = EngineOnC64()
    for mouse, cats in GIVEN_AWAY_BY_THE_SEARCH:
        assert (mouse, cats) in misses[M.SIDE_CATS]
        engine.set_position(mouse, cats, M.SIDE_CATS)
        alone = engine.think(8, 10, book=False)
        assert is_miss(oracle, mouse, cats, M.SIDE_CATS, alone.move)
        with_book = engine.think(8, 10, book=True)
        assert with_book.depth == 0 and with_book.nodes == 0
        assert not is_miss(oracle, mouse, cats, M.SIDE_CATS, with_book.move)


def test_the_c64_book_holds_the_listed_misses_of_both_sides(oracle, misses, book):
    engine = EngineOnC64()
    rng = random.Random(5)
    for side in SIDES:
        for mouse, cats in rng.sample(misses[side], 15):
            engine.set_position(mouse, cats, side)
            t = engine.think(8, 10, book=True)
            assert (t.depth, t.nodes) == (0, 0)
            assert t.move == book[(side, mouse, frozenset(cats))]
