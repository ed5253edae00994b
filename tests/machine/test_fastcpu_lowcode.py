"""FastCPU on code in zero page and on the stack page, against plain py65: translated
(not stepped), and exactly py65's cycles, registers and memory, also when the code is
rewritten by stores to zero page, stores through an index and its own pushes."""

import pytest

from c64.cpu import CPU, CPUStop
from c64.fastcpu import FastCPU
from c64.machine import C64
from tests.conftest import assemble
from tests.machine.test_fastcpu import lockstep, state

# A loop in zero page that rewrites itself three ways: its LDA #'s operand by a constant
# store (INC), the opcode at `flip` (INY <-> NOP) by a zp,X store, and through a pointer.
ZERO_PAGE_LOOP = """
        .org $0040
start:  ldx #0
loop:   lda #0
        sta $2000,x
        inc loop+1
flip:   iny
        lda flip
        eor #$22
        stx $30
        ldx #flip - $20
        sta $20,x
        ldx $30
        tya
        sta $2100,x
        pha
        lda #$EA
        sta ($32),y
        pla
        inx
        bne loop
        brk
"""

# Code on the stack page whose own pushes land on it: two PHAs write INX over the
# subroutine's NOPs at $01F3/$01F4, the JSR's return address goes over $01F1/$01F2,
# and the subroutine runs what the stack left there.
STACK_PAGE_CODE = """
        .org $0180
start:  ldy #6
outer:  lda #$EA
        sta $01F1
        sta $01F2
        sta $01F3
        sta $01F4
        ldx #$F4
        txs
        lda #$E8
        pha
        pha
        jsr sub
        sty $2000
        sta $2001
        stx $2002
        dey
        bne outer
        brk
        .advance $01F0
sub:    nop
        nop
        nop
        nop
        nop
        rts
"""


def _list_pair(source, origin):
    memory = [0] * 0x10000
    code = assemble(source)
    memory[origin:origin + len(code)] = list(code)
    memory[0x32:0x34] = [0x00, 0x22]                 # ($32),Y -> $2200 + Y
    memory[0xFFFE:0x10000] = [0x00, 0x30]            # BRK -> $3000: JMP $3000
    memory[0x3000:0x3003] = [0x4C, 0x00, 0x30]
    fast_mem, ref_mem = list(memory), list(memory)
    return FastCPU(fast_mem, pc=origin), CPU(ref_mem, pc=origin), fast_mem, ref_mem


def _run_on_c64s(source, origin):
    """Both cores on a C64 from origin to the program's BRK (the KERNAL's BRK stops them)."""
    machines = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=1, cpu_class=core)
        code = assemble(source)
        machine.mem.ram[origin:origin + len(code)] = code
        machine.mem.ram[0x32:0x34] = b"\x00\x22"
        machine.cpu.pc = origin
        machine.cpu.p = 0x24
        with pytest.raises(CPUStop):
            machine.cpu.run(10_000_000)
        machines.append(machine)
    return machines


def _translated(cpu, addr):
    return cpu.block_at(addr).__name__.startswith("block_")


def test_a_self_modifying_loop_in_zero_page_runs_translated_as_py65_block_by_block():
    fast, ref, fast_mem, ref_mem = _list_pair(ZERO_PAGE_LOOP, 0x40)
    assert lockstep(fast, ref, fast_mem, ref_mem, 3000) == 3000
    assert fast.pc == 0x3000 and fast.low_code
    assert list(fast_mem[0x2000:0x2004]) == [0, 1, 2, 3]     # the rewritten operand, each pass


def test_a_self_modifying_loop_in_zero_page_ends_as_on_py65_on_a_c64():
    fast, ref = _run_on_c64s(ZERO_PAGE_LOOP, 0x40)
    assert state(fast.cpu) == state(ref.cpu)
    assert fast.mem.ram == ref.mem.ram
    assert bytes(fast.mem.ram[0x2000:0x2004]) == b"\x00\x01\x02\x03"
    assert fast.cpu.low_code
    assert any(_translated(fast.cpu, addr) for addr in range(0x40, 0x60))


def test_code_on_the_stack_page_overwritten_by_its_own_pushes_runs_as_py65_block_by_block():
    fast, ref, fast_mem, ref_mem = _list_pair(STACK_PAGE_CODE, 0x180)
    assert lockstep(fast, ref, fast_mem, ref_mem, 400) == 400
    assert fast.pc == 0x3000
    assert fast_mem[0x01F2:0x01F5] == [0x01, 0xE8, 0xE8]      # what the pushes left there


def test_code_on_the_stack_page_ends_as_on_py65_on_a_c64_and_runs_translated():
    fast, ref = _run_on_c64s(STACK_PAGE_CODE, 0x180)
    assert state(fast.cpu) == state(ref.cpu)
    assert fast.mem.ram == ref.mem.ram
    assert bytes(fast.mem.ram[0x01F2:0x01F5]) == b"\x01\xe8\xe8"
    assert any(_translated(fast.cpu, addr) for addr in range(0x180, 0x1A0))


def test_code_in_zero_page_is_translated_once_it_runs_again():
    machine = C64(sid_seed=1, cpu_class=FastCPU)
    code = assemble(".org $0060\nloop: inc $2000\n jmp loop\n")
    machine.mem.ram[0x60:0x60 + len(code)] = code
    machine.cpu.pc = 0x60
    machine.cpu.run(2000)
    assert machine.cpu.low_code and _translated(machine.cpu, 0x60)
