"""The program text as the interpreter reads it: memory words, the CHRGET pointer, lines.

Part of the Interpreter (kernal/basic/interpreter.py): the pointer `pos` walks the
tokenised text as the ROM's CHRGET does; FNDLIN's line search; printing through CHROUT.
"""

from kernal.basic.definitions import (BasicError, COST_BYTE, COST_CHAR_OUT, COST_LINE_DIGIT, COST_LINE_SEARCH,
                                      KERNAL_ERRORS, is_digit)
from kernal.errors import KernalError
from kernal.locations import CHANNL, CURLIN, OLDTXT, TXTPTR, TXTTAB


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
        """Go on at the text of the line at addr (NEWSTT is entered at the byte before it:
        OLDTXT)."""
        self.line = self.ram[addr + 2] | (self.ram[addr + 3] << 8)
        self.pos = addr + 4
        self.direct = False
        self.running = True
        self.jumped = True
        self.set_w(OLDTXT, (addr - 1) & 0xFFFF)
        self.set_curlin()

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
        while True:
            c = self.ram[self.pos]
            if is_digit(c):
                n = n * 10 + c - 0x30
                if n > 63999:
                    raise BasicError("SYNTAX")
                self.pos += 1
                self.cost += COST_LINE_DIGIT
            elif c == 0x20:
                self.pos += 1
            else:
                return n
