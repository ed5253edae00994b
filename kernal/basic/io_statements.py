"""The statements that talk to the user and to files: PRINT, PRINT#, CMD, READ, INPUT,
INPUT#, GET, GET#, OPEN, CLOSE, LIST, LOAD, SAVE, VERIFY.

Part of the Interpreter (kernal/basic/interpreter.py).
"""

from kernal.basic import cycles, mbf
from kernal.basic.definitions import (BasicError, Finished, Hung, Suspend,
                                      SP_LET, SP_PAREN, SP_PRINT, T_DATA, T_MINUS, T_REM, T_SPC, T_TAB, is_digit,
                                      kernal_error, literal)
from kernal.basic.mbf import MathError
from kernal.basic.program_text import WALK_LIMIT
from kernal.channels import WAIT
from kernal.disk_time import transfer_cycles
from kernal.errors import KernalError
from kernal.locations import CHANNL, DATLIN, DATPTR, FA, FNADR, FNLEN, FRETOP, LA, OLDTXT, PNTR, SA, STATUS


EXTRA_IGNORED = b"?EXTRA IGNORED\r"
REDO_FROM_START = b"?REDO FROM START\r"


class IoStatements:
    """Printing, reading input and DATA, files, and the program LIST/LOAD/SAVE."""

    def st_print(self):
        """PRINT ($AAA0) as the ROM runs it, each path's cycles counted (kernal.basic.cycles):
        the loop comes back at PRINT after an item (the end prints a RETURN: CRDO) and at
        PRINTC after a separator (the end ends it)."""
        ram = self.ram
        at_print = True
        after_item = False      # an item's own routine (PTRGET, CHKCLS, FIN) read the end, or none did
        self.sp += SP_LET - SP_PRINT
        while True:
            c = self.peek()
            if c == 0 or c == 0x3A:
                if not after_item:          # GONE3's or NOTABR's CHRGET read it
                    self.cost += cycles.CHRGET_HIGH if c else cycles.CHRGET_LOW
                if at_print:
                    self.cost += cycles.PRINT_CRDO
                    self.crdo()
                else:
                    self.cost += cycles.PRINT_DONE
                return
            if at_print:
                self.cost += cycles.PRINT_START
            at_print = False
            after_item = False
            if c == 0x3B:
                self.pos += 1
                self.cost += cycles.PRINT_SEMICOLON + cycles.PRINT_JMP
                continue
            if c == 0x2C:
                self.pos += 1
                column = ram[PNTR] % 40 if self.ram[CHANNL] == 0 else ram[PNTR]
                self.cost += (cycles.PRINT_COMMA + cycles.PRINT_COMMA_HEAD
                              + cycles.PRINT_COMMA_TENS * (ram[PNTR] // 10 + 1) - 1 + cycles.PRINT_JMP)
                self.print_spaces(10 - column % 10)
                continue
            if c in (T_TAB, T_SPC):
                self.pos += 1
                self.sp -= SP_PAREN
                n = self.byte_value(self.expr())
                self.sp += SP_PAREN
                self.expect(0x29, lands=False)          # TABER checks it; NOTABR's CHRGET passes it
                self.cost += ((cycles.PRINT_TAB if c == T_TAB else cycles.PRINT_SPC) + cycles.PRINT_TABER
                              + cycles.PRINT_JMP)
                if c == T_TAB:
                    n -= ram[PNTR]
                    self.cost += cycles.PRINT_TAB_TO[n < 0]
                    if n < 0:
                        continue
                else:
                    self.cost += cycles.PRINT_SPC_TO
                self.print_spaces(n)
                continue
            v = self.expr()
            at_print = after_item = True
            self.cost += cycles.PRINT_ITEM
            if isinstance(v, bytes):
                self.cost += cycles.PRINT_STRING + self.fretmp_cycles(v)
                self.free_temp(v)
                self.strprt(v)
            else:
                text = mbf.fout(v).encode("latin-1")
                # STRLIT's scan of FOUT's digits into a string at FRETOP, printed and given
                # back, then a cursor right
                self.cost += (cycles.PRINT_NUMBER + cycles.STRING_FOUT + cycles.STRING_LITERAL_BYTE * len(text)
                              + cycles.FRETMP_TEMP[2])
                self.strprt(text)
                self.outspc()
            self.cost += cycles.PRINT_NEXT + self.chrgot_cycles()

    def fretmp_cycles(self, v):
        """FRETMP ($B6A3) on a string: a variable's, or a temporary's (elsewhere, in FRETOP's
        page, at FRETOP)."""
        if not getattr(v, "temp", False):        # (a plain bytes value: no descriptor of its own)
            return cycles.FRETMP
        top, addr = self.w(FRETOP), getattr(v, "addr", None)
        return cycles.FRETMP_TEMP[2 if addr == top else 1 if addr is not None and addr >> 8 == top >> 8 else 0]

    def strprt(self, text):
        """STRPRT ($AB21) past FREFAC: the characters through OUTDO."""
        self.cost += cycles.STRPRT + cycles.STRPRT_CHAR * len(text)
        for ch in text:
            self.out(ch)

    def print_spaces(self, n):
        """XSPAC's loop: n cursor rights (spaces to a file) through OUTSPC."""
        n = max(0, n)
        self.cost += cycles.PRINT_SPACES + cycles.PRINT_SPACE * n
        for _ in range(n):
            self.outspc()

    def chrgot_cycles(self):
        """CHRGOT ($0079) on the byte at the text pointer: CHRGET's path less its JSR, INC
        and BNE."""
        return (cycles.CHRGET_HIGH if self.peek() >= 0x3A else cycles.CHRGET_LOW) - 14

    def file_number(self):
        n = self.byte_value(self.expr())
        return n

    def st_printn(self):
        n = self.file_number()
        c = self.peek()
        if c == 0x2C:
            self.pos += 1
        self.with_output(n, self.st_print)

    def channel(self, n, output=False):
        """File n as the channel for what follows: CHKOUT (PRINT#, CMD) or CHKIN (INPUT#,
        GET#), its failure as BASIC's error (FILE NOT OPEN, NOT OUTPUT FILE ...); returns the
        KERNAL's channels."""
        channels = self.machine.kernal.channels
        try:
            (channels.chkout if output else channels.chkin)(n)
        except KernalError as error:
            raise kernal_error(error, "FILE NOT OPEN") from None
        return channels

    def with_output(self, n, body):
        channels = self.channel(n, output=True)
        self.ram[CHANNL] = n
        try:
            body()
        finally:
            channels.clrchn()
            self.ram[CHANNL] = 0

    def st_cmd(self):
        n = self.file_number()
        self.channel(n, output=True)
        self.ram[CHANNL] = n
        if self.peek() == 0x2C:
            self.pos += 1
        self.st_print()

    # -- READ / DATA -------------------------------------------------------------------------------------
    def next_data_item(self):
        """The next DATA item (a string value) and its line; DATPTR moves past it.

        DATPTR at a comma means "inside a DATA statement"; anywhere else the next DATA
        token is searched from there (the ROM's DATAN), line by line."""
        ram = self.ram
        p = start_search = self.w(DATPTR)
        line = self.w(DATLIN)
        lines = 0
        if ram[p] == 0x2C:
            p = (p + 1) & 0xFFFF
        else:
            p, line, lines = self.find_data(p, line)
        for _ in range(WALK_LIMIT):         # (spaces skipped, past $FFFF too)
            if ram[p] != 0x20:
                break
            p = (p + 1) & 0xFFFF
        else:
            raise Hung()
        if ram[p] == 0x22:
            start = (p + 1) & 0xFFFF
            length, q = self.string_length(start, 0x22, 0x22)
            item = literal(bytes(self.read(start, length)), start)
            p = (q + 1) & 0xFFFF if ram[q] == 0x22 else q
            while ram[p] == 0x20:
                p = (p + 1) & 0xFFFF
        else:
            # STRLT2 ($B48D) up to the comma or colon: the spaces before it are the item's
            length, q = self.string_length(p, 0x2C, 0x3A)
            item = literal(bytes(self.read(p, length)), p)
            p = q
        self.cost += cycles.READ_ITEM
        self.data_search_cost(start_search, p, lines)
        self.set_w(DATPTR, p)
        self.set_w(DATLIN, line)
        return item, line

    def data_search_cost(self, start, end, lines):
        """DATLOP: DATAN per statement passed (per byte), a line's link and number, CHRGOT's
        test -- over the text from start to end (wrapping at $FFFF)."""
        passed = self.read(start, (end - start) & 0xFFFF)
        self.cost += (cycles.DATA_BYTE * (len(passed) - passed.count(0x20))
                      + cycles.DATA_STATEMENT * (passed.count(0x3A) + lines) + cycles.DATA_LINE * lines)

    def find_data(self, p, line):
        """DATAN: on from p, statement by statement and line by line, to the next DATA:
        (the address after its token, its line, the lines passed).  Wraps past $FFFF; a walk
        round all of memory hangs (Hung), as the ROM's would."""
        ram = self.ram
        start = p
        quoted = rem = False
        lines = 0
        for _ in range(4 * WALK_LIMIT):
            c = ram[p]
            if c == 0:
                if not ram[(p + 2) & 0xFFFF]:
                    self.data_search_cost(start, p, lines)
                    raise BasicError("OUT OF DATA")
                line = ram[(p + 3) & 0xFFFF] | (ram[(p + 4) & 0xFFFF] << 8)
                p = (p + 5) & 0xFFFF
                lines += 1
                quoted = rem = False
                continue
            if c == 0x22 and not rem:
                quoted = not quoted
            elif c == T_DATA and not (quoted or rem):
                return (p + 1) & 0xFFFF, line, lines
            elif c == T_REM and not quoted:
                rem = True
            p = (p + 1) & 0xFFFF
        self.cost += cycles.DATA_BYTE * 4 * WALK_LIMIT
        raise Hung()

    def st_read(self):
        while True:
            t = self.target()
            item, line = self.next_data_item()
            if t[0] == "s" or t[0] == "ti$":
                self.assign(t, item)
            else:
                value, end = self.number_from(item)
                if value is None:
                    self.line = line                # the error is in the DATA's line: CURLIN too
                    self.direct = False
                    self.set_curlin()
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
                v = self.atom()
                self.cost += (cycles.INPUT_HEAD[0] + cycles.INPUT_STRTXT - cycles.EVAL_LITERAL + cycles.INPUT_SYNCHR
                              + cycles.INPUT_STRPRT + self.fretmp_cycles(v))
                prompt = bytes(self.free_temp(v))
                self.expect(0x3B)
                self.strprt(prompt)
            else:
                self.cost += cycles.INPUT_HEAD[1]
            self.cost += cycles.INPUT_NOTQTI
            state = self.pending = {"vars": self.pos, "index": 0, "line": bytearray(), "prompt": prompt,
                                    "unread": self.unread}
            self.qmark()
        else:
            # back after waiting for a key: the C64 waited inside CHRIN, NEWSTT did not run again,
            # and the prompt's bytes were STRLIT's, not CHRGET's
            self.cost -= cycles.STATEMENT
            self.unread = state["unread"]
        while True:                                 # a line per turn: REDO FROM START and ?? ask again
            self.read_input_line(state)
            if self.fill_input(state):
                return

    def qmark(self):
        """INPUT's prompt: "?" and a cursor right; none while CMD's file is the output (QINLIN, $ABF9)."""
        if not self.ram[CHANNL]:
            self.cost += cycles.QINLIN
            self.out(0x3F)
            self.outspc()

    def read_input_line(self, state):
        """INLIN ($A560): CHRIN up to the RETURN; the screen editor's time (CHRIN from the
        keyboard) is the statement's, charged as it is read."""
        channels = self.machine.kernal.channels
        editor = self.machine.kernal.editor
        while True:
            byte = channels.chrin()
            self.cost += editor.spent + cycles.INCHR
            editor.spent = 0
            if byte is WAIT:
                self.cost -= cycles.INCHR           # (charged when the key is there)
                self.pos = self.stmt_pos
                raise Suspend(WAIT)
            if byte == 0x0D:
                break
            self.cost += cycles.INLIN_CHAR
            if len(state["line"]) < 88:
                state["line"].append(byte)
        self.cost += cycles.INLIN_RETURN + cycles.INLIN_END[self.ram[CHANNL] != 0]
        if not self.ram[CHANNL]:
            self.out(0x0D)                       # $AACA: the line ends with a RETURN, not into CMD's file

    def fill_input(self, state):
        """Give the typed fields to the variables (from state['index'] on); False when
        another line is to be read (the prompt for it printed)."""
        text = bytes(state["line"]) + b"\0"
        state["line"] = bytearray()
        self.pos = state["vars"]
        cost = self.cost
        for _ in range(state["index"]):            # variables already filled (the ROM does not go back)
            self.target()
            self.take()
        self.cost = cost
        p = 0
        if text[0] == 0 and state["index"] == 0:
            self.pending = None                     # RETURN alone: the variables keep their values
            self.skip_statement()
            return True
        if not state["index"]:
            self.cost += cycles.INPUT_GETAGN        # (after ?? QINLIN returns into DATBK instead)
        while True:
            t = self.target()
            self.cost += cycles.INPUT_ITEM + (cycles.INPUT_FIRST_FIELD if p == 0 else 0)
            field, p, ok = self.input_field(text, p, t[0])
            if not ok:
                # DOAGIN: the message, then NEWSTT runs the statement again from OLDTXT (the
                # line's start or the colon before it): its prompt, a new line
                self.cost += cycles.INPUT_REDO
                self.strout(REDO_FROM_START)
                self.pending = None
                self.text_to(self.w(OLDTXT))
                self.jumped = True
                return True
            self.assign(t, field)
            state["index"] += 1
            self.cost += cycles.INPUT_FIELD_END[text[p] != 0] + cycles.INPUT_TRMOK + self.chrgot_cycles()
            more = self.peek() == 0x2C
            if more:
                self.cost += cycles.INPUT_NEXT_VAR
                self.pos += 1
            if not more:
                self.cost += cycles.INPUT_VAREND
                if text[p] != 0:
                    self.cost += cycles.INPUT_EXTRA
                    self.strout(EXTRA_IGNORED)
                self.pending = None
                return True
            if text[p] == 0x2C:
                p += 1
                continue
            self.cost += cycles.INPUT_MORE
            self.out(0x3F)                          # more variables than fields typed: ??
            self.qmark()
            self.pos = self.stmt_pos
            return False

    def strout(self, message):
        """STROUT on one of BASIC's messages (a RETURN at its end)."""
        self.cost += (cycles.STROUT + cycles.STRING_LITERAL + cycles.STRING_LITERAL_BYTE * len(message)
                      + cycles.STRPRT + cycles.FRETMP_TEMP[0])
        self.out_text(message)

    def input_field(self, text, p, kind):
        """One field of an INPUT line: (value, index after it, valid)."""
        start = p
        while text[p] == 0x20:
            p += 1
        # DATBK1's CHRGET onto the field: its path by the byte, a turn per space skipped
        self.cost += ((cycles.CHRGET_HIGH if text[p] >= 0x3A else cycles.CHRGET_LOW)
                      + cycles.SPACE * (p - start))
        if kind in ("s", "ti$"):
            self.cost += cycles.INPUT_STRING + cycles.INPUT_NOWGET
            if text[p] == 0x22:
                q = p + 1
                while text[q] and text[q] != 0x22:
                    q += 1
                value = bytes(text[p + 1:q])
                self.cost += cycles.INPUT_QUOTED + self.input_string_cycles(len(value))
                if text[q] == 0x22:
                    q += 1
                return value, q, text[q] in (0, 0x2C)
            q = p                           # STRLT2, as READ's DATA: the spaces are kept
            while text[q] and text[q] not in (0x2C, 0x3A):
                q += 1
            self.cost += cycles.INPUT_UNQUOTED + self.input_string_cycles(q - p)
            return bytes(text[p:q]), q, True
        self.cost += cycles.INPUT_NUMBER
        q = p
        while text[q] and text[q] != 0x2C:
            q += 1
        value, _ = self.number_from(text[p:q])
        if value is None:
            return None, q, False
        return value, q, True

    @staticmethod
    def input_string_cycles(length):
        """STRLT2 on a field of the input buffer (its bytes scanned, the string copied into
        string space: STRINI, MOVSTR), ST2TXT and INPCOM, beyond the store's own charge."""
        return cycles.INPUT_STRLT2 + cycles.INPUT_STRLT2_BYTE * length

    def st_get(self):
        if self.direct:
            raise BasicError("ILLEGAL DIRECT")           # GET and GET# alike
        if self.peek() == 0x23:
            self.pos += 1
            n = self.file_number()
            self.expect(0x2C)
            channels = self.channel(n)
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
                # FIN takes a digit, a sign, a point, E or a space; CHRGOT then ends the
                # field at ':' or ',' as at the end; anything else is a SYNTAX error ($AB4D)
                if byte and not (is_digit(byte) or byte in (0x2B, 0x2D, 0x2E, 0x45, 0x20, 0x3A, 0x2C)):
                    raise BasicError("SYNTAX")
                self.assign(t, mbf.from_int(byte - 0x30) if is_digit(byte) else mbf.ZERO)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_inputn(self):
        """INPUT#: a line from the file, up to its RETURN ($ABA5 -> INLIN), gives its fields to
        the variables; when they run out another line is read, and what is left of the last
        line is dropped (so INPUT#2,A then INPUT#2,B read two lines).  ILLEGAL DIRECT at
        READY., after the file is checked ($ABCE)."""
        n = self.file_number()
        self.expect(0x2C)
        channels = self.channel(n)
        self.ram[CHANNL] = n
        try:
            if self.direct:
                raise BasicError("ILLEGAL DIRECT")
            text = self.file_line(channels)
            while text[0] == 0:                     # an empty line first: the next one ($ABEF)
                if self.ram[STATUS]:                # (the end of the file: no more lines)
                    self.skip_statement()
                    return
                text = self.file_line(channels)
            p = 0
            while True:
                t = self.target()
                field, p, ok = self.input_field(text, p, t[0])
                if not ok or text[p] not in (0, 0x2C):
                    raise BasicError("FILE DATA")
                self.assign(t, field)
                if self.peek() != 0x2C:
                    return                          # the rest of the line is dropped
                self.pos += 1
                if text[p] == 0x2C:
                    p += 1
                else:                               # the line's fields ran out: the next line
                    text, p = self.file_line(channels), 0
        finally:
            channels.clrchn()
            self.ram[CHANNL] = 0

    def file_line(self, channels):
        """INLIN from a file: the bytes up to RETURN (CHRIN gives RETURN at the end of the
        file), NUL-ended; more than 88 is STRING TOO LONG ($A560)."""
        line = bytearray()
        while True:
            byte = channels.chrin()
            if byte is WAIT or byte == 0x0D:
                return bytes(line) + b"\0"
            line.append(byte)
            if len(line) > 88:
                raise BasicError("STRING TOO LONG")

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
                    name = bytes(self.string(self.free_temp(self.expr())))
        if device == 1:
            raise BasicError("DEVICE NOT PRESENT")     # no datasette here
        ram = self.ram
        ram[LA], ram[FA], ram[SA] = logical, device, secondary
        self.set_name(name)
        try:
            self.machine.kernal.channels.open()
        except KernalError as error:
            raise kernal_error(error, "DEVICE NOT PRESENT") from None

    def st_close(self):
        n = self.file_number()
        self.machine.kernal.channels.close(n)

    # -- LIST, LOAD, SAVE, VERIFY: the direct-mode code ---------------------------------------------------
    def st_list(self):
        """LIST: a line per visit of the trap, so RUN/STOP can break it (BREAK) as on a C64."""
        state = self.listing
        if state is None:
            # LIST ($A69C): LINGET's first number (0 when none), then -LINGET; the end is
            # the first number alone, or 0 (no end) after a minus: LIST 0 is all, LIST 30-5
            # nothing; anything more is a SYNTAX error
            low = high = self.line_number_arg() or 0
            if self.peek() == T_MINUS:
                self.pos += 1
                high = self.line_number_arg() or 0
            if not self.at_end():
                raise BasicError("SYNTAX")
            state = self.listing = self.basic.list_range(low, high or 0xFFFF)
            state.reverse()
        if state:
            line = state.pop()
            if line is None:                 # past the range: its RETURN is printed
                self.basic.print_text("\r")
                raise Finished()
            number, body, addr = line
            spent = self.basic.list_line(number, body, addr)
            self.cost += cycles.LIST_LINE + spent + cycles.LIST_CHAR * (len(body) + 6)
            self.pos = self.stmt_pos
            raise Suspend(True)
        self.listing = None
        raise Finished()

    def _file_statement(self, verify=False, save=False):
        name, device, secondary = self.file_arguments()
        channels = self.machine.kernal.channels
        channels.bytes_moved = 0
        if save:
            try:
                self.basic.save_program(name, device)
            finally:
                self.cost += self.disk_time(channels.bytes_moved)
            if self.direct:
                raise Finished()
            return
        chain = not (verify or self.direct)
        self.basic.load_program(name, device, secondary, verify, chain=chain)
        self.cost += self.disk_time(channels.bytes_moved)
        if not chain:
            if not verify:
                self.clr()                               # $A52A
                self.cont_ok = False
            raise Finished()
        # LOAD in a program: it runs from its (new) start with its variables and open files;
        # DATA and the FOR/GOSUB stack start again ($E1B5 -> $A677)
        self.restore_data()
        self.pop_to(0)
        self.start_at(None)

    def disk_time(self, byte_count):
        """The C64 time of a LOAD, VERIFY or SAVE of `byte_count` bytes on a 1541 (kernal.disk_time)."""
        return transfer_cycles(byte_count, self.machine.pal) if byte_count else 0

    def file_arguments(self):
        """LOAD/SAVE/VERIFY arguments: ["name"[,device[,secondary]]], any expressions."""
        if self.at_end():
            return b"", 1, 0
        name = bytes(self.string(self.free_temp(self.expr())))
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
