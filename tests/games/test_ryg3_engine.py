"""ryg3's 6502 engine does exactly what the Python model does.

The engine runs in the emulated C64 (tests/tools/ryg3_harness.py); its
routines are called by their names in asm/ryg3.map.  The model
(asm/tools/ryg3_model.py) gets the Zobrist keys the engine drew from the
SID, so both must agree on every move, value and node count.
"""

import random

import pytest

from asm.tools import ryg3_model as M
from asm.tools.oracle import is_dark, parse_square
from tests.tools.ryg3_harness import EngineOnC64

DARK = [s for s in range(64) if is_dark(s)]


@pytest.fixture(scope="module")
def engine():
    return EngineOnC64()


def random_positions(n, seed):
    """Random legal-looking positions: 5 distinct dark squares, mouse not on rank 8."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        squares = rng.sample(DARK, 5)
        if squares[0] < 56:
            out.append((squares[0], squares[1:], rng.randrange(2)))
    return out


def played_positions(n, seed):
    """Positions from random games from the start (the kind the engine meets)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        model = M.Model()
        for _ in range(rng.randrange(1, 30)):
            model.ply = 0
            model.gen()
            if model.first_move[1] == 0 or model.mouse_sq >= 56:
                break
            model.make(rng.randrange(model.first_move[1]))
            model.history.clear()
        model.ply = 0
        model.gen()
        if model.first_move[1] and model.mouse_sq < 56:
            out.append((model.mouse_sq, list(model.cat_sq), model.side))
    return out


def test_move_tables_in_memory_are_the_models(engine):
    assert [engine.peek("mouse_moves", i) for i in range(256)] == M.MOUSE_MOVES
    assert [engine.peek("cat_moves", i) for i in range(128)] == M.CAT_MOVES


def test_zobrist_keys_come_from_the_sid_seed():
    a, b, c = EngineOnC64(sid_seed=5), EngineOnC64(sid_seed=5), EngineOnC64(sid_seed=6)
    assert a.zobrist() == b.zobrist()
    assert a.zobrist() != c.zobrist()
    keys = [k for piece in a.zobrist() for part in piece for k in part]
    assert len(set(keys)) > 150          # noise, not a constant (384 draws: ~199 distinct)


def test_evaluation_equals_the_model_on_random_positions(engine):
    # Played positions meet the clean climb's cases; the last three: a forked
    # cat (C3 under C5), the same with D6 to refill C5, a value clamped to MAX_EVAL.
    special = [(parse_square(m), [parse_square(c) for c in cs.split()], M.SIDE_CATS)
               for m, cs in (("C3", "C5 E5 G5 F6"), ("C3", "C5 E5 G5 D6"), ("D4", "B4 F4 H4 A1"))]
    for mouse, cats, side in random_positions(150, seed=1) + played_positions(150, seed=7) + special:
        engine.set_position(mouse, cats, side)
        model = M.Model(mouse, cats, side, zobrist=engine.zobrist())
        assert engine.call("evaluate")[0] == model.evaluate(), (mouse, cats)


def test_gen_lists_the_models_moves_in_the_same_order(engine):
    for mouse, cats, side in random_positions(60, seed=2):
        engine.set_position(mouse, cats, side)
        engine.poke("first_move", 0)
        engine.call("gen")
        n = engine.peek("first_move", 1)
        got = [(engine.peek("move_start", i), engine.peek("move_dest", i)) for i in range(n)]
        model = M.Model(mouse, cats, side)
        model.gen()
        assert got == list(zip(model.move_start, model.move_dest))


def test_make_then_unmake_restores_board_pieces_and_key(engine):
    for mouse, cats, side in random_positions(30, seed=3):
        engine.set_position(mouse, cats, side)
        engine.poke("first_move", 0)
        engine.call("gen")
        before = engine.m.mem.ram[engine.addr("board"):engine.addr("board") + 64]
        key = [engine.peek(k) for k in ("key_lo", "key_hi", "key_lock", "mouse_sq", "side")]
        for i in range(engine.peek("first_move", 1)):
            engine.poke("cur_at", i)
            engine.call("make", x=i)
            assert engine.peek("ply") == 1 and engine.peek("side") == side ^ 1
            engine.call("unmake")
            assert engine.m.mem.ram[engine.addr("board"):engine.addr("board") + 64] == before
            assert [engine.peek(k) for k in ("key_lo", "key_hi", "key_lock", "mouse_sq", "side")] == key
            assert [engine.peek("cat_sq", j) for j in range(4)] == list(cats)


def think_both(engine, mouse, cats, side, depth):
    engine.call("clear_hash")
    engine.set_position(mouse, cats, side)
    got = engine.think(depth)
    model = M.Model(mouse, cats, side, zobrist=engine.zobrist())
    want = model.think(depth)
    return got, want


def test_search_chooses_the_models_move_value_and_node_count(engine):
    for mouse, cats, side in played_positions(30, seed=4):
        got, want = think_both(engine, mouse, cats, side, 4)
        assert (got.move, got.value, got.depth, got.nodes) == (want.move, want.value, want.depth, want.nodes)


def test_plain_py65_and_the_fast_core_think_alike():
    from c64.cpu import CPU
    slow, fast = EngineOnC64(cpu_class=CPU), EngineOnC64()
    for e in (slow, fast):
        e.set_position(M.START_MOUSE, list(M.START_CATS), M.SIDE_MOUSE)
    assert slow.think(5) == fast.think(5)


def test_search_from_the_start_position_agrees_at_depth_6(engine):
    got, want = think_both(engine, M.START_MOUSE, list(M.START_CATS), M.SIDE_MOUSE, 6)
    assert (got.move, got.value, got.nodes) == (want.move, want.value, want.nodes)


def test_side_without_moves_gets_no_move(engine):
    engine.set_position(parse_square("A1"), [parse_square(s) for s in ("B2", "B8", "D8", "F8")], M.SIDE_MOUSE)
    assert engine.think(3).move is None


@pytest.mark.slow
def test_search_agrees_with_the_model_on_many_positions_at_depth_6(engine):
    for mouse, cats, side in played_positions(150, seed=5):
        got, want = think_both(engine, mouse, cats, side, 6)
        assert (got.move, got.value, got.nodes) == (want.move, want.value, want.nodes), (mouse, cats, side)


def test_time_limit_is_a_cap_and_the_stopped_iteration_counts(engine):
    # Depth up to 24, one or two seconds: the search stops 6 jiffies before the
    # level's seconds (60 jiffies a second of C64 time) inside an iteration and
    # plays the best root move that iteration finished -- the model, stopped
    # at the same node, chooses the same move with the same value.
    partial = stopped = 0
    for mouse, cats, side in [(M.START_MOUSE, list(M.START_CATS), M.SIDE_MOUSE)] + played_positions(8, seed=9):
        for seconds in (1, 2):
            engine.call("clear_hash")
            engine.set_position(mouse, cats, side)
            got = engine.think(24, seconds=seconds)
            assert got.move is not None and got.aborted in (0, 1)   # 0: no iteration after 0.8 s
            stopped += got.aborted
            assert got.seconds <= seconds, (mouse, cats, side, got)
            model = M.Model(mouse, cats, side, zobrist=engine.zobrist())
            want = model.think(24, stop_at=got.nodes) if got.aborted else model.think(got.depth)
            assert (got.move, got.value, got.depth, got.nodes) == (want.move, want.value, want.depth, want.nodes)
            plain = M.Model(mouse, cats, side, zobrist=engine.zobrist()).think(got.depth)
            partial += (got.move, got.value) != (plain.move, plain.value)
    assert stopped > 8 and partial > 0      # some stopped iterations changed the move or its value


def test_a_levels_margin_picks_the_models_move_with_the_sid_byte(engine):
    # pick_move: among the root moves valued within the margin of the best,
    # the k-th, k = the SID byte modulo their number; the model, given the
    # byte the engine read, picks the same move with the same value.
    other = 0
    for mouse, cats, side in played_positions(25, seed=11):
        for depth, margin in ((1, 60), (2, 40), (4, 12)):
            engine.call("clear_hash")
            engine.set_position(mouse, cats, side)
            got = engine.think(depth, margin=margin)
            want = M.Model(mouse, cats, side, zobrist=engine.zobrist()).think(depth, margin=margin, rand=got.rand)
            assert (got.move, got.value, got.nodes) == (want.move, want.value, want.nodes)
            best = M.Model(mouse, cats, side, zobrist=engine.zobrist()).think(depth)
            assert got.value > best.value - margin
            other += got.move != best.move
    assert other > 10                   # the margin does choose other moves


def test_hash_collisions_are_counted(engine):
    engine.call("clear_hash")
    assert engine.peek("collisions") == engine.peek("collisions", 1) == 0
    engine.set_position(parse_square("D4"), [parse_square(s) for s in ("B6", "D6", "F6", "H6")], M.SIDE_CATS)
    engine.think(7)
    model = M.Model(parse_square("D4"), [parse_square(s) for s in ("B6", "D6", "F6", "H6")],
                    M.SIDE_CATS, zobrist=engine.zobrist())
    model.think(7)
    assert engine.peek("collisions") | engine.peek("collisions", 1) << 8 == model.collisions
