"""Expressions and functions: FRMEVL's precedence, the operators, every BASIC function.

Part of the Interpreter (kernal/basic/interpreter.py).  Values are kernal.basic.mbf
5-byte floats or strings (definitions.Str when they still sit in C64 memory).
"""

from kernal.basic import cycles, mbf, meter, series
from kernal.basic.definitions import (BasicError, FN_FAC, PI, PI_TOKEN, T_ABS, T_AND, T_ASC, T_ATN,
                                      T_CHR, T_COS, T_DIV, T_EQ, T_EXP, T_FN, T_FRE, T_GT, T_INT, T_LEFT,
                                      T_LEN, T_LOG, T_LT, T_MID, T_MINUS, T_MUL, T_NOT, T_OR, T_PEEK, T_PLUS,
                                      T_POS, T_POW, T_RIGHT, T_RND, T_SGN, T_SIN, T_SQR, T_STR, T_TAN, T_USR,
                                      T_VAL, USRADD, SP_CONCAT, SP_FN_ARG, SP_FN_BODY, SP_FUNCTION,
                                      SP_OPERAND, SP_PAREN, SP_STRING_ARG, SP_SUBSCRIPT, SP_TARGET_SUBSCRIPT,
                                      STACK_FLOOR, Str, is_digit, is_letter)
from kernal.basic.mbf import MathError
from kernal.errors import CPUStop
from kernal.locations import FORPNT, FRETOP, PNTR, STATUS, STREND, TXTPTR


class Expressions:
    """Evaluating expressions (FRMEVL, EVAL) and calling functions, FN and USR."""

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

    # The ROM keeps the descriptor of each string an expression makes (a literal, a function's
    # or a concatenation's result) on a stack of three (TEMPST $19-$21) until it is used up;
    # a fourth one pending is FORMULA TOO COMPLEX ($B4CA), as in "A"+("B"+("C"+"D")).
    TEMP_DESCRIPTORS = 3

    def new_temp(self, data, addr=None):
        if self.temps >= self.TEMP_DESCRIPTORS:
            raise BasicError("FORMULA TOO COMPLEX")
        self.temps += 1
        s = Str(data)
        s.addr = addr
        s.temp = True
        return s

    def free_temp(self, v):
        """FRETMP: a string used up (printed, stored, joined, compared, measured)."""
        if getattr(v, "temp", False):
            v.temp = False
            self.temps -= 1
        return v

    # Every part of an expression that waits for another (a left operand, a function, an
    # open parenthesis) holds bytes of the 6502 stack in the ROM; `sp` follows them, and each
    # FRMEVL and each operand an operator waits on asks GETSTK ($A3FB) for room first:
    # ?OUT OF MEMORY as on a C64, never a Python recursion error.
    def expr(self):
        """FRMEVL ($AD9E)."""
        if self.sp < STACK_FLOOR:
            raise BasicError("OUT OF MEMORY")
        c = self.peek()
        # FRMEVL steps TXTPTR back and EVAL0's CHRGET reads the operand's first byte again
        self.cost += cycles.FRMEVL + (cycles.CHRGET_HIGH if c >= 0x3A else cycles.CHRGET_LOW)
        v = self.and_expr()
        c = self.peek()
        while c == T_OR:
            self.pos += 1
            w = self.operand(self.and_expr)
            self.cost += cycles.OPERATOR + cycles.LOGICAL
            v = mbf.from_int(self.int16(self.numeric(v)) | self.int16(self.numeric(w)))
            c = self.peek()
        if c < 0x3A:
            self.cost += cycles.FRMEVL_LOW                # TSTOP's CHRGOT on a byte below ':''
        return v

    def and_expr(self):
        v = self.not_expr()
        while self.peek() == T_AND:
            self.pos += 1
            w = self.operand(self.not_expr)
            self.cost += cycles.OPERATOR + cycles.LOGICAL
            v = mbf.from_int(self.int16(self.numeric(v)) & self.int16(self.numeric(w)))
        return v

    def not_expr(self):
        if (self.eval_hook is None or not self.ieval()) and self.peek() == T_NOT:
            self.pos += 1
            v = self.operand(self.not_expr)
            self.cost += cycles.NOT
            return mbf.from_int(~self.int16(self.numeric(v)))
        return self.relation()

    def operand(self, part):
        """The right operand of an operator (or NOT's): LPOPER pushes the left one first."""
        sp = self.sp - SP_OPERAND
        if sp < STACK_FLOOR:
            raise BasicError("OUT OF MEMORY")
        self.sp = sp
        v = part()
        self.sp = sp + SP_OPERAND
        return v

    def relation(self):
        if self.eval_hook is not None:
            self.ieval()
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
            w = self.operand(self.sum)
            if isinstance(v, bytes) != isinstance(w, bytes):
                raise BasicError("TYPE MISMATCH")
            if isinstance(v, bytes):
                self.cost += 2 * cycles.FRETMP_CALL + self.fretmp_cycles(w)    # STRCMP: the right one freed
                self.free_temp(w)
                self.cost += self.fretmp_cycles(v)                             # ... then the left one
                self.free_temp(v)
                a, b = bytes(v), bytes(w)
                c = (a > b) - (a < b)
                same = 0                                 # STRCMP's loop stops at the first byte that differs
                for x, y in zip(a, b):
                    same += 1
                    if x != y:
                        break
                self.cost += cycles.OPERATOR + cycles.STRING_COMPARE + cycles.STRING_COMPARE_BYTE * same
            else:
                c = mbf.compare(mbf.round_fac(v), w)
                self.cost += cycles.OPERATOR + cycles.RELATION
            got = {1: 1, 0: 2, -1: 4}[c]
            v = mbf.from_int(-1 if wanted & got else 0, mbf.FLOAT_HEAD, 8)   # GOFLOT ($B07B): FLOAT of $FF or 0

    def sum(self):
        if self.eval_hook is not None:
            self.ieval()
        v = self.product()
        while True:
            c = self.peek()
            if c == T_PLUS:
                self.pos += 1
                if isinstance(v, bytes):             # CAT reads its operand through EVAL
                    self.sp -= SP_CONCAT
                    w = self.product()
                    self.sp += SP_CONCAT
                else:
                    w = self.operand(self.product)
                if isinstance(v, bytes):
                    w = self.string(w)
                    if len(v) + len(w) > 255:
                        raise BasicError("STRING TOO LONG")
                    self.free_temp(w)
                    self.free_temp(v)
                    v = self.new_temp(bytes(v) + bytes(w))
                    self.cost += cycles.CONCAT + cycles.NEW_STRING + cycles.STRING_BYTE * len(v)
                else:
                    v = self.arith(mbf.add, v, self.numeric(w))
            elif c == T_MINUS:
                self.pos += 1
                w = self.operand(self.product)
                v = self.arith(mbf.sub, self.numeric(v), self.numeric(w))
            else:
                return v

    def product(self):
        if self.eval_hook is not None:
            self.ieval()
        v = self.unary()
        while True:
            c = self.peek()
            if c == T_MUL:
                self.pos += 1
                w = self.operand(self.unary)
                v = self.arith(mbf.mul, self.numeric(v), self.numeric(w))
            elif c == T_DIV:
                self.pos += 1
                w = self.operand(self.unary)
                v = self.arith(mbf.div, self.numeric(v), self.numeric(w))
            else:
                return v

    def unary(self):
        if self.eval_hook is None or not self.ieval():
            while True:
                c = self.peek()
                if c == T_MINUS:
                    self.pos += 1
                    self.cost += cycles.NEGATE
                    return mbf.neg(self.numeric(self.operand(self.unary)))
                if c != T_PLUS:
                    break
                self.pos += 1                   # EVAL0: a + passed by in the same EVAL
                self.peek()
                self.eval_pos = self.pos
        return self.power()

    def power(self):
        v = self.atom()
        while self.peek() == T_POW:
            self.pos += 1
            if (self.eval_hook is None or not self.ieval()) and self.peek() == T_MINUS:
                self.pos += 1
                w = mbf.neg(self.numeric(self.operand(self.atom)))
            else:
                w = self.operand(self.atom)
            v = self.arith(series.power, self.numeric(v), self.numeric(w))
        return v

    def arith(self, op, left, right):
        """A binary operator: the left operand was pushed (rounded), the right one is FAC.
        FRMEVL's part is charged here; the operation's own is metered (mbf.METER)."""
        self.cost += cycles.OPERATOR
        try:
            return op(mbf.round_fac(left), right)
        except MathError as error:
            raise BasicError(str(error)) from None

    def atom(self):
        if self.eval_hook is not None:
            if self.ieval():
                v, self.pending_operand = self.pending_operand, None
                self.eval_pos = None
                return v
            self.eval_pos = None
        c = self.peek()
        ram = self.ram
        if is_digit(c) or c == 0x2E:
            start = self.pos
            cached = self.constants.get(start)
            self.cost += cycles.NUMBER
            # the same bytes up to and including the one FIN stopped at: the same number
            if cached is not None and ram[start:cached[2] + 1] == cached[0]:
                self.pos = cached[2]
                self.unread_text(start + 1, self.pos)            # FIN reads them (EVAL's CHRGET the first)
                mbf.METER.cycles += cached[3]                   # FIN's time, as when it was read
                return cached[1]
            before = mbf.METER.cycles
            try:
                value, end = mbf.fin(ram, start)
            except MathError as error:
                raise BasicError(str(error)) from None
            self.constants[start] = (ram[start:end + 1], value, end, mbf.METER.cycles - before)
            self.pos = end
            self.unread_text(start + 1, end)
            return value
        if c == 0x22:
            start = (self.pos + 1) & 0xFFFF
            length, end = self.string_length(start, 0x22, 0x22)
            closed = ram[end] == 0x22
            self.pos = (end + 1) & 0xFFFF if closed else end
            self.unread_text(start, self.pos)                  # STRLIT's loop reads them
            if closed and ram[self.pos] not in (0, 0x20, 0x3A):
                self.unread_text(self.pos, self.pos + 1)       # ST2TXT points TXTPTR at it: no CHRGET
            # (a literal the line's end closes: STRGET meets the zero, STRFI1, 8 fewer)
            self.cost += (cycles.EVAL_LITERAL + cycles.STRING_LITERAL - (0 if closed else 8)
                          + cycles.STRING_LITERAL_BYTE * ((end - start) & 0xFFFF))
            return self.new_temp(bytes(self.read(start, length)), start)
        if not is_letter(c):
            self.cost += cycles.EVAL
        if c == 0x28:
            self.pos += 1
            self.cost += cycles.PAREN
            self.sp -= SP_PAREN
            v = self.expr()
            self.sp += SP_PAREN
            self.expect(0x29)
            return v
        if c == PI_TOKEN:
            self.pos += 1
            self.cost += cycles.PI
            return PI
        if c == T_NOT:
            self.pos += 1
            self.cost += cycles.NOT
            return mbf.from_int(~self.int16(self.numeric(self.operand(self.relation))))
        if c == T_MINUS:
            self.pos += 1
            self.cost += cycles.NEGATE
            return mbf.neg(self.numeric(self.operand(self.atom)))
        if c == T_FN:
            self.pos += 1
            return self.call_fn()
        if T_SGN <= c <= T_MID:
            self.pos += 1
            return self.function(c)
        if is_letter(c):
            return self.variable_value()
        raise BasicError("SYNTAX")

    # Each operand is an EVAL ($AE83) in the ROM, which jumps through IEVAL ($030A): when a
    # program hooked it (eval_hook, looked at before each statement), its code runs at the
    # operand's start (kernal.basic.vectors), once, by whichever of the functions above
    # reaches the operand first; an operand it gives is pending until atom() takes it, the
    # functions between looking at no text for it.
    eval_hook = None
    pending_operand = None
    eval_pos = None

    def ieval(self):
        """EVAL's JMP (IEVAL) at the operand here: True when the hook gave the operand."""
        hook = self.eval_hook
        if self.pending_operand is not None:
            return True
        self.peek()
        if self.eval_pos == self.pos:
            return False
        v = self.call_ieval(hook)
        self.peek()
        self.eval_pos = self.pos
        if v is None:
            return False
        self.pending_operand = v
        return True

    def variable_value(self):
        n1, n2, kind = self.name()
        if self.peek() == 0x28:
            self.pos += 1
            return self.read_var(kind, self.array_element(n1, n2, kind, self.subscripts(SP_SUBSCRIPT)))
        if n1 == 0x54 and n2 & 0x7F == 0x49 and kind != "i":         # TI, TI$
            self.var_address(n1, n2, create=False)      # PTRGET's LOPFND passes the whole table first
            jiffies = self.machine.kernal.clock.read()
            if kind == "f":
                # GETTIM's three bytes under FACHO = 0, the top one in FACOV too (TYA), NORMAL from FLOATB
                self.cost += cycles.READ_TI + meter.normal_cycles((jiffies << 8) | (jiffies >> 16), 0xA0)
                return mbf.from_int(jiffies, bits=0)
            seconds = jiffies // 60
            text = b"%02d%02d%02d" % (seconds // 3600 % 24, seconds // 60 % 60, seconds % 60)
            # FOUTIM's turns: each place's power of ten (of six for the tens of minutes and seconds)
            # added until the sign turns, d + 1 turns at the even places, 10 - d at the odd ones
            digits = [c - 0x30 for c in text]
            self.cost += (cycles.READ_TI_STRING + meter.FOUT[19] * sum(d + 1 for d in digits[0::2])
                          + meter.FOUT[20] * sum(10 - d for d in digits[1::2]))
            return self.new_temp(text)
        if n1 == 0x53 and n2 == 0x54:                               # ST
            return mbf.from_int(self.ram[STATUS])
        addr = self.var_address(n1, n2, create=False)
        self.cost += cycles.FETCH[kind]
        if addr is None:
            return b"" if kind == "s" else mbf.ZERO
        return self.read_var(kind, addr)

    def target(self):
        """A variable to assign to: (kind, address); TI$ is ("ti$", None).  Its address is
        FORPNT ($49), as LET, READ, INPUT and GET keep it."""
        n1, n2, kind = self.name()
        if self.peek() == 0x28:
            self.pos += 1
            addr = self.array_element(n1, n2, kind, self.subscripts(SP_TARGET_SUBSCRIPT))
            self.set_w(FORPNT, addr)
            return kind, addr
        if n1 == 0x54 and n2 & 0x7F == 0x49 and kind != "i":
            if kind == "s":
                self.var_address(n1, n2, create=False)  # PTRGET's LOPFND passes the whole table first
                return "ti$", None
            raise BasicError("SYNTAX")
        if n1 == 0x53 and n2 == 0x54 and kind == "f":
            raise BasicError("SYNTAX")
        addr = self.var_address(n1, n2)
        ram = self.ram
        ram[FORPNT], ram[FORPNT + 1] = addr & 0xFF, addr >> 8
        return kind, addr

    def assign(self, target, value):
        kind, addr = target
        if kind == "ti$":
            value = self.string(self.free_temp(value))
            if len(value) != 6 or not all(is_digit(c) for c in value):
                raise BasicError("ILLEGAL QUANTITY")
            h, m, s = int(value[0:2]), int(value[2:4]), int(value[4:6])
            if h > 23 or m > 59 or s > 59:
                raise BasicError("ILLEGAL QUANTITY")
            self.cost += cycles.SET_TI
            self.machine.kernal.clock.set(mbf.time_jiffies(value))         # (TIMELP's arithmetic, metered)
            return
        self.store(kind, addr, value)

    # -- functions ---------------------------------------------------------------------------------------
    def function(self, token):
        self.cost += cycles.FUNCTION + cycles.FUNCTIONS.get(token, 0)
        self.expect(0x28)
        if token in (T_LEFT, T_RIGHT, T_MID):
            sp = self.sp
            self.sp = sp - SP_STRING_ARG
            s = self.string(self.expr())
            self.expect(0x2C)
            self.sp -= SP_STRING_ARG
            n = self.byte_value(self.expr())
            m = 255
            if token == T_MID:
                if n == 0:
                    raise BasicError("ILLEGAL QUANTITY")
                if self.peek() == 0x2C:
                    self.pos += 1
                    self.sp -= 2
                    m = self.byte_value(self.expr())
            self.sp = sp
            self.expect(0x29)
            self.cost += cycles.FRETMP_CALL + self.fretmp_cycles(s)
            self.free_temp(s)
            if token == T_LEFT:
                part = bytes(s[:n])
            elif token == T_RIGHT:
                part = bytes(s[len(s) - n:]) if n < len(s) else bytes(s)
            else:
                part = bytes(s[n - 1:n - 1 + m])
            self.cost += cycles.NEW_STRING + cycles.STRING_BYTE * len(part)
            return self.new_temp(part)
        self.sp -= SP_FUNCTION
        v = self.expr()
        if token in (T_LEN, T_ASC, T_VAL) and isinstance(v, bytes):
            self.cost += cycles.LEN1 + self.fretmp_cycles(v)
        self.free_temp(v)
        self.sp += SP_FUNCTION
        self.expect(0x29)
        if token == T_LEN:
            return mbf.from_int(len(self.string(v)))
        if token == T_ASC:
            s = self.string(v)
            if not s:
                raise BasicError("ILLEGAL QUANTITY")
            return mbf.from_int(s[0])
        if token == T_VAL:
            return self.val(self.string(v))
        if token == T_FRE:
            self.garbage_collect()
            free = self.w(FRETOP) - self.w(STREND)
            return mbf.from_int(free - 0x10000 if free >= 0x8000 else free)
        v = self.numeric(v) if token != T_FRE else v
        try:
            if token == T_STR:
                text = mbf.fout(v).encode("latin-1")
                self.cost += cycles.NEW_STRING + cycles.STRING_BYTE * len(text)
                return self.new_temp(text)
            if token == T_CHR:
                self.cost += cycles.CHR_STRING
                return self.new_temp(bytes((self.byte_value(v),)))
            if token == T_SGN:
                return mbf.sgn(v)
            if token == T_INT:
                return mbf.int_(v)
            if token == T_ABS:
                return mbf.abs_value(v)
            if token == T_PEEK:
                addr = mbf.to_address(v)
                if addr == TXTPTR or addr == TXTPTR + 1:
                    self.set_txtptr()
                return mbf.from_int(self.mem[addr] if addr < 2 or addr >= 0xA000 else self.ram[addr])
            if token == T_POS:
                return mbf.from_int(self.ram[PNTR])
            if token == T_USR:
                return self.usr(v)
            if token == T_RND:
                timers = b"\0" * 4
                if v[1] == 0:
                    self.machine.cpu.processorCycles += self.take_cost()   # the timers see it
                    timers = bytes(self.mem[0xDC04 + i] for i in range(4))
                return self.rnd.rnd(v, timers)
            fn = {T_SQR: series.sqr, T_LOG: series.log, T_EXP: series.exp, T_COS: series.cos,
                  T_SIN: series.sin, T_TAN: series.tan, T_ATN: series.atn}[token]
            return fn(v)
        except MathError as error:
            raise BasicError(str(error)) from None

    def val(self, s):
        """VAL ($B7AD): FIN reads the string where it lies, ended by a zero the ROM puts after
        it; the byte there is put back only when FIN returns, so after an error (OVERFLOW)
        the zero stays -- inside the program text for a literal, as on a C64."""
        if not s:
            return mbf.ZERO
        start = getattr(s, "addr", None)
        after = None if start is None else (start + len(s)) & 0xFFFF
        if after is not None:
            saved = self.ram[after]
            self.put(after, b"\0")
        try:
            value = mbf.fin(bytes(s) + b"\0", 0)[0]
        except MathError as error:
            raise BasicError(str(error)) from None
        if after is not None:
            self.put(after, bytes((saved,)))
        return value

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
        self.put_fac(v)
        self.fac_out_of_range = False
        self.set_txtptr()
        try:
            self.machine.call(self.w(USRADD))
        except RuntimeError:
            if self.fac_out_of_range:          # FLPINT's error: BASIC's, and BASIC goes on
                self.machine.error = None
            raise BasicError("ILLEGAL QUANTITY") from None
        return self.fac()

    def put_fac(self, v):
        """A value into FAC as the ROM keeps it: $61 exponent, $62-$65 mantissa, $66 sign."""
        data = mbf.pack(v)
        ram = self.ram
        ram[FN_FAC] = data[0]
        ram[FN_FAC + 1] = data[1] | 0x80
        ram[FN_FAC + 2:FN_FAC + 5] = data[2:5]
        ram[FN_FAC + 5] = 0xFF if v[0] else 0

    def fac(self):
        """The value in FAC ($61-$66)."""
        ram = self.ram
        e = ram[FN_FAC]
        sign = ram[FN_FAC + 5] >> 7
        if e == 0:
            return mbf.ZERO
        man = (ram[FN_FAC + 1] << 24) | (ram[FN_FAC + 2] << 16) | (ram[FN_FAC + 3] << 8) | ram[FN_FAC + 4]
        return (sign, e, (man | 0x80000000) << 8)

    def flpint(self, cpu):
        """$B1AA, where the vector at $0003 points: FAC as a signed 16-bit integer, A the
        high byte, Y the low (AYINT; outside -32768..32767 the ROM's ILLEGAL QUANTITY, which
        here stops the machine code with that message, or ends the USR that called it)."""
        try:
            n = mbf.to_int16(self.fac()) & 0xFFFF
        except MathError:
            self.fac_out_of_range = True
            raise CPUStop("?ILLEGAL QUANTITY ERROR in FLPINT ($B1AA): FAC is outside -32768..32767",
                          cpu.pc) from None
        cpu.a, cpu.y = n >> 8, n & 0xFF

    def givayf(self, cpu):
        """$B391, where the vector at $0005 points: the signed 16-bit integer in A (high byte)
        and Y (low) into FAC."""
        n = (cpu.a << 8) | cpu.y
        self.put_fac(mbf.from_int(n - 0x10000 if n & 0x8000 else n))

    def call_fn(self):
        """FN name(x): the DEF's expression with its parameter set to x, then restored."""
        n1, n2, kind = self.name()
        if kind != "f":
            raise BasicError("TYPE MISMATCH")
        addr = self.var_address(n1 | 0x80, n2, create=False)
        self.expect(0x28)
        sp = self.sp
        self.sp = sp - SP_FN_ARG
        arg = self.numeric(self.expr())
        self.sp = sp - SP_FN_BODY             # FNDOER: the parameter's old value, the text pointer
        self.expect(0x29)
        if addr is None:
            raise BasicError("UNDEF'D FUNCTION")
        self.cost += cycles.FN_CALL
        text = self.w(addr)
        param = self.w(addr + 2)
        saved = bytes(self.read(param, 5))
        self.put(param, mbf.movmf(arg))
        here = self.pos
        self.text_to(text)
        # FNDOER ($B3F4) puts the parameter's old value back (DEFFIN) only when the body's
        # value is got: after an error the parameter keeps the argument, as on a C64
        v = self.numeric(self.expr())
        if not self.at_end():
            raise BasicError("SYNTAX")
        self.text_to(here)
        self.put(param, saved)
        self.sp = sp
        return v
