"""The screen editor's one-step print path, written twice, side by side.

Most characters a program prints are plain: not a quote, no pending
inserts, the cursor not at the end of a row, so nothing wraps or scrolls.
For those, CHROUT to the screen is a handful of stores (DATA, CRSW, the
blink countdown, USER, the character, its colour, the column), done here in
one go instead of through the editor's general path:

* `print_in_line(editor, code)`: the editor's own (ScreenEditor.chrout tries
  it first), on the editor's memory;
* `direct_chrout()`: the same stores plus the rest of the CHROUT trap
  (the device check, the cycles, the flags, the RTS), as a function to be
  rebuilt on a translating CPU's register cells (FastCPU.with_registers)
  and called by its blocks in place of the trap; kernal.dispatch hands it to
  the CPU.  It repeats print_in_line inline, its locations bound as
  defaults, because the whole trap is then one Python call (programs that
  print a lot, like the classic RYG versions, spend much of their time here).
* `inline_chrout(returns_to, write_kind)`: direct_chrout once more, as Python
  source that the fast core's translator writes into a block at each call of
  CHROUT (FastCPU.set_fast_trap's `inline`): no call at all, and the return
  address a constant where the block pushed it itself.  ryg23 prints eight
  characters for every board it makes; this is a fifth of its search.

All return False (inline_chrout's source: leaves kd 0) having changed nothing
for every other case, and the general path runs.
tests/kernal/test_editor_fastpath.py holds print_in_line to the editor's general
path and to direct_chrout; tests/kernal/test_chrout_direct.py holds direct_chrout
and inline_chrout to plain py65 running the general trap.
"""

from kernal.editor_cycles import CURSOR_LEFT_IN_ROW, IN_LINE
from kernal.locations import (BLNCT, COLOR, COLOUR_RAM, CRSW, DATA, DFLTO, INSRT, LNMX, PNT, PNTR,
                              QTSW, RVS, SCREEN, STACK, USER)

COLOUR_RAM_PAGE = COLOUR_RAM >> 8
CRSR_LEFT = 0x9D
QUOTE = 0x22


def print_in_line(editor, code):
    """The common case of the editor's chrout in one go: returns the C64 cycles CHROUT takes
    for it ($F1CA to the RTS, kernal.editor_cycles); False (nothing changed) otherwise.

    Same effects as the general path: DATA, CRSW, the blink countdown, $F3/$F4, character,
    colour, column.  `editor` gives ram (zero page and screen: plain RAM), mem (every
    store as the CPU makes it), code_map and page_writes_io (see c64.memory)."""
    screen_code = editor.screen_codes[code]
    ram = editor.ram
    if screen_code is None:
        if code != CRSR_LEFT:
            return False
        # CRSR-left inside a row: only the column moves (not in quote or insert mode,
        # not at column 0 or 40, where it crosses to another row).
        column = ram[PNTR]
        if ram[QTSW] or ram[INSRT] or column == 0 or column == 40:
            return False
        ram[DATA] = code
        ram[CRSW] = 0
        ram[PNTR] = column - 1
        return CURSOR_LEFT_IN_ROW
    if code == QUOTE:
        return False
    column = ram[PNTR]
    if ram[INSRT] or column == 39 or column == 79 or ram[LNMX] < column + 1:
        return False
    line = (ram[PNT + 1] << 8) | ram[PNT]
    if not 2 <= line + column < 0xD000:
        return False                  # a screen over the processor port, I/O or ROM
    cycles = IN_LINE[code]
    if ram[RVS]:
        screen_code |= 0x80
        cycles += 1
    ram[DATA] = code
    ram[CRSW] = 0
    ram[BLNCT] = 2
    ram[USER] = line & 0xFF
    ram[USER + 1] = ((line >> 8) & 0x03) | COLOUR_RAM_PAGE
    at = line + column
    ram[at] = screen_code
    mem = editor.mem
    if editor.code_map[at]:
        mem.code_written(at)          # as C64Memory's store does: translated code changed
    # ($F3) + column is $D800 + this; below $DC00 it is colour RAM when I/O is banked in.
    colour = (line & 0x3FF) + column
    colour_ram = getattr(mem.io, "colour_ram", None) if editor.page_writes_io[COLOUR_RAM_PAGE] else None
    if colour < 0x400 and colour_ram is not None:
        colour_ram[colour] = ram[COLOR] & 0x0F          # what IO.write does
    else:
        mem[COLOUR_RAM + colour] = ram[COLOR] & 0x0F
    ram[PNTR] = column + 1
    return cycles


def direct_chrout():
    """The whole CHROUT trap (cycles, k_chrout, RTS) for its common case, as a function to be
    rebuilt on the CPU's register cells by FastCPU.with_registers, which also supplies the
    names below, and called by translated blocks in place of the trap (FastCPU.set_fast_trap).

    The function returns False, having changed nothing, unless the output device is the
    screen and the editor prints the character in one step; then its effects are exactly
    those of the Kernal's trap running k_chrout for it.  The printing part is print_in_line
    above, written inline on the register cells."""
    a = sp = pc = cyc = fn = fz = fc = fp = rk = 0  # placeholders: the CPU's cells replace them
    ram = machine = cycles = screen_codes = code_map = mem = write_io = None
    # The chips' colour RAM, looked up again only when the memory's chips change.
    io = colour_ram = None

    # The locations are bound as defaults: parameters are the cheapest names to read.
    def chrout_in_line(DFLTO=DFLTO, SCREEN=SCREEN, PNTR=PNTR, QTSW=QTSW, INSRT=INSRT, DATA=DATA,
                       CRSW=CRSW, LNMX=LNMX, PNT=PNT, RVS=RVS, BLNCT=BLNCT, USER=USER, COLOR=COLOR,
                       CRSR_LEFT=CRSR_LEFT, QUOTE=QUOTE, COLOUR_RAM=COLOUR_RAM,
                       COLOUR_RAM_PAGE=COLOUR_RAM_PAGE, STACK=STACK, PNT_HIGH=PNT + 1, USER_HIGH=USER + 1):
        nonlocal sp, pc, cyc, fn, fz, fc, fp, rk, io, colour_ram
        returns_to = rk                 # where the RTS goes, if the calling block knows it
        rk = -1
        if ram[DFLTO] != SCREEN:
            return False
        code = a
        screen_code = screen_codes[code]
        if screen_code is None:
            if code != CRSR_LEFT:
                return False
            column = ram[PNTR]
            if ram[QTSW] or ram[INSRT] or column == 0 or column == 40:
                return False
            ram[DATA] = code
            ram[CRSW] = 0
            ram[PNTR] = column - 1
        else:
            if code == QUOTE:
                return False
            column = ram[PNTR]
            if ram[INSRT] or column == 39 or column == 79 or ram[LNMX] <= column:
                return False
            line = (ram[PNT_HIGH] << 8) | ram[PNT]
            at = line + column
            if not 2 <= at < 0xD000:
                return False
            if ram[RVS]:
                screen_code |= 0x80
                cyc += 1                # NXT3's BEQ not taken, NC3's ORA #$80
            ram[DATA] = code
            ram[CRSW] = 0
            ram[BLNCT] = 2
            ram[USER] = line & 0xFF
            ram[USER_HIGH] = ((line >> 8) & 0x03) | COLOUR_RAM_PAGE
            ram[at] = screen_code
            if code_map[at]:
                mem.code_written(at)
            colour = (line & 0x3FF) + column
            if mem.io is not io:
                io = mem.io
                colour_ram = getattr(io, "colour_ram", None)
            if colour < 0x400 and colour_ram is not None and write_io[COLOUR_RAM_PAGE]:
                colour_ram[colour] = ram[COLOR] & 0x0F
            else:
                mem[COLOUR_RAM + colour] = ram[COLOR] & 0x0F
            ram[PNTR] = column + 1
        transcript = machine.transcript
        if transcript is not None:
            transcript.append(code)
        cyc += cycles[code]
        # The screen path's PLA / CLC / CLI: N and Z from A (fn: bit 7, fz: zero means Z).
        fn = fz = code
        fc = 0
        fp &= 0xFB
        if returns_to < 0:                              # RTS
            pc = (((ram[STACK + ((sp + 2) & 0xFF)] << 8) | ram[STACK + ((sp + 1) & 0xFF)]) + 1) & 0xFFFF
        else:
            pc = returns_to
        sp = (sp + 2) & 0xFF
        return True
    return chrout_in_line



def inline_chrout(returns_to, write_kind, cycles, screen_codes):
    """direct_chrout as source lines for a translated block (FastCPU.set_fast_trap's `inline`).

    The lines run where the block would call the direct version, with the block's names:
    the register cells, ram, cm (the code map), mem, and kx (the machine: its transcript).
    They set kd to 1 having done the whole trap -- exactly direct_chrout's effects -- or
    leave kd 0 having changed nothing.  `returns_to`: where the RTS goes when the block
    knows it (-1: read from the stack); `write_kind`: per page, "io" where stores reach the
    chips in the block's memory configuration (colour RAM at $D800); `cycles`: the trap's
    cycles per code (chrout_cycles); `screen_codes`: PETSCII -> screen code or None (kernal.editor.SCREEN_CODE), a
    constant of the block.  Temporaries are named k*, which the translator's own never are."""
    colour = ("ram[%d] & 15" % COLOR)
    if write_kind[COLOUR_RAM_PAGE] == "io":
        colour_store = ["            if kl < 1024:",
                        "                mem.io.colour_ram[kl] = %s" % colour,
                        "            else:",
                        "                mem[%d + kl] = %s" % (COLOUR_RAM, colour)]
    else:
        colour_store = ["            mem[%d + kl] = %s" % (COLOUR_RAM, colour)]
    if returns_to < 0:
        rts = "pc = (((ram[%d + ((sp + 2) & 255)] << 8) | ram[%d + ((sp + 1) & 255)]) + 1) & 65535" % (
            STACK, STACK)
    else:
        rts = "pc = %d" % returns_to
    return [
        "kd = 0",
        "if ram[%d] == %d:" % (DFLTO, SCREEN),
        "    kc = a",
        "    ks = %r[kc]" % (tuple(screen_codes),),
        "    if ks is None:",
        "        if kc == %d:" % CRSR_LEFT,
        "            kp = ram[%d]" % PNTR,
        "            if not ram[%d] and not ram[%d] and kp != 0 and kp != 40:" % (QTSW, INSRT),
        "                ram[%d] = kc" % DATA,
        "                ram[%d] = 0" % CRSW,
        "                ram[%d] = kp - 1" % PNTR,
        "                kd = 1",
        "    elif kc != %d:" % QUOTE,
        "        kp = ram[%d]" % PNTR,
        "        if not ram[%d] and kp != 39 and kp != 79 and ram[%d] > kp:" % (INSRT, LNMX),
        "            kl = (ram[%d] << 8) | ram[%d]" % (PNT + 1, PNT),
        "            ka = kl + kp",
        "            if 2 <= ka < 53248:",
        "                if ram[%d]:" % RVS,
        "                    ks |= 128",
        "                    cyc += 1",
        "                ram[%d] = kc" % DATA,
        "                ram[%d] = 0" % CRSW,
        "                ram[%d] = 2" % BLNCT,
        "                ram[%d] = kl & 255" % USER,
        "                ram[%d] = ((kl >> 8) & 3) | %d" % (USER + 1, COLOUR_RAM_PAGE),
        "                ram[ka] = ks",
        "                if cm[ka]:",
        "                    mem.code_written(ka)",
        "                kl = (kl & 1023) + kp",
    ] + ["    " + line for line in colour_store] + [
        "                ram[%d] = kp + 1" % PNTR,
        "                kd = 1",
        "if kd:",
        "    kt = kx.transcript",
        "    if kt is not None:",
        "        kt.append(kc)",
        "    cyc += %r[kc]" % (tuple(cycles),),
        "    fn = fz = kc",
        "    fc = 0",
        "    fp &= 251",
        "    " + rts,
        "    sp = (sp + 2) & 255",
    ]


def chrout_cycles(extra=0):
    """The C64 cycles of the one-step path per code (kernal.editor_cycles: a printable character
    inside its row with RVS off, CRSR left inside a row), plus `extra`; 0 for other codes."""
    table = [extra + (cycles or 0) for cycles in IN_LINE]
    table[CRSR_LEFT] = extra + CURSOR_LEFT_IN_ROW
    return tuple(table)
