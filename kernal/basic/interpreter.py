"""The BASIC V2 interpreter: statements, expressions, variables in C64 memory.

It runs the tokenised program where a C64 keeps it (TXTTAB $2B), reading the
text with a pointer as the ROM's CHRGET does, and keeps everything a program
can PEEK where the ROM keeps it:

    VARTAB $2D  simple variables, 7 bytes each: two name bytes (bit 7 of both
                for an integer, of the second for a string, of the first for
                an FN), then a float (5 bytes), an integer (high, low) or a
                string descriptor (length, address low, high)
    ARYTAB $2F  arrays: name (2), total size (2), number of dimensions, the
                dimensions (high, low; the last one first), the elements
                (5, 2 or 3 bytes) with the first index varying fastest
    STREND $31  end of arrays
    FRETOP $33  bottom of the strings, which grow down from MEMSIZ $37
    CURLIN $39, OLDLIN $3B / OLDTXT $3D (CONT), DATLIN $3F / DATPTR $41

A direct-mode line is crunched into the input buffer BUF ($0200) and run
from there, as the ROM does.  Numbers are kernal.basic.mbf's 5-byte floats
with the ROM's rounding.  FOR and GOSUB frames are written to the 6502 stack
as the ROM pushes them (and kept in a Python list for speed); `sp` follows the
stack pointer the ROM would have, frames and expressions alike, so that
GETSTK's limit ends deep GOSUBs, loops, parentheses, functions and FN
recursion in ?OUT OF MEMORY where a C64 does (kernal.basic.definitions).

The interpreter runs from a trap at NEWSTT ($A7AE): each visit executes
statements until the next timer interrupt is due (at most SLICE cycles of C64
time), each charged what the ROM would take (its estimate and the math metered
by kernal.basic.meter; a statement longer than STALL_COST lets its time pass
with the interrupts running), then gives the machine back to its run loop
(interrupts, pacing, the STOP key) and is re-entered.
INPUT and WAIT give the machine back while they wait; SYS starts machine
code whose RTS comes back through $E147 to the next statement.

The class is put together from the parts in this package, one file each:
program_text (CHRGET's pointer, lines), variables (variables, arrays, strings),
expressions (operators and functions), flow_statements and io_statements;
definitions holds the tokens and the exceptions they share, cycles the cost model.
"""

from kernal.basic import cycles, mbf, series
from kernal.basic.definitions import (BASIC_READY, BasicError, Finished, Hung, NEWSTT, PI_TOKEN, SLICE,
                                      SP_LET, STACK_TOP, STALL_COST, Suspend, T_CLOSE, T_CLR, T_CMD, T_CONT, T_DATA, T_DEF, T_DIM,
                                      T_END, T_EQ, T_FOR,
                                      T_GET, T_GO, T_GOSUB, T_GOTO, T_IF, T_INPUT, T_INPUTN, T_LET, T_LIST,
                                      T_LOAD, T_NEW, T_NEXT, T_ON, T_OPEN, T_POKE, T_PRINT, T_PRINTN, T_READ,
                                      T_REM, T_RESTORE, T_RETURN, T_RUN, T_SAVE, T_STOP, T_SYS, T_TO,
                                      T_VERIFY, T_WAIT)
from kernal.basic.expressions import Expressions
from kernal.basic.flow_statements import FlowStatements
from kernal.basic.io_statements import IoStatements
from kernal.basic.program_text import ProgramText
from kernal.basic.variables import Variables
from kernal.basic.vectors import NEVAL, NGONE, Vectors, error_number
from kernal.channels import WAIT
from kernal.locations import BUF, CHANNL, CURLIN, IEVAL, IGONE, MSGFLG, OLDLIN, OLDTXT, RNDX, STKEY, TXTTAB


class Interpreter(ProgramText, Variables, Expressions, FlowStatements, IoStatements, Vectors):
    """Runs BASIC statements for a Basic (kernal.basic.direct) on its machine."""

    def __init__(self, basic):
        self.basic = basic
        self.machine = basic.machine
        self.mem = basic.mem
        self.ram = getattr(self.mem, "ram", self.mem)
        self.code_map = getattr(self.mem, "code_map", None)
        self.rnd = series.Rnd(self.ram, RNDX)
        self.fac_out_of_range = False       # FLPINT ($B1AA) met a FAC outside 16 bits (Expressions.usr)
        self.stack = []                  # ("for", var addr, step, limit, line, pos) / ("gosub", line, pos)
        self.stack_used = 0
        self.sp = STACK_TOP              # the 6502 stack pointer the ROM would have (GETSTK, kernal.basic.definitions)
        self.running = False             # a program (not a direct line) is running
        self.direct = True
        self.pos = BUF
        self.line = None
        self.stmt_pos = BUF
        self.pending = None              # state of an INPUT waiting for its line
        self.waiting_on = None           # a WAIT's statement and arguments while it waits
        self.hung = False                # the ROM would be in an endless loop (definitions.Hung)
        self.cost = 0
        self.constants = {}              # pos -> (text, value, end, FIN's cycles) of number constants
        self.temps = 0                   # temporary string descriptors in use (Expressions.new_temp)
        self.var_cache = {}              # (n1, n2) -> address of the value; valid for one VARTAB
        self.var_cache_vartab = None
        self.in_code = None              # machine code BASIC started (SYS, a hook: kernal.basic.vectors)
        self.listing = None              # lines LIST has still to print
        self.jumped = False
        self.cont_ok = False
        self.seg = BUF                   # where the text CHRGET has read since was last charged (charge_text)
        self.unread = (0, 0, 0)             # (by CHRGET's class: ProgramText.text_classes)

    # -- running -----------------------------------------------------------------------------------------
    def start_direct(self, cpu, tokens, in_buf=False):
        """Run a crunched direct-mode line from BUF (put there, with CRUNCH's zeros after
        it, unless `in_buf`: as a program's ICRNCH code left it)."""
        if not in_buf:
            self.put(BUF, bytes(tokens[:88]) + b"\0\0\0")
        self.pos = BUF
        self.direct = True
        self.running = False
        self.line = None
        self.pending = None
        self.waiting_on = None
        self.hung = False
        self.ram[CURLIN + 1] = 0xFF                  # MAIN ($A49C): direct mode, the low byte kept
        hook = self.hook(IGONE)
        if hook is not None:                         # MAIN: JMP GONE, TXTPTR at $01FF
            return self.newstt(cpu, lambda: self.call_igone(cpu, hook, BUF - 1))
        return self.newstt(cpu)

    def run_program(self, first=None):
        """RUN: CLR, then from the first line (or `first`)."""
        self.clr()
        self.ram[CHANNL] = 0
        self.start_at(first)

    def start_at(self, first=None):
        if first is None:
            addr = self.w(TXTTAB)
            if not self.ram[(addr - 1) & 0xFFFF] and not self.ram[(addr + 1) & 0xFFFF]:
                raise Finished()                # (no program: NEWSTT's zero link)
            self.jump_to(addr)
        else:
            self.goto_line(first)
        self.ram[MSGFLG] = 0                   # MSGFLG: program mode

    def newstt(self, cpu, resume=None):
        """The trap at NEWSTT: run statements for one slice of C64 time.  `resume`, from an
        entry of machine code (kernal.basic.vectors), runs first: where the code left BASIC."""
        ram = self.ram
        machine = self.machine
        editor = machine.kernal.editor
        if editor.spent:
            # The screen editor's time not yet on the clock (the RUN line's echo, read in
            # Python before this trap): it comes before the first statement, not inside one.
            cpu.processorCycles += editor.spent
            editor.spent = 0
        # Up to the next timer (or raster) interrupt, so that a jiffy's statements run in one
        # visit and none is lost; SLICE when the interrupts are off or far away.
        now = cpu.processorCycles
        due = machine.next_irq_cycle()
        deadline = due if due is not None and now < due < now + SLICE else now + SLICE
        if self.hung:
            return self.hang(cpu)
        try:
            if resume is not None:
                resume()
            while True:
                if cpu.processorCycles >= deadline or machine.waiting or machine.stall_cycles:
                    # (a stall: a ROM delay loop, CTRL's slow scroll, must pass first)
                    cpu.pc = NEWSTT
                    cpu.sp = self.stack_pointer()   # interrupts push below the frames, as on a C64
                    return True
                if ram[STKEY] == 0x7F and self.pending is None:
                    self.machine.kernal.channels.clrchn()
                    self.machine.kernal.keyboard.flush()
                    self.listing = None
                    self.break_at(self.stmt_pos_for_cont())
                c = self.peek()
                if c == 0:
                    p = self.pos
                    if self.direct:
                        if not ram[(p + 2) & 0xFFFF]:
                            raise Finished()
                        # (a zero in BUF with no zero two bytes on, as a program's ICRNCH or
                        # IGONE code may leave it: the ROM reads a line's link and number there)
                        self.direct, self.running = False, True
                    ram[OLDTXT], ram[OLDTXT + 1] = p & 0xFF, p >> 8     # NEWSTT keeps OLDTXT
                    if p >= 0xFFFB:
                        self.next_line_wrapped(p)
                    else:
                        if not ram[p + 2]:
                            self.end_program(p)
                        self.line = ram[p + 3] | (ram[p + 4] << 8)
                        ram[CURLIN], ram[CURLIN + 1] = ram[p + 3], ram[p + 4]
                        self.pos = p + 5
                    cpu.processorCycles += cycles.LINE
                    if ram[IGONE] | (ram[IGONE + 1] << 8) != NGONE:
                        self.call_igone(cpu, self.hook(IGONE), (self.pos - 1) & 0xFFFF)
                    continue
                if c == 0x3A:
                    if not self.direct:
                        p = self.pos
                        ram[OLDTXT], ram[OLDTXT + 1] = p & 0xFF, p >> 8
                    self.pos += 1
                    if ram[IGONE] | (ram[IGONE + 1] << 8) != NGONE:
                        self.call_igone(cpu, self.hook(IGONE), (self.pos - 1) & 0xFFFF, colon=True)
                    continue
                self.run_statement(cpu, self.statement)
        except Suspend as suspend:
            self.charge(cpu)
            if suspend.result is WAIT:              # come back to this statement when a key is in
                cpu.pc = NEWSTT
                self.machine.wait_for_key()
                return True
            if not suspend.keep_pc:
                cpu.pc = NEWSTT
                cpu.sp = self.stack_pointer()
            return True
        except Hung:
            self.charge(cpu)
            self.hung = True
            return self.hang(cpu)
        except Finished as finished:
            self.charge(cpu)
            self.running = False
            self.pending = None
            self.waiting_on = None
            self.listing = None
            if finished.message:
                self.basic.print_text(finished.message)
            elif self.call_ierror(cpu, 0x80):           # READY ($E386): LDX #$80, JMP (IERROR)
                return True
            if machine.stall_cycles:
                # The statement's time (a LOAD's or SAVE's on the drive) passes before READY.
                cpu.pc = BASIC_READY
                return True
            return self.basic.ready(cpu)
        except BasicError as error:
            self.charge(cpu)
            self.running = False
            self.pending = None
            self.waiting_on = None
            self.listing = None
            self.cont_ok = False
            number = error_number(str(error))
            if number is not None and self.call_ierror(cpu, number):     # ERROR: JMP (IERROR)
                return True
            return self.basic.report_error(cpu, str(error), self.line_for_messages())

    def run_statement(self, cpu, action, start=None):
        """One statement from the text pointer (GONE3 on; `start` where it starts, when the
        pointer is past its token already): its time charged, then NEWSTT's test that it
        ended at a colon or the line's end."""
        self.seg = self.pos                # (a first byte read already: read by the code's CHRGET)
        self.stmt_pos = self.pos if start is None else start
        self.unread = (0, 0, 0)
        self.cost = cycles.STATEMENT
        self.temps = 0                     # TEMPST: no string descriptors pending
        mbf.METER.cycles = 0               # only this statement's math is charged to it
        self.jumped = False
        self.sp = STACK_TOP - SP_LET + self.direct - self.stack_used     # FRMEVL's SP (GETSTK)
        ram = self.ram
        if ram[IEVAL] | (ram[IEVAL + 1] << 8) == NEVAL:
            self.eval_hook = None
        else:                                       # (kernal.basic.expressions, ieval)
            self.eval_hook, self.pending_operand, self.eval_pos = self.hook(IEVAL), None, None
        action()
        if not self.jumped and not self.at_end():
            raise BasicError("SYNTAX")
        self.charge_text()
        self.charge(cpu)

    def hang(self, cpu):
        """The ROM loops for ever (Hung): its time passes with the interrupts running, a
        slice a visit, so the cycle limit, Ctrl-C and the quit keys stay alive; RUN/STOP
        +RESTORE (READY.) or a reset gets out.  A turn of the loop passes at once: the NEWSTT
        trap charges nothing of its own, and an interrupt already due must be taken."""
        cpu.processorCycles += cycles.SKIP_BYTE
        self.machine.stall(SLICE)
        cpu.pc = NEWSTT
        cpu.sp = self.stack_pointer()
        return True

    def next_line_wrapped(self, p):
        """NEWSTT at the end of a line that lies across $FFFF: its link and number wrap."""
        ram = self.ram
        if not ram[(p + 2) & 0xFFFF]:
            self.end_program(p)
        self.line = ram[(p + 3) & 0xFFFF] | (ram[(p + 4) & 0xFFFF] << 8)
        self.set_w(CURLIN, self.line)
        self.pos = (p + 5) & 0xFFFF

    def take_cost(self):
        """The C64 cycles spent so far in the statement: its estimate and the math metered."""
        cost = self.cost + mbf.METER.take()
        self.cost = 0
        return cost

    def charge(self, cpu):
        """The statement's time goes to the clock; a long one passes as a stall, so the timer
        interrupts of its time are taken."""
        cost = self.take_cost()
        if cost > STALL_COST:
            self.machine.stall(cost)
        else:
            cpu.processorCycles += cost

    def stmt_pos_for_cont(self):
        """Where RUN/STOP leaves TXTPTR for CONT: NEWSTT looks at the key with it at the
        colon or the line's end before the statement (OLDTXT once past them)."""
        c = self.peek()
        if c == 0 or c == 0x3A or self.direct:
            return self.pos
        return self.w(OLDTXT)

    def end_program(self, pos):
        """The end of the program text (ENDCON): READY., OLDTXT left at the line's end, so
        CONT comes back here."""
        raise Finished()

    def set_cont(self, pos):
        """STOP and END ($A82F): OLDTXT and OLDLIN for CONT (not in direct mode)."""
        if self.line_for_messages() is not None:
            self.set_w(OLDTXT, pos)
            self.set_w(OLDLIN, self.line)

    @property
    def cont_ok(self):
        """CONT ($A857) goes on while OLDTXT's high byte is not 0; STKINI ($A67A: an error,
        CLR, RUN, NEW, a line typed, LOAD) makes it 0."""
        return self.ram[OLDTXT + 1] != 0

    @cont_ok.setter
    def cont_ok(self, ok):
        if not ok:
            self.ram[OLDTXT + 1] = 0

    def line_for_messages(self):
        """The line an error or BREAK names: none in direct mode (CURLIN's high byte $FF)."""
        if self.direct or self.line is None or self.line >= 0xFF00:
            return None
        return self.line

    def break_at(self, pos):
        self.set_cont(pos)
        line = self.line_for_messages()
        if line is None:
            raise Finished("\r\nBREAK")                  # $A381
        raise Finished("\r\nBREAK IN %d" % line)

    # -- statements ----------------------------------------------------------------------------------------
    def statement(self):
        self.dispatch(self.take())

    def dispatch(self, c):
        """GONE2: the statement whose token (or first letter, for LET) is c, the text
        pointer after it."""
        self.cost += cycles.LET if c < 0x80 or c == T_LET else cycles.STATEMENTS.get(c, cycles.STATEMENT_ENTRY)
        if c < 0x80:
            if c == PI_TOKEN:
                raise BasicError("SYNTAX")
            self.pos -= 1
            self.st_let()
            return
        if c != T_PRINT and c != T_REM and c != T_DATA:       # (theirs count it: PRINT's loop, REMN, DATAN)
            self.cost += self.end_cycles()      # GONE3's JMP CHRGET landing on the end (NEXT, RETURN ...)
        handler = self.HANDLERS.get(c)
        if handler is None:
            if c == T_GO:
                self.expect(T_TO)
                self.st_goto()
                return
            raise BasicError("SYNTAX")
        handler(self)

    def st_let(self):
        t = self.target()
        self.expect(T_EQ)
        self.assign(t, self.expr())



Interpreter.HANDLERS = {
    T_END: Interpreter.st_end, T_FOR: Interpreter.st_for, T_NEXT: Interpreter.st_next,
    T_DATA: Interpreter.st_data, T_INPUTN: Interpreter.st_inputn, T_INPUT: Interpreter.st_input,
    T_DIM: Interpreter.st_dim, T_READ: Interpreter.st_read, T_LET: Interpreter.st_let,
    T_GOTO: Interpreter.st_goto, T_RUN: Interpreter.st_run, T_IF: Interpreter.st_if,
    T_RESTORE: Interpreter.st_restore, T_GOSUB: Interpreter.st_gosub, T_RETURN: Interpreter.st_return,
    T_REM: Interpreter.st_rem, T_STOP: Interpreter.st_stop, T_ON: Interpreter.st_on,
    T_WAIT: Interpreter.st_wait, T_LOAD: Interpreter.st_load, T_SAVE: Interpreter.st_save,
    T_VERIFY: Interpreter.st_verify, T_DEF: Interpreter.st_def, T_POKE: Interpreter.st_poke,
    T_PRINTN: Interpreter.st_printn, T_PRINT: Interpreter.st_print, T_CONT: Interpreter.st_cont,
    T_LIST: Interpreter.st_list, T_CLR: Interpreter.st_clr, T_CMD: Interpreter.st_cmd,
    T_SYS: Interpreter.st_sys, T_OPEN: Interpreter.st_open, T_CLOSE: Interpreter.st_close,
    T_GET: Interpreter.st_get, T_NEW: Interpreter.st_new,
}
