"""The classic reference model follows the design: move order, legality,
evaluation tables, the two tree styles, the tie-break, the book and the end
checks.  (The programs themselves are compared with it in the other
test_ryg_classic_* files.)"""

import pytest

from tests.tools import classic_model as M
from asm.tools import oracle

RYG23 = M.VERSIONS["ryg23"]
RYG19 = M.VERSIONS["ryg19"]
RYG15 = M.VERSIONS["ryg15"]


def test_the_mouse_starts_with_two_moves_numbered_by_direction():
    assert M.mouse_moves(M.start_position()) == [(0, 50), (1, 52)]


def test_cat_moves_come_in_slot_order_with_direction_0_first():
    pos = M.Pos(50, (0, 2, 4, 6), False, 1)
    assert M.cat_moves(pos) == [(0, 1, 9), (1, 0, 9), (1, 1, 11), (2, 0, 11),
                                (2, 1, 13), (3, 0, 13), (3, 1, 15)]


def test_moves_wrapping_off_the_left_or_right_edge_are_illegal():
    # mouse on (2,0): (-1,-1) would wrap to offset 7, (+1,-1) to offset 23
    assert M.mouse_moves(M.Pos(16, (1, 3, 5, 62), True, 0)) == [(1, 9), (2, 25)]
    # cat on (0,6)... and on (1,7): +9 from 15 would wrap to 24
    assert [m for m in M.cat_moves(M.Pos(59, (15, 2, 4, 6), False, 1)) if m[0] == 0] == [(0, 0, 22)]


def test_sorted_cat_numbering_follows_the_board_for_the_matrix_versions():
    pos = M.Pos(50, (13, 2, 4, 6), False, 3)
    kids = M.children(pos, sorted_cats=True)
    assert kids[0].cats == (4, 6, 9, 13)          # first the cat on offset 2 moves, SW
    assert all(list(k.cats) == sorted(k.cats) for k in kids)


def test_move_generation_agrees_with_the_independent_oracle_rules():
    for pos in M.random_positions(300, 11):
        cats = {oracle.from_classic(c) for c in pos.cats}
        mouse = oracle.from_classic(pos.mouse)
        ours = {oracle.from_classic(d) for _, d in M.mouse_moves(pos)}
        assert ours == set(oracle.legal_mouse_moves(mouse, cats))
        ours = {(oracle.from_classic(pos.cats[i]), oracle.from_classic(d)) for i, _, d in M.cat_moves(pos)}
        assert ours == set(oracle.legal_cat_moves(mouse, cats))


def test_evaluation_of_the_start_position_by_hand():
    start = M.start_position()
    # row 7 -> 0, two mouse moves -> -2:  $80 - 2
    assert M.evaluate(start, 1) == 0x7E
    # v3 adds the spread of a closed line (all cats on row 0) -> -16
    assert M.evaluate(start, 3) == 0x6E


def test_a_mouse_level_with_the_last_cat_has_passed():
    pos = M.Pos(27, (25, 29, 36, 38), True, 21)    # mouse (3,3); cats on rows 3, 3, 4, 4
    # row 3 -> 4, 3 moves -> -1, spread 4-3=1 -> -8, passed (no cat above row 3) -> +$20
    assert M.evaluate(pos, 3) == 0x80 + 4 - 1 - 8 + 0x20
    assert M.evaluate(pos, 1) == 0x80 + 4 - 1
    # a cat on (2,2): not passed, spread 2 -> 0, and (2,2) is blocked -> two moves
    assert M.evaluate(pos._replace(cats=(18, 29, 36, 38)), 3) == 0x80 + 4 - 2


def test_a_trapped_mouse_scores_minus_32_for_mobility():
    pos = M.Pos(63, (54, 0, 2, 4), True, 9)        # (7,7): only (6,6) and it is taken
    assert M.mouse_moves(pos) == []
    assert M.evaluate(pos, 1) == 0x80 + 0 - 32


def test_tree_styles_differ_when_a_side_cannot_move_above_the_depth_limit():
    # all cats on the bottom row cannot move; the mouse moves to a node whose
    # cats have no move: whole tree evaluates it, depth-first keeps $FF
    pos = M.Pos(36, (57, 59, 61, 63), True, 30)
    assert M.minimax(pos, 2, RYG23) == 0xFF
    assert M.minimax(pos, 2, RYG19) == max(M.evaluate(k, 3) for k in M.children(pos))
    assert M.minimax(pos, 1, RYG23) == M.minimax(pos, 1, RYG19)


def test_the_cats_play_the_first_child_with_the_root_value():
    for pos in M.random_positions(40, 5):
        index, root, values, kids = M.decide(pos, 3, RYG23)
        assert root == min(values)
        assert values.index(root) == index
        assert M.minimax(pos, 3, RYG23) == root


def test_the_opening_book_builds_a_closed_line_on_row_1():
    pos = M.start_position()
    for dirs_played, mouse in enumerate((50, 41, 50, 41)):
        pos = M.Pos(mouse, pos.cats, False, pos.level + 1)
        pos = M.book_move(pos)
    assert pos.cats == (9, 11, 13, 15) and pos.level == 8
    assert M.book_move(M.Pos(41, (9, 11, 13, 15), False, 9)) is None


def test_a_game_reports_the_first_end_condition_that_holds():
    # the mouse walks straight at a depth-1 cat player until someone wins
    result, seen = M.play(RYG15, 1, [0, 0, 2, 0, 3, 2, 1, 3, 0, 1, 2, 1, 1, 2, 3, 1, 2, 1, 3, 2, 0, 2, 0, 2])
    assert result == "cats"
    assert not M.mouse_moves(seen[-1])
    assert all(M.mouse_moves(p) for p in seen[:-1] if p.mouse_to_move)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 6, 10])
def test_depth_first_memory_stays_within_the_path_and_its_siblings(depth):
    cat_levels, mouse_levels = (depth + 1) // 2, depth // 2
    bound = 29 * (1 + 8 * cat_levels + 4 * mouse_levels)
    for pos in M.random_positions(5, 2):
        if depth <= 6:
            assert M.depthfirst_high_water(pos, depth) <= bound
    assert depth != 10 or bound <= 2048                 # "about 2 KB for depth 10"
