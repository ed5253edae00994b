"""Positions sampled from random games, for the strength tests of ryg3.

Both sides play at random from the start; the positions met along the way
with the mouse to move are kept when a test's condition holds (each one
once), then shuffled.  The same seed always gives the same positions.
"""

import random

from tests.tools.oracle import START_CATS, START_MOUSE, legal_cat_moves, legal_mouse_moves


def mouse_to_move_positions(n, seed, keep):
    """`n` (mouse, cats) positions with the mouse to move for which
    keep(mouse, cats, mouse_moves) is true; cats is a frozenset of squares."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < n:
        mouse, cats, mouse_turn = START_MOUSE, frozenset(START_CATS), True
        while mouse < 56:
            if mouse_turn:
                replies = legal_mouse_moves(mouse, cats)
                if not replies:
                    break
                if (mouse, cats) not in seen and keep(mouse, cats, replies):
                    seen.add((mouse, cats))
                    out.append((mouse, cats))
                mouse = rng.choice(replies)
            else:
                moves = legal_cat_moves(mouse, cats)
                if not moves:
                    break
                a, b = rng.choice(moves)
                cats = (cats - {a}) | {b}
            mouse_turn = not mouse_turn
    rng.shuffle(out)
    return out[:n]
