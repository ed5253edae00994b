"""BASIC's direct mode: READY., the typed line, the program in memory, LIST, LOAD, SAVE.

It prints READY., reads a line with the screen editor (full-screen editing,
blinking cursor) and tokenises it as BASIC V2 does (keywords anywhere,
abbreviations such as `rU` = RUN with a shifted second letter, `?` = PRINT).
A line with a number is stored in the program (a number alone deletes the
line; any edit clears the variables, as on the C64); any other line is run
by the interpreter (kernal/basic/interpreter.py) from the input buffer.

Screen layout follows the ROM: the line input ends with a RETURN (BASIC's
crdo), every error message starts with another RETURN (so a blank line
follows the typed line), KERNAL messages start with a RETURN ("\rSEARCHING
FOR X", "\rLOADING") and READY. is printed as "\r\nREADY.\r\n" (the $0A is
ignored by the screen editor).  A LOAD in direct mode sets the end of the
program ($2D/$2E) to the end of what was loaded, even with ,8,1 (as the real
BASIC does), and relinks lines.
"""

from kernal import entries
from kernal.basic.definitions import BASIC_ERRORS, SLICE, Finished, kernal_error
from kernal.basic.interpreter import BasicError, Interpreter
from kernal.channels import WAIT
from kernal.errors import KernalError
from kernal.locations import (ADRAY1, ADRAY2, ARYTAB, BASIC_MEMSIZ, BASIC_START, BASIC_TOP, BUF, CHANNL, CHRGET,
                              CURLIN, DATPTR, FOUR6, FRETOP, ICRNCH, IERROR, IMAIN, IQPLOP, JMPER, MSG_DIRECT_MODE,
                              MSGFLG, QTSW,
                              ST_DEVICE_NOT_PRESENT, ST_EOI, ST_VERIFY_ERROR, STATUS, STREND, TEMPPT, TEMPST,
                              TXTPTR, TXTTAB, USRPOK, VARTAB)

MEMSIZ = BASIC_MEMSIZ
BASIC_MAIN = entries.address_of("BASIC_MAIN")
NMAIN = entries.address_of("BASIC_NMAIN")
ILLEGAL_QUANTITY = 0xB248  # the ROM's ILLEGAL QUANTITY error entry, USR's default
MAX_LINE = 63999
# CHRGET as INITCZ copies it to $73-$8A: the next byte of the text at TXTPTR ($7A/$7B) in A,
# spaces skipped, C clear for a digit, Z set for ":" or the line's end.
CHRGET_CODE = bytes((
    0xE6, 0x7A,                 # $73 chrget: INC TXTPTR
    0xD0, 0x02,                 #             BNE chrgot
    0xE6, 0x7B,                 #             INC TXTPTR+1
    0xAD, 0x60, 0xEA,           # $79 chrgot: LDA $EA60 (the operand is TXTPTR)
    0xC9, 0x3A,                 #             CMP #":"
    0xB0, 0x0A,                 #             BCS done
    0xC9, 0x20,                 #             CMP #" "
    0xF0, 0xEF,                 #             BEQ chrget
    0x38, 0xE9, 0x30,           #             SEC / SBC #"0"
    0x38, 0xE9, 0xD0,           #             SEC / SBC #$D0
    0x60,                       # $8A done:   RTS
))

# BASIC V2 keywords in token order, $80-$CB.
KEYWORDS = (
    "END FOR NEXT DATA INPUT# INPUT DIM READ LET GOTO RUN IF RESTORE GOSUB RETURN REM "
    "STOP ON WAIT LOAD SAVE VERIFY DEF POKE PRINT# PRINT CONT LIST CLR CMD SYS OPEN "
    "CLOSE GET NEW TAB( TO FN SPC( THEN NOT STEP + - * / ^ AND OR > = < SGN INT ABS USR "
    "FRE POS SQR RND LOG EXP COS SIN TAN ATN PEEK LEN STR$ VAL ASC CHR$ LEFT$ RIGHT$ MID$ GO"
).split()
TOKEN = {word: 0x80 + i for i, word in enumerate(KEYWORDS)}
T_END, T_DATA, T_RUN, T_REM, T_STOP = TOKEN["END"], TOKEN["DATA"], TOKEN["RUN"], TOKEN["REM"], TOKEN["STOP"]
T_LOAD, T_PRINT, T_LIST, T_CLR, T_SYS, T_NEW = (TOKEN["LOAD"], TOKEN["PRINT"], TOKEN["LIST"],
                                               TOKEN["CLR"], TOKEN["SYS"], TOKEN["NEW"])
T_SAVE, T_VERIFY = TOKEN["SAVE"], TOKEN["VERIFY"]
PI = 0xFF


# -- tokenising ------------------------------------------------------------------------------
# RESLST ($A09E): the keywords as the ROM keeps them, the last letter of each with bit 7 set,
# a zero after the last.
RESLST = b"".join(word[:-1].encode("ascii") + bytes([ord(word[-1]) | 0x80]) for word in KEYWORDS) + b"\x00"
COLON, QUOTE, SPACE = 0x3A, 0x22, 0x20


def crunch(line):
    """Tokenise a typed line (PETSCII bytes, after its line number) as BASIC V2's CRUNCH
    ($A579) does, step for step: outside quotes a byte $80-$FE is dropped (pi, $FF, is
    kept), spaces, digits, `:` and `;` are kept, `?` is PRINT, and anything else is
    matched against RESLST from the first keyword on -- a byte that differs from the
    keyword's by $80 ends the match (the keyword's last letter, or a shifted letter: the
    abbreviation `lI` is LIST), one that differs by 0 goes on, past a keyword's end into
    the next one's letters if a shifted last letter matched.  Inside quotes, after REM,
    and in DATA up to the next colon outside quotes no keyword is looked for."""
    buf = bytes(line) + b"\x00"
    out = bytearray()
    x = 0
    in_data = False                             # DORES bit 6: after DATA, to the next colon
    while True:
        c = buf[x]
        if c >= 0x80 and c != PI:               # KLOOP: dropped
            x += 1
            continue
        if c == QUOTE:                          # STRNG: copied to the closing quote
            out.append(c)
            x += 1
            while buf[x] and buf[x] != QUOTE:
                out.append(buf[x])
                x += 1
            c = buf[x]
        elif c != SPACE and c != PI and not in_data:
            if c == 0x3F:                       # ? is PRINT
                c = T_PRINT
            elif not 0x30 <= c <= 0x3B:         # digits, : and ; are kept as they are
                c, x = _keyword(buf, x)
        out.append(c)                           # STUFFH
        x += 1
        if c == 0:
            return bytes(out[:-1])
        if c == COLON:
            in_data = False
        elif c == T_DATA:
            in_data = True
        elif c == T_REM:                        # the rest of the line as it is
            while buf[x]:
                out.append(buf[x])
                x += 1


def split_line_number(text):
    """LINGET on a typed line that starts with a digit: (its number, the text to crunch).
    Spaces between the digits and after them are skipped, as CHRGET skips them; the number
    may pass MAX_LINE, which the caller refuses (?SYNTAX ERROR at READY.)."""
    i, digits = 0, b""
    while i < len(text) and (0x30 <= text[i] <= 0x39 or text[i] == 0x20):
        if text[i] != 0x20:
            digits += text[i:i + 1]
        i += 1
    digits = digits.lstrip(b"0") or b"0"
    return (int(digits) if len(digits) <= 6 else 10 ** 6), text[i:]      # (any number past MAX_LINE)


def _keyword(buf, x):
    """RESCON: (the token or the byte itself, the index of the last byte it takes) for the
    text at buf[x], as CRUNCH matches it against RESLST."""
    start, count, y = x, 0, 0
    while True:
        diff = (buf[x] - RESLST[y]) & 0xFF
        if diff == 0 and RESLST[y]:             # the same byte: on to the next of both
            x += 1
            y += 1
            continue
        if diff == 0x80:                        # the keyword's end, or a shifted letter
            return 0x80 | count, x
        if not RESLST[y]:
            # Past the last keyword (reached only through a chain of shifted last letters
            # ending in MID$ and GO): the ROM compares on into the error messages after
            # RESLST, which are not kept here; taken as no keyword.
            return buf[start], start
        x, count = start, count + 1             # NTHIS: on to the next keyword
        while not RESLST[y] & 0x80:
            y += 1
        y += 1
        if not RESLST[y]:
            return buf[start], start


def detokenise(body):
    """A stored line's bytes (after the line number) as LIST prints them (PETSCII)."""
    out = bytearray()
    quoted = False
    for byte in body:
        if byte == 0x22:
            quoted = not quoted
        if quoted or byte < 0x80:
            out.append(byte)
        elif byte == PI:
            out.append(PI)
        elif byte - 0x80 < len(KEYWORDS):
            out += KEYWORDS[byte - 0x80].encode("ascii")
        else:
            out += b"{$%02X}" % byte
    return bytes(out)


class Basic:
    def __init__(self, machine):
        self.machine = machine
        self.mem = machine.mem
        self.channels = machine.kernal.channels     # files, LOAD and SAVE (kernal.channels)
        self.line = bytearray()
        self.interp = Interpreter(self)

    # -- the program in memory -------------------------------------------------------
    def start_address(self):
        start = self.mem[TXTTAB] | (self.mem[TXTTAB + 1] << 8)
        return start if 0x0200 <= start < BASIC_TOP else BASIC_START

    def cold_start(self):
        """BASIC's cold start without the banner: INITV's vectors, INITCZ's zero page (CHRGET
        and RND's seed among it; RAMTAS cleared it all), then NEW."""
        m = self.mem
        for offset, address in enumerate(entries.BASIC_VECTORS):             # INITV
            m[IERROR + 2 * offset], m[IERROR + 2 * offset + 1] = address & 0xFF, address >> 8
        m[JMPER] = m[USRPOK] = 0x4C                                          # INITCZ: JMP opcodes
        m[USRPOK + 1], m[USRPOK + 2] = ILLEGAL_QUANTITY & 0xFF, ILLEGAL_QUANTITY >> 8
        for vector, routine in ((ADRAY1, "FLPINT"), (ADRAY2, "GIVAYF")):
            address = entries.address_of(routine)
            m[vector], m[vector + 1] = address & 0xFF, address >> 8
        for offset, byte in enumerate(CHRGET_CODE):
            m[CHRGET + offset] = byte
        self.interp.rnd.reseed()                                             # (its 5 bytes follow)
        self.interp.in_code = None
        m[FOUR6] = 3                                                         # a descriptor's size
        m[TEMPPT] = TEMPST                                                   # no temporary strings
        self.new()

    def new(self):
        m = self.mem
        if not m[MEMSIZ] and not m[MEMSIZ + 1]:
            m[MEMSIZ], m[MEMSIZ + 1] = BASIC_TOP & 0xFF, BASIC_TOP >> 8     # as BASIC's cold start
        if m[USRPOK] != 0x4C:
            # cold start: USR's JMP points at the ILLEGAL QUANTITY error until a program sets it
            m[USRPOK], m[USRPOK + 1], m[USRPOK + 2] = 0x4C, ILLEGAL_QUANTITY & 0xFF, ILLEGAL_QUANTITY >> 8
        m[BASIC_START - 1] = 0
        m[BASIC_START], m[BASIC_START + 1] = 0, 0
        m[TXTTAB], m[TXTTAB + 1] = BASIC_START & 0xFF, BASIC_START >> 8
        self.set_program_end(BASIC_START + 2)
        before = BASIC_START - 1                    # SCRTCH: the text pointer and RESTORE's DATA
        m[TXTPTR], m[TXTPTR + 1] = before & 0xFF, before >> 8          # pointer at the byte
        m[DATPTR], m[DATPTR + 1] = before & 0xFF, before >> 8          # before the program

    def set_program_end(self, end):
        """VARTAB: the program ends here; no variables, arrays or strings (as after LOAD or NEW)."""
        m = self.mem
        for pointer in (VARTAB, ARYTAB, STREND):
            m[pointer], m[pointer + 1] = end & 0xFF, (end >> 8) & 0xFF
        m[FRETOP], m[FRETOP + 1] = m[MEMSIZ], m[MEMSIZ + 1]

    def program_end(self):
        return self.mem[VARTAB] | (self.mem[VARTAB + 1] << 8)

    def lines(self):
        """[(address, number, body bytes)] of the program in memory, following the links."""
        found = []
        addr = self.start_address()
        seen = set()
        while addr + 4 < BASIC_TOP and addr not in seen and len(found) < 10000:
            seen.add(addr)
            link = self.mem[addr] | (self.mem[addr + 1] << 8)
            if self.mem[addr + 1] == 0:
                break
            number = self.mem[addr + 2] | (self.mem[addr + 3] << 8)
            body = bytearray()
            p = addr + 4
            while p < BASIC_TOP and self.mem[p] != 0 and len(body) < 255:
                body.append(self.mem[p])
                p += 1
            found.append((addr, number, bytes(body)))
            if link <= addr:
                break
            addr = link
        return found

    def relink(self):
        """LNKPRG: recompute every line's link from its terminating zero; returns the program end."""
        addr = self.start_address()
        for _ in range(10000):
            if addr + 4 >= BASIC_TOP or self.mem[addr + 1] == 0:
                break
            p = addr + 4
            while p < BASIC_TOP - 1 and self.mem[p] != 0:
                p += 1
            nxt = p + 1
            self.mem[addr], self.mem[addr + 1] = nxt & 0xFF, nxt >> 8
            addr = nxt
        return min(addr + 2, BASIC_TOP)

    def store_line(self, number, body):
        """Insert, replace or (empty body) delete a numbered program line."""
        lines = [(n, b) for _, n, b in self.lines() if n != number]
        if body:
            lines.append((number, body))
            lines.sort(key=lambda item: item[0])
        start = self.start_address()
        image = bytearray()
        for n, b in lines:
            link = start + len(image) + 4 + len(b) + 1
            image += bytes((link & 0xFF, link >> 8, n & 0xFF, n >> 8)) + b + b"\x00"
        image += b"\x00\x00"
        if start + len(image) >= BASIC_TOP:
            raise BasicError("OUT OF MEMORY")
        for offset, byte in enumerate(image):
            self.mem[start + offset] = byte
        self.set_program_end(start + len(image))

    # -- output --------------------------------------------------------------------------
    def print_text(self, text):
        """BASIC's own messages through CHROUT ($FFD2).  STROUT does not look at CHROUT's
        carry: to an output device that is not there (DFLTO POKEd) they are lost.
        Returns the C64 cycles CHROUT took (the KERNAL's, as the ROM's)."""
        chrout = self.machine.kernal.chrout
        spent = 0
        for ch in text:
            try:
                spent += chrout(ch if isinstance(ch, int) else ord(ch))
            except KernalError:
                break
        return spent

    def banner(self):
        """BASIC's cold-start message, with the bytes free between TXTTAB and MEMSIZ."""
        top = self.mem[MEMSIZ] | (self.mem[MEMSIZ + 1] << 8)
        self.print_text("\r    **** COMMODORE 64 BASIC V2 ****\r\r 64K RAM SYSTEM  %d BASIC BYTES FREE\r"
                    % (top - self.start_address()))

    def ready(self, cpu):
        """$A474: print READY. and enter direct mode.  The output channel stays: after CMD,
        READY. and what direct lines print go to CMD's file until PRINT# (or an error,
        RUN/STOP+RESTORE) ends it, as on a C64."""
        self.mem[MSGFLG] = MSG_DIRECT_MODE
        self.print_text("\r\nREADY.\r\n")       # $A376; the screen ignores the $0A, a file gets it
        self.line.clear()
        self.interp.running = False
        self.interp.pending = None
        self.interp.hung = False
        self.interp.in_code = None
        cpu.pc = BASIC_MAIN
        return True

    def report_error(self, cpu, name, line=None):
        """BASIC's error handler ($A437): CMD's channel ends (CLRCHN), then RETURN,
        ?NAME  ERROR [IN line] and READY."""
        self.channels.clrchn()
        self.mem[CHANNL] = 0
        self.print_text("\r?%s  ERROR" % name)
        if line is not None:
            self.print_text(" IN %d" % line)
        return self.ready(cpu)

    def error_by_number(self, cpu):
        """$E38B, where IERROR ($0300) points: the error numbered X (BASIC_ERRORS), as machine
        code raises one with LDX #n / JMP ($0300): the stack reset (STKINI), the message,
        IN the line CURLIN names (that of the SYS that ran the code), READY.; X with bit 7
        set: READY. alone."""
        interp = self.interp
        line = None
        if interp.in_code is not None:
            interp.in_code = None
            if self.mem[CURLIN + 1] != 0xFF:
                line = self.mem[CURLIN] | (self.mem[CURLIN + 1] << 8)
        elif interp.running and not interp.direct:
            line = interp.line
        interp.running = False
        interp.pending = interp.listing = None
        if cpu.x & 0x80:
            return self.ready(cpu)
        interp.cont_ok = False
        cpu.sp = 0xFA
        number = cpu.x
        name = BASIC_ERRORS[number] if 0 < number < len(BASIC_ERRORS) else "ERROR %d" % number
        return self.report_error(cpu, name, line)

    def ready_entry(self, cpu):
        """READY ($E386): LDX #$80 and JMP (IERROR) -- READY. through the error vector, the
        stack and the channels as they are (machine code ends so, JMP $E386)."""
        interp = self.interp
        if interp.in_code is not None:
            interp.adopt_stack(cpu.sp)
        cpu.x = 0x80
        cpu.pc = self.mem[IERROR] | (self.mem[IERROR + 1] << 8)
        return True

    def ready_from_code(self, cpu):
        """READYX ($A474) reached by machine code (JMP $A474): READY., the stack as the code
        left it."""
        interp = self.interp
        if interp.in_code is not None:
            interp.adopt_stack(cpu.sp)
        return self.ready(cpu)

    # -- direct mode ---------------------------------------------------------------------
    def reading_lines(self):
        """True while the READY. loop waits for a typed line (no program or SYS running)."""
        return self.machine.cpu.pc in (BASIC_MAIN, NMAIN) and self.mem[MSGFLG] == MSG_DIRECT_MODE

    def main_loop(self, cpu, through_vector=False):
        """$A480: JMP (IMAIN) -- to a program's hook if it put one there
        (kernal.basic.vectors) -- else NMAIN ($A483): collect a line through CHRIN; run it
        at RETURN."""
        hook = self.interp.hook(IMAIN) if through_vector else None
        if hook is not None:
            cpu.pc = hook
            return True
        typed = self.read_line(cpu)
        if typed is None or typed is WAIT:
            return typed or True
        return self.execute(cpu, typed)

    def read_line(self, cpu):
        """INLIN ($A560): a line through CHRIN, ended by RETURN (88 bytes kept), then BASIC's
        own RETURN on the screen.  WAIT while a key is awaited; None when the input device
        is not there (the trap's address runs again, its time passing)."""
        channels = self.channels
        while True:
            try:
                byte = channels.chrin()
            except KernalError:
                # INLIN reads from an input device that is not there (DFLTN POKEd): a C64
                # reads on for ever; its time passes, RUN/STOP+RESTORE gets out
                self.machine.stall(SLICE)
                return None
            if byte is WAIT:
                return WAIT
            if byte == 0x0D:
                break
            if len(self.line) < 88:
                self.line.append(byte)
        typed = bytes(self.line)
        self.line.clear()
        if not self.mem[CHANNL]:
            self.print_text("\r")                  # $AACA: BASIC ends the input line itself (not into CMD's file)
        return typed

    def inlin(self, cpu):
        """INLIN ($A560) called by machine code (a hooked IMAIN): the line into BUF with a zero
        after it, X/Y = $01FF (BUF-1), then RTS."""
        typed = self.read_line(cpu)
        if typed is WAIT:
            return WAIT
        if typed is None:
            cpu.pc = entries.address_of("BASIC_INLIN")
            return True
        self.interp.put(BUF, typed + b"\0")
        cpu.a, cpu.x, cpu.y = 0, (BUF - 1) & 0xFF, (BUF - 1) >> 8
        return None

    def main_line(self, cpu):
        """MAIN after its INLIN ($A486), reached by machine code: the line in BUF from X/Y + 1
        run or stored."""
        start = (cpu.x | (cpu.y << 8)) + 1
        return self.execute(cpu, bytes(self.interp.read(start, 89)).split(b"\0", 1)[0][:88])

    def execute(self, cpu, typed):
        """Run one typed line (PETSCII bytes, or str for convenience).  A program's ICRNCH
        hook tokenises it when there is one (kernal.basic.vectors)."""
        if isinstance(typed, str):
            typed = typed.encode("latin-1")
        text = typed.lstrip(b" ")
        if not text:
            cpu.pc = BASIC_MAIN
            return True
        interp = self.interp
        hook = interp.hook(ICRNCH)
        if hook is not None:
            interp.put(BUF, typed[:88] + b"\0")

        def tokenised(rest):
            return crunch(rest) if hook is None else interp.crunch_hooked(hook, BUF + len(typed) - len(rest))
        try:
            if 0x30 <= text[0] <= 0x39:
                number, rest = split_line_number(text)
                if number > MAX_LINE:
                    raise BasicError("SYNTAX")
                self.store_line(number, tokenised(rest))
                interp.clear_variables()          # editing the program clears the variables
                interp.cont_ok = False
                cpu.pc = BASIC_MAIN
                return True
            tokens = tokenised(text)
        except BasicError as error:
            return self.report_error(cpu, str(error))
        except Finished:
            return self.ready(cpu)
        return interp.start_direct(cpu, tokens, in_buf=hook is not None)

    # -- LIST ----------------------------------------------------------------------------
    def list_range(self, low, high):
        """The (number, body, address) lines LIST prints from `low` to `high`, then None when a line
        follows them: LIST's loop ($A6C9) prints a line's RETURN before it finds the line
        past the end, so that one shows as a blank row."""
        found = [(number, body, addr) for addr, number, body in self.lines() if number >= low]
        listed = [line for line in found if line[0] <= high]
        return listed + [None] if len(listed) < len(found) else listed

    def list_line(self, number, body, addr=None):
        """One line as LIST prints it (each byte through a program's IQPLOP hook when there is
        one: kernal.basic.vectors); returns the C64 cycles its CHROUTs took."""
        hook = self.interp.hook(IQPLOP) if addr is not None else None
        if hook is not None:
            spent = self.print_text("\r%d" % number) + self.interp.list_hooked(hook, addr, self.keyword)
        else:
            spent = self.print_text("\r%d " % number) + self.print_text(detokenise(body))
        self.mem[QTSW] = 0               # LIST leaves quote mode at each line end
        return spent

    crunch = staticmethod(crunch)

    @staticmethod
    def keyword(token):
        """The bytes NQPLOP ($A71A) prints for the token in A, the last with bit 7 set: its
        walk through RESLST with an 8-bit Y, round the table (its 256 bytes) for a byte
        past GO ($CB) or below $80 (a hook may hand one on)."""
        x, y = (token - 0x7F) & 0xFF, 0xFF
        while True:
            x = (x - 1) & 0xFF                              # RESRCH: DEX / BEQ PRIT3
            if not x:
                break
            while True:                                     # RESCR1: on past a word's end
                y = (y + 1) & 0xFF
                if RESLST[y] & 0x80:
                    break
        out = bytearray()
        while True:                                         # PRIT3
            y = (y + 1) & 0xFF
            out.append(RESLST[y])
            if RESLST[y] & 0x80:
                return bytes(out)

    # -- LOAD ----------------------------------------------------------------------------
    @staticmethod
    def _check_file_arguments(name, device):
        """What LOAD and SAVE refuse before they reach the KERNAL."""
        if device in (0, 2, 3) or device > 255:
            raise BasicError("ILLEGAL DEVICE NUMBER" if device <= 255 else "ILLEGAL QUANTITY")
        if device == 1:
            raise BasicError("DEVICE NOT PRESENT")      # no datasette attached
        if not name:
            raise BasicError("MISSING FILE NAME")

    def load_program(self, name, device, secondary, verify=False, chain=False):
        """LOAD (or VERIFY) as BASIC's cload ($E168): KERNAL LOAD at TXTTAB, its messages
        at READY. only (MSGFLG), and the end of the program ($2D) set -- not with `chain`,
        a LOAD from a running program, which keeps its variables where they are ($E1B5)."""
        self._check_file_arguments(name, device)
        messages = self.mem[MSGFLG] & MSG_DIRECT_MODE
        if messages:
            self.print_text(b"\rSEARCHING FOR " + name)  # the KERNAL says so before it asks the bus
        try:
            end = self.channels.load(name, device, secondary, self.start_address(), verify)
        except KernalError as error:
            raise kernal_error(error, "FILE NOT FOUND") from None
        if messages:
            self.print_text("\rVERIFYING" if verify else "\rLOADING")
        if verify:
            if self.mem[STATUS] & ST_VERIFY_ERROR:
                raise BasicError("VERIFY")
            self.print_text("\rOK\r")
            return
        if self.mem[STATUS] & ~ST_EOI & 0xFF:
            raise BasicError("LOAD")
        drive = self.channels.devices.get(device)
        if name[:1] != b"$":                  # the directory is no program to name
            self.machine.loaded_name = getattr(drive, "last_loaded", None) or bytes(name).decode("latin-1")
        if not chain:
            self.set_program_end(end)
        self.relink()

    # -- SAVE ----------------------------------------------------------------------------
    def save_program(self, name, device):
        """SAVE"name",8: the program from the start of BASIC to its end ($2D/$2E)."""
        self._check_file_arguments(name, device)
        if self.channels.devices.get(device) is None:
            self.mem[STATUS] = ST_DEVICE_NOT_PRESENT
            raise BasicError("DEVICE NOT PRESENT")
        if self.mem[MSGFLG] & MSG_DIRECT_MODE:          # the KERNAL's message: at READY. (or after GOTO, CONT)
            self.print_text(b"\rSAVING " + name)
        start, end = self.start_address(), self.program_end()
        try:
            self.channels.save(name, device, start, max(start, end))
        except KernalError as error:
            drive = self.channels.devices.get(device)
            if getattr(drive, "pending_error", lambda: None)() is not None:
                return              # the drive took the bytes and blinks (72,DISK FULL ...): BASIC says READY.
            raise kernal_error(error, "DEVICE NOT PRESENT") from None

