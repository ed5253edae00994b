"""The screen editor's editing keys: DEL, INST and the cursor moves (KERNAL 901227-03: PRT's
BAK1UP/BK15/BK2, UP5's INS1/INS2, NC2, NCX2/CURS10, UP2/UPALIN, NXT6, BKLN), with the C64 cycles
each path takes (kernal.editor_cycles).

A mixin of kernal.editor.ScreenEditor (which see for the editor's state, all in C64 memory): it
uses the editor's _set_user, _next_line, _open_row_after, _down_if_row_end, _up_if_row_start
and update_line_pointers.
"""

from kernal.locations import COLOR, INSRT, LNMX, PNT, PNTR, TBLX, USER

COLUMNS = 40
LONGEST_LINE_END = 79          # a logical line has at most two rows


class EditingKeys:
    """DEL, INST and the cursor moves, on the editor's memory `self.mem`."""

    def _back_to_previous_line(self):
        """At column 0: to the last column of the line above (ROM bkln). False at row 0."""
        m = self.mem
        row = m[TBLX]
        if row == 0:
            # JSR BKLN: LDX TBLX / BNE / STX PNTR / PLA / PLA / BNE LOOP2 (a page away)
            self.spent += 6 + 20
            m[PNTR] = 0
            return False
        self.spent += 6 + 3 + 3 + 2 + 3 + 6 + 3 + 3 + 6   # ... BKLN1: DEX / STX / JSR STUPT / LDY / STY / RTS
        m[TBLX] = row - 1
        self.update_line_pointers()
        m[PNTR] = m[LNMX]
        return True

    def _delete(self):
        """DEL: close up the logical line at the cursor.

        Returns None when done; the ROM's BPL after storing $0286 falls through into the
        rest of the control-code chain when that colour has bit 7 set, so then the colour
        value is returned for the caller to carry on with.
        """
        m = self.mem
        column = m[PNTR]
        screen = (m[PNT + 1] << 8) | m[PNT]
        if column == 0:
            if not self._back_to_previous_line():
                return None
            self.spent += 3                              # JMP BK2
            column = m[PNTR]
            screen = (m[PNT + 1] << 8) | m[PNT]
        else:
            self.spent += 1 + 6 + 2 + 3 + 6              # BNE BAK1UP: JSR CHKBAK: JSR CHKBAK / DEY / STY PNTR, BK1: JSR SCOLOR
            self._up_if_row_start()
            column -= 1
            m[PNTR] = column
            self._set_user()
            colours = (m[USER + 1] << 8) | m[USER]
            end = m[LNMX]
            # The ROM's loop compares with $D5 only after each move, with an 8-bit index.
            self.spent -= 1
            while True:
                # BK15: INY / LDA (PNT),Y / DEY / STA / INY / LDA (USER),Y / DEY / STA / INY / CPY / BNE
                self.spent += 38 + 2 * ((screen & 0xFF) + column + 1 > 0xFF)
                following = (column + 1) & 0xFF
                m[(screen + column) & 0xFFFF] = m[(screen + following) & 0xFFFF]
                m[(colours + column) & 0xFFFF] = m[(colours + following) & 0xFFFF] & 0x0F
                column = following
                if column == end:
                    break
        colours = (m[USER + 1] << 8) | m[USER]
        # BK2: LDA #' ' / STA (PNT),Y / LDA COLOR / STA (USER),Y / BPL, JPL3: JMP LOOP2
        self.spent += 2 + 6 + 4 + 6 + 3 + 3
        m[(screen + column) & 0xFFFF] = 0x20
        colour = m[COLOR]
        m[(colours + column) & 0xFFFF] = colour & 0x0F
        return colour if colour & 0x80 else None

    def _insert(self):
        """INST: open a space at the cursor, growing the line by a row if its end is in use."""
        m = self.mem
        end = m[LNMX]
        screen = (m[PNT + 1] << 8) | m[PNT]
        # LDY LNMX / LDA (PNT),Y / CMP #' ' / BNE INS3, or CPY PNTR / BNE INS1
        self.spent += 3 + 5 + ((screen & 0xFF) + end > 0xFF) + 2
        if m[(screen + end) & 0xFFFF] != 0x20 or end == m[PNTR]:
            self.spent += 3 if m[(screen + end) & 0xFFFF] != 0x20 else 2 + 3 + 2
            if end == LONGEST_LINE_END:
                self.spent += 2 + 3 + 3           # INS3: CPY #79 / BEQ INSEXT: JMP LOOP2
                return                  # an 80-character line cannot grow
            self.spent += 2 + 2 + 6 + 3           # ... JSR NEWLIN: LDX TBLX
            self._open_row_after(m[TBLX])
            screen = (m[PNT + 1] << 8) | m[PNT]
        else:
            self.spent += 2 + 3 + 4                   # (BNE INS1 a page away)
        end = m[LNMX]
        # INS1: LDY LNMX / JSR SCOLOR; 38 cycles a column moved (DEY / LDA / INY / STA twice,
        # DEY / CPY PNTR / BNE); LDA #' ' / STA / LDA COLOR / STA / INC INSRT, JMP LOOP2
        self.spent += 3 + 6 + 23 + 3 - 1
        self._set_user()
        colours = (m[USER + 1] << 8) | m[USER]
        column = end
        cursor = m[PNTR]
        while column != cursor:
            self.spent += 38 + 2 * ((screen & 0xFF) + column - 1 > 0xFF)
            previous = (column - 1) & 0xFF
            m[(screen + column) & 0xFFFF] = m[(screen + previous) & 0xFFFF]
            m[(colours + column) & 0xFFFF] = m[(colours + previous) & 0xFFFF] & 0x0F
            column = previous
        m[(screen + column) & 0xFFFF] = 0x20
        m[(colours + column) & 0xFFFF] = m[COLOR] & 0x0F
        m[INSRT] = (m[INSRT] + 1) & 0xFF

    def _cursor_right(self):
        m = self.mem
        column = m[PNTR]
        self._down_if_row_end()
        m[PNTR] = (column + 1) & 0xFF
        # STY PNTR / DEY / CPY LNMX, then BCC NCZ2 / JMP LOOP2, or DEC TBLX / JSR NXLN / LDY #0 / STY
        if column < m[LNMX]:
            self.spent += 8 + 6
            return
        self.spent += 8 + 21
        m[TBLX] = (m[TBLX] - 1) & 0xFF
        self._next_line()
        m[PNTR] = 0

    def _cursor_down(self):
        m = self.mem
        below = (m[PNTR] + COLUMNS) & 0xFF
        m[TBLX] = (m[TBLX] + 1) & 0xFF
        if below <= m[LNMX]:
            # BCC JPL4 (or BEQ JPL4): STY PNTR / JMP LOOP2
            self.spent += 9 if below < m[LNMX] else 11
            m[PNTR] = below              # into the second row of this logical line
            return
        # BCC / BEQ / DEC TBLX; CURS10: SBC #40 / BCC / STA PNTR / BNE per pass; JSR NXLN / JMP LOOP2
        self.spent += 9 + 6 + 3
        m[TBLX] = (m[TBLX] - 1) & 0xFF
        # Keep the column within the row, then go to the next logical line.
        while True:
            below -= COLUMNS
            if below < 0:
                self.spent += 5
                break
            m[PNTR] = below
            if below == 0:
                self.spent += 9
                break
            self.spent += 10
        self._next_line()

    def _cursor_up(self):
        m = self.mem
        row = m[TBLX]
        if row == 0:
            self.spent += 3 + 3                 # BEQ JPL2: JMP LOOP2
            return
        # BEQ / DEC TBLX / LDA PNTR / SEC / SBC #40, then BCC UPALIN, or STA PNTR / BPL JPL2;
        # UPALIN: JSR STUPT / BNE JPL2; JMP LOOP2
        self.spent += 14
        m[TBLX] = row - 1
        column = m[PNTR] - COLUMNS
        if column >= 0:
            m[PNTR] = column             # from the second row to the first of the same line
            if column < 0x80:
                self.spent += 2 + 3 + 3 + 3
                return
            self.spent += 2 + 3 + 2
        else:
            self.spent += 3
        self.spent += 6 + 3 + 3
        self.update_line_pointers()

    def _cursor_left(self):
        m = self.mem
        column = m[PNTR]
        if column == 0:
            self.spent += 1                     # BEQ BAKBAK: JSR BKLN / JMP LOOP2
            if self._back_to_previous_line():
                self.spent += 3
            return
        self.spent += 6 + 2 + 3 + 3             # JSR CHKBAK / DEY / STY PNTR / JMP LOOP2
        self._up_if_row_start()
        m[PNTR] = column - 1
