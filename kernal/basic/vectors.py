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
from kernal.basic.definitions import BASIC_ERRORS, BasicError, Finished, NEWSTT, Suspend, literal
from kernal.errors import CPUStop
from kernal.locations import BUF, CURLIN, FACEXP, IERROR, LASTPT, TEMPPT, TEMPST, TXTPTR

CARRY, ZERO, NEGATIVE = 0x01, 0x02, 0x80
DEFAULTS = dict(zip(range(IERROR, IERROR + 12, 2), entries.BASIC_VECTORS))
GONE_RETURN_PUSH = entries.address_of("BASIC_GONE_RETURN") - 1     # JSR GONE3 at NGONE1 pushes $A7E9
COLON, QUOTE, PI_BYTE = 0x3A, 0x22, 0xFF
NERROR = entries.address_of("BASIC_ERROR")
NEVAL = entries.address_of("BASIC_NEVAL")
NGONE = entries.address_of("BASIC_NGONE")
NEVAL_READ = entries.address_of("BASIC_NEVAL_READ")
NQPLOP = entries.address_of("BASIC_NQPLOP")
PLOOP = entries.address_of("BASIC_PLOOP")
PLOOP1 = entries.address_of("BASIC_PLOOP1")
PRIT4 = entries.address_of("BASIC_PRIT4")
VALTYP = 0x0D       # valtyp: $FF a string, 0 a number (FAC's type after FRMEVL or EVAL)
DORES = 0x0F        # dores: LIST's quote flag (bit 7 inside quotes), CRUNCH's DATA flag
LSTPNT = 0x49       # lstpnt: LIST's offset of the byte after a keyword
LOWTR = 0x5F        # lowtr: the line LIST is printing ($5F/$60)
LINNUM = 0x14       # linnum: a line number or address BASIC read ($14/$15)
INDEX = 0x22        # index: a pointer BASIC's string routines use ($22/$23)


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
            return self.not_in_basic(entries.address_of("BASIC_NGONE"), "NGONE")
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
            return self.not_in_basic(entries.address_of("BASIC_NGONE1"), "NGONE1")
        self.pos = self.seg = self.w(TXTPTR)
        a, p = cpu.a, cpu.p

        def statement():
            if p & ZERO:
                self.newstt_text()
                return
            token = a if p & CARRY else a - 1
            start = self.pos
            self.pos += 1
            self.run_statement(cpu, lambda: self.dispatch(max(token, 0)), start)
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

    @staticmethod
    def not_in_basic(address, name):
        """A BASIC entry reached with no BASIC statement waiting for it: a clear stop."""
        raise CPUStop("jumped to BASIC's %s ($%04X) with no BASIC statement waiting for it"
                      % (name, address), address)

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

    # -- hooks the ROM calls in the middle of its work: run at once (Machine.call) ----------------
    def call_hook(self, hook, exits, a=0, x=0, y=0, p=None, sp=None):
        """Run the 6502 code at `hook` until it returns (RTS: None) or jumps to one of `exits`
        (the ROM address reached, its registers in self.hook_registers).  An error it raises
        through $E38B (LDX #n / JMP ($0300)) is BASIC's error here; code that does not come
        back stops the machine with a message saying so."""
        machine = self.machine
        cpu = machine.cpu
        saved_sp, saved = cpu.sp, (self.hook_exits, self.hook_exit)
        if sp is not None:
            cpu.sp = sp
        if p is not None:
            cpu.p = p
        self.hook_exits, self.hook_exit = tuple(exits) + (NERROR,), None
        try:
            self.hook_registers = machine.call(hook, a, x, y)
        except RuntimeError as error:
            if machine.error is None:
                raise CPUStop("BASIC's hook at $%04X did not come back: %s" % (hook, error), cpu.pc) from None
            raise Finished() from None
        finally:
            exit_reached = self.hook_exit
            self.hook_exits, self.hook_exit = saved
            cpu.sp = saved_sp
        if exit_reached == NERROR:
            number = self.hook_registers[1]
            if number & 0x80:
                raise Finished()
            raise BasicError(BASIC_ERRORS[number] if 0 < number < len(BASIC_ERRORS) else "ERROR %d" % number)
        return exit_reached

    hook_exits = ()
    hook_exit = None
    hook_registers = (0, 0, 0, 0)

    def hook_exit_at(self, cpu, address):
        """A trap at `address` reached: True when it ends the hook running (call_hook)."""
        if address not in self.hook_exits:
            return False
        self.hook_exit = address
        self.machine.call_returned()
        return True

    def exit_trap(self, cpu, address, name):
        """The traps that only end a hook (NEVAL, LIST's PLOOP ...)."""
        if not self.hook_exit_at(cpu, address):
            self.not_in_basic(address, name)
        return True

    # -- IEVAL -----------------------------------------------------------------------------------------
    def call_ieval(self, hook):
        """EVAL ($AE83): JSR through IEVAL, TXTPTR on the byte before the operand.  The code's
        RTS gives the operand as it left FAC and VALTYP ($FF: a string, its descriptor's
        address in $64/$65), TXTPTR after it; NEVAL ($AE86) or NEVAL_READ ($AE8D, after
        NEVAL's CHRGET) hand it back: None, and the operand is read here."""
        self.peek()
        self.charge_text()                      # (the text read so far: CHRGET's time)
        self.set_w(TXTPTR, (self.pos - 1) & 0xFFFF)
        exit_reached = self.call_hook(hook, (NEVAL, NEVAL_READ), sp=max(self.sp, 0x10))
        # what the code read with CHRGET is its own time; NEVAL's CHRGET is BASIC's
        if exit_reached is None:
            self.pos = self.seg = self.w(TXTPTR)
            return self.fac_value()
        self.pos = (self.w(TXTPTR) + (exit_reached == NEVAL)) & 0xFFFF
        self.seg = self.pos if exit_reached == NEVAL else (self.pos + 1) & 0xFFFF
        return None

    def fac_value(self):
        """FAC as EVAL leaves it: a number, or (VALTYP $FF) the string whose descriptor
        $64/$65 point at."""
        ram = self.ram
        if ram[VALTYP] & 0x80:
            d = ram[FACEXP + 3] | (ram[FACEXP + 4] << 8)
            length, addr = ram[d], ram[(d + 1) & 0xFFFF] | (ram[(d + 2) & 0xFFFF] << 8)
            return literal(bytes(self.read(addr, length)), addr)
        return self.fac()

    # -- ICRNCH --------------------------------------------------------------------------------------
    def crunch_hooked(self, hook, text_at):
        """CRUNCH ($A579): JSR through ICRNCH with the typed line in BUF and TXTPTR on the
        first byte to tokenise; the tokenised line is what the code leaves in BUF (up to
        its zero)."""
        self.set_w(TXTPTR, text_at)
        self.call_hook(hook, (), sp=self.stack_pointer())
        return bytes(self.ram[BUF:BUF + 89]).split(b"\0", 1)[0]

    def ncrnch(self, cpu, crunch):
        """NCRNCH ($A57C), ICRNCH's default, as a routine (JSR or JMP from a hook): BUF from
        TXTPTR tokenised into BUF, TXTPTR = $01FF, Y the line's length + 5, A = $FF."""
        start = self.w(TXTPTR)
        text = bytes(self.read(start, 89)).split(b"\0", 1)[0]
        tokens = crunch(text)[:88] + b"\0\0\0"
        self.put(BUF, tokens)
        self.set_w(TXTPTR, BUF - 1)
        cpu.a, cpu.y = 0xFF, (len(tokens) - 3 + 5) & 0xFF

    # -- IQPLOP ------------------------------------------------------------------------------------
    def list_hooked(self, hook, addr, keyword):
        """LIST's loop over the bytes of the line at addr from PLOOP1 on, IQPLOP hooked: each
        byte goes to the code in A (Y its offset from LOWTR, DORES bit 7 inside quotes), which
        goes on at NQPLOP (the byte in A listed as the ROM does), PLOOP (A printed), PLOOP1
        (on with the byte after Y's) or PRIT4 (A AND $7F printed, on after LSTPNT's).
        `keyword(token)` is the keyword's text.  Returns the C64 cycles CHROUT took."""
        ram, out = self.ram, self.basic.print_text
        self.set_w(LOWTR, addr)
        ram[DORES] = 1
        spent, y, a, carry = 0, 3, 0x20, 0
        state = PLOOP
        for _ in range(512):
            if state == PLOOP:
                spent += out(bytes((a,)))
                carry = CARRY if a >= QUOTE else 0                 # CMP #34
                if a == QUOTE:
                    ram[DORES] ^= 0xFF
            y = (y + 1) & 0xFF                                     # PLOOP1
            a = ram[(addr + y) & 0xFFFF]
            if not y or not a:
                return spent
            flags = carry | (NEGATIVE if a & 0x80 else 0)
            state = self.call_hook(hook, (NQPLOP, PLOOP, PLOOP1, PRIT4), a=a, y=y,
                                   p=(self.machine.cpu.p & ~(CARRY | ZERO | NEGATIVE)) | flags,
                                   sp=self.stack_pointer())
            a, y = self.hook_registers[0], self.hook_registers[2]
            if state is None:                   # (an RTS: taken as done with the byte)
                state = PLOOP1
            elif state == PRIT4:
                a, y, state = a & 0x7F, ram[LSTPNT], PLOOP
            elif state == NQPLOP:                  # BPL PLOOP on the flags the code left
                if not self.hook_registers[3] & NEGATIVE or a == PI_BYTE or ram[DORES] & 0x80:
                    state = PLOOP
                else:
                    text = keyword(a)
                    spent += out(text[:-1])
                    ram[LSTPNT] = y
                    a, state = text[-1] & 0x7F, PLOOP        # PRIT4
        return spent

    # -- BASIC's routines a wedge calls for its arguments ----------------------------------------
    def basic_routine(self, cpu, work, reads_text=True, chrgot=True):
        """FRMNUM, FRMEVL, CHKCOM, GETBYT, COMBYT, GETADR, FRESTR called by machine code:
        `work` reads the text at TXTPTR with the interpreter; TXTPTR left after what it read,
        A the byte there with CHRGOT's flags (FRMNUM and FRMEVL: A = FAC's exponent).  A BASIC error goes to BASIC's error handler, as the ROM's
        would (the hook that called it running inside BASIC's work: ended by it)."""
        self.pos = self.seg = self.w(TXTPTR)
        self.unread = (0, 0, 0)
        self.sp = max(cpu.sp - 2, 0x10)
        if not self.hook_exits:
            self.temps = 0                      # (none pending between statements)
        try:
            work(cpu)
            self.charge_text()
        except BasicError as error:
            cpu.processorCycles += self.take_cost()
            number = error_number(str(error)) or 0
            if self.hook_exit_at(cpu, NERROR):
                cpu.x = number
                self.hook_registers = (cpu.a, number, cpu.y, cpu.p)
                return True
            self.in_code = None
            self.running = False
            cpu.sp = 0xFA
            return self.basic.report_error(cpu, str(error), self.line_from_curlin())
        cpu.processorCycles += self.take_cost()
        if not reads_text:
            return None
        c = self.peek()
        self.set_w(TXTPTR, self.pos)
        if not chrgot:
            c = cpu.a = self.ram[FACEXP]
            cpu.p = (cpu.p & ~(ZERO | NEGATIVE)) | (0 if c else ZERO) | (NEGATIVE if c & 0x80 else 0)
            return None
        digit = 0x30 <= c <= 0x39
        cpu.a = c
        cpu.p = ((cpu.p & ~(CARRY | ZERO | NEGATIVE)) | (0 if digit else CARRY)
                 | (ZERO if c in (0, COLON) else 0) | (NEGATIVE if c & 0x80 else 0))
        return None

    def line_from_curlin(self):
        ram = self.ram
        return None if ram[CURLIN + 1] == 0xFF else ram[CURLIN] | (ram[CURLIN + 1] << 8)

    def frmnum(self, cpu):
        """FRMNUM ($AD8A): the expression at TXTPTR, a number, into FAC."""
        self.put_fac(self.numeric(self.free_temp(self.expr())))
        self.ram[VALTYP] = 0

    def frmevl(self, cpu):
        """FRMEVL ($AD9E): the expression at TXTPTR into FAC; a string as the ROM leaves one,
        VALTYP $FF and its descriptor's address in $64/$65, the descriptor a temporary one
        (TEMPST) and the text in memory (a string the expression made: in string space)."""
        v = self.expr()
        if not isinstance(v, bytes):
            self.put_fac(v)
            self.ram[VALTYP] = 0
            return
        self.free_temp(v)
        addr = getattr(v, "addr", None)
        if addr is None:
            addr = self.alloc_string(v)
        ram = self.ram
        slot = ram[TEMPPT]
        if slot >= TEMPST + 9:
            raise BasicError("FORMULA TOO COMPLEX")
        ram[slot:slot + 3] = bytes((len(v), addr & 0xFF, addr >> 8))
        ram[LASTPT], ram[LASTPT + 1], ram[TEMPPT] = slot, 0, slot + 3
        ram[FACEXP + 3], ram[FACEXP + 4] = slot, 0
        ram[VALTYP] = 0xFF

    def frestr(self, cpu):
        """FRESTR ($B6A3): FAC's string (TYPE MISMATCH for a number): A its length, X/Y its
        address, INDEX ($22/$23) its descriptor's; a temporary descriptor, the last, freed."""
        ram = self.ram
        if not ram[VALTYP] & 0x80:
            raise BasicError("TYPE MISMATCH")
        d = ram[FACEXP + 3] | (ram[FACEXP + 4] << 8)
        if d == ram[LASTPT] | (ram[LASTPT + 1] << 8) and d == ram[TEMPPT] - 3:     # FRETMS
            ram[TEMPPT] = d
            ram[LASTPT] = (d - 3) & 0xFF
        self.set_w(INDEX, d)
        cpu.a, cpu.x, cpu.y = ram[d], ram[(d + 1) & 0xFFFF], ram[(d + 2) & 0xFFFF]

    def chkcom(self, cpu):
        """CHKCOM ($AEFD): a comma at TXTPTR (no space skipped), then CHRGET."""
        if self.ram[self.pos] != 0x2C:
            raise BasicError("SYNTAX")
        self.pos += 1

    def getbyt(self, cpu):
        """GETBYT ($B79E): FRMNUM, then FAC as a byte in X."""
        self.frmnum(cpu)
        cpu.x = self.byte_value(self.fac())

    def combyt(self, cpu):
        """COMBYT ($B7F1): CHKCOM, then GETBYT."""
        self.chkcom(cpu)
        self.getbyt(cpu)

    def getadr(self, cpu):
        """GETADR ($B7F7): FAC as an address in LINNUM ($14/$15), A = its high byte, Y low;
        the text not read."""
        address = self.address_value(self.fac())
        self.set_w(LINNUM, address)
        cpu.a, cpu.y = address >> 8, address & 0xFF


def error_number(name):
    """The number the ROM gives the error `name` (X at ERROR), or None."""
    try:
        return BASIC_ERRORS.index(name)
    except ValueError:
        return None


__all__ = ["Vectors", "error_number", "GONE_RETURN_PUSH", "NEVAL", "NEWSTT", "NGONE"]
