"""FastCPU on self-modifying code, against plain py65: operands the program keeps
rewriting are read when the block runs, opcodes it keeps rewriting run on their own, and
either way the cycles, registers and memory stay py65's, block by block."""

import pytest

from c64.cpu import CPU, CPUStop
from c64.fastcpu import FastCPU, REWRITE_LIMIT
from c64.fastcpu.core import block_span
from c64.machine import C64
from tests.bench.bench_kinds import SMC_OPCODE
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


def _both_cores_on_a_c64(pieces):
    """(fast, ref): a C64 on each core with `pieces` ({address: bytes}) in RAM, run from
    $C000 to the program's end (a BRK: the stub ROM's JAM); the same registers on both."""
    machines = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=1, cpu_class=core)
        for address, data in pieces.items():
            machine.mem.ram[address:address + len(data)] = bytes(data)
        machine.cpu.pc = 0xC000
        machine.cpu.p = 0x24
        with pytest.raises(CPUStop):
            machine.cpu.run(10_000_000)
        machines.append(machine)
    assert state(machines[0].cpu) == state(machines[1].cpu)
    return machines


def test_rewritten_operands_and_opcodes_end_as_on_py65_on_a_c64_without_retranslating():
    code = assemble(OPERANDS)
    fast, ref = _both_cores_on_a_c64({0xC000: code, 0x2000: _memory(code)[0x2000:0x2600]})
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
    assert bytes(machine.mem.ram[0xC100:0xC104]) == bytes([0, 1, 2, 3])
    assert machine.mem.ram[0xC1FF] == 0xFF
    # The operand changed between the loop's first (interpreted) pass and its second, when
    # the loop is made: it is read from RAM from the start, and no block is dropped for it.
    assert 0xC005 in machine.cpu.volatile_bytes()
    assert max(machine.cpu.rewrite_counts().values(), default=0) < REWRITE_LIMIT
    assert machine.cpu.block_at(0xC004).__name__.startswith("block_")


# New code at one address after another (as a test program writing the instruction under
# test at each of many places): LDA #n / RTS written at $C400 + 4i, i = 0..31, with a new
# operand every pass, each called once a pass through a JSR whose operand is rewritten
# before every call (as bench_kinds' "self-modifying: new code spread").
SPREAD = """
        .org $C000
        .alias ptr $FB
        lda #6
        sta $C0F0
outer:  lda #$00
        sta ptr
        lda #$C4
        sta ptr+1
        ldx #0
next:   ldy #0
        lda #$A9
        sta (ptr),y
        iny
        txa
        eor $C0F0
        sta (ptr),y
        iny
        lda #$60
        sta (ptr),y
        lda ptr
        sta call+1
        lda ptr+1
        sta call+2
call:   jsr $C400
        sta $C100,x
        clc
        lda ptr
        adc #4
        sta ptr
        inx
        cpx #32
        bne next
        dec $C0F0
        bne outer
        brk
"""


def _spread_memory():
    memory = _memory(assemble(SPREAD))
    memory[0xC400:0xC480] = [0xEA] * 0x80
    return memory


def test_new_code_written_at_one_address_after_another_runs_as_py65_block_by_block():
    memory = _spread_memory()
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 3000) == 3000
    assert fast.pc == 0x3000                               # the loop ran to its end
    assert fast_mem[0xC100:0xC120] == [i ^ 1 for i in range(32)]   # the last pass's operands


def test_new_code_written_at_one_address_after_another_is_translated_once_each():
    fast, ref = _both_cores_on_a_c64({0xC000: _spread_memory()[0xC000:0xC500]})
    assert fast.mem.ram == ref.mem.ram
    routines = range(0xC400, 0xC480, 4)
    # Each routine's operand is read from RAM from the start, so no routine's block is
    # dropped by the next pass's store and made again.
    assert all(routine + 1 in fast.cpu.volatile_bytes() for routine in routines)
    assert not [key for key in fast.cpu.rewrite_counts() if key[1] in routines]
    # The JSR's operand is rewritten before every call: a routine's block ends at its RTS
    # (LDA # and RTS: 2 + 6 cycles) instead of holding its own copy of the caller's code
    # after the JSR.
    assert 0xC02C in fast.cpu.volatile_bytes()
    assert all(fast.cpu.block_at(routine).span == 8 for routine in routines)


def test_code_called_through_a_rewritten_jsr_is_translated_at_its_first_run():
    memory = _spread_memory()
    memory[0xC001] = 1                                     # one pass
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 600) == 600
    assert fast.pc == 0x3000
    # The JSR's operand is stored by the block that runs it: volatile from the first
    # call on; every routine it calls after that was translated when it first ran (not
    # interpreted first), its LDA #'s operand read from RAM.
    later = range(0xC404, 0xC480, 4)
    assert all(fast.block_at(routine).__name__.startswith("block_") for routine in later)
    assert all(routine + 1 in fast.volatile_bytes() for routine in later)


# A loop storing into its own later code: the same opcode on most passes (no code
# changes, the block goes on), another one every eighth (the block is left right after
# the store and made again), through a constant address and through (zp),Y.
OWN_CODE = """
        .org $C000
        ldx #0
loop:   txa
        and #7
        tay
        lda ops,y
        sta patch
        ldy #0
        sta ($F0),y
patch:  inx
        nop
        inx
        cpx #200
        bcc loop
        brk
ops:    .byte $E8, $E8, $E8, $E8, $E8, $E8, $E8, $EA
"""


def test_a_block_storing_into_its_own_later_code_runs_as_py65_block_by_block():
    code = assemble(OWN_CODE)
    memory = _memory(code)
    nop = 0xC000 + code.index(bytes([0xE8, 0xEA, 0xE8]), 10) + 1     # patch+1: the NOP
    memory[0xF0:0xF2] = [nop & 0xFF, nop >> 8]
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 3000) == 3000
    assert fast.pc == 0x3000


# An opcode rewritten every pass (ADC #, SBC # in turn) run with D set on odd passes and
# clear on even ones: each form is translated for the D flag it runs with.
DECIMAL_FORMS = """
        .org $C000
        ldx #0
loop:   txa
        and #1
        tay
        lda ops,y
        sta op
        txa
        lsr
        bcc binary
        sed
        jmp go
binary: cld
go:     txa
        and #$0F
        clc
op:     adc #$19
        cld
        sta $C100,x
        php
        pla
        sta $C200,x
        inx
        bne loop
        brk
ops:    .byte $69, $E9
"""


def test_a_rewritten_opcode_runs_with_the_d_flag_it_finds_block_by_block():
    code = assemble(DECIMAL_FORMS)
    memory = _memory(code)
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 6000) == 6000
    assert fast.pc == 0x3000
    op = 0xC000 + code.index(bytes([0x69, 0x19]))
    assert op in fast.volatile_bytes()


# A loop that sets up the operands of instructions later in itself before running them:
# an LDA #'s and a JSR's (sub0 and sub1 in turn).
SETS_UP = """
        .org $C000
        ldx #0
loop:   txa
        and #1
        tay
        lda targets,y
        sta call+1
        txa
        sta ld+1
ld:     lda #0
        sta $2000,x
call:   jsr sub0
        inx
        bne loop
        brk
sub0:   iny
        rts
sub1:   dey
        rts
targets: .byte <sub0, <sub1
"""


def test_a_block_setting_up_its_own_later_operands_reads_them_when_it_gets_there():
    code = assemble(SETS_UP)
    memory = _memory(code)
    loop = 0xC002
    ld = 0xC000 + code.index(bytes([0xA9, 0x00, 0x9D]))
    call = ld + 5
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    # Before anything ran: the block goes on past the stores to the LDA # and the JSR,
    # which read their operands from RAM when it gets there (it does not end at the
    # first store, nor follow the JSR to where it points now).
    insns = fast.decode(loop)
    assert [insn.addr for insn in insns if insn.dynamic] == [ld, call]
    assert insns[-1].addr == call and not insns[-1].chain
    assert lockstep(fast, ref, fast_mem, ref_mem, 3000) == 3000
    assert fast.pc == 0x3000
    assert fast_mem[0x2000:0x2100] == list(range(256))
    assert {ld + 1, call + 1} <= fast.volatile_bytes()
    assert not fast.rewrite_counts()                       # no block was made twice


# An opcode rewritten on every pass (bench_kinds' "self-modifying: opcode", three passes,
# ending in a BRK): the loop's first block is made before `under` is seen to change, and
# then ends right after its store there (the block's own later code).
OPCODE_LOOP = SMC_OPCODE.format(passes=3).replace("        rts\n", "        brk\n")


def test_a_block_ended_at_a_store_to_a_later_opcode_is_made_again_once_that_opcode_is_volatile():
    code = assemble(OPCODE_LOOP)
    memory = _memory(code)
    inner = 0xC007
    under = 0xC000 + code.index(bytes([0xA0, 0x40])) + 2
    fast_mem, ref_mem = list(memory), list(memory)
    fast, ref = FastCPU(fast_mem, pc=0xC000), CPU(ref_mem, pc=0xC000)
    assert lockstep(fast, ref, fast_mem, ref_mem, 5000) == 5000
    assert fast.pc == 0x3000
    assert under in fast.volatile_bytes()
    # The loop's block is what the decoder makes now: up to the LDY before `under`, not
    # the first one, which ended at the store.
    insns = fast.decode(inner)
    assert insns[-1].next == under
    assert fast.block_at(inner).span == block_span(insns)


# A program that rewrites its own operand, and another LOADed over it at the same
# addresses: new code, which the translator must not take for the first one rewritten.
REWRITER = """
        .org $C000
        ldx #0
loop:   inc op+1
op:     lda #0
        dex
        bne loop
        rts
"""
PLAIN = """
        .org $C000
        ldy #0
        ldx #100
loop:   iny
        iny
        dex
        bne loop
        rts
"""
PLAIN_LOOP = 0xC004


def loaded_in_turn(tmp_path, names):
    """A C64 with the two programs as files A and B of drive 8; each of `names` LOADed with
    LOAD"name",8,1 and run with SYS 49152, in turn."""
    for name, source in (("a", REWRITER), ("b", PLAIN)):
        (tmp_path / (name + ".prg")).write_bytes(b"\x00\xc0" + bytes(assemble(source)))
    m = C64(disk_folder=str(tmp_path))
    for name in names:
        m.type('LOAD"%s",8,1{return}SYS49152{return}' % name.upper())
        m.run(max_cycles=20_000_000)
    return m


def test_a_program_loaded_over_self_modifying_code_is_new_code(tmp_path):
    m = loaded_in_turn(tmp_path, "a")
    assert m.cpu.volatile_bytes() & set(range(0xC000, 0xC010))      # (op+1 is rewritten)
    m = loaded_in_turn(tmp_path, "ab")
    assert not m.cpu.volatile_bytes() & set(range(0xC000, 0xC010))
    assert m.peek(0x030E) == 200                   # Y after the SYS (SYREG): 200 INYs


def test_programs_loaded_in_turn_at_one_address_stay_translated(tmp_path):
    # Each LOAD drops the blocks the other program's code made there; after REWRITE_LIMIT
    # such drops a block counted as code the program rewrites would be stepped for good.
    m = loaded_in_turn(tmp_path, "ab" * (REWRITE_LIMIT + 2))
    assert not m.cpu.runs_untranslated(PLAIN_LOOP)
    assert m.peek(0x030E) == 200


# A routine in screen memory whose JSR CHROUT prints over the operand of its next
# instruction: the block made from it must not go on with the operand it was made from.
PRINTS_OVER_ITSELF = """
        .org $C000
        ldx #0
pass:   stx count
        ldx #6
        ldy #22
        clc
        jsr $FFF0         ; PLOT: the cursor on $0506, the operand of the LDA # below
        ldx count
        lda letters,x
        jsr $0500
        ldx count
        sta $C100,x
        inx
        cpx #4
        bne pass
        rts
count:  .byte 0
letters: .byte $41,$42,$43,$44
"""
IN_SCREEN_MEMORY = [0x20, 0xD2, 0xFF,     # $0500 JSR CHROUT
                    0xEA, 0xEA,           # $0503 NOP NOP
                    0xA9, 0x00,           # $0505 LDA #
                    0x60]                 # $0507 RTS


@pytest.mark.parametrize("cpu_class", [CPU, FastCPU])
def test_a_kernal_routine_that_writes_over_the_calling_block_is_seen_on_return(cpu_class):
    m = C64(cpu_class=cpu_class)
    for offset, byte in enumerate(assemble(PRINTS_OVER_ITSELF)):
        m.poke(0xC000 + offset, byte)
    for offset, byte in enumerate(IN_SCREEN_MEMORY):
        m.poke(0x0500 + offset, byte)
    m.call(0xC000)
    # Each pass loads the screen code CHROUT has just put there: A, B, C, D.
    assert [m.peek(0xC100 + i) for i in range(4)] == [1, 2, 3, 4]
