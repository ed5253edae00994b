"""The RYG programs on FastCPU, checked against the reference CPU after every block.

`CheckedFastCPU` is the machine's CPU: each time it runs a translated block
it replays the same block on the reference CPU (py65 stepping + our opcode
table) over a copy of the memory as it was before the block, with the chips'
reads answered as they were answered to FastCPU, and compares registers,
flags, cycles, RAM and the chip writes.  Traps are CPU.step itself and are
not replayed (they are kept out of the blocks here).  The games are scripted: pick the last listed mouse move each
turn.  A second check plays the same script on a plain-CPU machine and
compares the screens.
"""

import re
from pathlib import Path

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from c64.memory import C64Memory

ASM = Path(__file__).resolve().parents[2] / "asm"
PROGRAMS = sorted(p.stem for p in ASM.glob("ryg*.prg"))


class _RecordingIO:
    """Passes accesses to the real chips and remembers them."""

    def __init__(self, io):
        self.io, self.reads, self.writes = io, [], []

    def read(self, addr):
        value = self.io.read(addr)
        self.reads.append((addr, value))
        return value

    def write(self, addr, value):
        self.writes.append((addr, value))
        self.io.write(addr, value)


class _ReplayIO:
    """Answers reads with what the chips answered FastCPU; records writes."""

    def __init__(self, reads):
        self.reads, self.writes = list(reads), []

    def read(self, addr):
        expected, value = self.reads.pop(0)
        assert expected == addr, "reference read $%04X, FastCPU read $%04X" % (addr, expected)
        return value

    def write(self, addr, value):
        self.writes.append((addr, value))


class CheckedFastCPU(FastCPU):
    """FastCPU that checks every translated block against the reference CPU.

    Traps are kept out of the blocks (inline_traps off): the reference cannot run
    the KERNAL a second time.  The screen comparison below covers inlined traps.
    """

    inline_traps = False

    def __init__(self, memory, trap_handler=None, pc=0x0000):
        super().__init__(memory, trap_handler, pc)
        self.blocks_checked = 0
        self._in_step = False               # the scratch RAM holds mem.ram (the last block checked)
        self._scratch = C64Memory(memory.rom)
        self._ref = CPU(self._scratch)

    def run(self, cycle_limit, verify=True, exact=False, irq_waiting=False):
        self.stop_requested = False        # (block by block; `exact` stops are not checked here)
        self._in_step = False              # (the machine may have written RAM since the last run)
        while (self.processorCycles < cycle_limit and not self.stop_requested
               and not (irq_waiting and not self.p & 0x04)):
            self._one_block()

    def _one_block(self):
        mem = self.memory
        FastCPU.run(self, self.processorCycles)         # bind, bank: a run that executes nothing
        pc = self.pc
        scratch, ref = self._scratch, self._ref
        if not self._in_step:
            scratch.ram[:] = mem.ram        # (else it holds mem.ram already: the last check said so)
        before = (mem.ddr, mem.port, self.a, self.x, self.y, self.sp, self.p, self.pc, self.processorCycles)
        io = mem.io
        recorder = mem.io = _RecordingIO(io)
        try:
            FastCPU.run(self, self.processorCycles + 1, verify=False)
        finally:
            mem.io = io
        self._in_step = False
        if self.runs_untranslated(pc) or self.stop_requested:
            return                                      # CPU.step itself: nothing to compare
        (scratch.ddr, scratch.port, ref.a, ref.x, ref.y, ref.sp, ref.p, ref.pc,
         ref.processorCycles) = before
        scratch.io = _ReplayIO(recorder.reads)
        scratch.rebank()
        ref.run(self.processorCycles)
        where = "block at $%04X (cycle %d)" % (before[7], before[8])
        assert (ref.a, ref.x, ref.y, ref.sp, ref.p, ref.pc, ref.processorCycles) == \
            (self.a, self.x, self.y, self.sp, self.p, self.pc, self.processorCycles), where
        assert scratch.ram == mem.ram, where
        assert scratch.io.writes == recorder.writes, where
        self._in_step = True
        self.blocks_checked += 1


def play(cpu_class, program, depth, moves):
    """Scripted game: the depth, then the last listed mouse move each turn.

    Returns the machine and the screen after each move.  A program without the
    classic dialogue (no "(01-" depth prompt) is just run, answering "1" RETURN
    whenever it waits, `moves` times.
    """
    machine = C64(sid_seed=1234, cpu_class=cpu_class)
    loaded = machine.load_prg(str(ASM / (program + ".prg")))
    machine.start(loaded.start)
    screens = []
    reason = machine.run(max_cycles=50_000_000)
    classic = "(01-" in machine.screen_text()
    if classic:
        machine.type("%02X{return}" % depth)
        reason = machine.run(max_cycles=50_000_000)
    for _ in range(moves):
        assert reason in (StopReason.IDLE, StopReason.BASIC), (reason, machine.error)
        if reason is StopReason.BASIC:
            break
        listed = [line[:2] for line in machine.screen_lines() if re.match(r"^[0-9A-F]{2}> ", line)]
        if classic and not listed:
            break
        machine.type((listed[-1] if classic else "1") + "{return}")
        reason = machine.run(max_cycles=400_000_000)
        screens.append(machine.screen_text())
    assert reason in (StopReason.IDLE, StopReason.BASIC), (reason, machine.error)
    return machine, screens


@pytest.mark.skipif(not PROGRAMS, reason="no RYG .prg built yet")
@pytest.mark.parametrize("program", PROGRAMS)
def test_each_ryg_program_matches_the_reference_cpu_block_by_block(program):
    machine, screens = play(CheckedFastCPU, program, depth=1, moves=3)
    assert machine.cpu.blocks_checked > 100


@pytest.mark.slow
@pytest.mark.skipif(not PROGRAMS, reason="no RYG .prg built yet")
@pytest.mark.parametrize("program", PROGRAMS)
def test_each_ryg_program_at_depth_three_matches_the_reference_cpu_block_by_block(program):
    machine, screens = play(CheckedFastCPU, program, depth=3, moves=8)
    assert machine.cpu.blocks_checked > 10000


@pytest.mark.skipif(not PROGRAMS, reason="no RYG .prg built yet")
@pytest.mark.parametrize("program", PROGRAMS)
def test_each_ryg_program_shows_the_same_screens_as_on_the_plain_cpu(program):
    _, fast_screens = play(FastCPU, program, depth=2, moves=4)
    _, plain_screens = play(CPU, program, depth=2, moves=4)
    assert fast_screens == plain_screens
