"""The oracle (asm/tools/oracle.py) solves the game exactly.

Checked three ways: hand-worked positions, local consistency (every score
is the best child score one ply further away), and agreement with a plain
recursive solver written independently here on small endgames.
"""

import random
from functools import lru_cache

import pytest

from asm.tools.oracle import (CATS, MOUSE, START_CATS, START_MOUSE, WIN, Oracle, from_classic,
                                is_dark, legal_cat_moves, legal_mouse_moves,
                                parse_square)


def sq(*names):
    return [parse_square(n) for n in names]


def test_start_position_is_a_win_for_the_cats(oracle):
    v = oracle.solve(START_MOUSE, START_CATS, True)
    assert v.winner == CATS
    assert v.plies % 2 == 0  # the cats' move ends it, the mouse moved first


def test_start_square_names_match_the_design():
    assert START_MOUSE == parse_square("E1") == from_classic(59)
    assert sorted(START_CATS) == sq("B8", "D8", "F8", "H8")
    assert sorted(from_classic(o) for o in (0, 2, 4, 6)) == sorted(START_CATS)


def test_a_mouse_without_moves_has_lost_at_once(oracle):
    # Mouse in the corner A1, its only neighbour B2 taken by a cat.
    v = oracle.solve(parse_square("A1"), sq("B2", "B8", "D8", "F8"), True)
    assert (v.winner, v.plies) == (CATS, 0)


def test_cats_close_the_corner_in_one_ply(oracle):
    v = oracle.solve(parse_square("A1"), sq("C3", "B8", "D8", "F8"), False)
    assert (v.winner, v.plies) == (CATS, 1)


def test_cats_without_moves_have_lost_at_once(oracle):
    v = oracle.solve(parse_square("D4"), sq("A1", "C1", "E1", "G1"), False)
    assert (v.winner, v.plies) == (MOUSE, 0)


def test_mouse_past_stuck_cats_wins_with_its_next_move(oracle):
    v = oracle.solve(parse_square("D4"), sq("A1", "C1", "E1", "G1"), True)
    assert (v.winner, v.plies) == (MOUSE, 1)


def test_mouse_behind_the_cats_runs_to_rank_8(oracle):
    # Three mouse moves E5-D6-E7-D8; the cats still have moves until then.
    v = oracle.solve(parse_square("E5"), sq("B2", "D2", "F2", "H2"), True)
    assert (v.winner, v.plies) == (MOUSE, 5)


def test_mouse_on_rank_8_has_won(oracle):
    v = oracle.solve(parse_square("D8"), sq("A1", "C3", "E3", "G3"), False)
    assert (v.winner, v.plies) == (MOUSE, 0)


def random_position(rng):
    squares = [s for s in range(64) if is_dark(s)]
    picked = rng.sample(squares, 5)
    return picked[0], frozenset(picked[1:]), rng.random() < 0.5


def expected_from_children(oracle, mouse, cats, mouse_to_move):
    """The rules applied to one position, children scored by the oracle."""
    if mouse >= 56:
        return WIN
    if mouse_to_move:
        kids = [oracle.score(d, cats, False) for d in legal_mouse_moves(mouse, cats)]
        if not kids:
            return -WIN
        best = max(kids)
    else:
        kids = [oracle.score(mouse, (cats - {a}) | {b}, True) for a, b in legal_cat_moves(mouse, cats)]
        if not kids:
            return WIN
        best = min(kids)
    return best - 1 if best > 0 else best + 1


def test_every_score_is_the_best_child_one_ply_further(oracle):
    rng = random.Random(7)
    for _ in range(20000):
        mouse, cats, mtm = random_position(rng)
        assert oracle.score(mouse, cats, mtm) == expected_from_children(oracle, mouse, cats, mtm)


def test_scores_along_a_perfect_game_count_down_to_the_end(oracle):
    mouse, cats, mtm = START_MOUSE, frozenset(START_CATS), True
    rng = random.Random(3)
    plies = oracle.solve(mouse, cats, mtm).plies
    while plies:
        if mtm:
            mouse = rng.choice(oracle.best_mouse_moves(mouse, cats))
        else:
            a, b = rng.choice(oracle.best_cat_moves(mouse, cats))
            cats = (cats - {a}) | {b}
        mtm = not mtm
        v = oracle.solve(mouse, cats, mtm)
        assert v.plies == plies - 1 and v.winner == CATS
        plies = v.plies
    assert not legal_mouse_moves(mouse, cats)


@lru_cache(maxsize=None)
def naive_solve(mouse, cats, mouse_to_move):
    """Independent recursive solver: (winner, plies)."""
    if mouse >= 56:
        return (MOUSE, 0)
    if mouse_to_move:
        kids = [naive_solve(d, cats, False) for d in legal_mouse_moves(mouse, cats)]
        if not kids:
            return (CATS, 0)
        me = MOUSE
    else:
        kids = [naive_solve(mouse, (cats - {a}) | {b}, True) for a, b in legal_cat_moves(mouse, cats)]
        if not kids:
            return (MOUSE, 0)
        me = CATS
    wins = [p for w, p in kids if w == me]
    if wins:
        return (me, min(wins) + 1)
    return ("cats" if me == MOUSE else "mouse", max(p for _, p in kids) + 1)


def test_oracle_agrees_with_a_plain_recursive_solver_on_endgames(oracle):
    rng = random.Random(11)
    low = [s for s in range(40) if is_dark(s)]          # cats on ranks 1-5
    checked = 0
    while checked < 400:
        cats = frozenset(rng.sample(low, 4))
        mouse = rng.choice([s for s in range(64) if is_dark(s) and s not in cats])
        mtm = rng.random() < 0.5
        v = oracle.solve(mouse, cats, mtm)
        assert (v.winner, v.plies) == naive_solve(mouse, cats, mtm)
        checked += 1


def test_disk_cache_gives_the_same_table(tmp_path, oracle):
    first = Oracle(tmp_path)            # solves and saves
    assert first.solve_seconds is not None
    second = Oracle(tmp_path)           # loads
    assert second.solve_seconds is None
    assert second.table == first.table == oracle.table


def test_impossible_positions_are_refused(oracle):
    with pytest.raises(ValueError):
        oracle.score(parse_square("B8"), START_CATS, True)
    with pytest.raises(ValueError):
        oracle.score(parse_square("E2"), START_CATS, True)
