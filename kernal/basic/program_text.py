"""The program text as the interpreter reads it: memory words, the CHRGET pointer, lines.

Part of the Interpreter (kernal/basic/interpreter.py): the pointer `pos` walks the
tokenised text as the ROM's CHRGET does; FNDLIN's line search; printing through CHROUT.

Every address BASIC takes from a pointer wraps at 64 KB, as the ROM's 6502 code does
(INC TXTPTR / INC TXTPTR+1, (zp),Y past $FFFF): text running past $FFFF goes on at
$0000, a value or a string at $FFFE goes on at $0000.  A walk that could go round all
of memory for ever (a chain of line links that comes back on itself) is cut after
WALK_LIMIT steps, charged, and the machine hangs there as a C64 would (Hung).
"""

from kernal.basic import cycles
from kernal.basic.definitions import BasicError, Hung, is_digit, kernal_error
from kernal.errors import KernalError
from kernal.locations import CHANNL, CURLIN, IGONE, OLDTXT, TXTPTR, TXTTAB

WALK_LIMIT = 0x10000            # steps of a walk through memory: more would go round it again

_BELOW_COLON = bytes(int(b < 0x3A) for b in range(256))     # CHRGET's longer path (a space's too)


class ProgramText:
    """Reading the tokenised text and finding lines (CHRGET, FNDLIN, LINGET)."""

    # -- memory helpers ---------------------------------------------------------------
    def w(self, addr):
        return self.ram[addr & 0xFFFF] | (self.ram[(addr + 1) & 0xFFFF] << 8)

    def set_w(self, addr, value):
        self.ram[addr & 0xFFFF] = value & 0xFF
        self.ram[(addr + 1) & 0xFFFF] = (value >> 8) & 0xFF

    def read(self, addr, n):
        """n bytes of RAM from addr (a list), going on at $0000 past $FFFF."""
        addr &= 0xFFFF
        end = addr + n
        if end <= 0x10000:
            return self.ram[addr:end]
        return self.ram[addr:] + self.ram[:end - 0x10000]

    def put(self, addr, data):
        """Bytes stored from addr, going on at $0000 past $FFFF (the RAM stays 64 KB);
        $0000/$0001 are the processor port, stored to as a STA would."""
        addr &= 0xFFFF
        end = addr + len(data)
        if end > 0x10000:
            split = 0x10000 - addr
            self.put(addr, data[:split])
            self.put(0, data[split:])
            return
        if addr < 2:
            for offset, byte in enumerate(data[:2 - addr]):
                self.mem[addr + offset] = byte
            data = data[2 - addr:]
            addr = 2
            if not data:
                return
        self.ram[addr:end] = data
        cm = self.code_map
        if cm is not None and any(cm[addr:end]):
            for a in range(addr, end):
                if cm[a]:
                    self.mem.code_written(a)

    def out(self, byte):
        try:
            spent = self.machine.kernal.chrout(byte)       # CHROUT's own cycles, the ROM's
        except KernalError as error:
            raise kernal_error(error, "DEVICE NOT PRESENT") from None
        self.cost += spent + cycles.CHROUT_VECTOR + cycles.OUTDO

    def out_text(self, text):
        """STROUT's characters (STRPR2's loop around each)."""
        for ch in (text.encode("latin-1") if isinstance(text, str) else text):
            self.cost += cycles.STRPRT_CHAR
            self.out(ch)

    def outspc(self):
        """OUTSPC: a cursor right on the screen, a space to a file."""
        self.cost += cycles.OUTSPC
        self.out(0x20 if self.ram[CHANNL] else 0x1D)

    def crdo(self):
        self.out(0x0D)
        if self.ram[CHANNL] >= 0x80:
            self.out(0x0A)

    # -- reading the text --------------------------------------------------------------------
    # CHRGET's time is charged by the stretch of text read: from `seg` to the pointer, each
    # byte once by its class and each space skipped (charge_text), less what other loops
    # read (unread_text: a string literal's bytes, a number's, which FIN reads, REM's and DATA's).
    @staticmethod
    def text_classes(data):
        """(bytes >= ':', other bytes, spaces) of a stretch of text: CHRGET's three paths."""
        spaces = data.count(0x20)
        low = bytes(data).translate(_BELOW_COLON).count(1) - spaces
        return len(data) - low - spaces, low, spaces

    def charge_text(self):
        seg, p = self.seg, self.pos
        if p > seg:
            high, low, spaces = self.text_classes(self.ram[seg:p])
            unread = self.unread
            self.cost += (cycles.CHRGET_HIGH * (high - unread[0]) + cycles.CHRGET_LOW * (low - unread[1])
                          + cycles.SPACE * (spaces - unread[2]))
        self.unread = (0, 0, 0)
        self.seg = p

    def text_to(self, addr):
        """The text read so far charged; CHRGET goes on at addr."""
        self.charge_text()
        self.pos = self.seg = addr

    def unread_text(self, start, end):
        """Bytes of the stretch that CHRGET did not read."""
        if end > start:
            high, low, spaces = self.text_classes(self.ram[start:end])
            unread = self.unread
            self.unread = (unread[0] + high, unread[1] + low, unread[2] + spaces)

    def peek(self):
        """CHRGOT: the next non-space byte, not consumed."""
        ram, p = self.ram, self.pos
        try:
            while ram[p] == 0x20:
                p += 1
        except IndexError:                  # past $FFFF: on at $0000
            return self.peek_wrapped()
        self.pos = p
        return ram[p]

    def peek_wrapped(self):
        """peek() where the text runs past $FFFF: the text read up to there charged, CHRGET
        goes on at $0000."""
        self.charge_text()
        ram, p = self.ram, self.pos & 0xFFFF
        self.seg = p
        for _ in range(WALK_LIMIT):
            if ram[p] != 0x20:
                self.pos = p
                return ram[p]
            p = (p + 1) & 0xFFFF
            if not p:                       # the spaces up to $FFFF charged
                self.pos = 0x10000
                self.charge_text()
                self.seg = 0
        raise Hung()                        # nothing but spaces: CHRGET goes round for ever

    def string_length(self, start, stop, other):
        """STRLT2 ($B48D): the length of the text from start up to a zero, `stop` or
        `other`, and the address it ends at.  The ROM counts with Y, which goes round
        within 256 bytes for ever when none of them comes (Hung)."""
        ram = self.ram
        p = start
        for length in range(256):
            c = ram[p]
            if not c or c == stop or c == other:
                return length, p
            p = (p + 1) & 0xFFFF
        raise Hung()

    def text_at(self, offset=0):
        """The byte `offset` bytes on from the text pointer (wrapping)."""
        return self.ram[(self.pos + offset) & 0xFFFF]

    def take(self):
        c = self.peek()
        self.pos += 1
        return c

    def expect(self, byte, lands=True):
        """SYNCHR ($AEFF): the byte checked, its JMP CHRGET on to the next.  The text model
        charges a byte when it is passed; CHRGET landing on the statement's end is charged
        here (end_cycles), unless the caller's own CHRGET does it (lands=False)."""
        if self.peek() != byte:
            raise BasicError("SYNTAX")
        self.pos += 1
        if lands and byte == 0x29:              # (only a parenthesis can end a statement)
            self.cost += self.end_cycles()

    def end_cycles(self):
        """CHRGET landing on the byte at the pointer when it ends the statement (the zero or
        a colon: the text's charges leave the end out), else nothing."""
        c = self.peek()
        return cycles.CHRGET_LOW if c == 0 else cycles.CHRGET_HIGH if c == 0x3A else 0

    def at_end(self):
        c = self.peek()
        return c == 0 or c == 0x3A

    def statement_end(self):
        """DATAN's end of the statement: the next colon outside quotes or the end of the line
        (on at $0000 past $FFFF; round all of memory without one, DATAN never ends: Hung)."""
        ram, p, quoted = self.ram, self.pos & 0xFFFF, False
        for _ in range(WALK_LIMIT):
            c = ram[p]
            if not c or (c == 0x3A and not quoted):
                return p
            if c == 0x22:
                quoted = not quoted
            p = (p + 1) & 0xFFFF
        self.cost += cycles.SKIP_BYTE * WALK_LIMIT
        raise Hung()

    def line_end(self, p):
        """REMN: the address of the zero that ends the line from p (on at $0000 past $FFFF;
        round all of memory without one, REMN never ends: Hung)."""
        ram = self.ram
        p &= 0xFFFF
        for _ in range(WALK_LIMIT):
            if not ram[p]:
                return p
            p = (p + 1) & 0xFFFF
        self.cost += cycles.SKIP_BYTE * WALK_LIMIT
        raise Hung()

    def skip_statement(self):
        """DATA: on to the next colon outside quotes or the end of the line."""
        p = self.statement_end()
        self.skipped(self.pos, p)
        self.pos = p

    def skip_line(self):
        """REM, a false IF: on to the end of the line."""
        p = self.line_end(self.pos)
        self.skipped(self.pos, p)
        self.pos = p

    def skipped(self, start, end):
        """REMN / DATAN passed these bytes, and the pointer with them (not CHRGET)."""
        self.unread_text(start, end)
        self.scan_cost(start, end)

    def scan_cost(self, start, end):
        """REMN / DATAN's loop over these bytes (from start on to end, wrapping at $FFFF)."""
        if start <= end:
            data = self.ram[start:end]
        else:
            data = self.read(start, (end - start) & 0xFFFF)
        self.cost += cycles.SKIP_BYTE * len(data) + cycles.SKIP_QUOTE * data.count(0x22)
        if self.ram[end & 0xFFFF] == 0x3A:
            self.cost += cycles.SKIP_COLON          # DATAN stops at a colon: REMER's CMP ENDCHR / BEQ

    # -- lines ----------------------------------------------------------------------------------
    def find_line(self, number, addr=None):
        """FNDLIN: the address of the line with this number, or None; from `addr` (a line's
        start), else from the start of the program.  Its time is charged line by line; links
        that come back on themselves below the number hang (Hung)."""
        if addr is None:
            addr = self.w(TXTTAB)
        ram = self.ram
        addr &= 0xFFFF
        passed = passed_low = 0
        high = number >> 8
        for _ in range(WALK_LIMIT):
            if not ram[(addr + 1) & 0xFFFF]:
                found = None
                break
            line_high = ram[(addr + 3) & 0xFFFF]
            found = ram[(addr + 2) & 0xFFFF] | (line_high << 8)
            if found >= number:
                break
            if line_high == high:
                passed += 1
            else:
                passed_low += 1
            addr = ram[addr] | (ram[(addr + 1) & 0xFFFF] << 8)
        else:
            self.cost += cycles.FNDLIN_LINE * WALK_LIMIT     # 65,536 links: round a loop for ever
            raise Hung()
        self.cost += cycles.FNDLIN_LINE * passed + cycles.FNDLIN_LINE_LOW * passed_low
        return addr if found == number else None

    def goto_line(self, number):
        """GOTO ($A8A0): REMN finds the end of this line; a higher line than the current one
        is searched from the next line on, any other from the start of the program."""
        p = self.line_end(self.pos)
        self.skipped(self.pos, p)
        self.pos = p
        forward = not self.direct and self.line is not None and number > self.line
        addr = self.find_line(number, (p + 1) & 0xFFFF if forward else None)
        if addr is None:
            raise BasicError("UNDEF'D STATEMENT")
        self.jump_to(addr)

    def jump_to(self, addr):
        """Go on at the text of the line at addr.  The ROM's GOTO and RUN leave TXTPTR at
        the byte before the line (OLDTXT), and NEWSTT wants the end of a line there: a zero;
        a colon reads the line's link and number as text; anything else is a SYNTAX error
        (POKE 2048,1:RUN)."""
        before = (addr - 1) & 0xFFFF
        c = self.ram[before]
        if c and c != 0x3A:
            raise BasicError("SYNTAX")
        if self.direct:
            self.line = 0xFF00 | self.ram[CURLIN]      # until NEWSTT reads a line number
        self.direct = False
        self.running = True
        self.jumped = True
        self.set_w(OLDTXT, before)
        if c or self.hook(IGONE) is not None:
            self.text_to(addr if c else before)       # (NEWSTT reads the line, GONE calls IGONE)
            return
        self.line = self.ram[(addr + 2) & 0xFFFF] | (self.ram[(addr + 3) & 0xFFFF] << 8)
        self.text_to((addr + 4) & 0xFFFF)
        self.set_curlin()
        self.cost += cycles.LINE          # NEWSTT finds the zero before the line: DIRCN1's way in

    def set_txtptr(self):
        """TXTPTR ($7A) where CHRGET would have it: at the next byte that is not a space.
        Kept only where a program or its machine code can read it (PEEK, SYS, USR)."""
        self.peek()
        self.set_w(TXTPTR, self.pos)

    def set_curlin(self):
        """CURLIN ($39) as the ROM keeps it: the line running, or $FF in its high byte in
        direct mode (the low byte left as it was)."""
        if self.direct:
            self.ram[CURLIN + 1] = 0xFF
        else:
            self.set_w(CURLIN, self.line)

    def line_number_arg(self):
        """LINGET: a line number in the text (digits only, up to 63999)."""
        c = self.peek()
        if not is_digit(c):
            return None
        n = 0
        for _ in range(WALK_LIMIT):
            c = self.text_at()
            if is_digit(c):
                n = n * 10 + c - 0x30
                if n > 63999:
                    raise BasicError("SYNTAX")
                self.pos = (self.pos + 1) & 0xFFFF
                self.cost += cycles.LINGET_DIGIT
            elif c == 0x20:
                self.pos = (self.pos + 1) & 0xFFFF
            else:
                return n
        raise Hung()
