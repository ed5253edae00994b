"""Addresses that wrap: past $FFFF into page 0, past $FF inside zero page, on both cores.

A 6502 address bus has 16 lines, so an instruction at $FFFE takes its second operand
byte from $0000, $FFF0,X with X=$20 reads $0010, and the program counter itself goes
from $FFFF to $0000; a zero-page address (zp,X; the pointer of (zp,X) and (zp),Y) stays
in page 0.  The Emulator Test Suite's trap16 runs every opcode at $FFFE (the emulator
used to stop with an IndexError there).  Hand-worked cases first, then every opcode at
$FFFD-$FFFF and every addressing mode over the wrap points, the fast core against the
reference block by block.
"""

import random

import pytest

from c64.cpu import CPU, CPUStop
from c64.fastcpu import FastCPU
from c64.memory import C64Memory
from kernal.rom import build_rom
from tests.machine.test_fastcpu import state

CORES = (CPU, FastCPU)


def all_ram():
    """A C64 memory with every ROM and I/O switched out ($01 = $34): RAM at $FFFF."""
    memory = C64Memory(build_rom())
    memory[0] = 0x2F
    memory[1] = 0x34
    return memory


def plain():
    return [0xEA] * 0x10000


MEMORIES = {"plain": plain, "c64": all_ram}


def put(memory, addr, code):
    ram = memory.ram if isinstance(memory, C64Memory) else memory
    for offset, byte in enumerate(code):
        ram[(addr + offset) & 0xFFFF] = byte


def ram_of(memory):
    return memory.ram if isinstance(memory, C64Memory) else memory


def run_one(core, memory_kind, pc, code, at=(), **registers):
    """One instruction `code` at pc (wrapping past $FFFF), memory bytes `at` ((addr, value)
    pairs) set first; returns the CPU after one step."""
    memory = MEMORIES[memory_kind]()
    put(memory, pc, code)
    for addr, value in at:
        ram_of(memory)[addr] = value
    cpu = core(memory, pc=pc)
    for name, value in registers.items():
        setattr(cpu, name, value)
    cpu.step()
    return cpu


@pytest.fixture(params=CORES, ids=lambda core: core.__name__)
def core(request):
    return request.param


@pytest.fixture(params=sorted(MEMORIES))
def memory_kind(request):
    return request.param


# -- hand-worked cases -------------------------------------------------------------------------

def test_an_absolute_operand_at_ffff_takes_its_high_byte_from_0000(core):
    # $FFFE LDA $xx12 with the high byte at $0000 (plain memory: $0000 is RAM)
    cpu = run_one(core, "plain", 0xFFFE, [0xAD, 0x12, 0x34], at=[(0x3412, 0x99)])
    assert (cpu.a, cpu.pc, cpu.processorCycles) == (0x99, 0x0001, 4)


def test_an_instruction_at_ffff_takes_its_operand_from_page_0(core):
    # $FFFF LDX #$5A: the operand is at $0000, the next instruction at $0001
    cpu = run_one(core, "plain", 0xFFFF, [0xA2, 0x5A])
    assert (cpu.x, cpu.pc) == (0x5A, 0x0001)


def test_jmp_and_jsr_with_their_operand_across_ffff(core, memory_kind):
    jmp = run_one(core, "plain", 0xFFFE, [0x4C, 0x00, 0x20])          # JMP $2000
    assert jmp.pc == 0x2000
    jsr = run_one(core, "plain", 0xFFFE, [0x20, 0x34, 0x12], sp=0xFF)  # JSR $1234 from $FFFE
    assert jsr.pc == 0x1234
    assert ram_of(jsr.memory)[0x1FF] == 0x00 and ram_of(jsr.memory)[0x1FE] == 0x00  # pushes $0000
    # On a C64 memory with all RAM, the byte at $0000 is the processor port's data
    # direction register as the CPU reads it ($2F).
    cpu = run_one(core, "c64", 0xFFFE, [0x4C, 0x00])                  # JMP $2F00
    assert cpu.pc == 0x2F00


def test_absolute_indexed_addresses_wrap_into_page_0(core, memory_kind):
    lda = run_one(core, memory_kind, 0x1000, [0xBD, 0xF0, 0xFF], x=0x20, at=[(0x10, 0x77)])  # LDA $FFF0,X
    assert lda.a == 0x77 and lda.processorCycles == 5                                  # crosses a page
    sta = run_one(core, memory_kind, 0x1000, [0x99, 0xFF, 0xFF], y=0x11, a=0x42)       # STA $FFFF,Y
    assert ram_of(sta.memory)[0x10] == 0x42
    inc = run_one(core, memory_kind, 0x1000, [0xFE, 0xFE, 0xFF], x=0x05, at=[(0x03, 0x7F)])  # INC $FFFE,X
    assert ram_of(inc.memory)[0x03] == 0x80 and inc.p & 0x80


def test_zero_page_indexed_addresses_stay_in_page_0(core, memory_kind):
    lda = run_one(core, memory_kind, 0x1000, [0xB5, 0xF0], x=0x20, at=[(0x10, 0x31), (0x110, 0x99)])
    assert lda.a == 0x31                                                       # LDA $F0,X -> $10
    ldx = run_one(core, memory_kind, 0x1000, [0xB6, 0xFF], y=0x05, at=[(0x04, 0x32)])
    assert ldx.x == 0x32                                                       # LDX $FF,Y -> $04
    sty = run_one(core, memory_kind, 0x1000, [0x94, 0x80], x=0x90, y=0x66)
    assert ram_of(sty.memory)[0x10] == 0x66 and ram_of(sty.memory)[0x110] != 0x66


def test_zero_page_pointers_at_ff_take_their_high_byte_from_00(core):
    # (zp),Y and (zp,X) pointers at $FF: the high byte is $00's.  Plain memory, where $00 is RAM.
    iny = run_one(core, "plain", 0x1000, [0xB1, 0xFF], y=0x02, at=[(0xFF, 0x40), (0x00, 0x30), (0x3042, 0x5C)])
    assert iny.a == 0x5C
    inx = run_one(core, "plain", 0x1000, [0xA1, 0xFE], x=0x01, at=[(0xFF, 0x40), (0x00, 0x30), (0x3040, 0x5D)])
    assert inx.a == 0x5D
    wrap = run_one(core, "plain", 0x1000, [0xA1, 0xF0], x=0x20, at=[(0x10, 0x00), (0x11, 0x31), (0x3100, 0x5E)])
    assert wrap.a == 0x5E                                                      # ($F0,X) X=$20 -> $10


def test_indirect_indexed_addresses_wrap_past_ffff(core, memory_kind):
    # LDA ($FB),Y with ($FB) = $FFF8, Y = $10: $0008; STA the same way
    at = [(0xFB, 0xF8), (0xFC, 0xFF), (0x08, 0x6A)]
    lda = run_one(core, memory_kind, 0x1000, [0xB1, 0xFB], y=0x10, at=at)
    assert lda.a == 0x6A and lda.processorCycles == 6
    sta = run_one(core, memory_kind, 0x1000, [0x91, 0xFB], y=0x10, a=0x24, at=at)
    assert ram_of(sta.memory)[0x08] == 0x24


def test_branches_and_returns_wrap_the_program_counter(core):
    bne = run_one(core, "plain", 0xFFFC, [0xD0, 0x05], p=0x30)          # BNE +5 from $FFFE: $0003
    assert bne.pc == 0x0003 and bne.processorCycles == 4                 # taken, onto another page
    back = run_one(core, "plain", 0x0002, [0xD0, 0xF8], p=0x30)          # BNE -8 from $0004: $FFFC
    assert back.pc == 0xFFFC
    rts = run_one(core, "plain", 0x1000, [0x60], sp=0xFD, at=[(0x1FE, 0xFF), (0x1FF, 0xFF)])
    assert rts.pc == 0x0000                                              # $FFFF + 1


def test_jmp_indirect_through_ffff_takes_the_high_byte_from_ff00(core):
    cpu = run_one(core, "plain", 0x1000, [0x6C, 0xFF, 0xFF], at=[(0xFFFF, 0x34), (0xFF00, 0x12), (0x0000, 0x56)])
    assert cpu.pc == 0x1234                                              # the 6502's page bug


# -- every opcode where it wraps, the fast core against the reference ----------------------------

def _machine_pair(memory_kind, rng, pc, code, registers):
    """The fast core and the reference on two equal memories: random zero page and top
    page, `code` at pc, the registers given."""
    noise = {addr: rng.randrange(256) for addr in list(range(0x02, 0x100)) + list(range(0xFF00, 0x10000))}
    memories = []
    for _ in range(2):
        memory = MEMORIES[memory_kind]()
        ram = ram_of(memory)
        for addr, value in noise.items():
            ram[addr] = value
        put(memory, pc, code)
        memories.append(memory)
    fast, ref = FastCPU(memories[0], pc=pc), CPU(memories[1], pc=pc)
    for cpu in (fast, ref):
        for name, value in registers.items():
            setattr(cpu, name, value)
    return fast, ref, memories


def _operands(rng):
    return [rng.choice((0xFF, 0xFE, 0x00, 0x01, rng.randrange(256))) for _ in range(2)]


def lockstep(fast, ref, blocks):
    """Run `blocks` fast-core blocks, the reference to the same cycle after each, comparing
    registers and all memory; a CPU JAM ends the run (on both), any other error fails."""
    fast_ram, ref_ram = ram_of(fast.memory), ram_of(ref.memory)
    for count in range(blocks):
        try:
            fast.run(fast.processorCycles + 1)
        except CPUStop:
            with pytest.raises(CPUStop):
                for _ in range(200):
                    ref.step()
            return count
        ref.run(fast.processorCycles)
        assert state(fast) == state(ref), "after block %d" % count
        assert fast_ram == ref_ram, "memory after block %d" % count
    return blocks


@pytest.mark.parametrize("pc", (0xFFFD, 0xFFFE, 0xFFFF), ids=lambda pc: "%04X" % pc)
def test_every_opcode_at_the_top_of_memory_runs_as_the_reference_on_both_cores(pc, memory_kind):
    rng = random.Random(pc)
    for opcode in range(256):
        code = [opcode] + _operands(rng)
        registers = dict(a=rng.randrange(256), x=rng.choice((0xFF, 0x01, rng.randrange(256))),
                         y=rng.choice((0xFF, 0x02, rng.randrange(256))), p=0x30 | rng.randrange(256) & 0xC3)
        fast, ref, memories = _machine_pair(memory_kind, rng, pc, code, registers)
        # A few blocks: the instruction, then whatever the wrapped program counter finds.
        lockstep(fast, ref, 4)


WRAP_MODES = {
    # mode: (operand bytes, registers) that take the effective address across $FFFF or $FF
    "zpx": ([0xF8], dict(x=0x10)), "zpy": ([0xFF], dict(y=0x03)),
    "abx": ([0xF8, 0xFF], dict(x=0x10)), "aby": ([0xFF, 0xFF], dict(y=0x04)),
    "inx": ([0xF8], dict(x=0x07)), "iny": ([0xFF], dict(y=0x30)),
}


def _opcodes_in(mode):
    return [op for op in range(256) if CPU.disassemble[op][1] == mode]


@pytest.mark.parametrize("mode", sorted(WRAP_MODES))
def test_every_opcode_of_each_indexed_mode_wraps_as_the_reference_in_a_hot_loop(mode, memory_kind):
    """The instruction in a loop at $1000 (so the fast core translates it), its address
    wrapping; the loop counts X or Y on, so the wrap moves on each pass."""
    operand, registers = WRAP_MODES[mode]
    index = "x" if "x" in registers else "y"
    step = 0xE8 if index == "x" else 0xC8                 # INX / INY
    rng = random.Random(mode)
    for opcode in _opcodes_in(mode):
        code = [opcode] + operand + [step, 0x4C, 0x00, 0x10]   # op / INX|INY / JMP $1000
        values = dict(registers, a=rng.randrange(256), p=0x30)
        fast, ref, memories = _machine_pair(memory_kind, rng, 0x1000, code, values)
        for memory in memories:                           # pointers at $FF/$00 and $F8..: page $FF
            ram = ram_of(memory)
            for addr in range(0xF8, 0x100, 2):
                ram[addr], ram[addr + 1] = 0xF0, 0xFF
        assert lockstep(fast, ref, 30) >= 1, "$%02X" % opcode


def test_a_branch_over_code_that_reaches_ffff_is_decoded_without_error():
    # $FFF7 BNE $FFFF over five NOPs and an LDA abs at $FFFE (its operand wraps to $0000):
    # the fast core's look for a branch it can keep inside a block read past $FFFF.
    memory = plain()
    put(memory, 0xFFF7, [0xD0, 0x06, 0xEA, 0xEA, 0xEA, 0xEA, 0xEA, 0xAD, 0x34])
    put(memory, 0x0000, [0x12, 0x4C, 0xF7, 0xFF])        # ($0000: LDA's high byte, then JMP $FFF7)
    fast = FastCPU(list(memory), pc=0xFFF7)
    ref = CPU(list(memory), pc=0xFFF7)
    for cpu in (fast, ref):
        cpu.p = 0x32                                      # Z set: the branch falls through
    assert [insn.addr for insn in fast.decode(0xFFF7)][:2] == [0xFFF7, 0xFFF9]
    assert lockstep(fast, ref, 20) == 20
