"""The classic programs choose exactly the model's move with the model's
root value, on random reachable positions, at every depth they offer.

Each position is written into the program's current-board record and the
program's own decision routine `think` is called (Machine.call).  Besides
the chosen move and the root value, every root child's value in memory and
the number of boards generated must match the model.  The default run takes
a sample; `pytest -m slow` runs >= 500 positions per version.  Both languages
of each version are searched (ryg23 and ryg23en ...): the English builds are
the same code at other addresses.
"""

import pytest

from tests.tools import classic_model as M
from tests.tools.classic_runner import LANGUAGES, ClassicProgram, R_CHILD_HI, R_CHILD_LO, R_VALUE, program_name

SAMPLE = {"ryg23": 6, "ryg19": 5, "ryg17": 4, "ryg15": 4}       # positions per depth, default run
FULL = {"ryg23": 100, "ryg19": 125, "ryg17": 170, "ryg15": 170}  # positions per depth, slow run
SEARCH_DEPTHS = {"ryg23": range(1, 6), "ryg19": range(1, 5), "ryg17": range(1, 4), "ryg15": range(1, 4)}


@pytest.fixture(scope="module")
def programs():
    return {}


def _program(programs, name):
    if name not in programs:
        programs[name] = ClassicProgram(name)
    return programs[name]


def check_positions(cp, depth, positions):
    version = cp.version
    root = cp.addr("tree_root")
    for pos in positions:
        got = cp.think(pos, depth)
        index, value, values, kids = M.decide(pos, depth, version)
        where = "%s depth %d position %s" % (cp.name, depth, pos)
        assert got["value"] == value == got["root_value"], where
        assert got["index"] == index, where
        assert got["child"] == kids[index], where
        mem_values = []
        for k in range(len(kids)):
            child = cp.peek(root + R_CHILD_LO + k) | cp.peek(root + R_CHILD_HI + k) << 8
            mem_values.append(cp.peek(child + R_VALUE))
        assert mem_values == values, where
        assert got["boards"] == M.count_boards(pos, depth, version), where
        if version.tree == "depthfirst":
            assert got["free_ptr"] == root + version.record_size, where   # all freed


def _cases(counts):
    return [(program_name(name, language), depth, counts[name])
            for name in SEARCH_DEPTHS for depth in SEARCH_DEPTHS[name] for language in LANGUAGES]


@pytest.mark.parametrize("program,depth,count", _cases(SAMPLE))
def test_the_program_chooses_the_models_move_on_a_sample_of_positions(programs, program, depth, count):
    cp = _program(programs, program)
    positions = M.random_positions(count, 1000 + depth, cp.version.sorted_cats)
    check_positions(cp, depth, positions)


@pytest.mark.slow
@pytest.mark.parametrize("program,depth,count", _cases(FULL))
def test_the_program_chooses_the_models_move_on_hundreds_of_positions(programs, program, depth, count):
    cp = _program(programs, program)
    positions = M.random_positions(count, 5000 + depth, cp.version.sorted_cats)
    check_positions(cp, depth, positions)


def test_the_whole_tree_evaluates_a_childless_node_the_depth_first_tree_keeps_ff():
    # cats all on the bottom row: every mouse move leads to a node where the
    # cats cannot move.  The root is such a node itself (cats to move) but
    # with one cat free so the root has children.
    pos = M.Pos(36, (48, 59, 61, 63), False, 31)
    for name in ("ryg19", "ryg23", "ryg19en", "ryg23en"):
        cp = ClassicProgram(name)
        version = cp.version
        got = cp.think(pos, 3)
        index, value, values, kids = M.decide(pos, 3, version)
        assert (got["index"], got["value"]) == (index, value)
    assert M.decide(pos, 3, M.VERSIONS["ryg23"])[1] != M.decide(pos, 3, M.VERSIONS["ryg19"])[1]
