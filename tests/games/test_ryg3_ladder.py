"""ryg3's ladder of levels (asm/ryg3/levels.oph), measured the way it is
played: the real ryg3en .prg with its thinking display on, the level chosen
with L, the moves typed, the computer's move read from the screen, judged by
the oracle (tests/tools/ladder.py; `python tests/bench/bench_ladder.py`
prints the table in docs/playing.md).

The required shape (ladder_problems): level 1 loses at least half its games
to a perfect mouse; the won positions given away decrease strictly from level
1 to level 7; levels 8 and 9 lose nothing and give nothing away; a fallible
mouse (a random move 30% of the time) beats level 1 almost always, the
middle levels sometimes, level 7 rarely.
"""

import random

import pytest

from tests.tools.ladder import Measure, critical_positions, give_away, ladder_problems, measure_level, \
    play_game, start_positions
from tests.tools.ryg3_play import PlayedGame


def test_a_sample_of_the_ladder_as_played(oracle):
    # The default suite's sample: level 1 against the perfect mouse from four
    # starts, and 24 critical positions at levels 1, 4 and 8.
    positions = critical_positions(24, oracle, seed=8)
    measures = {}
    for n in (1, 4, 8):
        game = PlayedGame(sid_seed=n)
        game.level(n)
        assert f"LEVEL {n}:" in game.row(14)
        m = measures[n] = Measure()
        give_away(game, positions, oracle, m)
        if n == 1:
            rng = random.Random(1)
            for start in start_positions(4, oracle):
                m.lost += play_game(game, oracle, start, rng)
                m.games += 1
    assert measures[1].given_away > measures[4].given_away >= measures[8].given_away == 0
    assert measures[1].lost >= 2


@pytest.mark.slow
def test_the_ladder_as_played_has_its_shape(oracle):
    results = {}
    for n in range(1, 10):
        m = results[n] = measure_level(n, oracle, games=40, positions=500)
        print(f"\nlevel {n}: {m.lost}/{m.games} games lost, {m.fallible_lost} to the fallible mouse, "
              f"{m.given_away}/{m.positions} given away, {m.average:.2f} s average, {m.most:.2f} s at most")
    assert ladder_problems(results, range(1, 10)) == []
