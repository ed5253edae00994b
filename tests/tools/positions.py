"""Positions sampled from random games, for the strength tests of ryg3.

The mouse plays at random from the start; the cats play at random among the
moves a sampler allows.  The positions met along the way that the sampler
keeps (each one once) are shuffled; the same seed always gives the same
positions.
"""

import random

from asm.tools.oracle import START_CATS, START_MOUSE, legal_cat_moves, legal_mouse_moves


def _sample(n, seed, cat_moves, keep):
    """`n` positions (mouse, frozenset cats) for which keep(mouse_turn, mouse,
    cats, moves) is true, moves being the mover's choices; the cats choose
    among cat_moves(mouse, cats), and a game ends when the mover has none."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < n:
        mouse, cats, mouse_turn = START_MOUSE, frozenset(START_CATS), True
        while mouse < 56:
            moves = legal_mouse_moves(mouse, cats) if mouse_turn else cat_moves(mouse, cats)
            if not moves:
                break
            if (mouse, cats) not in seen and keep(mouse_turn, mouse, cats, moves):
                seen.add((mouse, cats))
                out.append((mouse, cats))
            if mouse_turn:
                mouse = rng.choice(moves)
            else:
                a, b = rng.choice(moves)
                cats = (cats - {a}) | {b}
            mouse_turn = not mouse_turn
    rng.shuffle(out)
    return out[:n]


def mouse_to_move_positions(n, seed, keep):
    """`n` positions with the mouse to move for which keep(mouse, cats,
    mouse_moves) is true, from games where the cats play at random."""
    return _sample(n, seed, legal_cat_moves,
                   lambda mouse_turn, mouse, cats, moves: mouse_turn and keep(mouse, cats, moves))


def cats_won_positions(n, seed, oracle):
    """`n` cats-to-move positions the oracle scores as cats' wins, from games
    where the cats pick random winning moves."""
    def winning(mouse, cats):
        return [move for move, s in oracle.cat_move_scores(mouse, cats).items() if s < 0]
    return _sample(n, seed, winning, lambda mouse_turn, mouse, cats, moves: not mouse_turn)
