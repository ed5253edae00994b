"""Measuring ryg3's ladder of levels (asm/ryg3/levels.oph) the way it is
played, judged by the oracle.

Everything goes through the game as a person plays it (tests/tools/ryg3_play.py):
the real ryg3en .prg with its thinking display on, the level chosen with L,
the player's mouse moves typed, positions set up with T, the computer's move
read from the screen.  For a level:

* games from varied starts (cats-won positions with the mouse to move: the
  start and positions a few random plies into a game) against a perfect mouse
  (the oracle's best moves, ties at random): how many the cats lose;
* the same starts against a fallible mouse: a random legal move 30% of the
  time, the perfect move otherwise;
* critical won positions given away: the cats to move in a position the
  oracle scores as theirs where some move throws the win away; the level's
  move lets the mouse win;
* C64 seconds per reply (from the key that asks for the move to the game
  waiting again: the think and the redraw), average and most.
The margin's random pick reads the SID as the game does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from asm.tools.oracle import START_CATS, START_MOUSE, legal_cat_moves, legal_mouse_moves
from tests.tools.positions import cats_won_positions
from tests.tools.ryg3_play import ROW_LAST, PlayedGame

POSITIONS_SEED = 2
STARTS_SEED = 5
BLUNDER = 0.3                      # the fallible mouse's share of random moves


@dataclass
class Measure:
    games: int = 0
    lost: int = 0                  # games the cats lost to the perfect mouse
    fallible_games: int = 0
    fallible_lost: int = 0         # ... to the fallible mouse
    positions: int = 0
    given_away: int = 0
    seconds: list = field(default_factory=list)

    @property
    def average(self):
        return sum(self.seconds) / len(self.seconds) if self.seconds else 0.0

    @property
    def most(self):
        return max(self.seconds, default=0.0)


def start_positions(n, oracle, seed=STARTS_SEED):
    """`n` varied starts: (mouse, cats) with the mouse to move and the cats
    winning; the game's start first, then positions 2 to 8 plies in (the
    mouse at random, the cats at random among their winning moves)."""
    rng = random.Random(seed)
    out, seen = [(START_MOUSE, frozenset(START_CATS))], {(START_MOUSE, frozenset(START_CATS))}
    while len(out) < n:
        mouse, cats = START_MOUSE, frozenset(START_CATS)
        for _ in range(rng.randint(1, 4)):
            mouse = rng.choice(legal_mouse_moves(mouse, cats))
            winning = [mv for mv, s in oracle.cat_move_scores(mouse, cats).items() if s < 0]
            a, b = rng.choice(winning)
            cats = (cats - {a}) | {b}
        if (mouse, cats) not in seen and legal_mouse_moves(mouse, cats) and oracle.score(mouse, cats, True) < 0:
            seen.add((mouse, cats))
            out.append((mouse, cats))
    return out


def critical_positions(n, oracle, seed=POSITIONS_SEED):
    """`n` cats-to-move positions the cats win where at least one of their
    moves gives the win away (the strength tests' sample, filtered)."""
    out = []
    pool = cats_won_positions(6 * n, seed, oracle)
    for mouse, cats in pool:
        if any(s > 0 for s in oracle.cat_move_scores(mouse, cats).values()):
            out.append((mouse, cats))
            if len(out) == n:
                return out
    raise ValueError(f"only {len(out)} critical positions in the sample")


def play_game(game, oracle, start, rng, blunder=0.0, measure=None):
    """One game from `start` (mouse to move), the player's mouse against the
    computer's cats; True when the cats lose.  The screen's end-of-game row
    must agree."""
    mouse, cats = start
    game.edit(mouse, cats, True)
    while True:
        moves = legal_mouse_moves(mouse, cats)
        if not moves:
            over = "THE CATS WON"
            lost = False
            break
        if blunder and rng.random() < blunder:
            to = rng.choice(moves)
        else:
            to = rng.choice(oracle.best_mouse_moves(mouse, cats))
        game.move(mouse, to)
        mouse = to
        if mouse >= 56 or not legal_cat_moves(mouse, cats):
            over = "THE MOUSE WON"
            lost = True
            break
        reply = game.computer_move()
        assert reply in legal_cat_moves(mouse, cats), (reply, game.text())
        if measure is not None:
            measure.seconds.append(game.seconds)
        cats = (cats - {reply[0]}) | {reply[1]}
    assert over in game.row(ROW_LAST), game.text()
    return lost


def give_away(game, positions, oracle, measure):
    """The level's move in each critical position: does it keep the win?"""
    for mouse, cats in positions:
        game.edit(mouse, cats, False)
        reply = game.computer_move()
        assert reply in legal_cat_moves(mouse, cats), (reply, game.text())
        measure.seconds.append(game.seconds)
        measure.given_away += oracle.score(mouse, (cats - {reply[0]}) | {reply[1]}, True) > 0
        measure.positions += 1


def measure_level(n, oracle, games=40, positions=500, seed=0, sid_seed=None):
    """Level n, played: games against the perfect and the fallible mouse from
    the same varied starts, and the critical positions."""
    game = PlayedGame(sid_seed=1000 + n if sid_seed is None else sid_seed)
    game.level(n)
    measure = Measure()
    rng = random.Random(seed * 100 + n)
    for start in start_positions(games, oracle):
        measure.lost += play_game(game, oracle, start, rng, measure=measure)
        measure.games += 1
        measure.fallible_lost += play_game(game, oracle, start, rng, BLUNDER, measure)
        measure.fallible_games += 1
    give_away(game, critical_positions(positions, oracle), oracle, measure)
    return measure


def ladder_problems(results, levels):
    """What keeps measured levels {n: Measure} from the ladder's required
    shape (README's table): level 1 loses at least half its games to a perfect
    mouse; won positions given away decrease strictly from level 1 to 7;
    levels 8 and 9 lose nothing and give nothing away; the fallible mouse
    beats level 1 almost always (90% of the games at least), the middle levels
    (3-5) sometimes (in 5% to 90% of the games), level 7 rarely (10% at most)."""
    problems = []
    r = results
    for n in range(2, 8):
        if n in r and n - 1 in r and not r[n].given_away < r[n - 1].given_away:
            problems.append(f"level {n} gives away {r[n].given_away}, not fewer than level {n - 1}'s {r[n - 1].given_away}")
    if 1 in r and 2 * r[1].lost < r[1].games:
        problems.append(f"level 1 loses only {r[1].lost} of {r[1].games} games to a perfect mouse")
    for n in (8, 9):
        if n in r and (r[n].lost or r[n].fallible_lost or r[n].given_away):
            problems.append(f"level {n} loses or gives away")
    if 1 in r and r[1].fallible_lost < 0.9 * r[1].fallible_games:
        problems.append(f"the fallible mouse beats level 1 only {r[1].fallible_lost} times of {r[1].fallible_games}")
    for n in (3, 4, 5):
        if n in r and not 0.05 * r[n].fallible_games <= r[n].fallible_lost <= 0.9 * r[n].fallible_games:
            problems.append(f"the fallible mouse beats level {n} {r[n].fallible_lost} times of {r[n].fallible_games}")
    if 7 in r and r[7].fallible_lost > 0.1 * r[7].fallible_games:
        problems.append(f"the fallible mouse beats level 7 {r[7].fallible_lost} times of {r[7].fallible_games}")
    return problems
