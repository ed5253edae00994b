"""The monitor never disturbs the run: a game with breakpoints at labels, continued at
every stop, ends with the same screen, the same RAM and the same cycle count as the
game without them.  (The RAM compared leaves out the stack page below the stack
pointer: bytes pushed and pulled again are dead, and the fast core does not always
write them as py65 does - a block that pushes a return address and pulls it again
itself may keep it in a variable - so a run that stops at a breakpoint inside such a
block's code leaves other dead bytes there.)

Each classic version plays three mouse moves at depth 2 (the last listed move each
time, so the search runs past the opening book); ryg3 answers D2 and then gives a hint
(P: a search).  The default suite breaks at a sample of labels on the fast core and on
py65; the slow suite at every label of every bundled version."""

import os
import re

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from c64.monitor import Monitor
from c64.monitor.labels import LABEL

ASM = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "asm")
CLASSIC = ("ryg15", "ryg17", "ryg19", "ryg23")


def play(name, cpu_class, breaks=(), budget=400_000_000):
    """Play the version's script; returns (screen, RAM, cycles, stops)."""
    machine = C64(sid_seed=7, cpu_class=cpu_class)
    machine.run_program(os.path.join(ASM, name + ".prg"))
    monitor = Monitor(machine)
    for where in breaks:
        assert monitor.execute("break $%04x" % where).startswith("#")
    stops = 0
    turns = ["02{return}"] + ["listed"] * 3 if name in CLASSIC else ["D2{return}", "P"]
    for keys in turns:
        if keys == "listed":
            listed = [line[:2] for line in machine.screen_lines() if re.match(r"^[0-9A-F]{2}> ", line)]
            keys = listed[-1] + "{return}"
        machine.type(keys)
        while True:
            reason, _ = monitor.run(budget)
            if reason is not StopReason.BREAK:
                break
            stops += 1
        assert reason is StopReason.IDLE, (name, reason, machine.error)
    ram = bytearray(machine.mem.ram)
    ram[0x100:0x101 + machine.cpu.sp] = bytes(machine.cpu.sp + 1)      # dead stack bytes
    return machine.screen_text(), bytes(ram), machine.cycles, stops


def code_labels(name):
    return sorted({label.address for label in Monitor(_loaded(name)).labels.labels
                   if label.kind == LABEL and 0x0810 <= label.address < 0x7000})


def _loaded(name):
    machine = C64()
    machine.load_prg(os.path.join(ASM, name + ".prg"))
    return machine


_plain = {}


def plain(name, cpu_class):
    if (name, cpu_class) not in _plain:
        _plain[name, cpu_class] = play(name, cpu_class)
    return _plain[name, cpu_class]


@pytest.mark.parametrize("name", ["ryg23", "ryg3"])
@pytest.mark.parametrize("cpu_class", [FastCPU, CPU], ids=["fast", "py65"])
def test_a_sample_of_breakpoints_leaves_the_game_unchanged(name, cpu_class):
    labels = code_labels(name)
    sample = labels[::max(1, len(labels) // 12)]
    screen, ram, cycles, stops = play(name, cpu_class, sample)
    assert stops > 10
    assert (screen, ram, cycles) == plain(name, cpu_class)[:3]


@pytest.mark.slow
@pytest.mark.parametrize("name", CLASSIC + ("ryg3", "ryg3en"))
def test_breakpoints_at_every_label_leave_the_game_unchanged(name):
    labels = code_labels(name)
    screen, ram, cycles, stops = play(name, FastCPU, labels, budget=4_000_000_000)
    assert stops > len(labels) // 4
    assert (screen, ram, cycles) == plain(name, FastCPU)[:3]
