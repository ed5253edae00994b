"""The program text as the interpreter reads it: memory words, the CHRGET pointer, lines.

Part of the Interpreter (kernal/basic/interpreter.py): the pointer `pos` walks the
tokenised text as the ROM's CHRGET does; FNDLIN's line search; printing through CHROUT.
"""

from kernal.basic import cycles
from kernal.basic.definitions import BasicError, KERNAL_ERRORS, is_digit
from kernal.errors import KernalError
from kernal.locations import CHANNL, TXTTAB

_BELOW_COLON = bytes(int(b < 0x3A) for b in range(256))     # CHRGET's longer path (a space's too)


class ProgramText:
    """Reading the tokenised text and finding lines (CHRGET, FNDLIN, LINGET)."""

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
        self.cost += cycles.CHROUT + cycles.PRINT_CHAR

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

    def statement_end(self):
        """DATAN's end of the statement: the next colon outside quotes or the end of the line."""
        ram, p, quoted = self.ram, self.pos, False
        while ram[p] and (quoted or ram[p] != 0x3A):
            if ram[p] == 0x22:
                quoted = not quoted
            p += 1
        return p

    def skip_statement(self):
        """DATA: on to the next colon outside quotes or the end of the line."""
        p = self.statement_end()
        self.skipped(self.pos, p)
        self.pos = p

    def skip_line(self):
        """REM, a false IF: on to the end of the line."""
        ram, p = self.ram, self.pos
        while ram[p]:
            p += 1
        self.skipped(self.pos, p)
        self.pos = p

    def skipped(self, start, end):
        """REMN / DATAN passed these bytes, and the pointer with them (not CHRGET)."""
        self.unread_text(start, end)
        self.scan_cost(start, end)

    def scan_cost(self, start, end):
        """REMN / DATAN's loop over these bytes."""
        self.cost += cycles.SKIP_BYTE * (end - start) + cycles.SKIP_QUOTE * self.ram[start:end].count(0x22)

    # -- lines ----------------------------------------------------------------------------------
    def find_line(self, number, addr=None):
        """FNDLIN: the address of the line with this number, or None; from `addr` (a line's
        start), else from the start of the program."""
        if addr is None:
            addr = self.w(TXTTAB)
        ram = self.ram
        passed = passed_low = 0
        high = number >> 8
        while ram[addr + 1]:
            found = ram[addr + 2] | (ram[addr + 3] << 8)
            if found >= number:
                break
            if ram[addr + 3] == high:
                passed += 1
            else:
                passed_low += 1
            addr = ram[addr] | (ram[addr + 1] << 8)
        else:
            found = None
        self.cost += cycles.FNDLIN_LINE * passed + cycles.FNDLIN_LINE_LOW * passed_low
        return addr if found == number else None

    def goto_line(self, number):
        """GOTO ($A8A0): REMN finds the end of this line; a higher line than the current one
        is searched from the next line on, any other from the start of the program."""
        p, ram = self.pos, self.ram
        while ram[p]:
            p += 1
        self.skipped(self.pos, p)
        self.pos = p
        forward = not self.direct and self.line is not None and number > self.line
        addr = self.find_line(number, p + 1 if forward else None)
        if addr is None:
            raise BasicError("UNDEF'D STATEMENT")
        self.jump_to(addr)

    def jump_to(self, addr):
        """Go on at the text of the line at addr."""
        self.line = self.ram[addr + 2] | (self.ram[addr + 3] << 8)
        self.text_to(addr + 4)
        self.direct = False
        self.running = True
        self.jumped = True

    def line_number_arg(self):
        """LINGET: a line number in the text (digits only, up to 63999)."""
        c = self.peek()
        if not is_digit(c):
            return None
        n = 0
        while True:
            c = self.ram[self.pos]
            if is_digit(c):
                n = n * 10 + c - 0x30
                if n > 63999:
                    raise BasicError("SYNTAX")
                self.pos += 1
                self.cost += cycles.LINGET_DIGIT
            elif c == 0x20:
                self.pos += 1
            else:
                return n
