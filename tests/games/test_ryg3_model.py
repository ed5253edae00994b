"""The Python model of ryg3 (asm/tools/ryg3_model.py) on its own: tables,
move order, make/unmake, evaluation values worked out by hand, search basics."""

from asm.tools import ryg3_model as M
from asm.tools.oracle import parse_square
from tests.tools.ryg3_harness import ASM_DIR


def sq(*names):
    return [parse_square(n) for n in names]


def test_generated_tables_source_is_up_to_date():
    assert (ASM_DIR / "ryg3" / "tables.oph").read_text() == M.ophis_tables()


def test_move_tables_follow_the_directions():
    e1, a1, h8 = sq("E1", "A1", "H8")
    assert [M.MOUSE_MOVES[e1 * 4 + d] for d in range(4)] == [0xFF, 0xFF] + sq("F2", "D2")
    assert [M.MOUSE_MOVES[a1 * 4 + d] for d in range(4)] == [0xFF, 0xFF, parse_square("B2"), 0xFF]
    assert [M.CAT_MOVES[h8 * 2 + d] for d in range(2)] == [parse_square("G7"), 0xFF]


def test_gen_orders_mouse_ne_nw_sw_se_and_rear_cats_first():
    model = M.Model(parse_square("D4"), sq("B2", "H8", "A7", "F2"), M.SIDE_MOUSE)
    model.gen()
    assert list(zip(model.move_start, model.move_dest)) == [
        tuple(sq("D4", t)) for t in ("E5", "C5", "C3", "E3")]
    model.side = M.SIDE_CATS
    model.gen()
    starts = [s for s in model.move_start]
    assert starts == sq("H8", "A7", "F2", "F2", "B2", "B2")


def test_make_and_unmake_restore_the_position_and_key():
    model = M.Model()
    key = list(model.key)
    model.gen()
    for i in range(model.first_move[1]):
        model.make(i)
        assert model.key != key and model.side == M.SIDE_CATS
        model.unmake()
        assert model.key == key and model.board[M.START_MOUSE] == M.MOUSE


def test_at_the_start_the_whole_board_is_the_mouses_cage():
    # The cats fill rank 8: no square level with them is free.
    model = M.Model()
    assert model.distance_to_freedom() == (None, 28, 0)
    assert model.evaluate() == M.CAGED_BASE + 28 + 0


def test_free_mouse_is_valued_by_its_distance_and_the_cats_spread():
    # Rear cats on rank 6, the fourth on F4: H6 is free, reached E1-F2-G3-H4-G5-H6.
    # Every shortest way passes a guarded square (G5 and H4 are guarded): no bonus.
    model = M.Model(parse_square("E1"), sq("B6", "D6", "F6", "F4"), M.SIDE_MOUSE)
    assert model.distance_to_freedom()[0::2] == (5, 1)
    assert not model.clean_climb()
    assert model.evaluate() == (M.FREE_BY_DISTANCE[5] + M.SPREAD_PENALTY[2]
                                + M.WIDTH_BONUS[5 * 4 + 1])


def test_a_forked_cat_cannot_guard_both_squares_above_the_mouse():
    # Cats C5 E5 G5 F6, mouse C3 (the oracle: the mouse wins whoever moves).
    # C5 guards B4 and D4, but it can only step on one of them: the climb
    # C3-B4-A5-B6 is clean (A5 and B6 are not guarded).
    model = M.Model(parse_square("C3"), sq("C5", "E5", "G5", "F6"), M.SIDE_CATS)
    assert model.distance_to_freedom()[0] == 3 and model.clean_climb()
    assert model.evaluate() == min(M.MAX_EVAL, M.FREE_BY_DISTANCE[3] + M.SPREAD_PENALTY[1]
                                   + M.WIDTH_BONUS[3 * 4 + 1] + M.PASS_BONUS[3])
    # With D6 instead of F6 the fork fails: C5 shuts B4 and D6 refills C5.
    model = M.Model(parse_square("C3"), sq("C5", "E5", "G5", "D6"), M.SIDE_CATS)
    assert model.distance_to_freedom()[0] == 3 and not model.clean_climb()
    # One rank lower there is no fork (B4 and D4 are guarded): no clean way.
    model = M.Model(parse_square("D2"), sq("C5", "E5", "G5", "F6"), M.SIDE_CATS)
    assert model.distance_to_freedom()[0] == 4
    assert not model.clean_climb()


def test_the_evaluation_stays_below_the_smallest_win():
    # Level with the rear cat (B4 F4 H4, A1 far ahead): 0 steps from freedom;
    # the terms add up past MAX_EVAL and are clamped there.
    model = M.Model(parse_square("D4"), sq("B4", "F4", "H4", "A1"), M.SIDE_MOUSE)
    assert model.distance_to_freedom() == (0, 1, 1)
    assert M.FREE_BY_DISTANCE[0] + M.SPREAD_PENALTY[3] + M.PASS_BONUS[0] > M.MAX_EVAL
    assert model.evaluate() == M.MAX_EVAL < 0xFF - (M.LOSS + M.MAX_PLY - 1)


def test_a_caged_mouse_is_valued_by_its_cage():
    # Cats B4 and C3 close the corner: the mouse walks A3, B2, A1 only.
    model = M.Model(parse_square("A3"), sq("B4", "C3", "C1", "H8"), M.SIDE_MOUSE)
    dist, count, _ = model.distance_to_freedom()
    assert dist is None and count == 3            # A3, B2, A1
    assert model.evaluate() == M.CAGED_BASE + 3 + 2


def test_search_finds_the_trap_in_one_ply():
    model = M.Model(parse_square("A1"), sq("C3", "B8", "D8", "F8"), M.SIDE_CATS)
    result = model.think(3)
    assert result.move == tuple(sq("C3", "B2"))
    assert result.value == 0xFF - (M.LOSS + 1)   # the mouse has lost at ply 1


def test_search_takes_the_mouse_home_when_it_can():
    model = M.Model(parse_square("C7"), sq("A1", "C1", "E1", "H2"), M.SIDE_MOUSE)
    assert model.think(2).move[1] in sq("B8", "D8")
