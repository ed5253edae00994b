"""Play ryg3 the way a person does: the real .prg running in a C64, keys
typed, the screen read back.

`PlayedGame` is the game as `ryg ryg3en` runs it (the thinking display on,
the clock running, the level chosen with L, positions typed with T); the
move the computer plays is read from its row on the screen
("COMPUTER: A3-B2").  Nothing is called or poked behind the program's back:
memory is only read, for the tests that check what the search valued.
"""

from __future__ import annotations

import re

from asm.tools.oracle import parse_square, square_name
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from tests.tools.ryg3_harness import ASM_DIR, CYCLES_PER_SECOND, read_map

BUDGET = 2_000_000_000            # cycles for one key's answer (a think of 30 s is 30 M)
# The screen's rows (asm/ryg3/display.oph); ROW_LAST: "COMPUTER: A3-B2", the end of the game in its place
ROW_TURN, ROW_PLAYERS, ROW_LEVEL, ROW_LAST = 12, 13, 14, 15
ROW_THINK, ROW_PV, ROW_MSG, ROW_INPUT, ROW_KEYS = 17, 18, 19, 20, 21
LIST_ROWS = 15                    # moves the list beside the board shows, rows 2-16
SIDE_KEYS = {"ryg3en": ("M", "C"), "ryg3": ("R", "G")}
LAST_MOVE = {"ryg3en": re.compile(r"COMPUTER: ([A-H][1-8])-([A-H][1-8])"),
             "ryg3": re.compile(r"ORDENADOR: ([A-H][1-8])-([A-H][1-8])")}


class ScreenReader:
    """Reading ryg3's screen and variables (by their labels) in self.m."""

    def lines(self):
        return self.m.screen_lines()

    def text(self):
        return "\n".join(self.lines())

    def row(self, n):
        return self.lines()[n]

    def peek(self, label, offset=0):
        return self.m.peek(self.labels[label] + offset)


class PlayedGame(ScreenReader):
    """ryg3 in a fresh C64, waiting at its first key; the player has the mouse."""

    def __init__(self, version="ryg3en", sid_seed=1):
        self.version = version
        self.m = C64(sid_seed=sid_seed, cpu_class=FastCPU)
        self.labels = read_map(ASM_DIR / f"{version}.map")
        self.m.run_program(str(ASM_DIR / f"{version}.prg"))
        self._run()
        self.think_cycles = 0             # C64 cycles of the last key that made the computer move

    def _run(self):
        reason = self.m.run(max_cycles=BUDGET)
        if reason is not StopReason.IDLE:
            raise AssertionError(f"ryg3 stopped: {reason} {self.m.error}\n" + self.text())

    def keys(self, text):
        """Type `text` (key names in braces) and run until the game waits again."""
        start = self.m.cycles
        self.m.type(text)
        self._run()
        self.think_cycles = self.m.cycles - start

    @property
    def seconds(self):
        """C64 seconds the last keys took (the think and the redraw)."""
        return self.think_cycles / CYCLES_PER_SECOND

    # --- what a player does ---

    def level(self, n):
        self.keys(f"L{n}")

    def edit(self, mouse, cats, mouse_to_move):
        """T: type the position; with the computer to move it answers at once."""
        side = SIDE_KEYS[self.version][0 if mouse_to_move else 1]
        self.keys("T" + square_name(mouse) + "{return}"
                  + "".join(square_name(c) for c in sorted(cats)) + "{return}" + side)

    def move(self, start, dest):
        """Type the player's move in full (E1D2) and RETURN."""
        self.keys(square_name(start) + square_name(dest) + "{return}")

    def computer_move(self):
        """The computer's last move, (from, to) squares, as its row shows it
        ("COMPUTER: A3-B2"), or when its move ended the game (the row then says
        so) the last move of the move list; None when there is none."""
        found = LAST_MOVE[self.version].search(self.row(ROW_LAST))
        if found:
            return parse_square(found.group(1)), parse_square(found.group(2))
        listed = self.move_list()
        if self.row(ROW_LAST).strip() and listed:
            return listed[-1]
        return None

    def move_list(self):
        """The moves in the list beside the board, [(from, to)], oldest first."""
        out = []
        for line in self.lines()[2:2 + LIST_ROWS]:
            found = re.match(r"\s*\d+ ([A-H][1-8])-([A-H][1-8])", line[28:])
            if found:
                out.append((parse_square(found.group(1)), parse_square(found.group(2))))
        return out

    # --- what the search held (read only) ---

    def root_moves(self):
        """[(from, to, value)] of the root moves the last think valued."""
        return [(self.peek("root_start", i), self.peek("root_dest", i), self.peek("root_vals", i))
                for i in range(self.peek("root_end"))]
