"""ryg23 at depth 10 plays a whole game inside its tree limit (the design's ~2 KB of tree).

Very slow: the first searched move at depth 10 is over five million boards (more than four
hours of C64 time, ten minutes or more of host time on the fast core), and a whole game
takes an hour or more.  It runs only with `pytest -m slow`.  The cats' replies come
from the program itself; the mouse always plays the first move listed, which walks it
straight into the cats' line, and the game is played to its end.
"""

import os
import re
import time

import pytest

from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from tests.tools.classic_runner import ASM_DIR, read_map

RECORD = 29
TREE_LIMIT = 0xA000
CANARY = 0x5A
DEPTH = 10
# Root, plus along the path each cat level's 8 siblings and each mouse level's 4.
PATH_AND_SIBLINGS = RECORD * (1 + 8 * ((DEPTH + 1) // 2) + 4 * (DEPTH // 2))
MOVE = re.compile(r"^([0-9A-F]{2})> \(")
END = ("HA GANADO EL RATON", "HAN GANADO LOS GATOS")


def _first_listed_move(lines):
    for line in lines:
        match = MOVE.match(line)
        if match:
            return match.group(1)
    return None


@pytest.mark.slow
def test_ryg23_at_depth_10_plays_a_whole_game_within_its_tree_limit():
    labels = read_map(os.path.join(ASM_DIR, "ryg23.map"))
    m = C64(sid_seed=10, cpu_class=FastCPU)
    m.run_program(os.path.join(ASM_DIR, "ryg23.prg"))
    m.type("%02X{return}" % DEPTH)
    assert m.run(10_000_000) is StopReason.IDLE
    root = labels["tree_root"]
    for addr in range(root, TREE_LIMIT):
        m.poke(addr, CANARY)
    above = bytes(m.mem.ram[TREE_LIMIT:0x10000])
    replies = 0
    for _ in range(40):
        lines = m.screen_lines()
        if any(text in line for line in lines for text in END):
            break
        move = _first_listed_move(lines[::-1])
        assert move is not None, "\n".join(lines)
        m.type("%s{return}" % move)
        started, cycles = time.perf_counter(), m.cycles
        assert m.run(24 * 60 * 60 * 985_248) is StopReason.IDLE, m.error   # a C64 day at most
        replies += 1
        # Progress for whoever runs it with -s: this test takes an hour or more.
        print("mouse %s: reply in %.0f C64 s, %.0f host s"
              % (move, (m.cycles - cycles) / 985_248, time.perf_counter() - started), flush=True)
    else:
        pytest.fail("the game did not end in 40 moves")
    ram = m.mem.ram
    top = TREE_LIMIT - 1
    while top >= root and ram[top] == CANARY:
        top -= 1
    used = top + 1 - root
    print("tree: %d bytes used of the %d the path and its siblings allow" % (used, PATH_AND_SIBLINGS))
    assert bytes(ram[TREE_LIMIT:0x10000]) == above          # nothing above the tree limit
    assert 8 * RECORD < used <= PATH_AND_SIBLINGS <= 2048     # the path and its siblings: ~2 KB
    assert replies >= 5
