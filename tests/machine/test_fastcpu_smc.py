"""FastCPU on self-modifying code, against plain py65: operands the program keeps
rewriting are read when the block runs, opcodes it keeps rewriting run on their own, and
either way the cycles, registers and memory stay py65's, block by block."""

import pytest

from c64.cpu import CPU, CPUStop
from c64.fastcpu import FastCPU, REWRITE_LIMIT
from c64.machine import C64
from tests.conftest import assemble
from tests.machine.test_fastcpu import lockstep, state

# Every pass rewrites the operands of an LDA #, an ADC abs, an STA abs,X, an EOR zp (which
# reads $00 and $01 on the first passes), an STA zp, an INC abs, an LDX abs,Y, a JMP and a
# JSR, and the opcode at `flip` (INY, DEY, NOP, CLC, SEC, ASL A in turn).
OPERANDS = """
        .org $C000
start:  ldx #0
loop:   txa
        sta imm+1
        sta ld_abs+1
        sta st_abx+1
        sta zp_ld+1
        and #$3F
        ora #$80
        sta zp_st+1
        txa
        and #1
        tay
        lda jumps_lo,y
        sta jmp_op+1
        lda jumps_hi,y
        sta jmp_op+2
        lda subs_lo,y
        sta jsr_op+1
        txa
        and #7
        tay
        lda flips,y
        sta flip
        lda #0
imm:    lda #0
        clc
ld_abs: adc $2000
st_abx: sta $2100,x
zp_ld:  eor $00
zp_st:  sta $80
        sta $2200,x
        inc rmw+1
rmw:    inc $2300
        stx $30
ld_aby: ldx $2400,y
        stx $2500
        ldx $30
        inc ld_aby+1
jmp_op: jmp here0
here0:  inc $2600
        jmp back
here1:  dec $2600
back:
jsr_op: jsr sub0
flip:   nop
        sty $2601
        php
        pla
        sta $2700,x
        inx
        bne loop
        brk
sub0:   iny
        rts
sub1:   dey
        rts
jumps_lo: .byte <here0, <here1
jumps_hi: .byte >here0, >here1
subs_lo:  .byte <sub0, <sub1
flips:  .byte $C8, $88, $EA, $18, $38, $0A, $C8, $EA
"""
# (sub0 and sub1 share a page: only the JSR's low byte is rewritten.)


def _memory(code):
    memory = [0] * 0x10000
    memory[0xC000:0xC000 + len(code)] = list(code)
    memory[0x2000:0x2600] = [(i * 37 + 11) & 0xFF for i in range(0x600)]
    memory[0xFFFE:0x10000] = [0x00, 0x30]            # BRK -> $3000: JMP $3000
    memory[0x3000:0x3003] = [0x4C, 0x00, 0x30]
    return memory


def test_rewritten_operands_and_opcodes_run_as_py65_block_by_block():
    memory = _memory(assemble(OPERANDS))
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 12000) == 12000
    assert fast.pc == 0x3000                               # the loop ran to its end


def test_rewritten_operands_and_opcodes_end_as_on_py65_on_a_c64_without_retranslating():
    machines = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=1, cpu_class=core)
        code = assemble(OPERANDS)
        machine.mem.ram[0xC000:0xC000 + len(code)] = code
        machine.mem.ram[0x2000:0x2600] = bytes(_memory(code)[0x2000:0x2600])
        machine.cpu.pc = 0xC000
        machine.cpu.p = 0x24
        with pytest.raises(CPUStop):
            machine.cpu.run(10_000_000)
        machines.append(machine)
    fast, ref = machines
    assert state(fast.cpu) == state(ref.cpu)
    assert fast.mem.ram == ref.mem.ram
    # Each block is translated a few times until its rewritten bytes are known, not once
    # per pass (256), nor given up on (REWRITE_LIMIT: stepped by py65 from then on).
    assert max(fast.cpu.rewrite_counts().values()) < REWRITE_LIMIT
    loop = 0xC000 + assemble(OPERANDS).index(bytes([0x8A, 0x8D]))     # txa / sta imm+1
    assert fast.cpu.block_at(loop).__name__.startswith("block_")


# A loop that rewrites its LDA #'s operand (as bench_kinds' "self-modifying: operand").
OPERAND_LOOP = """
        .org $C000
        ldy #3
outer:  ldx #0
inner:  lda #0
        sta $C100,x
        inc inner+1
        inx
        bne inner
        dey
        bne outer
        brk
"""


def test_a_loop_rewriting_its_own_operand_stays_one_translated_loop():
    machine = C64(sid_seed=1, cpu_class=FastCPU)
    code = assemble(OPERAND_LOOP)
    machine.mem.ram[0xC000:0xC000 + len(code)] = code
    machine.cpu.pc = 0xC000
    with pytest.raises(CPUStop):
        machine.cpu.run(10_000_000)
    assert machine.mem.ram[0xC100:0xC104] == bytes([0, 1, 2, 3])
    assert machine.mem.ram[0xC1FF] == 0xFF
    assert max(machine.cpu.rewrite_counts().values()) < REWRITE_LIMIT
