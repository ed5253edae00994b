"""The screen editor's line input and cursor blink: CHRIN from the keyboard and the screen, the
IRQ's blink (KERNAL 901227-03: LOOP4/LOOP3/LP2, LOOP5/LOP5, CLP2; the blink in KEY, $EA31).

A mixin of kernal.editor.ScreenEditor (which see for the editor's state, all in C64 memory):
it uses the editor's chrout, _put, _set_user and _point_at_line_start.
"""

from kernal.locations import (AUTODN, BLNCT, BLNON, BLNSW, COLOR, CRSW, DATA, DFLTN, DFLTO, GDBLN,
                              GDCOL, INDX, KEYD, LNMX, LSTP, LSXP, NDX, PNT, PNTR, QTSW, TBLX, USER)

SHIFT_RUN_TEXT = b"LOAD\rRUN\r"

# The ROM's cycles (KERNAL 901227-03, counted from its listing and checked on the genuine ROM):
# CHRIN from the keyboard with no line read yet: LOOP5's TYA / PHA / TXA / PHA / LDA CRSW / BEQ
# LOOP3 (a page back).  A key found: LOOP3's LDA NDX / STA BLNSW / STA AUTODN / BEQ, SEI, LDA
# BLNON / BEQ LP21, JSR LP2: LDY KEYD / LDX #0, LP1 moving the buffer down a key at a time (17
# a key waiting, the last 16), DEC NDX / TYA / CLI / CLC / RTS.  LOOP5's head when LOP5 reads
# a character (kernal.editor_input._read_line_char counts it, RETURN's way in does not pass it).
LOOP5_TO_LOOP3 = 17
LOOP5_HEAD = 15
KEY_FOUND = 12 + 2 + 3 + 3 + 6 + 4 + 2 - 1 + 5 + 2 + 2 + 2 + 6
LP2_PER_KEY = 17
CURSOR_OFF = -1 + 3 + 4 + 2 + 3 + 6
# SHIFT-RUN/STOP: CMP #$83 / BNE not taken, LDX #9 / SEI / STX NDX, LP23's nine LDA / STA / DEX /
# BNE, BEQ LOOP3.
RUN_KEY = 2 + 2 + 2 + 2 + 3 + 9 * 14 - 1 + 3


class LineInput:
    """CHRIN's line input and the cursor blink, on the editor's memory `self.mem`."""

    # -- cursor blink (IRQ) ------------------------------------------------------------
    def blink(self):
        """Jiffy IRQ part: while $CC = 0, every 20th call flip the reverse bit under the cursor."""
        m = self.mem
        if m[BLNSW]:
            return
        count = (m[BLNCT] - 1) & 0xFF
        m[BLNCT] = count
        if count:
            return
        m[BLNCT] = 20
        column = m[PNTR]
        phase = m[BLNON]
        m[BLNON] = phase >> 1
        colour = m[GDCOL]
        screen_code = m[(((m[PNT + 1] << 8) | m[PNT]) + column) & 0xFFFF]
        if not phase & 1:
            # Turning the cursor on: remember the character and its colour.
            m[BLNON] = (m[BLNON] + 1) & 0xFF
            m[GDBLN] = screen_code
            self._set_user()
            m[GDCOL] = m[(((m[USER + 1] << 8) | m[USER]) + column) & 0xFFFF]
            colour = m[COLOR]
        m[(((m[PNT + 1] << 8) | m[PNT]) + column) & 0xFFFF] = screen_code ^ 0x80
        m[(((m[USER + 1] << 8) | m[USER]) + column) & 0xFFFF] = colour & 0x0F

    # -- CHRIN -------------------------------------------------------------------------
    def cancel_input(self):
        """Forget a CHRIN that was waiting for keys (the CPU left the ROM's wait loop).

        Only needed when a machine abandons a waiting CHRIN without running CINT, e.g. to
        start another program; the next chrin_keyboard call then starts a new line.
        """
        self._typing = False

    def stuff_keyboard_buffer(self, text):
        """Replace the keyboard buffer ($0277, count $C6) with `text`, as SHIFT-RUN/STOP does."""
        m = self.mem
        for offset, code in enumerate(text):
            m[KEYD + offset] = code
        m[NDX] = len(text)

    def chrin_keyboard(self, take_key):
        """CHRIN from the keyboard (device 0): line input with the full-screen editor.

        take_key() gives the next PETSCII key or None.  Returns the next byte of the entered
        line, $0D after its end, or None when a key is needed and none is there (call again
        later: the progress is in memory, the cursor blinks meanwhile).
        """
        m = self.mem
        if not self._typing:
            m[LSTP] = m[PNTR]
            m[LSXP] = m[TBLX]
            if m[CRSW]:
                return self._read_line_char()
            self.spent += LOOP5_TO_LOOP3
            self._typing = True
        while True:
            waiting = m[NDX]
            key = take_key()
            if key is None:
                # LOOP3 spins until the interrupt puts a key in the buffer: the machine lets that
                # time pass (interrupts included), as much as on a C64.
                m[BLNSW] = 0
                m[AUTODN] = 0
                return None
            waiting = waiting or 1
            m[BLNSW] = waiting
            m[AUTODN] = waiting
            self.spent += KEY_FOUND + LP2_PER_KEY * min(waiting, 10)
            if m[BLNON]:
                # Take the cursor off before anything is echoed (BEQ not taken, LDA GDBLN / LDX
                # GDCOL / LDY #0 / STY BLNON / JSR DSPP; _put charges DSPP's body).
                self.spent += CURSOR_OFF
                m[BLNON] = 0
                self._put(m[GDBLN], m[GDCOL])
            key &= 0xFF
            if key == 0x83:
                self.spent += RUN_KEY
                if self.stuff_keys is not None:
                    self.stuff_keys(SHIFT_RUN_TEXT)
                continue
            if key != 0x0D:
                self.spent += 5 + 6 + 6 - 17        # CMP #$83 / BNE, CMP #$0D / BNE LOOP4 (a page back): JSR PRT (CHROUT's cycles less NBSOUT's)
                self.chrout(key)
                continue
            self.spent += 5 + 4                     # CMP #$83 / BNE, CMP #$0D / BNE not taken
            self._typing = False
            return self._enter_line()

    def _enter_line(self):
        """RETURN was typed: mark the logical line under the cursor for reading."""
        m = self.mem
        end = m[LNMX]
        m[CRSW] = end
        screen = (m[PNT + 1] << 8) | m[PNT]
        # LDY LNMX / STY CRSW; CLP5 back over the spaces at the line's end: LDA (PNT),Y (a page
        # crossed past the row's page) / CMP #' ' / BNE, DEY / BNE (14 a space, 13 the last at
        # column 1); 10 for the character that ends it.
        spent = 6 + 10
        while m[(screen + end) & 0xFFFF] == 0x20:
            spent += 14 + ((screen & 0xFF) + end > 0xFF)
            end -= 1
            if end == 0:
                spent -= 10 + 1
                break
        else:
            spent += (screen & 0xFF) + end > 0xFF
        m[INDX] = end + 1
        m[AUTODN] = 0
        m[PNTR] = 0
        m[QTSW] = 0
        # CLP6: INY / STY INDX / LDY #0 / STY AUTODN / STY PNTR / STY QTSW / LDA LSXP / BMI LOP5
        spent += 20 + 3
        start_row = m[LSXP]
        if not start_row & 0x80:
            # BMI not taken, LDX TBLX / JSR FINPUT: CPX LSXP / BEQ FINPUX: RTS (or JMP FINDST, and
            # FINDST's JMP SETPNT), CPX LSXP / BNE LOP5
            spent += -1 + 3 + 6 + 3 + 3 + 6 + 3 + 3
            row = m[TBLX]
            if row != start_row:
                spent += -1 + 3 - 6 + 3
                self.spent += spent
                spent = 0
                row = self._point_at_line_start(row)
            if row == start_row:
                # Still on the line where input began: skip what was printed before it.
                # (BNE not taken, LDA LSTP / STA PNTR / CMP INDX / BCC LOP5, or BCS CLP2)
                column = m[LSTP]
                m[PNTR] = column
                spent += -1 + 9 + 3
                if column >= m[INDX]:
                    self.spent += spent - 1 + 3
                    return self._end_of_line()
        self.spent += spent - LOOP5_HEAD               # on into LOP5, not through LOOP5's head
        return self._read_line_char()

    def _read_line_char(self):
        """Next byte of the line being read, screen code -> PETSCII (ROM lop5)."""
        m = self.mem
        column = m[PNTR]
        line = (m[PNT + 1] << 8) | m[PNT]
        screen_code = m[(line + column) & 0xFFFF]
        # LOOP5: TYA / PHA / TXA / PHA / LDA CRSW / BEQ; LOP5: LDY PNTR / LDA (PNT),Y / STA DATA;
        # AND #$3F / ASL DATA / BIT DATA / BPL (ORA #$80); BCC (LDX QTSW / BNE); BVS (ORA #$40);
        # INC PNTR / JSR QTSWC; CPY INDX / BNE
        spent = 15 + 8 + ((line & 0xFF) + column > 0xFF) + 3 + 13 + 11 + 5 + 6 + 3 + 2
        code = screen_code & 0x3F
        if screen_code & 0x40:
            spent += 1
            code |= 0x80
        spent += (7 if not m[QTSW] else 8) if screen_code & 0x80 else 3
        if not (screen_code & 0x80 and m[QTSW]):
            spent += 3
            if not screen_code & 0x20:
                spent += 1
                code |= 0x40
        m[PNTR] = (column + 1) & 0xFF
        if code == 0x22:
            spent += 9
            m[QTSW] ^= 1
        if column == m[INDX]:
            self.spent += spent
            return self._end_of_line()
        # BNE CLP1: STA DATA / PLA / TAX / PLA / TAY / LDA DATA / CMP #$DE / BNE (LDA #$FF), CLC / RTS
        self.spent += spent + 1 + 23 + (code == 0xDE) + 8
        m[DATA] = code
        return 0xFF if code == 0xDE else code

    def _end_of_line(self):
        m = self.mem
        m[CRSW] = 0
        # CLP2: LDA #0 / STA CRSW / LDA #$0D / LDX DFLTN / CPX #3 / BEQ CLP2A (or LDX DFLTO / CPX #3 /
        # BEQ CLP21), CLP2A: JSR PRT; CLP21: LDA #$0D, CLP1, CLP7
        self.spent += 12 + (3 if m[DFLTN] == 3 else 2 + 3 + 2 + (3 if m[DFLTO] == 3 else 2)) + 2 + 23 + 8
        if m[DFLTN] == 3 or m[DFLTO] != 3:
            self.spent += 6 - 17                    # JSR PRT: CHROUT's cycles less NBSOUT's
            self.chrout(0x0D)
        m[DATA] = 0x0D
        return 0x0D

    def chrin_screen(self):
        """CHRIN from the screen (device 3): the logical line from the cursor on, then $0D."""
        m = self.mem
        m[CRSW] = 3
        m[INDX] = m[LNMX]
        return self._read_line_char()
