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
with the ROM's rounding.  FOR and GOSUB frames live in a Python list (the
ROM keeps them on the 6502 stack) with the ROM's limit (?OUT OF MEMORY).

The interpreter runs from a trap at NEWSTT ($A7AE): each visit executes
statements until about SLICE cycles of C64 time have been charged (each
statement costs an estimate of what the ROM takes), then gives the machine
back to its run loop (interrupts, pacing, the STOP key) and is re-entered.
INPUT and WAIT give the machine back while they wait; SYS starts machine
code whose RTS comes back through $E147 to the next statement.
"""

from kernal import entries
from kernal.basic import mbf
from kernal.basic.mbf import MathError
from kernal.channels import WAIT
from kernal.errors import KernalError
from kernal.locations import (ARYTAB, BASIC_MEMSIZ, BUF, CHANNL, CURLIN, DATLIN, DATPTR, FA, FACEXP, FNADR,
                              FNLEN, FRESPC, FRETOP, LA, MSGFLG, OLDLIN, OLDTXT, PNTR, RNDX, SA, SAREG,
                              STATUS, STKEY, STREND, TXTTAB, USRPOK, VARTAB)

MEMSIZ = BASIC_MEMSIZ
USRADD = USRPOK + 1
NEWSTT = entries.address_of("BASIC_NEWSTT")
FN_FAC = FACEXP

SLICE = 20000                   # C64 cycles run per visit of the NEWSTT trap
STACK_BYTES = 200               # room for FOR (18 bytes) and GOSUB (5 bytes) frames
FOR_BYTES, GOSUB_BYTES = 18, 5

# Estimated C64 cycles (what the ROM spends), charged to the clock.
COST_STATEMENT = 400            # NEWSTT, the dispatch, the end-of-statement test
COST_BYTE = 25                  # CHRGET per byte of program text read
COST_ADD, COST_MUL, COST_DIV = 350, 1800, 2500
COST_NEXT = 300                 # FNDFOR's stack search and the loop test
COST_FUNCTION = 12000           # a series function (SIN, LOG, ...)
COST_VARIABLE = 200             # PTRGET
COST_DIGIT = 900                # FIN per digit of a number in the text (MUL10, FLOAT, FADD)
COST_LINE_DIGIT = 60            # LINGET per digit of a line number
COST_LINE_SEARCH = 30           # per line FNDLIN passes
COST_CHAR_OUT = 120             # CHROUT

T_END, T_FOR, T_NEXT, T_DATA, T_INPUTN, T_INPUT, T_DIM, T_READ, T_LET, T_GOTO = range(0x80, 0x8A)
T_RUN, T_IF, T_RESTORE, T_GOSUB, T_RETURN, T_REM, T_STOP, T_ON, T_WAIT, T_LOAD = range(0x8A, 0x94)
T_SAVE, T_VERIFY, T_DEF, T_POKE, T_PRINTN, T_PRINT, T_CONT, T_LIST, T_CLR, T_CMD = range(0x94, 0x9E)
T_SYS, T_OPEN, T_CLOSE, T_GET, T_NEW, T_TAB, T_TO, T_FN, T_SPC, T_THEN = range(0x9E, 0xA8)
T_NOT, T_STEP, T_PLUS, T_MINUS, T_MUL, T_DIV, T_POW, T_AND, T_OR, T_GT, T_EQ, T_LT = range(0xA8, 0xB4)
T_SGN, T_INT, T_ABS, T_USR, T_FRE, T_POS, T_SQR, T_RND, T_LOG, T_EXP, T_COS, T_SIN = range(0xB4, 0xC0)
T_TAN, T_ATN, T_PEEK, T_LEN, T_STR, T_VAL, T_ASC, T_CHR, T_LEFT, T_RIGHT, T_MID, T_GO = range(0xC0, 0xCC)
PI_TOKEN = 0xFF
PI = mbf.const((0x82, 0x49, 0x0F, 0xDA, 0xA2))
TRUE = mbf.from_int(-1)
FALSE = mbf.ZERO

KERNAL_ERRORS = {0: "BREAK", 1: "TOO MANY FILES", 2: "FILE OPEN", 3: "FILE NOT OPEN",
                 4: "FILE NOT FOUND", 5: "DEVICE NOT PRESENT", 6: "NOT INPUT FILE",
                 7: "NOT OUTPUT FILE", 8: "MISSING FILE NAME", 9: "ILLEGAL DEVICE NUMBER"}


class BasicError(Exception):
    """A BASIC error: the name printed between ? and ERROR."""


class Suspend(Exception):
    """Give the machine back: `result` is what the trap returns (WAIT or True)."""

    def __init__(self, result=True, keep_pc=False):
        super().__init__()
        self.result = result
        self.keep_pc = keep_pc


class Finished(Exception):
    """The program (or direct line) is over: END, STOP, BREAK, an error already printed."""

    def __init__(self, message=None):
        super().__init__()
        self.message = message


class Str(bytes):
    """A string value that still sits in C64 memory at `addr` (a literal or a variable's)."""
    addr = None


def _lit(data, addr):
    s = Str(data)
    s.addr = addr
    return s


def _is_letter(c):
    return 0x41 <= c <= 0x5A


def _is_digit(c):
    return 0x30 <= c <= 0x39


class Interpreter:
    """Runs BASIC statements for a Basic (kernal.basic.direct) on its machine."""

    def __init__(self, basic):
        self.basic = basic
        self.machine = basic.machine
        self.mem = basic.mem
        self.ram = getattr(self.mem, "ram", self.mem)
        self.code_map = getattr(self.mem, "code_map", None)
        self.rnd = mbf.Rnd(self.ram, RNDX)
        self.stack = []                  # ("for", var addr, step, limit, line, pos) / ("gosub", line, pos)
        self.stack_used = 0
        self.running = False             # a program (not a direct line) is running
        self.direct = True
        self.pos = BUF
        self.line = None
        self.stmt_pos = BUF
        self.pending = None              # state of an INPUT waiting for its line
        self.cost = 0
        self.constants = {}              # pos -> (text, value, end) of number constants
        self._vars = {}                  # (n1, n2) -> address of the value; valid for one VARTAB
        self._vars_base = None
        self.in_sys = False              # a SYS from the program is running
        self.listing = None              # lines LIST has still to print
        self.jumped = False
        self.cont_ok = False

    # -- memory helpers ---------------------------------------------------------------
    def w(self, addr):
        return self.ram[addr] | (self.ram[addr + 1] << 8)

    def set_w(self, addr, value):
        self.ram[addr] = value & 0xFF
        self.ram[addr + 1] = (value >> 8) & 0xFF

    def put(self, addr, data):
        self.ram[addr:addr + len(data)] = data
        cm = self.code_map
        if cm is not None and any(cm[addr:addr + len(data)]):
            for a in range(addr, addr + len(data)):
                if cm[a]:
                    self.mem.code_written(a)

    def out(self, byte):
        try:
            self.machine.kernal.chrout(byte)
        except KernalError as error:
            raise BasicError(KERNAL_ERRORS.get(error.number, "DEVICE NOT PRESENT")) from None
        self.cost += COST_CHAR_OUT

    def out_text(self, text):
        for ch in (text.encode("latin-1") if isinstance(text, str) else text):
            self.out(ch)

    def outspc(self):
        """OUTSPC: a cursor right on the screen, a space to a file."""
        self.out(0x20 if self.ram[CHANNL] else 0x1D)

    def crdo(self):
        self.out(0x0D)
        if self.ram[CHANNL] >= 0x80:
            self.out(0x0A)

    # -- clearing ------------------------------------------------------------------------
    def clear_variables(self):
        """CLR: no variables, arrays or strings; DATA from the start; the stack emptied."""
        end = self.w(VARTAB)
        self.set_w(ARYTAB, end)
        self.set_w(STREND, end)
        top = self.w(MEMSIZ)
        self.set_w(FRETOP, top)
        self._vars.clear()
        self._vars_base = None
        self.restore_data()
        self.stack.clear()
        self.stack_used = 0
        self.constants.clear()

    def restore_data(self):
        self.set_w(DATPTR, self.w(TXTTAB) - 1)
        self.set_w(DATLIN, 0)

    # -- reading the text --------------------------------------------------------------------
    def peek(self):
        """CHRGOT: the next non-space byte, not consumed."""
        ram, p = self.ram, self.pos
        while ram[p] == 0x20:
            p += 1
        self.pos = p
        return ram[p]

    def take(self):
        c = self.peek()
        self.pos += 1
        return c

    def expect(self, byte):
        if self.peek() != byte:
            raise BasicError("SYNTAX")
        self.pos += 1

    def at_end(self):
        c = self.peek()
        return c == 0 or c == 0x3A

    def skip_statement(self):
        """DATA: on to the next colon outside quotes or the end of the line."""
        ram, p, quoted = self.ram, self.pos, False
        while ram[p] and (quoted or ram[p] != 0x3A):
            if ram[p] == 0x22:
                quoted = not quoted
            p += 1
        self.cost += COST_BYTE * (p - self.pos)
        self.pos = p

    def skip_line(self):
        """REM, a false IF: on to the end of the line."""
        ram, p = self.ram, self.pos
        while ram[p]:
            p += 1
        self.pos = p

    # -- lines ----------------------------------------------------------------------------------
    def find_line(self, number):
        """FNDLIN: the address of the line with this number, or None."""
        addr = self.w(TXTTAB)
        ram = self.ram
        n = 0
        while ram[addr + 1]:
            found = ram[addr + 2] | (ram[addr + 3] << 8)
            n += 1
            if found >= number:
                self.cost += COST_LINE_SEARCH * n
                return addr if found == number else None
            addr = ram[addr] | (ram[addr + 1] << 8)
        self.cost += COST_LINE_SEARCH * n
        return None

    def goto_line(self, number):
        addr = self.find_line(number)
        if addr is None:
            raise BasicError("UNDEF'D STATEMENT")
        self.jump_to(addr)

    def jump_to(self, addr):
        """Go on at the text of the line at addr."""
        self.line = self.ram[addr + 2] | (self.ram[addr + 3] << 8)
        self.pos = addr + 4
        self.direct = False
        self.running = True
        self.jumped = True

    def line_number_arg(self):
        """LINGET: a line number in the text (digits only, up to 63999)."""
        c = self.peek()
        if not _is_digit(c):
            return None
        n = 0
        while True:
            c = self.ram[self.pos]
            if _is_digit(c):
                n = n * 10 + c - 0x30
                if n > 63999:
                    raise BasicError("SYNTAX")
                self.pos += 1
                self.cost += COST_LINE_DIGIT
            elif c == 0x20:
                self.pos += 1
            else:
                return n

    # -- variables ------------------------------------------------------------------------------
    def name(self):
        """PTRGET's name: (n1, n2, kind) with kind 'f', 'i' or 's'; the text after it."""
        c = self.peek()
        if not _is_letter(c):
            raise BasicError("SYNTAX")
        ram = self.ram
        p = self.pos + 1
        n1, n2 = c, 0
        if _is_letter(ram[p]) or _is_digit(ram[p]):
            n2 = ram[p]
            p += 1
            while _is_letter(ram[p]) or _is_digit(ram[p]):
                p += 1
        kind = "f"
        if ram[p] == 0x24:
            kind = "s"
            n2 |= 0x80
            p += 1
        elif ram[p] == 0x25:
            kind = "i"
            n1 |= 0x80
            n2 |= 0x80
            p += 1
        self.pos = p
        self.cost += COST_VARIABLE
        return n1, n2, kind

    def var_address(self, n1, n2, create=True):
        """The address of a simple variable's value (after its two name bytes)."""
        vartab = self.w(VARTAB)
        if self._vars_base != vartab:
            self._vars.clear()
            self._vars_base = vartab
        key = (n1, n2)
        addr = self._vars.get(key)
        if addr is not None:
            return addr
        ram = self.ram
        p, end = vartab, self.w(ARYTAB)
        while p < end:
            if ram[p] == n1 and ram[p + 1] == n2:
                self._vars[key] = p + 2
                return p + 2
            p += 7
        if not create:
            return None
        strend = self.w(STREND)
        if strend + 7 >= self.w(FRETOP):
            self.garbage_collect()
            if strend + 7 >= self.w(FRETOP):
                raise BasicError("OUT OF MEMORY")
        self.put(end + 7, bytes(ram[end:strend]))       # the arrays move up
        self.put(end, bytes((n1, n2, 0, 0, 0, 0, 0)))
        self.set_w(ARYTAB, end + 7)
        self.set_w(STREND, strend + 7)
        self._vars[key] = end + 2
        return end + 2

    def read_var(self, kind, addr):
        ram = self.ram
        if kind == "f":
            return mbf.unpack(ram[addr:addr + 5])
        if kind == "i":
            n = (ram[addr] << 8) | ram[addr + 1]
            return mbf.from_int(n - 0x10000 if n & 0x8000 else n)
        length = ram[addr]
        start = ram[addr + 1] | (ram[addr + 2] << 8)
        return _lit(bytes(ram[start:start + length]), start)

    def store(self, kind, addr, value):
        if kind == "s":
            if not isinstance(value, bytes):
                raise BasicError("TYPE MISMATCH")
            if len(value) > 255:
                raise BasicError("STRING TOO LONG")
            start = getattr(value, "addr", None)
            if start is None or not value:
                start = self.alloc_string(value)
            self.put(addr, bytes((len(value), start & 0xFF, start >> 8)))
            return
        if isinstance(value, bytes):
            raise BasicError("TYPE MISMATCH")
        if kind == "f":
            try:
                self.put(addr, mbf.pack(value))
            except MathError as error:
                raise BasicError(str(error)) from None
        else:
            n = self.int16(value)
            self.put(addr, bytes(((n >> 8) & 0xFF, n & 0xFF)))

    def int16(self, value):
        try:
            return mbf.to_int16(value)
        except MathError as error:
            raise BasicError(str(error)) from None

    # -- arrays -----------------------------------------------------------------------------------
    def find_array(self, n1, n2):
        ram = self.ram
        p, end = self.w(ARYTAB), self.w(STREND)
        while p < end:
            size = ram[p + 2] | (ram[p + 3] << 8)
            if ram[p] == n1 and ram[p + 1] == n2:
                return p
            if size == 0:
                break
            p += size
        return None

    def make_array(self, n1, n2, kind, sizes):
        """A new array at STREND; sizes are the number of elements per dimension."""
        element = {"f": 5, "i": 2, "s": 3}[kind]
        count = 1
        for s in sizes:
            count *= s
        size = 5 + 2 * len(sizes) + element * count
        start = self.w(STREND)
        if size > 0xFFFF or start + size >= self.w(FRETOP):
            self.garbage_collect()
            if size > 0xFFFF or start + size >= self.w(FRETOP):
                raise BasicError("OUT OF MEMORY")
        header = bytearray((n1, n2, size & 0xFF, size >> 8, len(sizes)))
        for s in reversed(sizes):
            header += bytes((s >> 8, s & 0xFF))
        self.put(start, bytes(header) + bytes(size - len(header)))
        self.set_w(STREND, start + size)
        return start

    def array_element(self, n1, n2, kind, indices):
        addr = self.find_array(n1, n2)
        if addr is None:
            addr = self.make_array(n1, n2, kind, [11] * len(indices))
        ram = self.ram
        dims = ram[addr + 4]
        if dims != len(indices):
            raise BasicError("BAD SUBSCRIPT")
        sizes = [(ram[addr + 5 + 2 * i] << 8) | ram[addr + 6 + 2 * i] for i in range(dims)]
        sizes.reverse()
        offset, scale = 0, 1
        for index, size in zip(indices, sizes):
            if index >= size:
                raise BasicError("BAD SUBSCRIPT")
            offset += index * scale
            scale *= size
        element = {"f": 5, "i": 2, "s": 3}[kind]
        return addr + 5 + 2 * dims + offset * element

    def subscripts(self):
        """The indices in parentheses (the '(' already taken)."""
        indices = []
        while True:
            n = self.int16(self.numeric(self.expr()))
            if n < 0:
                raise BasicError("ILLEGAL QUANTITY")
            indices.append(n)
            c = self.take()
            if c == 0x29:
                return indices
            if c != 0x2C:
                raise BasicError("SYNTAX")

    # -- strings ------------------------------------------------------------------------------------
    def alloc_string(self, data):
        n = len(data)
        if n == 0:
            return 0
        top = self.w(FRETOP)
        if top - n < self.w(STREND):
            self.garbage_collect()
            top = self.w(FRETOP)
            if top - n < self.w(STREND):
                raise BasicError("OUT OF MEMORY")
        top -= n
        self.put(top, bytes(data))
        self.set_w(FRETOP, top)
        self.set_w(FRESPC, top)
        return top

    def _descriptors(self):
        """Addresses of every string descriptor in the variables and arrays."""
        ram = self.ram
        p, end = self.w(VARTAB), self.w(ARYTAB)
        while p < end:
            if not ram[p] & 0x80 and ram[p + 1] & 0x80:
                yield p + 2
            p += 7
        p, end = self.w(ARYTAB), self.w(STREND)
        while p < end:
            size = ram[p + 2] | (ram[p + 3] << 8)
            if size == 0:
                break
            if not ram[p] & 0x80 and ram[p + 1] & 0x80:
                dims = ram[p + 4]
                q = p + 5 + 2 * dims
                while q < p + size:
                    yield q
                    q += 3
            p += size

    def garbage_collect(self):
        """GARBAG: the strings in use packed against MEMSIZ; FRETOP raised."""
        ram = self.ram
        low, top = self.w(STREND), self.w(MEMSIZ)
        live = {}
        for d in self._descriptors():
            length, start = ram[d], ram[d + 1] | (ram[d + 2] << 8)
            if length and low <= start < top:
                live.setdefault((start, length), []).append(d)
        new_top = top
        for (start, length) in sorted(live, reverse=True):
            data = bytes(ram[start:start + length])
            new_top -= length
            self.put(new_top, data)
            for d in live[(start, length)]:
                ram[d + 1], ram[d + 2] = new_top & 0xFF, new_top >> 8
        self.set_w(FRETOP, new_top)

    # -- expressions ----------------------------------------------------------------------------------
    @staticmethod
    def numeric(v):
        if isinstance(v, bytes):
            raise BasicError("TYPE MISMATCH")
        return v

    @staticmethod
    def string(v):
        if not isinstance(v, bytes):
            raise BasicError("TYPE MISMATCH")
        return v

    def expr(self):
        """FRMEVL."""
        v = self.and_expr()
        while self.peek() == T_OR:
            self.pos += 1
            w = self.and_expr()
            v = mbf.from_int(self.int16(self.numeric(v)) | self.int16(self.numeric(w)))
        return v

    def and_expr(self):
        v = self.not_expr()
        while self.peek() == T_AND:
            self.pos += 1
            w = self.not_expr()
            v = mbf.from_int(self.int16(self.numeric(v)) & self.int16(self.numeric(w)))
        return v

    def not_expr(self):
        if self.peek() == T_NOT:
            self.pos += 1
            v = self.not_expr()
            return mbf.from_int(~self.int16(self.numeric(v)))
        return self.relation()

    def relation(self):
        v = self.sum()
        while True:
            c = self.peek()
            if not T_GT <= c <= T_LT:
                return v
            wanted = 0
            while T_GT <= c <= T_LT:
                wanted |= {T_GT: 1, T_EQ: 2, T_LT: 4}[c]
                self.pos += 1
                c = self.peek()
            w = self.sum()
            if isinstance(v, bytes) != isinstance(w, bytes):
                raise BasicError("TYPE MISMATCH")
            if isinstance(v, bytes):
                a, b = bytes(v), bytes(w)
                c = (a > b) - (a < b)
            else:
                c = mbf.compare(mbf.round_fac(v), w)
            got = {1: 1, 0: 2, -1: 4}[c]
            v = TRUE if wanted & got else FALSE

    def sum(self):
        v = self.product()
        while True:
            c = self.peek()
            if c == T_PLUS:
                self.pos += 1
                w = self.product()
                if isinstance(v, bytes):
                    w = self.string(w)
                    if len(v) + len(w) > 255:
                        raise BasicError("STRING TOO LONG")
                    v = bytes(v) + bytes(w)
                else:
                    v = self.arith(mbf.add, v, self.numeric(w), COST_ADD)
            elif c == T_MINUS:
                self.pos += 1
                w = self.product()
                v = self.arith(mbf.sub, self.numeric(v), self.numeric(w), COST_ADD)
            else:
                return v

    def product(self):
        v = self.unary()
        while True:
            c = self.peek()
            if c == T_MUL:
                self.pos += 1
                w = self.unary()
                v = self.arith(mbf.mul, self.numeric(v), self.numeric(w), COST_MUL)
            elif c == T_DIV:
                self.pos += 1
                w = self.unary()
                v = self.arith(mbf.div, self.numeric(v), self.numeric(w), COST_DIV)
            else:
                return v

    def unary(self):
        c = self.peek()
        if c == T_MINUS:
            self.pos += 1
            return mbf.neg(self.numeric(self.unary()))
        if c == T_PLUS:
            self.pos += 1
            return self.unary()
        return self.power()

    def power(self):
        v = self.atom()
        while self.peek() == T_POW:
            self.pos += 1
            if self.peek() == T_MINUS:
                self.pos += 1
                w = mbf.neg(self.numeric(self.atom()))
            else:
                w = self.atom()
            v = self.arith(mbf.power, self.numeric(v), self.numeric(w), 2 * COST_FUNCTION)
        return v

    def arith(self, op, left, right, cost):
        """A binary operator: the left operand was pushed (rounded), the right one is FAC."""
        self.cost += cost
        try:
            return op(mbf.round_fac(left), right)
        except MathError as error:
            raise BasicError(str(error)) from None

    def atom(self):
        c = self.peek()
        ram = self.ram
        if _is_digit(c) or c == 0x2E:
            start = self.pos
            cached = self.constants.get(start)
            if cached is not None and ram[start:cached[2]] == cached[0]:
                self.pos = cached[2]
                self.cost += COST_DIGIT * (cached[2] - start)
                return cached[1]
            try:
                value, end = mbf.fin(ram, start)
            except MathError as error:
                raise BasicError(str(error)) from None
            self.constants[start] = (bytes(ram[start:end]), value, end)
            self.cost += COST_DIGIT * (end - start)
            self.pos = end
            return value
        if c == 0x22:
            start = self.pos + 1
            p = start
            while ram[p] and ram[p] != 0x22:
                p += 1
            self.pos = p + 1 if ram[p] == 0x22 else p
            self.cost += COST_BYTE * (p - start)
            return _lit(bytes(ram[start:p]), start)
        if c == 0x28:
            self.pos += 1
            v = self.expr()
            self.expect(0x29)
            return v
        if c == PI_TOKEN:
            self.pos += 1
            return PI
        if c == T_NOT:
            self.pos += 1
            return mbf.from_int(~self.int16(self.numeric(self.relation())))
        if c == T_MINUS:
            self.pos += 1
            return mbf.neg(self.numeric(self.atom()))
        if c == T_FN:
            self.pos += 1
            return self.call_fn()
        if T_SGN <= c <= T_MID:
            self.pos += 1
            return self.function(c)
        if _is_letter(c):
            return self.variable_value()
        raise BasicError("SYNTAX")

    def variable_value(self):
        n1, n2, kind = self.name()
        if self.ram[self.pos] == 0x28:
            self.pos += 1
            return self.read_var(kind, self.array_element(n1, n2, kind, self.subscripts()))
        if n1 == 0x54 and n2 & 0x7F == 0x49 and kind != "i":         # TI, TI$
            jiffies = self.machine.kernal.clock.read()
            if kind == "f":
                return mbf.from_int(jiffies)
            seconds = jiffies // 60
            return b"%02d%02d%02d" % (seconds // 3600 % 24, seconds // 60 % 60, seconds % 60)
        if n1 == 0x53 and n2 == 0x54:                               # ST
            return mbf.from_int(self.ram[STATUS])
        addr = self.var_address(n1, n2, create=False)
        if addr is None:
            return b"" if kind == "s" else mbf.ZERO
        return self.read_var(kind, addr)

    def target(self):
        """A variable to assign to: (kind, address); TI$ is ("ti$", None)."""
        n1, n2, kind = self.name()
        if self.ram[self.pos] == 0x28:
            self.pos += 1
            return kind, self.array_element(n1, n2, kind, self.subscripts())
        if n1 == 0x54 and n2 & 0x7F == 0x49 and kind != "i":
            if kind == "s":
                return "ti$", None
            raise BasicError("SYNTAX")
        if n1 == 0x53 and n2 == 0x54 and kind == "f":
            raise BasicError("SYNTAX")
        return kind, self.var_address(n1, n2)

    def assign(self, target, value):
        kind, addr = target
        if kind == "ti$":
            value = self.string(value)
            if len(value) != 6 or not all(_is_digit(c) for c in value):
                raise BasicError("ILLEGAL QUANTITY")
            h, m, s = int(value[0:2]), int(value[2:4]), int(value[4:6])
            if h > 23 or m > 59 or s > 59:
                raise BasicError("ILLEGAL QUANTITY")
            self.machine.kernal.clock.set(((h * 60 + m) * 60 + s) * 60)
            return
        self.store(kind, addr, value)

    # -- functions ---------------------------------------------------------------------------------------
    def function(self, token):
        self.expect(0x28)
        if token in (T_LEFT, T_RIGHT, T_MID):
            s = self.string(self.expr())
            self.expect(0x2C)
            n = self.byte_value(self.expr())
            m = 255
            if token == T_MID:
                if n == 0:
                    raise BasicError("ILLEGAL QUANTITY")
                if self.peek() == 0x2C:
                    self.pos += 1
                    m = self.byte_value(self.expr())
            self.expect(0x29)
            self.cost += 300 + 10 * len(s)
            if token == T_LEFT:
                return bytes(s[:n])
            if token == T_RIGHT:
                return bytes(s[len(s) - n:]) if n < len(s) else bytes(s)
            return bytes(s[n - 1:n - 1 + m])
        v = self.expr()
        self.expect(0x29)
        if token == T_LEN:
            return mbf.from_int(len(self.string(v)))
        if token == T_ASC:
            s = self.string(v)
            if not s:
                raise BasicError("ILLEGAL QUANTITY")
            return mbf.from_int(s[0])
        if token == T_VAL:
            s = bytes(self.string(v)) + b"\0"
            try:
                return mbf.fin(s, 0)[0]
            except MathError as error:
                raise BasicError(str(error)) from None
        if token == T_FRE:
            self.garbage_collect()
            free = self.w(FRETOP) - self.w(STREND)
            return mbf.from_int(free - 0x10000 if free >= 0x8000 else free)
        v = self.numeric(v) if token != T_FRE else v
        try:
            if token == T_STR:
                return mbf.fout(v).encode("latin-1")
            if token == T_CHR:
                return bytes((self.byte_value(v),))
            if token == T_SGN:
                return mbf.from_int(mbf.sign(v))
            if token == T_INT:
                return mbf.int_(v)
            if token == T_ABS:
                return mbf.fabs(v)
            if token == T_PEEK:
                addr = mbf.to_address(v)
                self.cost += 100
                return mbf.from_int(self.mem[addr] if addr < 2 or addr >= 0xA000 else self.ram[addr])
            if token == T_POS:
                return mbf.from_int(self.ram[PNTR])
            if token == T_USR:
                return self.usr(v)
            self.cost += COST_FUNCTION
            if token == T_RND:
                timers = b"\0" * 4
                if v[1] == 0:
                    self.machine.cpu.processorCycles += self.cost     # the timers see the time spent
                    self.cost = 0
                    timers = bytes(self.mem[0xDC04 + i] for i in range(4))
                return self.rnd.rnd(v, timers)
            fn = {T_SQR: mbf.sqr, T_LOG: mbf.log, T_EXP: mbf.exp, T_COS: mbf.cos,
                  T_SIN: mbf.sin, T_TAN: mbf.tan, T_ATN: mbf.atn}[token]
            return fn(v)
        except MathError as error:
            raise BasicError(str(error)) from None

    def byte_value(self, v):
        try:
            return mbf.to_byte(self.numeric(v))
        except MathError as error:
            raise BasicError(str(error)) from None

    def address_value(self, v):
        try:
            return mbf.to_address(self.numeric(v))
        except MathError as error:
            raise BasicError(str(error)) from None

    def usr(self, v):
        """USR: FAC at $61-$66, JSR through ($0311); the routine leaves its result in FAC."""
        if self.w(USRADD) == 0xB248:                # the cold-start vector: the ROM's error entry
            raise BasicError("ILLEGAL QUANTITY")
        data = mbf.pack(v)
        ram = self.ram
        ram[FN_FAC] = data[0]
        ram[FN_FAC + 1] = data[1] | 0x80
        ram[FN_FAC + 2:FN_FAC + 5] = data[2:5]
        ram[FN_FAC + 5] = 0xFF if v[0] else 0
        try:
            self.machine.call(self.w(USRADD))
        except RuntimeError:
            raise BasicError("ILLEGAL QUANTITY") from None
        e = ram[FN_FAC]
        sign = ram[FN_FAC + 5] >> 7
        if e == 0:
            return mbf.ZERO
        man = (ram[FN_FAC + 1] << 24) | (ram[FN_FAC + 2] << 16) | (ram[FN_FAC + 3] << 8) | ram[FN_FAC + 4]
        return (sign, e, (man | 0x80000000) << 8)

    def call_fn(self):
        """FN name(x): the DEF's expression with its parameter set to x, then restored."""
        n1, n2, kind = self.name()
        if kind != "f":
            raise BasicError("TYPE MISMATCH")
        addr = self.var_address(n1 | 0x80, n2, create=False)
        self.expect(0x28)
        arg = self.numeric(self.expr())
        self.expect(0x29)
        if addr is None:
            raise BasicError("UNDEF'D FUNCTION")
        text = self.w(addr)
        param = self.w(addr + 2)
        saved = bytes(self.ram[param:param + 5])
        self.put(param, mbf.pack(arg))
        here = self.pos
        self.pos = text
        try:
            v = self.numeric(self.expr())
        finally:
            self.pos = here
            self.put(param, saved)
        return v

    # -- running -----------------------------------------------------------------------------------------
    def start_direct(self, cpu, tokens):
        """Run a crunched direct-mode line from BUF."""
        data = bytes(tokens[:88]) + b"\0"
        self.put(BUF, data)
        self.pos = BUF
        self.direct = True
        self.running = False
        self.line = None
        self.pending = None
        self.set_w(CURLIN, 0xFF00)
        return self.newstt(cpu)

    def run_program(self, first=None):
        """RUN: CLR, then from the first line (or `first`)."""
        self.clear_variables()
        self.machine.kernal.channels.clall()
        self.ram[CHANNL] = 0
        self.start_at(first)

    def start_at(self, first=None):
        if first is None:
            addr = self.w(TXTTAB)
            if not self.ram[addr + 1]:
                raise Finished()
            self.jump_to(addr)
        else:
            self.goto_line(first)
        self.ram[MSGFLG] = 0                   # MSGFLG: program mode

    def newstt(self, cpu):
        """The trap at NEWSTT: run statements for one slice of C64 time."""
        ram = self.ram
        machine = self.machine
        deadline = cpu.processorCycles + SLICE
        try:
            while True:
                if cpu.processorCycles >= deadline or machine.waiting:
                    cpu.pc = NEWSTT
                    return True
                if ram[STKEY] == 0x7F and self.pending is None:
                    self.machine.kernal.channels.clrchn()
                    self.machine.kernal.keyboard.flush()
                    self.listing = None
                    self.break_at(self.stmt_pos_for_cont())
                c = self.peek()
                if c == 0:
                    if self.direct:
                        raise Finished()
                    p = self.pos
                    if not ram[p + 2]:
                        self.end_program(p)
                    self.line = ram[p + 3] | (ram[p + 4] << 8)
                    self.set_w(CURLIN, self.line)
                    self.pos = p + 5
                    continue
                if c == 0x3A:
                    self.pos += 1
                    continue
                self.stmt_pos = self.pos
                self.cost = COST_STATEMENT
                self.jumped = False
                self.statement()
                if not self.jumped and not self.at_end():
                    raise BasicError("SYNTAX")
                cpu.processorCycles += self.cost
        except Suspend as suspend:
            cpu.processorCycles += self.cost
            self.cost = 0
            if suspend.result is WAIT:              # come back to this statement when a key is in
                cpu.pc = NEWSTT
                self.machine.wait_for_key()
                return True
            if not suspend.keep_pc:
                cpu.pc = NEWSTT
            return True
        except Finished as finished:
            cpu.processorCycles += self.cost
            self.running = False
            self.pending = None
            self.listing = None
            if finished.message:
                self.basic._print(finished.message)
            return self.basic.ready(cpu)
        except BasicError as error:
            cpu.processorCycles += self.cost
            self.running = False
            self.pending = None
            self.listing = None
            self.cont_ok = False
            line = None if self.direct else self.line
            return self.basic._error(cpu, str(error), line)

    def stmt_pos_for_cont(self):
        return self.pos

    def end_program(self, pos):
        """The end of the program text: as END."""
        self.set_cont(pos)
        raise Finished()

    def set_cont(self, pos):
        if not self.direct:
            self.set_w(OLDTXT, pos)
            self.set_w(OLDLIN, self.line)
            self.cont_ok = True

    def break_at(self, pos):
        self.set_cont(pos)
        if self.direct:
            raise Finished("\rBREAK")
        raise Finished("\rBREAK IN %d" % self.line)

    # -- statements ----------------------------------------------------------------------------------------
    def statement(self):
        c = self.take()
        if c < 0x80:
            if c == PI_TOKEN:
                raise BasicError("SYNTAX")
            self.pos -= 1
            self.st_let()
            return
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

    def st_print(self):
        ram = self.ram
        last = None
        while True:
            c = self.peek()
            if c == 0 or c == 0x3A:
                if last is None:
                    self.crdo()
                return
            if c == 0x3B:
                self.pos += 1
                last = c
                continue
            if c == 0x2C:
                self.pos += 1
                column = ram[PNTR] % 40 if self.ram[CHANNL] == 0 else ram[PNTR]
                for _ in range(10 - column % 10):
                    self.outspc()
                last = c
                continue
            if c in (T_TAB, T_SPC):
                self.pos += 1
                n = self.byte_value(self.expr())
                self.expect(0x29)
                if c == T_TAB:
                    n -= ram[PNTR]
                for _ in range(max(0, n)):
                    self.outspc()
                last = c
                continue
            v = self.expr()
            last = None
            if isinstance(v, bytes):
                for ch in v:
                    self.out(ch)
            else:
                for ch in mbf.fout(v).encode("latin-1"):
                    self.out(ch)
                self.outspc()

    def file_number(self):
        n = self.byte_value(self.expr())
        return n

    def st_printn(self):
        n = self.file_number()
        c = self.peek()
        if c == 0x2C:
            self.pos += 1
        self.with_output(n, self.st_print)

    def with_output(self, n, body):
        channels = self.machine.kernal.channels
        try:
            channels.chkout(n)
        except KernalError as error:
            raise BasicError(KERNAL_ERRORS.get(error.number, "FILE NOT OPEN")) from None
        self.ram[CHANNL] = n
        try:
            body()
        finally:
            channels.clrchn()
            self.ram[CHANNL] = 0

    def st_cmd(self):
        n = self.file_number()
        channels = self.machine.kernal.channels
        try:
            channels.chkout(n)
        except KernalError as error:
            raise BasicError(KERNAL_ERRORS.get(error.number, "FILE NOT OPEN")) from None
        self.ram[CHANNL] = n
        if self.peek() == 0x2C:
            self.pos += 1
        self.st_print()

    def st_goto(self):
        n = self.line_number_arg()
        if n is None:
            raise BasicError("SYNTAX")
        self.goto_line(n)

    def st_gosub(self):
        n = self.line_number_arg()
        if n is None:
            raise BasicError("SYNTAX")
        self.push(("gosub", self.line, self.pos, self.direct), GOSUB_BYTES)
        self.goto_line(n)

    def push(self, frame, size):
        if self.stack_used + size > STACK_BYTES:
            raise BasicError("OUT OF MEMORY")
        self.stack.append((frame, size))
        self.stack_used += size

    def pop_to(self, index):
        while len(self.stack) > index:
            _, size = self.stack.pop()
            self.stack_used -= size

    def st_return(self):
        for i in range(len(self.stack) - 1, -1, -1):
            frame = self.stack[i][0]
            if frame[0] == "gosub":
                self.pop_to(i)
                _, line, pos, direct = frame
                self.line, self.pos, self.direct = line, pos, direct
                self.skip_statement()
                return
        raise BasicError("RETURN WITHOUT GOSUB")

    def st_if(self):
        v = self.expr()
        c = self.peek()
        if c == T_GOTO:
            self.pos += 1
        elif c == T_THEN:
            self.pos += 1
        else:
            raise BasicError("SYNTAX")
        true = bool(v) if isinstance(v, bytes) else v[1] != 0
        if not true:
            self.skip_line()
            return
        if _is_digit(self.peek()):
            self.st_goto()
            return
        self.statement()

    def st_on(self):
        n = self.byte_value(self.expr())
        c = self.take()
        if c not in (T_GOTO, T_GOSUB):
            raise BasicError("SYNTAX")
        index = 1
        while True:
            target = self.line_number_arg()
            if target is None:
                raise BasicError("SYNTAX")
            if index == n:
                self.skip_statement()
                if c == T_GOSUB:
                    self.push(("gosub", self.line, self.pos, self.direct), GOSUB_BYTES)
                self.goto_line(target)
                return
            if self.peek() != 0x2C:
                return
            self.pos += 1
            index += 1

    def st_for(self):
        n1, n2, kind = self.name()
        if kind != "f" or self.ram[self.pos] == 0x28:
            raise BasicError("SYNTAX")
        addr = self.var_address(n1, n2)
        self.expect(T_EQ)
        self.store("f", addr, self.numeric(self.expr()))
        self.expect(T_TO)
        limit = mbf.round_fac(self.numeric(self.expr()))
        step = mbf.ONE
        if self.peek() == T_STEP:
            self.pos += 1
            step = mbf.round_fac(self.numeric(self.expr()))
        for i in range(len(self.stack) - 1, -1, -1):        # FNDFOR: the same variable's loop goes
            frame = self.stack[i][0]
            if frame[0] == "gosub":
                break
            if frame[1] == addr:
                self.pop_to(i)
                break
        self.push(("for", addr, step, limit, self.line, self.pos, self.direct), FOR_BYTES)

    def st_next(self):
        while True:
            addr = None
            if not self.at_end():
                n1, n2, kind = self.name()
                addr = self.var_address(n1, n2)
            for i in range(len(self.stack) - 1, -1, -1):
                frame = self.stack[i][0]
                if frame[0] == "gosub":
                    raise BasicError("NEXT WITHOUT FOR")
                if addr is None or frame[1] == addr:
                    break
            else:
                raise BasicError("NEXT WITHOUT FOR")
            self.pop_to(i + 1)
            self.cost += COST_NEXT
            _, var, step, limit, line, pos, direct = frame
            value = self.arith(mbf.add, step, mbf.unpack(self.ram[var:var + 5]), COST_ADD)
            self.store("f", var, value)
            value = mbf.unpack(self.ram[var:var + 5])
            if mbf.compare(value, limit) != mbf.sign(step):
                self.line, self.pos, self.direct = line, pos, direct
                return
            self.pop_to(i)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_dim(self):
        while True:
            n1, n2, kind = self.name()
            if self.ram[self.pos] == 0x28:
                self.pos += 1
                sizes = [n + 1 for n in self.subscripts()]
                if self.find_array(n1, n2) is not None:
                    raise BasicError("REDIM'D ARRAY")
                self.make_array(n1, n2, kind, sizes)
            else:
                self.var_address(n1, n2)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_rem(self):
        self.skip_line()

    def st_data(self):
        self.skip_statement()

    def st_end(self):
        self.set_cont(self.pos)
        raise Finished()

    def st_stop(self):
        self.break_at(self.pos)

    def st_cont(self):
        if not self.cont_ok or not self.direct:
            raise BasicError("CAN'T CONTINUE")
        self.line = self.w(OLDLIN)
        self.pos = self.w(OLDTXT)
        self.direct = False
        self.running = True
        self.jumped = True
        self.ram[MSGFLG] = 0

    def st_clr(self):
        self.clear_variables()
        self.machine.kernal.channels.clall()

    def st_new(self):
        self.basic.new()
        self.clear_variables()
        self.cont_ok = False
        raise Finished()

    def st_run(self):
        n = self.line_number_arg()
        self.cont_ok = False
        self.run_program(n)

    def st_restore(self):
        self.restore_data()

    def st_poke(self):
        addr = self.address_value(self.expr())
        self.expect(0x2C)
        value = self.byte_value(self.expr())
        self.mem[addr] = value
        if addr < VARTAB + 2 and addr >= TXTTAB:
            self._vars_base = None

    def st_wait(self):
        addr = self.address_value(self.expr())
        self.expect(0x2C)
        mask = self.byte_value(self.expr())
        xor = 0
        if self.peek() == 0x2C:
            self.pos += 1
            xor = self.byte_value(self.expr())
        if (self.mem[addr] ^ xor) & mask == 0:
            self.pos = self.stmt_pos
            self.machine.wait_for_key()
            raise Suspend(True)

    def st_sys(self):
        addr = self.address_value(self.expr())
        self.in_sys = True
        self.sys_return = (self.line, self.pos, self.direct)
        self.machine.start(addr)
        self.ram[MSGFLG] = 0
        raise Suspend(True, keep_pc=True)

    def sys_returned(self, cpu):
        """The SYS'd code did its RTS ($E147): registers stored, on with the next statement.

        Returns False when there is nothing to go on with (SYS in direct mode, or the program
        ends right after its SYS line): the machine then stops as a program that returned to
        BASIC, as before the interpreter existed."""
        if not self.in_sys:
            return False
        self.in_sys = False
        for offset, register in enumerate(("a", "x", "y", "p")):
            self.ram[SAREG + offset] = getattr(cpu, register)
        self.line, self.pos, self.direct = self.sys_return
        if self.direct:
            return False
        self.skip_statement()
        if self.ram[self.pos] == 0 and not self.ram[self.pos + 2]:
            return False                     # END right after: READY. as a returned program
        cpu.sp = 0xFA
        cpu.pc = NEWSTT
        return True

    def st_def(self):
        if self.direct:
            raise BasicError("ILLEGAL DIRECT")
        self.expect(T_FN)
        n1, n2, kind = self.name()
        if kind != "f":
            raise BasicError("SYNTAX")
        self.expect(0x28)
        p1, p2, pkind = self.name()
        if pkind != "f":
            raise BasicError("SYNTAX")
        self.expect(0x29)
        self.expect(T_EQ)
        param = self.var_address(p1, p2)
        fn = self.var_address(n1 | 0x80, n2)
        self.put(fn, bytes((self.pos & 0xFF, self.pos >> 8, param & 0xFF, param >> 8, 0)))
        self.skip_statement()

    # -- READ / DATA -------------------------------------------------------------------------------------
    def next_data_item(self):
        """The next DATA item (a string value) and its line; DATPTR moves past it.

        DATPTR at a comma means "inside a DATA statement"; anywhere else the next DATA
        token is searched from there (the ROM's DATAN), line by line."""
        ram = self.ram
        p = self.w(DATPTR)
        line = self.w(DATLIN)
        if ram[p] == 0x2C:
            p += 1
        else:
            while True:
                c = ram[p]
                if c == 0:
                    if not ram[p + 2]:
                        raise BasicError("OUT OF DATA")
                    line = ram[p + 3] | (ram[p + 4] << 8)
                    p += 5
                elif c == 0x22:
                    p += 1
                    while ram[p] and ram[p] != 0x22:
                        p += 1
                    if ram[p]:
                        p += 1
                elif c == T_DATA:
                    p += 1
                    break
                elif c == T_REM:
                    while ram[p]:
                        p += 1
                else:
                    p += 1
        while ram[p] == 0x20:
            p += 1
        if ram[p] == 0x22:
            start = q = p + 1
            while ram[q] and ram[q] != 0x22:
                q += 1
            item = _lit(bytes(ram[start:q]), start)
            p = q + 1 if ram[q] == 0x22 else q
            while ram[p] == 0x20:
                p += 1
        else:
            start = q = p
            while ram[q] and ram[q] not in (0x2C, 0x3A):
                q += 1
            end = q
            while end > start and ram[end - 1] == 0x20:
                end -= 1
            item = _lit(bytes(ram[start:end]), start)
            p = q
        self.set_w(DATPTR, p)
        self.set_w(DATLIN, line)
        self.cost += COST_BYTE * 8
        return item, line

    def st_read(self):
        while True:
            t = self.target()
            item, line = self.next_data_item()
            if t[0] == "s" or t[0] == "ti$":
                self.assign(t, item)
            else:
                value, end = self.number_from(item)
                if value is None:
                    self.line = line
                    self.direct = False
                    raise BasicError("SYNTAX")
                self.assign(t, value)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    @staticmethod
    def number_from(text):
        data = bytes(text) + b"\0"
        try:
            value, end = mbf.fin(data, 0)
        except MathError:
            return None, 0
        while data[end] == 0x20:
            end += 1
        if data[end] != 0:
            return None, end
        return value, end

    # -- INPUT / GET ---------------------------------------------------------------------------------------
    def st_input(self):
        if self.direct:
            raise BasicError("ILLEGAL DIRECT")
        state = self.pending
        if state is None:
            prompt = b""
            if self.peek() == 0x22:
                prompt = bytes(self.atom())
                self.expect(0x3B)
            state = self.pending = {"vars": self.pos, "index": 0, "line": bytearray(), "prompt": prompt}
            self.out_text(prompt)
            self.qmark()
        self.read_input_line(state)
        self.fill_input(state)

    def qmark(self):
        """INPUT's prompt: "?" and a cursor right (a space to a file)."""
        self.out(0x3F)
        self.outspc()

    def read_input_line(self, state):
        channels = self.machine.kernal.channels
        while True:
            byte = channels.chrin()
            if byte is WAIT:
                self.pos = self.stmt_pos
                raise Suspend(WAIT)
            if byte == 0x0D:
                break
            if len(state["line"]) < 88:
                state["line"].append(byte)
        self.out(0x0D)

    def fill_input(self, state):
        """Give the typed fields to the variables (from state['index'] on)."""
        text = bytes(state["line"]) + b"\0"
        state["line"] = bytearray()
        self.pos = state["vars"]
        for _ in range(state["index"]):            # variables already filled
            self.target()
            self.take()
        p = 0
        if text[0] == 0 and state["index"] == 0:
            self.pending = None                     # RETURN alone: the variables keep their values
            self.skip_statement()
            return
        while True:
            t = self.target()
            field, p, ok = self.input_field(text, p, t[0])
            if not ok:
                self.out_text(b"?REDO FROM START\r")
                state["index"] = 0
                self.out_text(state["prompt"])
                self.qmark()
                self.pos = self.stmt_pos
                self.read_input_line(state)
                self.fill_input(state)
                return
            self.assign(t, field)
            state["index"] += 1
            more = self.peek() == 0x2C
            if more:
                self.pos += 1
            if not more:
                if text[p] != 0:
                    self.out_text(b"?EXTRA IGNORED\r")
                self.pending = None
                return
            if text[p] == 0x2C:
                p += 1
                continue
            self.out(0x3F)                          # more variables than fields typed: ??
            self.qmark()
            self.pos = self.stmt_pos
            self.read_input_line(state)
            self.fill_input(state)
            return

    def input_field(self, text, p, kind):
        """One field of an INPUT line: (value, index after it, valid)."""
        while text[p] == 0x20:
            p += 1
        if kind in ("s", "ti$"):
            if text[p] == 0x22:
                q = p + 1
                while text[q] and text[q] != 0x22:
                    q += 1
                value = bytes(text[p + 1:q])
                if text[q] == 0x22:
                    q += 1
                return value, q, text[q] in (0, 0x2C)
            q = p
            while text[q] and text[q] not in (0x2C, 0x3A):
                q += 1
            end = q
            while end > p and text[end - 1] == 0x20:
                end -= 1
            return bytes(text[p:end]), q, True
        q = p
        while text[q] and text[q] != 0x2C:
            q += 1
        value, _ = self.number_from(text[p:q])
        if value is None:
            return None, q, False
        return value, q, True

    def st_get(self):
        if self.direct:
            raise BasicError("ILLEGAL DIRECT")           # GET and GET# alike
        if self.peek() == 0x23:
            self.pos += 1
            n = self.file_number()
            self.expect(0x2C)
            channels = self.machine.kernal.channels
            try:
                channels.chkin(n)
            except KernalError as error:
                raise BasicError(KERNAL_ERRORS.get(error.number, "FILE NOT OPEN")) from None
            try:
                self.get_into(lambda: channels.getin())
            finally:
                channels.clrchn()
            return
        self.get_into(self.get_key)

    def get_key(self):
        keyboard = self.machine.kernal.keyboard
        key = keyboard.take()
        if key is None:
            self.machine.note_empty_poll()
            return 0
        return key

    def get_into(self, source):
        while True:
            t = self.target()
            byte = source()
            if byte is WAIT:
                byte = 0
            if t[0] == "s":
                self.assign(t, bytes((byte,)) if byte else b"")
            else:
                if byte and not (_is_digit(byte) or byte in (0x2B, 0x2D, 0x2E, 0x45, 0x20)):
                    raise BasicError("SYNTAX")
                self.assign(t, mbf.from_int(byte - 0x30) if _is_digit(byte) else mbf.ZERO)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_inputn(self):
        n = self.file_number()
        self.expect(0x2C)
        channels = self.machine.kernal.channels
        try:
            channels.chkin(n)
        except KernalError as error:
            raise BasicError(KERNAL_ERRORS.get(error.number, "FILE NOT OPEN")) from None
        self.ram[CHANNL] = n
        try:
            while True:
                t = self.target()
                line = bytearray()
                quoted = False
                for _ in range(256):
                    byte = channels.chrin()
                    if byte is WAIT:
                        byte = 0x0D
                    if byte == 0x22:
                        quoted = not quoted
                    if byte == 0x0D or (byte == 0x2C and not quoted):
                        break
                    line.append(byte)
                    if self.ram[STATUS] & 0x40:
                        break
                field, _, ok = self.input_field(bytes(line) + b"\0", 0, t[0])
                if not ok:
                    raise BasicError("FILE DATA")
                self.assign(t, field)
                if self.peek() != 0x2C:
                    break
                self.pos += 1
        finally:
            channels.clrchn()
            self.ram[CHANNL] = 0

    # -- files ----------------------------------------------------------------------------------------------
    def set_name(self, name):
        addr = self.alloc_string(name) if name else 0
        self.ram[FNLEN] = len(name)
        self.set_w(FNADR, addr)

    def st_open(self):
        logical = self.file_number()
        device, secondary, name = 1, 0, b""
        if self.peek() == 0x2C:
            self.pos += 1
            device = self.byte_value(self.expr())
            if self.peek() == 0x2C:
                self.pos += 1
                secondary = self.byte_value(self.expr())
                if self.peek() == 0x2C:
                    self.pos += 1
                    name = bytes(self.string(self.expr()))
        if device == 1:
            raise BasicError("DEVICE NOT PRESENT")     # no datasette here
        ram = self.ram
        ram[LA], ram[FA], ram[SA] = logical, device, secondary
        self.set_name(name)
        try:
            self.machine.kernal.channels.open()
        except KernalError as error:
            raise BasicError(KERNAL_ERRORS.get(error.number, "DEVICE NOT PRESENT")) from None

    def st_close(self):
        n = self.file_number()
        self.machine.kernal.channels.close(n)

    # -- LIST, LOAD, SAVE, VERIFY: the direct-mode code ---------------------------------------------------
    def st_list(self):
        """LIST: a line per visit of the trap, so RUN/STOP can break it (BREAK) as on a C64."""
        state = self.listing
        if state is None:
            start = self.pos
            self.skip_statement()
            state = self.listing = self.basic.list_range(bytes(self.ram[start:self.pos]).strip(b" "))
            state.reverse()
        if state:
            number, body = state.pop()
            self.basic.list_line(number, body)
            self.cost += COST_CHAR_OUT * (len(body) + 6)
            self.pos = self.stmt_pos
            raise Suspend(True)
        self.listing = None
        raise Finished()

    def _file_statement(self, verify=False, save=False):
        name, device, secondary = self.file_arguments()
        if save:
            self.basic.save_program(name, device)
            if self.direct:
                raise Finished()
            return
        self.basic.load_program(name, device, secondary, verify)
        if verify or self.direct:
            if not verify:
                self.clear_variables()
                self.cont_ok = False
            raise Finished()
        self.start_at(None)                  # LOAD in a program: it runs from its start, variables kept

    def file_arguments(self):
        """LOAD/SAVE/VERIFY arguments: ["name"[,device[,secondary]]], any expressions."""
        if self.at_end():
            return b"", 1, 0
        name = bytes(self.string(self.expr()))
        device, secondary = 1, 0
        if self.peek() == 0x2C:
            self.pos += 1
            device = self.byte_value(self.expr())
            if self.peek() == 0x2C:
                self.pos += 1
                secondary = self.byte_value(self.expr())
        return name, device, secondary

    def st_load(self):
        self._file_statement()

    def st_save(self):
        self._file_statement(save=True)

    def st_verify(self):
        self._file_statement(verify=True)


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
