"""Drive the ryg3 engine inside the emulated C64, routine by routine.

The engine's routines and variables are found by name in the Ophis label map
(asm/ryg3.map).  `EngineOnC64` loads the .prg, runs engine_init, and then sets
positions and calls think the way the game does, so tests and benchmarks can
compare the 6502 engine with the Python model (asm/tools/ryg3_model.py) and
with the oracle.

The machine runs on the fast CPU core (c64/fastcpu/), as `python ryg.py`
does by default; it counts the same cycles as plain py65 stepping
(cpu_class=CPU gives that one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from c64.fastcpu import FastCPU
from c64.machine import C64

ASM_DIR = Path(__file__).resolve().parents[2] / "asm"
CYCLES_PER_SECOND = 985_248


def read_map(path) -> dict[str, int]:
    """Label -> address from an Ophis map file ("$0810 | main | file:line")."""
    labels = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"\s*\$([0-9A-Fa-f]{4})\s*\|\s*(\S+)", line)
        if m:
            labels[m.group(2)] = int(m.group(1), 16)
    return labels


@dataclass
class Thought:
    move: tuple[int, int] | None
    value: int
    depth: int
    nodes: int
    cycles: int
    aborted: int = 0      # 1: stopped by the clock, 2: by a key (mid-iteration)
    rand: int = 0         # the SID byte a level's margin picked the move with

    @property
    def seconds(self) -> float:
        return self.cycles / CYCLES_PER_SECOND


class EngineOnC64:
    """ryg3's engine in a fresh C64, ready to think about positions."""

    def __init__(self, version="ryg3", sid_seed=1234, cpu_class=FastCPU):
        self.m = C64(sid_seed=sid_seed, cpu_class=cpu_class)
        self.labels = read_map(ASM_DIR / f"{version}.map")
        self.m.load_prg(str(ASM_DIR / f"{version}.prg"))
        self.call("engine_init")

    def addr(self, label: str) -> int:
        return self.labels[label]

    def call(self, label: str, max_cycles=200_000_000, **regs):
        return self.m.call(self.addr(label), max_cycles=max_cycles, **regs)

    def peek(self, label: str, offset=0) -> int:
        return self.m.peek(self.addr(label) + offset)

    def poke(self, label: str, value: int, offset=0):
        self.m.poke(self.addr(label) + offset, value)

    def zobrist(self):
        """The keys the engine drew from the SID, in the model's layout."""
        parts = ("zob_lo", "zob_hi", "zob_lock")
        return [[[self.peek(p, piece * 64 + sq) for sq in range(64)] for p in parts]
                for piece in range(2)]

    def set_position(self, mouse: int, cats, side: int):
        self.poke("mouse_sq", mouse)
        for i, c in enumerate(cats):
            self.poke("cat_sq", c, i)
        self.poke("side", side)
        self.call("setup_position")

    def think(self, max_depth: int, seconds: int = 0, book: bool = False, margin: int = 0) -> Thought:
        self.poke("use_book", 1 if book else 0)
        self.poke("margin", margin)
        self.poke("max_depth", max_depth)
        self.poke("time_limit", seconds)
        start = self.m.cycles
        self.call("think")
        cycles = self.m.cycles - start
        a, b = self.peek("best_move_start"), self.peek("best_move_dest")
        nodes = self.peek("nodes") | self.peek("nodes", 1) << 8 | self.peek("nodes", 2) << 16
        return Thought(None if a == 0xFF else (a, b), self.peek("best_value"),
                       self.peek("depth_done"), nodes, cycles, self.peek("aborted"),
                       self.peek("rand_byte"))
