"""BASIC's vectors $0300-$030B honoured, and the ROM entries machine code comes back through.

On a C64, BASIC calls six of its routines through RAM vectors that INITV points at the
ROM: IERROR ($0300, an error, or READY. with X=$80), IMAIN ($0302, the direct-mode
loop), ICRNCH ($0304, tokenise a typed line), IQPLOP ($0306, LIST a byte), IGONE ($0308,
run a statement) and IEVAL ($030A, evaluate an operand).  Programs hook them: a "wedge"
adds commands through IGONE, functions through IEVAL, keywords through ICRNCH and IQPLOP.
When a vector holds another address than INITV's, the interpreter hands the 6502 code
there the machine at the moment the ROM would, with the zero page as the ROM keeps it
then (TXTPTR $7A, FAC $61, VALTYP $0D, BUF $0200, ...), and goes on where the code
comes back: the vector's default address (NGONE $A7E4, NEVAL $AE86, NCRNCH $A57C,
NQPLOP $A71A, NMAIN $A483, $E38B), the well-known points just after it (NGONE1 $A7E7,
after NGONE's CHRGET), NEWSTT ($A7AE), or an RTS where the ROM called through the vector
with JSR.  Each of those addresses holds a trap (kernal.entries.ROM_ENTRIES).

Code entered this way may also leave by JMP NEWSTT, or, for a SYS'd routine, PLA PLA RTS
(SYS's return dropped: the RTS lands at $A7EA, GONE3's return, on to NEWSTT): the
interpreter goes on at TXTPTR, in the line CURLIN names, with what the code left on the
stack kept above BASIC's frames as the ROM would have it ("junk": NEXT and RETURN stop at
it, as FNDFOR does).

Part of the Interpreter (kernal/basic/interpreter.py).
"""

from kernal import entries
from kernal.basic.definitions import BASIC_ERRORS, BasicError, NEWSTT, Suspend
from kernal.errors import CPUStop
from kernal.locations import CURLIN, IERROR, IGONE, TXTPTR

CARRY, ZERO, NEGATIVE = 0x01, 0x02, 0x80
DEFAULTS = dict(zip(range(IERROR, IERROR + 12, 2), entries.BASIC_VECTORS))
GONE_RETURN_PUSH = entries.address_of("BASIC_GONE_RETURN") - 1     # JSR GONE3 at NGONE1 pushes $A7E9
COLON = 0x3A


class Vectors:
    """Calls through hooked vectors; the entries from machine code back into BASIC."""

    # Machine code the interpreter started that may come back through a BASIC entry:
    # None, "sys" (a SYS), "gone" (IGONE's hook), "error" (IERROR's).
    in_code = None

    def hook(self, vector):
        """The address in `vector` when a program put another there than INITV did, else None."""
        ram = self.ram
        address = ram[vector] | (ram[vector + 1] << 8)
        return None if address == DEFAULTS[vector] else address

    # -- IGONE ---------------------------------------------------------------------------------
    def call_igone(self, cpu, hook, before, colon=False):
        """GONE ($A7E1): JMP (IGONE), TXTPTR on the byte before the statement (the colon, the
        line number's high byte, or $01FF before a direct line), SP as at NEWSTT; A and the
        flags as the ROM has them there (a colon: A=":", Z and C set)."""
        self.set_w(TXTPTR, before)
        a = COLON if colon else before & 0xFF
        flags = CARRY | ZERO if colon else (NEGATIVE if a & 0x80 else 0) | (0 if a else ZERO)
        cpu.a = a
        cpu.p = (cpu.p & ~(CARRY | ZERO | NEGATIVE)) | flags
        self.in_code = "gone"
        cpu.sp = self.stack_pointer()
        cpu.pc = hook
        raise Suspend(True, keep_pc=True)

    def ngone(self, cpu):
        """$A7E4, IGONE's default: CHRGET from TXTPTR, then the statement, then NEWSTT."""
        if not self.back_from_code(cpu):
            return self.not_in_basic(cpu, "NGONE")
        self.pos = self.seg = (self.w(TXTPTR) + 1) & 0xFFFF

        def statement():
            if self.peek() not in (0, COLON):
                self.run_statement(cpu, self.statement)
        return self.newstt(cpu, statement)

    def ngone1(self, cpu):
        """$A7E7, after NGONE's CHRGET: GONE3 with the statement's first byte in A and its
        flags as the code left them (a wedge does JSR CHRGET, tests A, JSR CHRGOT, JMP here):
        Z set is an empty statement; else A less the borrow of a clear carry is a token, or
        below $80 the start of a LET at TXTPTR."""
        if not self.back_from_code(cpu):
            return self.not_in_basic(cpu, "NGONE1")
        self.pos = self.seg = self.w(TXTPTR)
        a, p = cpu.a, cpu.p

        def statement():
            if p & ZERO:
                self.newstt_text()
                return
            token = a if p & CARRY else a - 1
            self.pos += 1
            self.run_statement(cpu, lambda: self.dispatch(max(token, 0)))
        return self.newstt(cpu, statement)

    # -- NEWSTT from machine code ----------------------------------------------------------------
    def newstt_from_code(self, cpu):
        """NEWSTT ($A7AE) entered by machine code (JMP $A7AE, or GONE3's return $A7EA after a
        SYS'd routine's PLA PLA RTS): on at TXTPTR, which must be at a colon or a line's end."""
        self.back_from_code(cpu)
        self.pos = self.seg = self.w(TXTPTR)
        return self.newstt(cpu, self.newstt_text)

    def newstt_text(self):
        """NEWSTT's test of the byte at TXTPTR: the end of a line or a colon, else SYNTAX."""
        if self.ram[self.pos] not in (0, COLON):
            raise BasicError("SYNTAX")

    def gone_return(self, cpu):
        """$A7EA, where a statement's RTS lands (JSR GONE3 pushed $A7E9): JMP NEWSTT.  Machine
        code gets here by dropping SYS's return (PLA PLA RTS): no registers saved.  With no
        BASIC statement running (code started by `--sys`), the program has returned."""
        if self.in_code is None:
            self.machine.program_returned()
            return True
        return self.newstt_from_code(cpu)

    def back_from_code(self, cpu):
        """Machine code the interpreter started came back into BASIC: the stack, the line and
        the mode as the code left them.  False when none was running."""
        kind, self.in_code = self.in_code, None
        if kind is None:
            return False
        self.adopt_stack(cpu.sp)
        self.direct = self.ram[CURLIN + 1] == 0xFF
        self.line = None if self.direct else self.w(CURLIN)
        self.running = not self.direct
        return True

    def adopt_stack(self, sp):
        """What machine code left on the stack stays above BASIC's frames, as on a C64."""
        while self.stack and sp > self.stack_pointer():
            self.pop_to(len(self.stack) - 1)          # (it pulled a frame: gone)
        extra = self.stack_pointer() - sp
        if extra > 0:
            self.stack.append((("junk",), extra))
            self.stack_used += extra

    def not_in_basic(self, cpu, name):
        """A BASIC entry reached with no BASIC statement waiting for it: a clear stop."""
        raise CPUStop("jumped to BASIC's %s ($%04X) with no BASIC statement waiting for it"
                      % (name, cpu.pc), cpu.pc)

    # -- IERROR ------------------------------------------------------------------------------------
    def call_ierror(self, cpu, number):
        """ERROR ($A437) and READY ($E386): JMP (IERROR) with X the error's number ($80: READY.);
        True when a hook took it (it goes on at $E38B, NEWSTT, ...)."""
        hook = self.hook(IERROR)
        if hook is None:
            return False
        self.set_w(TXTPTR, self.pos)
        cpu.x = number
        self.in_code = "error"
        cpu.pc = hook
        return True


def error_number(name):
    """The number the ROM gives the error `name` (X at ERROR), or None."""
    try:
        return BASIC_ERRORS.index(name)
    except ValueError:
        return None


__all__ = ["Vectors", "error_number", "GONE_RETURN_PUSH", "NEWSTT"]
