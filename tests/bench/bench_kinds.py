"""Benchmark: FastCPU against plain py65 stepping on many kinds of code, in one run.

    python tests/bench/bench_kinds.py [--repeat 3] [--rows name,name...] [--scale 1.0]

Each row is a workload run to its end on a whole C64 (banking, I/O, the 60 Hz
IRQ, the KERNAL) once with each core: ryg23's and ryg3's searches, a BASIC
program, and small machine-code programs started as SYS starts them, which
return to BASIC when done -- a tight loop at $C000, the same loop in zero page
and on the stack page, loops that rewrite an operand or an opcode of their own
on every pass (as test programs and packers do), new code written at one address
after another (as a test suite writes the instruction under test), calls through RAM vectors, a
loop polling the raster line ($D012) and the keyboard port ($DC01), BRKs
through the KERNAL's BRK vector, a fast CIA timer IRQ, the code a program falls
into after POKE 1,0 (all RAM: BRK, through a RAM vector at $FFFE, into zero
page), and a print-heavy loop (CHROUT, scrolling).

Each row checks that both cores ended with the same cycle count, registers,
RAM (the stack bytes under the stack pointer aside: an interrupt taken one
instruction later leaves a different return address there, which nothing reads),
colour RAM and screen, and prints the ratio of their speeds (py65 time over
FastCPU time for the same cycles).  The cores run alternately, --repeat times
each, and each one's fastest run counts, so that a busy host moves the figures
less; the worst row is printed last.  Times are process CPU time (the garbage
of earlier runs is collected before each run, not during it).  Each run
starts with no compiled block in memory, as a new process does (the time a row
spends compiling, or reading compiled blocks from disk, counts).  The compiled
blocks go to a disk cache (c64/fastcpu/block_cache.py) in a temporary folder made
for this run of the script: the first run of a row compiles every block, the
later ones read them from there, as a new process does on a machine that ran
the program before.  --cold uses no disk cache (every run compiles every
block, as the first run ever does); --warm keeps the compiled blocks in memory
between runs, as a long session does.
"""

import argparse
import gc
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from c64.cpu import CPU                      # noqa: E402
from c64.fastcpu import FastCPU              # noqa: E402
from c64.fastcpu.block_cache import BLOCKS, as_new_process     # noqa: E402
from c64.machine import C64, StopReason      # noqa: E402
from tests.conftest import assemble          # noqa: E402

PAL_HZ = 985248
BENCH = os.path.dirname(os.path.abspath(__file__))

# The loop the $C000, zero-page and stack-page rows run (the same bytes at each origin):
# Y outer passes of 256 increments of a byte table, with a JSR and a JMP on the way.
LOOP = """
        .org {origin}
        ldy #{passes}
outer:  ldx #0
inner:  inc $C100,x
        jsr sub
        bne inner
        dey
        bne outer
        rts
sub:    inx
        jmp back
back:   rts
"""

# An operand rewritten on every pass (the loop's own LDA #): what a packer's copy loop or
# a test program's "instruction under test" does.
SMC_OPERAND = """
        .org $C000
        ldy #{passes}
outer:  ldx #0
inner:  lda #0
        sta $C100,x
        inc inner+1
        inx
        bne inner
        dey
        bne outer
        rts
"""

# An opcode rewritten on every pass: a test program writing the instruction under test
# (INY, DEY, NOP, CLC, SEC, CLV, ASL A, LSR A in turn) into its own code.
SMC_OPCODE = """
        .org $C000
        lda #{passes}
        sta $C0F0
outer:  ldx #0
inner:  txa
        and #7
        tay
        lda ops,y
        sta under
        ldy #$40
under:  nop
        tya
        sta $C100,x
        inx
        bne inner
        dec $C0F0
        bne outer
        rts
ops:    .byte $C8, $88, $EA, $18, $38, $B8, $0A, $4A
"""

# New code at each of 256 addresses, a new operand on every pass (as a test program that
# writes the instruction under test at one place after another): LDA #n / RTS written
# at $C400 + 4i and called through a JSR whose operand is rewritten too.
SMC_SPREAD = """
        .org $C000
        .alias ptr $FB
        lda #{passes}
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
        bcc same
        inc ptr+1
same:   inx
        bne next
        dec $C0F0
        bne outer
        rts
"""

# Calls through RAM vectors: JSR to a JMP (vector) whose target alternates every outer pass.
VECTORS = """
        .org $C000
        lda #<first
        sta $C0F0
        lda #>first
        sta $C0F1
        ldy #{passes}
outer:  ldx #0
inner:  jsr call
        inx
        bne inner
        lda $C0F0
        eor #<first ^ <second
        sta $C0F0
        dey
        bne outer
        rts
call:   jmp ($C0F0)
first:  inc $C100,x
        rts
second: dec $C100,x
        rts
"""
# (first and second must share a page: only the vector's low byte is switched.)

# Polling I/O: wait for raster line $80 and for it to pass, reading the keyboard port each time.
POLLING = """
        .org $C000
        ldy #{passes}
frame:  lda $DC01
        sta $C100
wait:   lda $D012
        cmp #$80
        bne wait
away:   lda $D012
        cmp #$80
        beq away
        inc $C101
        dey
        bne frame
        rts
"""

# BRK through the KERNAL's BRK vector ($0316) to a handler that returns with the ROM's
# $EA81 tail (PLA TAY PLA TAX PLA RTI), over and over.
BRKS = """
        .org $C000
        lda #<handler
        sta $0316
        lda #>handler
        sta $0317
        lda #{passes}
        sta $C0F0
outer:  ldx #0
inner:  brk
        .byte 0
        inx
        bne inner
        dec $C0F0
        bne outer
        rts
handler:
        inc $C100
        jmp $EA81
"""

# CIA1 timer A made to interrupt every 500 cycles; the handler counts in $C100/$C101 and
# ends through the ROM's IRQ handler ($EA31).  The main program waits in a one-instruction
# loop (so that both cores take each interrupt at the same cycle); after {passes} * 256
# interrupts the handler makes the interrupt return to `finish` instead.
FAST_IRQ = """
        .org $C000
        sei
        lda #<handler
        sta $0314
        lda #>handler
        sta $0315
        lda #<500
        sta $DC04
        lda #>500
        sta $DC05
        lda #$11
        sta $DC0E
        lda #0
        sta $C100
        sta $C101
        cli
spin:   jmp spin
finish: sei
        lda #<$EA31
        sta $0314
        lda #>$EA31
        sta $0315
        lda #$95
        sta $DC04
        lda #$42
        sta $DC05
        cli
        rts
handler:
        inc $C100
        bne done
        inc $C101
        lda $C101
        cmp #{passes}
        bne done
        tsx                     ; the stack: Y X A P PCL PCH as $FF48 and the IRQ left it
        lda #<finish
        sta $0105,x
        lda #>finish
        sta $0106,x
done:   jmp $EA31
"""

# After POKE 1,0 only RAM is visible: an IRQ or BRK goes through the RAM under $FFFE,
# which points into zero page here, where the code does a little work, returns from
# the interrupt, and the program's loop goes on (every zero byte it reaches is a BRK).
POKE_1_0 = """
        .org $C000
        sei
        lda #$40                ; RTI at $0050: what the interrupts run, after a count
        sta $0050
        ldx #0
copy:   lda zpcode,x
        sta $0040,x
        inx
        cpx #zpend - zpcode
        bne copy
        lda #$40
        sta $FFFE
        lda #0
        sta $FFFF
        lda #$30
        sta $01
        ldy #{passes}
outer:  ldx #0
inner:  brk
        .byte 0
        inx
        bne inner
        dey
        bne outer
        lda #$37
        sta $01
        cli
        rts
zpcode: inc $3F
        bne zpdone
        inc $3E
zpdone: jmp $0050
zpend:
"""

# CHROUT in a loop: a line of text, over and over (the screen scrolls).
PRINTING = """
        .org $C000
        ldy #{passes}
line:   ldx #0
char:   lda text,x
        beq end
        jsr $FFD2
        inx
        bne char
end:    dey
        bne line
        rts
text:   .byte "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG 0123456789", 13, 0
"""

BASIC_PROGRAM = ("10 A=0:FOR I=1 TO {passes}:A=A+I*2:B$=STR$(I):NEXT\r"
                 "20 PRINT A\r")


def machine_code(source, origin=0xC000, passes=1):
    """A row that SYSes to machine code: returns make(core) -> (machine, run)."""
    code = assemble(source.format(origin="$%04X" % origin, passes=passes))

    def make(core):
        machine = C64(sid_seed=1234, cpu_class=core)
        machine.mem.ram[origin:origin + len(code)] = code
        machine.start(origin)
        return machine, lambda: machine.run(max_cycles=5_000_000_000)
    if origin < 0x200 <= origin + 0x100:
        make.stack_floor = origin + len(code)       # code on the stack page: compared
    return make


def basic_program(passes):
    def make(core):
        machine = C64(sid_seed=1234, cpu_class=core)
        machine.type("NEW\r" + BASIC_PROGRAM.format(passes=passes))
        machine.run(max_cycles=50_000_000)
        machine.type("RUN\r")
        return machine, lambda: machine.run(max_cycles=5_000_000_000)
    return make


def ryg23_search(depth=6, move=5):
    def make(core):
        from tests.bench.bench_cpu import play_move, position
        machine, _ = position(core, "ryg23", depth, move)
        play_move(machine)
        return machine, lambda: machine.run(max_cycles=5_000_000_000)
    return make


def ryg3_search(depth):
    def make(core):
        from asm.tools.ryg3_model import SIDE_MOUSE, START_CATS, START_MOUSE
        from tests.tools.ryg3_harness import EngineOnC64
        engine = EngineOnC64(cpu_class=core)
        engine.set_position(START_MOUSE, START_CATS, SIDE_MOUSE)
        engine.poke("use_book", 0)
        engine.poke("margin", 0)
        engine.poke("max_depth", depth)
        engine.poke("time_limit", 0)
        return engine.m, lambda: engine.call("think", max_cycles=5_000_000_000)
    return make


def rows(scale):
    def n(passes):
        return max(1, int(passes * scale))
    return [
        ("ryg23 search (depth 6, move 5)", ryg23_search(), StopReason.IDLE),
        ("ryg3 search (depth 10, start)", ryg3_search(10), None),
        ("BASIC program (FOR, STR$)", basic_program(n(400)), StopReason.IDLE),
        ("loop at $C000", machine_code(LOOP, 0xC000, n(160)), StopReason.BASIC),
        ("loop in zero page ($0060)", machine_code(LOOP, 0x0060, n(160)), StopReason.BASIC),
        ("loop on the stack page ($0120)", machine_code(LOOP, 0x0120, n(160)), StopReason.BASIC),
        ("self-modifying: operand", machine_code(SMC_OPERAND, passes=n(160)), StopReason.BASIC),
        ("self-modifying: opcode", machine_code(SMC_OPCODE, passes=n(60)), StopReason.BASIC),
        ("self-modifying: new code spread", machine_code(SMC_SPREAD, passes=n(20)), StopReason.BASIC),
        ("JMP (vector) calls", machine_code(VECTORS, passes=n(160)), StopReason.BASIC),
        ("polling $D012 / $DC01", machine_code(POLLING, passes=n(100)), StopReason.BASIC),
        ("BRK via ($0316)", machine_code(BRKS, passes=n(30)), StopReason.BASIC),
        ("CIA IRQ every 500 cycles", machine_code(FAST_IRQ, passes=n(20)), StopReason.BASIC),
        ("POKE 1,0: BRK into zero page", machine_code(POKE_1_0, passes=n(60)), StopReason.BASIC),
        ("CHROUT print loop", machine_code(PRINTING, passes=n(250)), StopReason.BASIC),
    ]


def final_state(machine, stack_floor=0x100):
    """What both cores must agree on at the end of a row (the stack page from stack_floor
    up to the stack pointer left out: see above)."""
    cpu = machine.cpu
    ram = bytearray(machine.mem.ram)
    top = 0x100 + cpu.sp
    if top >= stack_floor:
        ram[stack_floor:top + 1] = bytes(top + 1 - stack_floor)
    return (machine.cycles, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.pc, bytes(ram),
            bytes(machine.mem.io.colour_ram), machine.screen_text())


def run_once(make, core, expected, warm=False):
    if not warm:
        as_new_process()          # every run starts without compiled blocks, as a new process does
    machine, run = make(core)
    floor = getattr(make, "stack_floor", 0x100)
    start = machine.cycles
    # The machines of earlier runs are garbage (reference cycles): freed now, not by a
    # collection in the middle of this run, which a new process would not have.
    gc.collect()
    t0 = time.process_time()
    reason = run()
    seconds = time.process_time() - t0
    if expected is not None and reason is not expected:
        raise SystemExit("%s stopped with %s (%s), expected %s"
                         % (core.__name__, reason, machine.error, expected))
    return machine.cycles - start, seconds, final_state(machine, floor)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per core, alternating; the fastest counts")
    parser.add_argument("--rows", default="", help="only rows whose name contains one of these "
                        "comma-separated words")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply the machine-code rows' pass counts")
    parser.add_argument("--cold", action="store_true",
                        help="no disk cache of compiled blocks: every run compiles all of them")
    parser.add_argument("--warm", action="store_true",
                        help="keep the compiled blocks of earlier runs (as a long session "
                        "does): the fast core's later runs skip compiling")
    args = parser.parse_args()
    chosen = [row for row in rows(args.scale)
              if not args.rows or any(word.lower() in row[0].lower() for word in args.rows.split(","))]
    print("%s %s, %d runs per core, alternating, best counts, %s"
          % (sys.implementation.name, sys.version.split()[0], args.repeat,
             "compiled blocks kept between runs" if args.warm else
             "no compiled blocks on disk: each run compiles afresh" if args.cold else
             "compiled blocks on disk from this script's earlier runs"))
    folder = tempfile.TemporaryDirectory(prefix="bench-blocks-")
    BLOCKS.folder = None if args.cold else folder.name
    print("%-32s %11s %9s %9s %8s %7s  %s" % ("row", "cycles", "py65 MHz", "fast MHz", "x py65",
                                             "x C64", "same cycles/state"))
    worst = None
    for name, make, expected in chosen:
        best = {}
        for _ in range(args.repeat):
            for core in (FastCPU, CPU):
                cycles, seconds, state = run_once(make, core, expected, args.warm)
                if core not in best or seconds < best[core][1]:
                    best[core] = (cycles, seconds, state)
        fast, slow = best[FastCPU], best[CPU]
        ratio = (slow[1] / slow[0]) / (fast[1] / fast[0])
        fast_mhz = fast[0] / fast[1] / 1e6
        same = "yes" if fast[0] == slow[0] and fast[2] == slow[2] else (
            "CYCLES DIFFER" if fast[0] != slow[0] else "STATE DIFFERS")
        print("%-32s %11d %9.2f %9.2f %7.1fx %6.1fx  %s"
              % (name, fast[0], slow[0] / slow[1] / 1e6, fast_mhz, ratio, fast_mhz * 1e6 / PAL_HZ, same))
        sys.stdout.flush()
        if worst is None or ratio < worst[1]:
            worst = (name, ratio)
    if worst is not None:
        print("worst row: %s, %.1fx py65" % worst)
    BLOCKS.folder = None             # (nothing more written there: it goes now)
    folder.cleanup()


if __name__ == "__main__":
    main()
