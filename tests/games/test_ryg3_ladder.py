"""ryg3's ladder of levels (asm/ryg3/levels.oph), measured against the oracle
on the real .prg (tests/tools/ladder.py; python tests/bench/bench_ladder.py
prints the README's table; measured 2026-11-23: games lost 20, 9, 3, 4, 0,
3, 0, 0, 0 and positions given away 275, 185, 67, 54, 15, 14, 3, 0, 0 of 1000
for levels 1-9).

Requirements: each level gives away no more won positions than the level
below it; level 1 loses at least half of its games from the start to a
perfect mouse; the default level and the top level lose none and give none
away; no move takes more C64 seconds than its level says.
"""

import pytest

from asm.tools import ryg3_model as M
from tests.tools.ladder import Measure, give_away, measure_level, play_games
from tests.tools.positions import cats_won_positions
from tests.tools.ryg3_harness import EngineOnC64


def test_low_levels_give_wins_away_and_lose_games_the_default_does_not(oracle):
    # A small sample for the default suite (the slow test below runs 1000
    # positions and 20 games a level).
    positions = cats_won_positions(30, 8, oracle)
    measures = {}
    for n in (1, 3, M.DEFAULT_LEVEL):
        m = measures[n] = Measure()
        engine = EngineOnC64(sid_seed=n)
        give_away(engine, M.LEVELS[n], positions, oracle, m)
        if n == 1:
            play_games(engine, M.LEVELS[1], 4, oracle, m)
        assert m.most <= M.LEVELS[n].seconds
    assert measures[1].given_away >= measures[3].given_away >= measures[M.DEFAULT_LEVEL].given_away == 0
    assert measures[1].given_away > 0
    assert measures[1].lost >= 2


@pytest.mark.slow
def test_the_ladder_scales_against_a_perfect_mouse_and_keeps_its_clock(oracle):
    results = {}
    for n in sorted(M.LEVELS):
        # levels 7-9 (seconds of depth 7-9): the games and 100 positions on the
        # C64, the other 900 positions with the model (as the README's table)
        m = results[n] = measure_level(EngineOnC64(sid_seed=1000 + n), n, oracle,
                                       model_from=100 if n >= 7 else None)
        print(f"\nlevel {n}: {m.lost} of {m.games} games lost, {m.given_away} of {m.positions} given away, "
              f"{m.average:.2f} s average, {m.most:.2f} s at most")      # shown with pytest -s
        assert m.most <= M.LEVELS[n].seconds, n
    for n in sorted(M.LEVELS)[1:]:
        assert results[n].given_away <= results[n - 1].given_away, n
    assert 2 * results[1].lost >= results[1].games
    for n in (M.DEFAULT_LEVEL, max(M.LEVELS)):
        assert results[n].lost == results[n].given_away == 0, n
    middle = [results[n].given_away for n in (3, 4, 5)]
    assert results[1].given_away > max(middle) and min(middle) > 0     # spread between
