"""Measuring ryg3's ladder of levels (asm/ryg3/levels.oph) against the oracle.

For a level, on the real .prg (tests/tools/ryg3_harness.py):
* games from the start between the computer's cats at that level and a
  perfect mouse (the oracle's best moves, ties broken at random): how many
  the cats lose;
* won positions given away: the cats to move in a position the oracle scores
  as theirs (tests/tools/positions.py, seed 2: the strength tests' sample),
  the move played lets the mouse win;
* C64 seconds per move (cycles / 985,248), average and most.
The margin's random pick reads the SID as the game does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from asm.tools import ryg3_model as M
from asm.tools.oracle import START_CATS, START_MOUSE, legal_cat_moves, legal_mouse_moves
from tests.tools.positions import cats_won_positions
from tests.tools.ryg3_harness import Thought

POSITIONS_SEED = 2


@dataclass
class Measure:
    games: int = 0
    lost: int = 0                  # games the cats lost
    positions: int = 0
    given_away: int = 0
    seconds: list = field(default_factory=list)

    @property
    def average(self):
        return sum(self.seconds) / len(self.seconds) if self.seconds else 0.0

    @property
    def most(self):
        return max(self.seconds, default=0.0)


def cats_think(engine, level, mouse, cats):
    engine.set_position(mouse, sorted(cats), M.SIDE_CATS)
    return engine.think(level.depth, level.seconds, book=level.book, margin=level.margin)


class ModelEngine:
    """The Python model in the engine's place (the tests show they choose
    alike, tests/games/test_ryg3_engine.py): the same Zobrist keys as the C64 of
    `engine`, the game's book, the margin's byte from a seeded generator.
    No clock: the level's depth is always reached (the C64's seconds are
    measured on the real .prg)."""

    def __init__(self, engine, oracle, seed=0):
        from asm.tools.ryg3_model import game_book
        self.zobrist = engine.zobrist()
        self.book = game_book(oracle)
        self.rng = random.Random(seed)
        self.mouse = self.cats = None

    def set_position(self, mouse, cats, side):
        assert side == M.SIDE_CATS
        self.mouse, self.cats = mouse, list(cats)

    def think(self, depth, seconds=0, book=False, margin=0):
        model = M.Model(self.mouse, self.cats, M.SIDE_CATS, zobrist=self.zobrist)
        r = model.think(depth, book=self.book if book else None, margin=margin, rand=self.rng.randrange(256))
        return Thought(r.move, r.value, r.depth, r.nodes, 0)


def play_games(engine, level, games, oracle, measure, seed=0):
    """Games from the start, the engine's cats at `level` against a perfect mouse."""
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        mouse, cats = START_MOUSE, frozenset(START_CATS)
        while True:
            if not legal_mouse_moves(mouse, cats):
                break                                   # the cats won
            mouse = rng.choice(oracle.best_mouse_moves(mouse, cats))
            if mouse >= 56 or not legal_cat_moves(mouse, cats):
                measure.lost += 1
                break
            t = cats_think(engine, level, mouse, cats)
            measure.seconds.append(t.seconds)
            a, b = t.move
            assert (a, b) in legal_cat_moves(mouse, cats)
            cats = (cats - {a}) | {b}
        measure.games += 1
    return measure


def give_away(engine, level, positions, oracle, measure):
    """The level's move in each won position: does it keep the win?"""
    for mouse, cats in positions:
        t = cats_think(engine, level, mouse, cats)
        measure.seconds.append(t.seconds)
        a, b = t.move
        measure.given_away += oracle.score(mouse, (cats - {a}) | {b}, True) > 0
        measure.positions += 1
    return measure


def measure_level(engine, n, oracle, games=20, positions=1000, model_from=None):
    """Games and given-away positions of level n on the C64 `engine`; with
    model_from = k, positions k.. are played by the model (ModelEngine) and
    the seconds are those of the C64's moves only."""
    measure = Measure()
    sample = cats_won_positions(positions, POSITIONS_SEED, oracle)
    play_games(engine, M.LEVELS[n], games, oracle, measure)
    give_away(engine, M.LEVELS[n], sample[:model_from], oracle, measure)
    if model_from is not None:
        seconds = measure.seconds
        give_away(ModelEngine(engine, oracle, n), M.LEVELS[n], sample[model_from:], oracle, measure)
        measure.seconds = seconds
    return measure
