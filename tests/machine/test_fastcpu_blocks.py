"""FastCPU's block-level shortcuts checked against plain py65: zero-page pointers read once per
block, forward branches kept inside a block, interrupts pushed on the register cells, and the
places outside the CPU that tell it about code they overwrite."""

import random

import pytest

from c64.cpu import CPU, CPUStop
from c64.fastcpu import FastCPU
from c64.machine import C64
from tests.conftest import assemble
from tests.machine.test_fastcpu import lockstep, state

# The pointer at $FB/$FC points at itself; a store through it changes it, and the next
# (zp),Y read in the same stretch of code must go through the new pointer.
SELF_POINTING = """
        .org $C000
start:  ldy #0
        lda #$FB
        sta $FB
        lda #$00
        sta $FC
        lda #$77
        sta $40
        lda ($FB),y             ; $FB itself
        sta $C200
        lda #$40
        sta ($FB),y             ; the pointer becomes $0040
        lda ($FB),y             ; reads $40: $77
        sta $C201
        iny
        lda ($FB),y             ; $41
        sta $C202
        lda #$FB
        sta $FB
        dec $C203
        bne start
        brk
"""


def _c64_pair(source, origin=0xC000):
    machines = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=1, cpu_class=core)
        code = assemble(source)
        machine.mem.ram[origin:origin + len(code)] = code
        machine.mem.ram[0xC203] = 5
        machine.cpu.pc = origin
        machine.cpu.p = 0x24
        machines.append(machine)
    return machines


def _run_both_to_brk(fast, ref):
    """Whole runs of both C64s until the program's BRK (lockstep would end every loop pass),
    then the same registers, flags, cycles and RAM."""
    for machine in (fast, ref):
        with pytest.raises(CPUStop):
            machine.cpu.run(1_000_000)
    assert state(fast.cpu) == state(ref.cpu)
    assert fast.mem.ram == ref.mem.ram


def _list_pair(source, origin=0xC000):
    memory = [0] * 0x10000
    code = assemble(source)
    memory[origin:origin + len(code)] = list(code)
    memory[0xC203] = 5
    memory[0xFFFE:0x10000] = [origin & 0xFF, origin >> 8]      # BRK starts again
    fast_mem, ref_mem = list(memory), list(memory)
    return FastCPU(fast_mem, pc=origin), CPU(ref_mem, pc=origin), fast_mem, ref_mem


def test_a_store_through_a_pointer_into_the_pointer_is_seen_by_the_next_read_on_a_c64():
    fast, ref = _c64_pair(SELF_POINTING)
    assert lockstep(fast.cpu, ref.cpu, fast.mem.ram, ref.mem.ram, 200) > 20
    assert fast.mem.ram[0xC201] == 0x77


def test_a_store_through_a_pointer_into_the_pointer_is_seen_by_the_next_read_in_plain_memory():
    fast, ref, fast_mem, ref_mem = _list_pair(SELF_POINTING)
    assert lockstep(fast, ref, fast_mem, ref_mem, 200) > 20
    assert fast_mem[0xC201] == 0x77


# Forward branches over a few instructions (stores, a read-modify-write, a branch of their
# own, a page crossing for the taken branch at $C0FC) taken and not taken in turn.
SKIPS = """
        .org $C0F0
start:  ldx #40
loop:   txa
        and #3
        cmp #2
        nop
        nop
        nop
        nop
        nop
        beq over                ; at $C0FC: taken, it crosses into page $C1
        inc $C300
        sta $C301,x
        bcc over
        lda ($FB),y
        adc #1
over:   lsr
        bcs odd
        sty $C380
        ldy $C300
        clc
odd:    dex
        bne loop
        brk
"""


def test_forward_branches_inside_a_block_keep_py65s_cycles_flags_and_memory_on_a_c64():
    fast, ref = _c64_pair(SKIPS, 0xC0F0)
    for machine in (fast, ref):
        machine.mem.ram[0xFB:0xFD] = bytes([0x10, 0xC3])
    assert lockstep(fast.cpu, ref.cpu, fast.mem.ram, ref.mem.ram, 400) > 40


def test_forward_branches_inside_a_block_keep_py65s_cycles_flags_and_memory_in_plain_memory():
    fast, ref, fast_mem, ref_mem = _list_pair(SKIPS, 0xC0F0)
    for memory in (fast_mem, ref_mem):
        memory[0xFB:0xFD] = [0x10, 0xC3]
    assert lockstep(fast, ref, fast_mem, ref_mem, 400) > 40


def test_a_kernal_trap_runs_untranslated_and_a_hot_loop_translated():
    fast, _ = _c64_pair("""
        .org $C000
loop:   jsr $ffe4               ; GETIN: a trap in the stub ROM
        jmp loop
""")
    fast.cpu.run(fast.cpu.processorCycles + 20_000)
    assert fast.cpu.runs_untranslated(0xF13E)                       # GETIN's ROM address
    assert not fast.cpu.runs_untranslated(0xC000)
    assert fast.cpu.block_at(0xC000).__name__ == "block_c000"       # the loop is translated


def test_a_block_holds_a_forward_branch_over_a_store_instead_of_leaving_there():
    fast, _ = _c64_pair(SKIPS, 0xC0F0)
    with pytest.raises(CPUStop):                                    # the BRK at the end
        fast.cpu.run(fast.cpu.processorCycles + 20_000)
    assert fast.cpu.block_at(0xC0F2).__name__ == "block_c0f2"        # the loop is translated
    assert not fast.cpu.runs_untranslated(0xC0F2)
    insns = fast.cpu.decode(0xC0F2, 48)
    assert [insn.addr for insn in insns if insn.skip is not None] == [0xC0FC, 0xC104, 0xC10B]
    assert insns[-1].addr == 0xC115                                 # DEX / BNE loop: one block


@pytest.mark.parametrize("seed", range(20))
def test_interrupts_push_what_py65_pushes(seed):
    results = []
    for core in (FastCPU, CPU):
        memory = [0] * 0x10000
        memory[0xFFFA:0x10000] = [0x34, 0x12, 0, 0, 0x78, 0x56]
        cpu = core(memory)
        rng = random.Random(seed)
        cpu.a, cpu.x, cpu.y, cpu.sp = (rng.randrange(256) for _ in range(4))
        cpu.pc, cpu.p = rng.randrange(0x10000), rng.randrange(256) | 0x20
        cpu.processorCycles = rng.randrange(10 ** 6)
        cpu.irq()                       # pushes only when I is clear
        after_irq = state(cpu)
        cpu.nmi()
        results.append((after_irq, state(cpu), list(memory[0x100:0x200])))
    assert results[0] == results[1]


def test_an_irq_while_interrupts_are_masked_does_nothing():
    cpu = FastCPU([0] * 0x10000, pc=0x1234)
    cpu.p = 0x24
    before = state(cpu)
    cpu.irq()
    assert state(cpu) == before


def _translated(machine, address, code):
    machine.mem.ram[address:address + len(code)] = code
    for _ in range(3):
        machine.call(address)
    return any(machine.mem.code_map[address:address + len(code)])


def test_the_editors_row_copy_over_translated_code_drops_it():
    machine = C64(cpu_class=FastCPU)
    code = assemble(".org $0428\n lda #1\n sta $C000\n inc $C001\n rts\n")
    assert _translated(machine, 0x0428, code)            # row 1 of the screen
    machine.kernal.editor.scroll_up()                   # row 2 is copied over row 1
    assert not any(machine.mem.code_map[0x0428:0x0428 + len(code)])


def test_ramtas_over_translated_code_drops_it():
    machine = C64(cpu_class=FastCPU)
    code = assemble(".org $0340\n lda #1\n sta $C000\n inc $C001\n rts\n")
    assert _translated(machine, 0x0340, code)            # the cassette buffer
    machine.kernal.k_ramtas(machine.cpu)
    assert not any(machine.mem.code_map[0x0340:0x0340 + len(code)])


def test_a_machine_run_picks_up_code_poked_into_ram_between_runs():
    machine = C64(cpu_class=FastCPU)
    code = assemble(".org $C000\n lda #1\n sta $C100\n rts\n")
    assert _translated(machine, 0xC000, code)
    machine.mem.ram[0xC001] = 2                          # behind the CPU's back
    machine.call(0xC000)
    assert machine.mem.ram[0xC100] == 2


# Subroutines that rewrite their own return address on the stack (a constant store, an
# indexed store after TSX, a store through a pointer into page 1): the RTS must go where
# the stack now says, even though the block went through the JSR itself.
RETURN_ELSEWHERE = """
        .org $C000
start:  ldx #$FF
        txs
        lda #$FE
        sta $FB
        lda #$01
        sta $FC
        jsr sub1
        inc $C300               ; skipped: sub1 returns to alt1
alt1:   jsr sub2
        inc $C301               ; skipped
alt2:   jsr sub3
        inc $C302               ; skipped
alt3:   pha
        jsr sub4                ; a plain return, with a byte pushed before the call
        pla
        inc $C303
        dec $C203
        bne start
        brk
sub1:   lda #<[alt1-1]
        sta $01FE
        lda #>[alt1-1]
        sta $01FF
        rts
sub2:   tsx
        lda #<[alt2-1]
        sta $0101,x
        lda #>[alt2-1]
        sta $0102,x
        rts
sub3:   ldy #0
        lda #<[alt3-1]
        sta ($FB),y
        iny
        lda #>[alt3-1]
        sta ($FB),y
        rts
sub4:   inc $C304
        rts
"""


def test_a_subroutine_that_rewrites_its_return_address_returns_there_on_a_c64():
    fast, ref = _c64_pair(RETURN_ELSEWHERE)
    assert lockstep(fast.cpu, ref.cpu, fast.mem.ram, ref.mem.ram, 400) > 10
    assert bytes(fast.mem.ram[0xC300:0xC305]) == bytes([0, 0, 0, 5, 5])


def test_a_subroutine_that_rewrites_its_return_address_returns_there_in_plain_memory():
    fast, ref, fast_mem, ref_mem = _list_pair(RETURN_ELSEWHERE)
    assert lockstep(fast, ref, fast_mem, ref_mem, 60) == 60
    assert fast_mem[0xC300:0xC303] == [0, 0, 0]
    assert fast_mem[0xC303] == fast_mem[0xC304] > 5


# JMP ($0326) inside blocks (through $FFD2) with the vector changed in every way a program
# or the machine can change it.
HOOKED = """
        .org $C000
        ldx #0
loop:   lda $C500,x
        beq done
        jsr $FFD2
        inx
        bne loop
done:   lda $C3FF               ; 1: switch CHROUT to the hook, from this very block
        beq out
        lda #<hook
        sta $0326
        lda #>hook
        sta $0327
        lda #$41
        jsr $FFD2
out:    rts
hook:   inc $C3F0
        jmp $F1CA
"""


def _hooked_machine(core):
    machine = C64(sid_seed=2, cpu_class=core)
    machine.poke(0xDC0D, 0x7F)                   # no timer interrupts: both cores agree exactly
    code = assemble(HOOKED)
    machine.mem.ram[0xC000:0xC000 + len(code)] = code
    machine.mem.ram[0xC500:0xC508] = b"ABCDEFG\0"
    return machine


def test_a_watched_chrout_vector_changed_by_poke_by_the_program_and_behind_the_back_is_followed():
    results = []
    for core in (FastCPU, CPU):
        machine = _hooked_machine(core)
        hook_address = 0xC000 + assemble(HOOKED).rindex(bytes([0xEE, 0xF0, 0xC3]))
        counts = []
        for step in range(9):
            if step == 3:
                machine.poke(0x0326, hook_address & 0xFF)          # through the memory
                machine.poke(0x0327, hook_address >> 8)
            if step == 5:
                machine.mem.ram[0x0326:0x0328] = bytes([0xCA, 0xF1])    # behind the CPU's back
            if step == 7:
                machine.mem.ram[0xC3FF] = 1                        # the program switches it
            machine.call(0xC000)
            counts.append(machine.mem.ram[0xC3F0])
        results.append((counts, _state_of(machine)))
    assert results[0] == results[1]
    assert results[0][0] == [0, 0, 0, 7, 14, 14, 14, 15, 23]


def _state_of(machine):
    cpu = machine.cpu
    return (cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.processorCycles, bytes(machine.mem.ram),
            bytes(machine.mem.io.colour_ram))


# An interrupt handler that points $0314 at the other one each time (as raster splits do).
SWITCHING_IRQ = """
        .org $C000
        sei
        lda #<first
        sta $0314
        lda #>first
        sta $0315
        cli
spin:   inc $C100
        bne spin
        inc $C101
        jmp spin
first:  inc $C200
        lda #<second
        sta $0314
        lda #>second
        sta $0315
        jmp $EA31
second: inc $C201
        lda #<first
        sta $0314
        lda #>first
        sta $0315
        jmp $EA31
"""


def test_an_interrupt_vector_switched_at_every_interrupt_is_followed_and_then_checked_when_run():
    machines = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=3, cpu_class=core)
        code = assemble(SWITCHING_IRQ)
        machine.mem.ram[0xC000:0xC000 + len(code)] = code
        machine.start(0xC000)
        machine.run(max_cycles=40 * 16421)
        machines.append(machine)
    fast, ref = machines
    assert fast.mem.ram[0xC200] + fast.mem.ram[0xC201] == ref.mem.ram[0xC200] + ref.mem.ram[0xC201]
    assert abs(fast.mem.ram[0xC200] - fast.mem.ram[0xC201]) <= 1 and fast.mem.ram[0xC200] >= 19
    assert 0x0314 in fast.cpu.changing_vectors()
    assert max(fast.cpu.rewrite_counts().values(), default=0) < 3     # not counted as rewritten code


# A loop storing through a pointer that it overwrites on the way (the pointer's bytes are
# read once before a translated loop): from the store that hits $FB on, the stores go
# through the new pointer.
POINTER_LOOP = """
        .org $C000
outer:  lda #$F8
        sta $FB
        lda #$00
        sta $FC
        ldy #7
        lda $C203
loop:   sta ($FB),y             ; the pass with Y = 3 writes $FB
        dey
        bpl loop
        dec $C203
        bne outer
        brk
"""


def test_a_loop_that_stores_into_its_own_pointer_uses_the_new_pointer_next_pass_on_a_c64():
    fast, ref = _c64_pair(POINTER_LOOP)
    _run_both_to_brk(fast, ref)
    assert "zh251" in " ".join(fast.cpu.block_at(0xC00D).__code__.co_varnames)   # hoisted


# One subroutine, two callers, and a tail call into CHROUT: a block that follows the RTS
# (or the trap's return) to the caller it saw when it was translated must notice the
# other caller at run time.
TWO_CALLERS = """
        .org $C000
start:  ldx #0
again:  jsr digit
        inc $C300
        jsr digit
        inc $C301
        jsr show
        inc $C302
        lda $C203
        and #1
        beq other
        jsr show
        inc $C303
        jmp next
other:  pha
        jsr digit
        pla
        inc $C304
next:   inx
        cpx #12
        bne again
        dec $C203
        bne start
        rts
digit:  txa
        and #7
        ora #$30
        rts
show:   lda #$2E
        jmp $FFD2
"""


def test_returns_followed_past_the_block_start_check_the_caller_at_run_time():
    results = []
    for core in (FastCPU, CPU):
        machine = C64(sid_seed=4, cpu_class=core)
        machine.poke(0xDC0D, 0x7F)
        code = assemble(TWO_CALLERS)
        machine.mem.ram[0xC000:0xC000 + len(code)] = code
        machine.mem.ram[0xC203] = 6
        registers = machine.call(0xC000)
        results.append((registers, _state_of(machine), machine.screen_text()))
    assert results[0] == results[1]
    assert results[0][1][6][0xC300:0xC305] == bytes([72, 72, 72, 36, 36])


def test_returns_followed_past_the_block_start_match_the_reference_block_by_block():
    fast, ref = _c64_pair(TWO_CALLERS)
    for machine in (fast, ref):
        machine.cpu.sp = 0xF0
    assert lockstep(fast.cpu, ref.cpu, fast.mem.ram, ref.mem.ram, 600) > 100


# A loop after some code: a loop storing through a pointer with a branch inside, then code
# after it that rewrites one of its own later instructions, and a second loop.
MIDDLE_LOOP = """
        .org $C000
start:  ldy #0
        lda #$10
        sta $FB
        lda #$C3
        sta $FC
        ldx #20
fill:   txa
        sta ($FB),y
        and #3
        bne skip
        inc $C400
skip:   iny
        dex
        bne fill
        lda $C203
        and #1
        ora #2
        sta patch+1
patch:  inc $C401
        ldx #5
wait:   dex
        bne wait
        dec $C203
        bne start
        brk
"""


def test_a_loop_with_code_before_and_after_it_runs_as_py65_on_a_c64():
    fast, ref = _c64_pair(MIDDLE_LOOP)
    for machine in (fast, ref):
        machine.mem.ram[0xC203] = 9
    _run_both_to_brk(fast, ref)
    assert fast.mem.ram[0xC400] == 9 * 5 and fast.mem.ram[0xC402] + fast.mem.ram[0xC403] == 9


def test_a_loop_with_code_before_and_after_it_runs_as_py65_in_plain_memory():
    fast, ref, fast_mem, ref_mem = _list_pair(MIDDLE_LOOP)
    for limit in range(2000, 60000, 1777):
        fast.run(limit)
        ref.run(fast.processorCycles)
        assert state(fast) == state(ref)
        assert fast_mem == ref_mem


# The pointer is read before the loop and changed inside it: each pass reads it afresh.
POINTER_MOVES = """
        .org $C000
start:  ldy #0
        lda #$00
        sta $FB
        lda #$C3
        sta $FC
        lda ($FB),y
        ldx #4
step:   lda ($FB),y
        sta $C380,x
        inc $FB
        dex
        bne step
        dec $C203
        bne start
        brk
"""


def test_a_pointer_read_before_a_loop_and_moved_inside_it_is_read_again_each_pass():
    fast, ref = _c64_pair(POINTER_MOVES)
    for machine in (fast, ref):
        machine.mem.ram[0xC300:0xC308] = bytes([11, 22, 33, 44, 55, 66, 77, 88])
    _run_both_to_brk(fast, ref)
    assert bytes(fast.mem.ram[0xC381:0xC385]) == bytes([44, 33, 22, 11])


# Reads and writes through one pointer, some crossing a page (one more cycle for the read),
# in a loop and in straight code after it.
PAGE_CROSSING = """
        .org $C000
start:  lda #$F0
        sta $FB
        lda #$C3
        sta $FC
        ldy #$08
        ldx #6
again:  lda ($FB),y
        sta ($FB),y
        iny
        iny
        iny
        iny
        dex
        bne again
        ldy #$0F
        lda ($FB),y
        ldy #$10
        adc ($FB),y
        sta ($FB),y
        ldy #$30
        eor ($FB),y
        sta $C500
        dec $C203
        bne start
        brk
"""


def test_reads_and_writes_through_one_pointer_across_pages_count_py65s_cycles_on_a_c64():
    fast, ref = _c64_pair(PAGE_CROSSING)
    for machine in (fast, ref):
        machine.mem.ram[0xC3F0:0xC440] = bytes(range(0x50))
    _run_both_to_brk(fast, ref)
    fast, ref = _c64_pair(PAGE_CROSSING)
    for machine in (fast, ref):
        machine.mem.ram[0xC3F0:0xC440] = bytes(range(0x50))
    assert lockstep(fast.cpu, ref.cpu, fast.mem.ram, ref.mem.ram, 400) > 20


# A loop whose every pass sets N, Z and C (LDA, CPX) before reading them: where a pass
# loops back they are not assigned (the next pass sets them anyway), so the block must
# assign them where the cycle limit makes it leave after any pass -- and where the loop
# ends.  ($C203 counts the outer passes down from 200; the inner pass runs while X is below
# it, so N from CPX changes from pass to pass: bit 7 of X - $C203.)
FLAGS_SET_EACH_PASS = """
        .org $C000
start:  ldx #0
loop:   lda $C100,x
        ora #$81
        sta $C400,x
        inx
        cpx $C203
        bcc loop
        php
        pla
        sta $C300
        dec $C203
        bne start
        brk
"""


def _in_uneven_steps(pair, source, counter, until, limits, data=()):
    """Both CPUs (a C64 pair or a plain-memory pair) on `source`, the byte at $C203 set to
    `counter` (and `data` from $C100): the fast one run to varying cycle limits (cycled
    from `limits`), the reference to the same cycle, the same state and memory after
    each, until $C203 reaches `until`.  Returns the fast CPU."""
    if pair is _c64_pair:
        fast, ref = pair(source)
        fast_mem, ref_mem, fast, ref = fast.mem.ram, ref.mem.ram, fast.cpu, ref.cpu
    else:
        fast, ref, fast_mem, ref_mem = pair(source)
    for memory in (fast_mem, ref_mem):
        memory[0xC203] = counter
        memory[0xC100:0xC100 + len(data)] = data
    steps = 0
    while ref_mem[0xC203] > until:
        steps += 1
        fast.run(fast.processorCycles + limits[steps % len(limits)])
        ref.run(fast.processorCycles)
        assert state(fast) == state(ref), "after %d runs" % steps
        assert fast_mem == ref_mem
    return fast


@pytest.mark.parametrize("pair", [_c64_pair, _list_pair], ids=["c64", "plain memory"])
def test_a_loop_left_at_the_cycle_limit_after_any_pass_has_py65s_flags(pair):
    fast = _in_uneven_steps(pair, FLAGS_SET_EACH_PASS, 200, 192, (3, 7, 11, 29, 53, 97, 131),
                            data=bytes(range(0x30, 0xF8)))
    assert fast.block_at(0xC002).__name__ == "block_c002"      # the loop ran translated


# Pushes, pulls, calls and returns inside one block, with ways out between them (side
# exits, a store into the block's own code, TSX reading the pointer): the block moves the
# stack pointer at translation time and must leave it where py65 has it on every way out.
STACK_WAYS_OUT = """
        .org $C000
start:  lda $C203
        pha
        and #3
        beq skip1
        pha
        tsx
        stx $C300
        pla
skip1:  jsr sub
        php
        pla
        sta $C301
        lda $C203
        and #1
        bne odd
        pha
        pha
        jsr sub
        pla
        pla
odd:    pla
        tsx
        stx $C302
        dec $C203
        bne start
        brk
sub:    tsx
        stx $C303
        pha
        lda $C203
        cmp #3
        bcc low
        pla
        rts
low:    pla
        rts
"""


@pytest.mark.parametrize("pair", [_c64_pair, _list_pair], ids=["c64", "plain memory"])
def test_pushes_and_calls_inside_a_block_leave_py65s_stack_pointer_on_every_way_out(pair):
    fast = _in_uneven_steps(pair, STACK_WAYS_OUT, 60, 1, (1, 5, 9, 17, 33, 40))
    assert fast.block_at(0xC000).__name__ == "block_c000"
