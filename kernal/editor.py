"""The C64 screen editor: CHROUT to the screen, CHRIN from keyboard and screen, PLOT, CINT, cursor blink.

Behaviour follows the KERNAL 901227-03 screen editor (the KERNAL source's
editor routines, checked against the ROM run in an emulator; docs/c64.md,
"Screen editor").  Every piece of editor state lives where the real KERNAL
keeps it, in zero page and page 2 of `mem`, so programs that PEEK and POKE
those locations, or call PLOT, see and steer exactly what they would on a
C64.  Nothing is cached on the Python side except the one bit of control
flow a trap cannot keep in the CPU: "CHRIN is waiting for the rest of a
line" (`_typing`), the equivalent of the real CPU sitting in the ROM's
key-wait loop.

Screen geometry is the KERNAL's: 25 rows of 40 columns; a logical line is
one or two physical rows (the link table $D9-$F2 marks which rows start a
line); ($D1) points at the first row of the cursor's logical line and $D3 is
the column within it (0-79), so every screen access is ($D1)+$D3 and every
colour access ($F3)+$D3, as in the ROM.  Quirks of the ROM are kept on
purpose (e.g. RETURN and the other moves to a new line halve $C9, an empty
entered line reads back as one space, CHRIN from the screen never returns
the last column); the tests in tests/kernal/test_editor*.py spell them out.
"""

from kernal import editor_cycles as cost
from kernal.editor_cycles import COLTAB, SCOLOR, setpnt
from kernal.editor_fastpath import COLOUR_RAM_PAGE, print_in_line
from kernal.editor_input import LineInput
from kernal.editor_keys import COLUMNS, LONGEST_LINE_END, EditingKeys
from kernal.errors import EndlessLoop

# -- zero page and page 2 (KERNAL declare.s names in comments) -----------------
from kernal.locations import (NDX, RVS, LSXP, BLNSW, BLNCT, BLNON, CRSW, PNT, PNTR, QTSW, LNMX, TBLX, DATA, INSRT,
                             LDTB1, USER, DFLTN, DFLTO, COLOR, HIBASE, XMAX, KOUNT, DELAY, KEYLOG, MODE, AUTODN,
                             LINTMP)
# -- the I/O registers it touches -------------------------------------------------
from kernal.locations import CIA1_PRA, CIA1_PRB, COLOUR_RAM, SCREEN_RAM, VIC_D018

ROWS = 25

# Low bytes of the row addresses (the ROM's ldtb2); the high byte comes from
# the link table.  Entry 25 only matters if a program corrupts the table.
ROW_LOW = tuple((row * COLUMNS) & 0xFF for row in range(256))

# The colour a colour control code selects (CHKCOL's search of COLTAB, $E8DA).
COLOUR_OF_CODE = {code: colour for colour, code in enumerate(COLTAB)}

# The VIC register values CINT loads into $D000-$D02E (ROM table $ECB9; the
# 47th byte is read past the table's end, the "L" of the RUN-key text).
VIC_DEFAULTS = bytes([0] * 17 + [0x9B, 0x37, 0, 0, 0, 0x08, 0, 0x14, 0x0F, 0, 0, 0, 0, 0, 0]
                     + [14, 6, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 0x4C])

KEYLOG_DEFAULT = 0xEB48        # the ROM's shift-logic routine


def _printable_screen_code(code):
    """Screen code the editor prints for a printable PETSCII byte (ref 2.3), before RVS."""
    if code < 0x60:
        return code & 0x3F
    if code < 0x80:
        return code & 0xDF
    code &= 0x7F
    if code == 0x7F:
        code = 0x5E                # PETSCII $FF prints as pi
    return code | 0x40


# PETSCII -> screen code for every printable byte; None for control codes.
# Kept private (derived from the ROM's AND/ORA rules) so that the editor's
# exact conversion, including $FF -> $5E, does not depend on another module.
SCREEN_CODE = tuple(
    None if (code & 0x7F) < 0x20 else _printable_screen_code(code) for code in range(256))


class ScreenEditor(EditingKeys, LineInput):
    """The KERNAL screen editor working on CPU-visible memory `mem` (indexable 0..65535)."""

    def __init__(self, mem):
        self.mem = mem
        # The zero page, page 2 and the usual screen are plain RAM whatever the banking, so
        # the hot path of chrout reads and writes them in the RAM array itself when there is one.
        self.ram = getattr(mem, "ram", mem)
        # A C64Memory's per-page "writes reach the chips" table and translated-code map, for
        # the colour RAM and screen stores of the one-step path (a plain array has no chips
        # and no translated code).
        self.page_writes_io = getattr(mem, "page_writes_io", [False] * 256)
        self.code_map = getattr(mem, "code_map", [0] * 0x10000)
        self.screen_codes = SCREEN_CODE
        self.copy_rows_as_slices = True     # rows in plain RAM are copied as slices (False: byte by byte)
        self._typing = False        # CHRIN is in its key-wait loop (the CPU would be in the ROM)
        # Called with the bytes SHIFT-RUN/STOP puts in the keyboard buffer; None = ignore the key.
        # Set it to self.stuff_keyboard_buffer for the ROM's behaviour when take_key reads $0277.
        self.stuff_keys = None
        # Called with the cycles the ROM's scroll spends (its passes, and the delay loop of the
        # CTRL-slowed scroll) and what to do after them, for the machine to let that much time
        # pass, interrupts included (c64.machine.C64.stall); None: the time is not charged (an
        # editor on a bare array).
        self.delay = None
        # The C64 cycles the ROM's editor spends on what the calls since it was last zeroed
        # did (kernal.editor_cycles), for the KERNAL's traps to charge.
        self.spent = 0

    # -- geometry helpers -------------------------------------------------------
    def screen_base(self):
        """Address of the screen the editor prints to: HIBASE ($0288) * 256."""
        return self.mem[HIBASE] << 8

    def cursor_visible(self):
        """True while the cursor blinks ($CC = 0)."""
        return self.mem[BLNSW] == 0

    # The link table is read as the ROM's LDA ldtb1,X does: zero-page indexed, wrapping in page 0.
    def _set_pnt(self, row):
        """Point ($D1) at `row` (ROM setpnt)."""
        m = self.mem
        self.spent += setpnt(row & 0xFF)
        m[PNT] = ROW_LOW[row & 0xFF]
        m[PNT + 1] = (m[(LDTB1 + row) & 0xFF] & 0x03) | m[HIBASE]

    def _set_user(self):
        """Point ($F3) at the colour RAM of ($D1) (ROM scolor, entry $EA24)."""
        m = self.mem
        self.spent += SCOLOR
        m[USER] = m[PNT]
        m[USER + 1] = (m[PNT + 1] & 0x03) | COLOUR_RAM_PAGE

    def set_colour_pointer(self):
        """$EA24: make $F3/$F4 follow $D1/$D2."""
        self._set_user()

    def update_line_pointers(self):
        """$E56C: derive $D1/$D2, $D3, $D5, $F3/$F4 from row $D6 and column $D3 (ROM stupt)."""
        m = self.mem
        row = m[TBLX]
        column = m[PNTR]
        # LDX TBLX / LDA PNTR, LDY / BMI found (7), JSR SETPNT / LDA #39 / INX, LDY / BMI found,
        # STA LNMX / JMP SCOLOR; each row walked up 18 cycles, each walked down 15.
        spent = 6 + 7 + 6 + 4 + 7 + 6
        # Walk up to the row that starts the logical line; each step adds 40 to the column.
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            spent += 18
            column = (column + COLUMNS) & 0xFF
            m[PNTR] = column
            row = (row - 1) & 0xFF
            if row & 0x80:          # the ROM's DEX/BPL falls through (X = $FF from row 0)
                spent -= 8
                break
        self._set_pnt(row)
        # Walk down over continuation rows to find the line end.
        end = COLUMNS - 1
        row = (row + 1) & 0xFF
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            spent += 15
            end = (end + COLUMNS) & 0xFF
            row = (row + 1) & 0xFF
            if row >= 0x80:
                spent -= 8
                break
        self.spent += spent
        m[LNMX] = end
        self._set_user()

    # -- CINT, CLR, HOME, PLOT --------------------------------------------------------
    def cint(self, reset_hibase=True, init_vic=True):
        """Editor part of CINT ($FF81): devices, VIC registers, editor variables, clear screen, home.

        The real CINT leaves HIBASE alone (RAMTAS sets it); `reset_hibase` sets $0288 = $04 as
        a ROM-less machine that never ran RAMTAS needs.
        """
        m = self.mem
        self._typing = False
        m[DFLTO] = 3
        m[DFLTN] = 0
        if init_vic:
            for offset, value in enumerate(VIC_DEFAULTS):
                m[0xD000 + offset] = value
        if reset_hibase:
            m[HIBASE] = SCREEN_RAM >> 8
        m[MODE] = 0
        m[BLNON] = 0
        m[KEYLOG] = KEYLOG_DEFAULT & 0xFF
        m[KEYLOG + 1] = KEYLOG_DEFAULT >> 8
        m[XMAX] = 10
        m[DELAY] = 10
        m[COLOR] = 0x0E
        m[KOUNT] = 4
        m[BLNCT] = 0x0C
        m[BLNSW] = 0x0C
        self.clear()

    def clear(self):
        """CLR ($93, entry $E544): rebuild the link table, blank all rows in colour $0286, home."""
        m = self.mem
        high = m[HIBASE] | 0x80
        low = 0
        # LDA HIBASE / ORA / TAY / LDA #0 / TAX; 18 cycles a row (19 with INY), the end tag and
        # LDX #24 (8); CLEAR1's JSR CLRLN / DEX / BPL for 25 rows; NXTD's LDY #0 / STY / STY.
        self.spent += 12 + 18 * (ROWS + 1) - 1 + 8 + 11 * ROWS - 1 + 8
        for row in range(ROWS + 1):          # rows 0-25: CLR also fills $F2
            m[LDTB1 + row] = high
            low += COLUMNS
            if low > 0xFF:
                self.spent += 1
                low &= 0xFF
                high = (high + 1) & 0xFF
        m[LDTB1 + ROWS + 1] = 0xFF           # end tag, lands on $F3 (rewritten below)
        for row in range(ROWS - 1, -1, -1):
            self._clear_row(row)
        self.spent -= 8                      # (falls into NXTD, home's figure has its 8)
        self.home()

    def home(self):
        """HOME ($13, entry $E566): cursor to row 0, column 0."""
        m = self.mem
        self.spent += 8                      # NXTD: LDY #0 / STY PNTR / STY TBLX
        m[PNTR] = 0
        m[TBLX] = 0
        self.update_line_pointers()

    def set_cursor(self, row, col):
        """PLOT with C=0: X = row -> $D6, Y = column -> $D3, then recompute the line pointers."""
        m = self.mem
        m[TBLX] = row & 0xFF
        m[PNTR] = col & 0xFF
        self.update_line_pointers()

    def get_cursor(self):
        """PLOT with C=1: (row $D6, column $D3); the column counts within the logical line."""
        return self.mem[TBLX], self.mem[PNTR]

    # -- rows ----------------------------------------------------------------------
    def _clear_row(self, row):
        """Blank one row: spaces in colour $0286 (ROM clrln with the 901227-03 cpatch)."""
        m = self.mem
        # LDY #39 / JSR SETPNT / JSR SCOLOR, 40 x (JSR CPATCH: LDA COLOR / STA (USER),Y / RTS,
        # LDA #' ' / STA (PNT),Y / DEY / BPL), RTS
        self.spent += 2 + 6 + 6 + 40 * 35 - 1 + 6
        self._set_pnt(row)
        self._set_user()
        screen = m[PNT] | (m[PNT + 1] << 8)
        colours = m[USER] | (m[USER + 1] << 8)
        colour = m[COLOR] & 0x0F
        for column in range(COLUMNS - 1, -1, -1):
            m[(colours + column) & 0xFFFF] = colour
            m[(screen + column) & 0xFFFF] = 0x20

    def _copy_row(self, from_row, to_row):
        """Copy a row's characters and colours (ROM scrlin); ($D1)/($F3) end up at to_row.
        Its cycles are the callers' to charge (kernal.editor_cycles: SCROLL_COPIES, COPY_DOWN)."""
        m = self.mem
        m[PNT] = ROW_LOW[to_row & 0xFF]                     # SETPNT
        m[PNT + 1] = (m[(LDTB1 + to_row) & 0xFF] & 0x03) | m[HIBASE]
        source_high = (m[(LDTB1 + from_row) & 0xFF] & 0x03) | m[HIBASE]
        source = ROW_LOW[from_row & 0xFF] | (source_high << 8)
        source_colours = ROW_LOW[from_row & 0xFF] | (((source_high & 0x03) | COLOUR_RAM_PAGE) << 8)
        m[USER] = m[PNT]                                    # SCOLOR
        m[USER + 1] = (m[PNT + 1] & 0x03) | COLOUR_RAM_PAGE
        target = m[PNT] | (m[PNT + 1] << 8)
        target_colours = m[USER] | (m[USER + 1] << 8)
        colour_ram = getattr(getattr(m, "io", None), "colour_ram", None)
        if (self.copy_rows_as_slices and colour_ram is not None and max(source, target) + COLUMNS <= 0xD000 and m.visible()[1]
                and source_colours >= COLOUR_RAM and target_colours >= COLOUR_RAM):
            # Plain RAM and colour RAM: copy the 40 bytes of each in one go.
            ram = m.ram
            ram[target:target + COLUMNS] = ram[source:source + COLUMNS]
            if any(self.code_map[target:target + COLUMNS]):
                for addr in range(target, target + COLUMNS):
                    if self.code_map[addr]:
                        m.code_written(addr)     # as C64Memory's store does: translated code changed
            offset, target_offset = source_colours - COLOUR_RAM, target_colours - COLOUR_RAM
            if max(offset, target_offset) + COLUMNS <= len(colour_ram):
                colour_ram[target_offset:target_offset + COLUMNS] = colour_ram[offset:offset + COLUMNS]
                return
        for column in range(COLUMNS - 1, -1, -1):
            m[(target + column) & 0xFFFF] = m[(source + column) & 0xFFFF]
            m[(target_colours + column) & 0xFFFF] = m[(source_colours + column) & 0xFFFF] & 0x0F

    def scroll_up(self):
        """Scroll the screen up by whole logical lines (ROM scrol); returns the new $D6.

        Each pass moves everything up one row, blanks row 24 and shifts the link bits; it
        repeats while the new top row is a continuation.  $D6, $C9 and $02A5 drop by one per
        pass and $D6/$02A5 rise by one at the end, as in the ROM (callers rely on that).
        """
        m = self.mem
        before = self.spent
        # SCROL's four PHA of SAL..EAH, and its end: INC TBLX / INC LINTMP, the CTRL key's test,
        # LDX TBLX, PULIND's four PLA / STA, RTS.
        self.spent += 24 + 39 + 3 + 34
        passes = pass_cycles = 0
        while True:
            passes += 1
            if passes > ROWS:
                # Each pass marks row 24 as a line's start and shifts the marks up, so the top
                # row has one after 25 passes -- unless the rows copied up land on the link table
                # itself (a screen at $0000): then the ROM's loop never ends.  The C64 spins in
                # it for good; so does this one, in the run loop (kernal.dispatch).
                raise EndlessLoop(pass_cycles)
            # SCRO0: LDX #$FF / DEC TBLX / DEC LSXP / DEC LINTMP; per row copied: INX / JSR SETPNT /
            # CPX / BCS / LDA ldtb2+1,X (a page crossed from row 15) / STA SAL / LDA / JSR SCRLIN /
            # BMI (a page back); row 24: INX / JSR SETPNT / CPX / BCS / JSR CLRLN (which sets PNT
            # again, _clear_row's _set_pnt); LDX #0; the links: 25 cycles
            # a row (24 where the next row continues a line), then the last row marked and BPL.
            pass_start = self.spent
            self.spent += cost.SCROLL_PASS
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            m[LSXP] = (m[LSXP] - 1) & 0xFF
            m[LINTMP] = (m[LINTMP] - 1) & 0xFF
            for row in range(ROWS - 1):
                self._copy_row(row + 1, row)
            self._clear_row(ROWS - 1)
            for row in range(ROWS - 1):
                below = m[LDTB1 + row + 1]
                if not below & 0x80:
                    self.spent -= 1
                m[LDTB1 + row] = (m[LDTB1 + row] & 0x7F) | (below & 0x80)
            m[LDTB1 + ROWS - 1] |= 0x80
            if m[LDTB1] & 0x80:
                self.spent += 2
                break
            self.spent += 4                  # BPL SCRO0, a page back
            pass_cycles = self.spent - pass_start
        cycles = self.spent - before
        m[TBLX] = (m[TBLX] + 1) & 0xFF
        m[LINTMP] = (m[LINTMP] + 1) & 0xFF
        # Holding CTRL (row 7 selected, $DC01 = $FB: CTRL alone) slows the scroll by the
        # ROM's delay loop and flushes the keyboard buffer.
        m[CIA1_PRA] = 0x7F
        ctrl = m[CIA1_PRB] == 0xFB
        if ctrl:
            cycles += cost.CTRL_SCROLL_DELAY - 1    # (BNE MLP42 not taken)
        if self.delay is not None:
            # The scroll's time passes with interrupts taken (the machine's stall), not in the trap's
            # charge; the buffer is emptied after the delay loop: keys typed during it go too.
            self.spent = before
            self.delay(cycles, self.empty_keyboard_buffer if ctrl else None)
        elif ctrl:
            m[NDX] = 0
        return m[TBLX]

    def empty_keyboard_buffer(self):
        """STY NDX: no keys waiting (the end of the CTRL-slowed scroll)."""
        self.mem[NDX] = 0

    def _next_line(self):
        """Cursor to the row starting the next logical line, scrolling if needed (ROM nxln).

        The column $D3 is left for the caller; like the ROM this halves $C9 (LSR), which is
        what stops CHRIN skipping a prompt once the cursor has left the prompt's row.
        """
        m = self.mem
        m[LSXP] = m[LSXP] >> 1
        row = m[TBLX]
        # LSR LSXP / LDX TBLX; per row INX / CPX #25 / BNE (JSR SCROL on row 25), LDA LDTB1,X /
        # BPL; STX TBLX / JMP STUPT on a line's first row.
        spent = 8
        for _ in range(256):
            row = (row + 1) & 0xFF
            spent += 7 + 7
            if row == ROWS:
                spent += 5
                self.spent += spent
                spent = 0
                row = self.scroll_up()
            if m[(LDTB1 + row) & 0xFF] & 0x80:
                break
        self.spent += spent + 5
        m[TBLX] = row
        self.update_line_pointers()

    def _join_row(self, row):
        """Make `row` the continuation of the line above it (ROM wlog30, then findst)."""
        m = self.mem
        # ASL / LSR LDTB1,X / INX / LDA / ORA / STA / DEX / LDA LNMX / CLC / ADC / STA, JMP SETPNT
        self.spent += 36 + 3
        m[(LDTB1 + row) & 0xFF] &= 0x7F
        below = (LDTB1 + row + 1) & 0xFF
        m[below] |= 0x80
        m[LNMX] = (m[LNMX] + COLUMNS) & 0xFF
        self._point_at_line_start(row)

    def _point_at_line_start(self, row):
        """($D1) := first row of the logical line containing `row` (ROM findst); returns that row."""
        m = self.mem
        # LDA LDTB1,X / BMI found (7), each row up 11 (LDA / BMI / DEX / BNE), 10 stopping at 0
        while not m[(LDTB1 + row) & 0xFF] & 0x80:
            self.spent += 11
            row = (row - 1) & 0xFF
            if row == 0:
                self.spent -= 1
                break
        else:
            self.spent += 7
        self._set_pnt(row)
        return row

    def _open_row_after(self, row):
        """Insert a blank row after the logical line at `row` and link it on (ROM newlin/bmt1).

        Rows below move down (row 24 is lost); if the line already ends on row 24 the
        screen scrolls up instead.
        """
        m = self.mem
        # BMT1: INX / LDA LDTB1,X / BPL per row (8 on the line's last), BMT2: STX LINTMP / CPX #24 / BEQ
        for _ in range(256):
            row = (row + 1) & 0xFF
            if m[(LDTB1 + row) & 0xFF] & 0x80:
                break
            self.spent += 9
        self.spent += 8 + 4 + 2
        m[LINTMP] = row
        if row >= ROWS:
            # BEQ / BCC / JSR SCROL / LDX LINTMP / DEX / DEC TBLX / JMP WLOG30
            self.spent += 2 + 2 + 6 + 4 + 2 + 5 + 3
            self.scroll_up()
            row = (m[LINTMP] - 1) & 0xFF
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            self._join_row(row)
            return
        # BEQ NEWLX (or BCC NEWLX), NEWLX's four PHA and LDX #25; per row moved down SCD10's
        # DEX / JSR SETPNT / CPX LINTMP / BCC / BEQ / LDA ldtb2-1,X (a page crossed from row 17) /
        # STA / LDA / JSR SCRLIN / BMI; on row LINTMP DEX / JSR SETPNT / CPX / BCC / BEQ, SCR40's JSR
        # CLRLN; LDX #23; the links 28 cycles a row (29 below a line's first row); LDX LINTMP /
        # JSR WLOG30, JMP PULIND.
        self.spent += (3 if row == ROWS - 1 else 5) + 24 + 2 + 17 + setpnt(row) + 6 + 2 + 4 + 6 + 3 + 34
        for target in range(ROWS - 1, row, -1):
            self.spent += cost.COPY_DOWN[target]
            self._copy_row(target - 1, target)
        self._clear_row(row)
        for above in range(ROWS - 2, 0, -1):
            if above < row:
                self.spent += 7
                break
            self.spent += 29 if m[LDTB1 + above] & 0x80 else 28
            link = (LDTB1 + above + 1)
            m[link] = (m[link] & 0x7F) | (m[LDTB1 + above] & 0x80)
        else:
            self.spent -= 1
        self._join_row(row)

    def _down_if_row_end(self):
        """Row + 1 if the cursor sits on column 39 or 79 (ROM chkdwn); returns the ROM's X."""
        m = self.mem
        column = m[PNTR]
        if column == 39 or column == 79:
            # LDX #2 / LDA #39, a CMP / BEQ found (a miss first for 79), DNLINE: LDX / CPX / BEQ,
            # INC TBLX, RTS
            row = m[TBLX]
            self.spent += 4 + 6 + (14 if column == 79 else 0) + (18 if row != ROWS else 14)
            if row != ROWS:
                m[TBLX] = (row + 1) & 0xFF
            return row
        self.spent += cost.CHKDWN_MISS
        return 0

    def _up_if_row_start(self):
        """Row - 1 if the cursor sits on column 0 or 40 (ROM chkbak)."""
        m = self.mem
        column = m[PNTR]
        if column == 0 or column == 40:
            # LDX #2 / LDA #0, CMP / BEQ found (a miss first for 40), BACK: DEC TBLX / RTS
            self.spent += 4 + 6 + (14 if column == 40 else 0) + 11
            m[TBLX] = (m[TBLX] - 1) & 0xFF
        else:
            self.spent += 4 + 14 + 13 + 6

    def _after_print(self):
        """Advance past the character just put on screen, wrapping and linking (ROM wlogic)."""
        m = self.mem
        # JSR CHKDWN, INC PNTR / LDA LNMX / CMP PNTR, then BCS WLGRTS (a page away) / RTS, or on
        self.spent += 6 + 11
        x = self._down_if_row_end()
        column = (m[PNTR] + 1) & 0xFF
        m[PNTR] = column
        end = m[LNMX]
        if end >= column:
            self.spent += 10
            return
        if end == LONGEST_LINE_END:
            # Second row of an 80-column line is full: next logical line.
            # (BCS / CMP #79 / BEQ WLOG10: DEC TBLX / JSR NXLN / LDA #0 / STA PNTR / RTS)
            self.spent += 2 + 2 + 3 + 5 + 6 + 2 + 3 + 6
            m[TBLX] = (m[TBLX] - 1) & 0xFF
            self._next_line()
            m[PNTR] = 0
            return
        if m[AUTODN]:
            # Typing: open a blank row for the continuation, pushing the rows below down.
            self.spent += 2 + 2 + 2 + 4 + 2 + 3          # ... LDA AUTODN / BEQ / JMP BMT1
            self._open_row_after(x)
            return
        row = m[TBLX]
        # ... LDA AUTODN / BEQ WLOG20: LDX TBLX / CPX #25 / BCC WLOG30 (or JSR SCROL / DEC TBLX / LDX)
        self.spent += 2 + 2 + 2 + 4 + 3 + 3 + 2 + 3
        if row >= ROWS:
            self.spent += -1 + 6 + 5 + 3
            self.scroll_up()
            row = (m[TBLX] - 1) & 0xFF
            m[TBLX] = row
        self._join_row(row)

    def _put(self, screen_code, colour):
        """Character and colour at the cursor (ROM dspp); restarts the blink countdown."""
        m = self.mem
        self.spent += cost.DSPP_BODY - SCOLOR
        m[BLNCT] = 2
        self._set_user()
        column = m[PNTR]
        m[(((m[PNT + 1] << 8) | m[PNT]) + column) & 0xFFFF] = screen_code
        m[(((m[USER + 1] << 8) | m[USER]) + column) & 0xFFFF] = colour & 0x0F

    # -- CHROUT ------------------------------------------------------------------------
    # The one-step path for plain characters (kernal.editor_fastpath, beside CHROUT's direct
    # version on the fast core); an instance may set print_in_line to `lambda code: False`
    # to take the general path for every character.
    print_in_line = print_in_line

    def chrout(self, code):
        """Print one PETSCII byte on the screen (CHROUT to device 3, ROM entry $E716)."""
        code &= 0xFF
        spent = self.print_in_line(code)
        if spent:
            self.spent += spent
            return
        m = self.mem
        m[DATA] = code
        m[CRSW] = 0
        if code == 0x0D or code == 0x8D:
            # PRT: CMP #$0D / BNE / JMP NXT1 (shifted: NXTX, NXTX1, UHUH's JMP NXT1); NXT1's four
            # STX and JSR NXLN; JPL5's JMP LOOP2
            self.spent += cost.NBSOUT_SCREEN + (cost.PRT_HEAD + 7 if code == 0x0D else
                                                cost.PRT_HEAD_HIGH + 7 + 5 + 7) + 20 + 3
            self._carriage_return()
        else:
            screen_code = SCREEN_CODE[code]
            if screen_code is not None:
                head = cost.IN_LINE_ENTRY[code]
                if code == 0x22:
                    head += cost.QUOTE_TOGGLE
                    m[QTSW] ^= 1
                if m[RVS]:
                    head += 1
                    screen_code |= 0x80
                self._print(screen_code, head + cost.RVS_OFF)
            elif code < 0x80:
                self._control(code)
            else:
                self._shifted_control(code)
        # Every call ends here (ROM loop2): pending inserts switch quote mode off.
        if m[INSRT]:
            self.spent += cost.LOOP2_INSERTS
            m[QTSW] >>= 1
        else:
            self.spent += cost.LOOP2

    def _print(self, screen_code, head):
        """Put a character and move on (NXT3 or NC3 .. WLOGIC); `head`: the cycles to NVS."""
        m = self.mem
        inserts = m[INSRT]
        self.spent += head + (cost.INSERT if inserts else cost.NO_INSERT) + 4 + 6 + 6
        if inserts:
            m[INSRT] = inserts - 1
        self._put(screen_code, m[COLOR])
        self._after_print()

    def _carriage_return(self):
        m = self.mem
        m[INSRT] = 0
        m[RVS] = 0
        m[QTSW] = 0
        m[PNTR] = 0
        self._next_line()

    def _control(self, code):
        """$00-$1F other than RETURN (the cycles: PRT's chain from NTCN, kernal.editor_cycles)."""
        m = self.mem
        if m[INSRT]:
            self.spent += cost.LOW_HEAD + 8              # NTCN: LDX INSRT / BEQ / JMP NC3
            self._print(code | 0x80, 2)                  # NC3: ORA #$80
            return
        if code == 0x14:
            self.spent += cost.LOW_HEAD + 6 + 8          # NTCN, CNC3X: CMP #$14 / BNE / TYA / BNE
            leftover = self._delete()
            if leftover is None:
                return
            # The ROM only falls through here when $0286 has bit 7 set, carrying that value on.
            code = leftover
        if m[QTSW]:
            self.spent += cost.LOW_HEAD + 6 + 5 + 8      # ... NTCN1: LDX QTSW / BEQ / JMP NC3
            self._print(code | 0x80, 2)
            return
        if code == 0x13:
            self.spent += cost.low_control(code) - cost.LOOP2 + 5     # NC1's JSR NXTD
            self.home()
        elif code == 0x1D:
            self.spent += cost.LOW_HEAD + 6 + 5 + 6 + 5 + 5 + 12
            self._cursor_right()
        elif code == 0x11:
            self.spent += cost.LOW_HEAD + 6 + 5 + 6 + 5 + 5 + 5 + 20
            self._cursor_down()
        else:
            self.spent += cost.low_control(code) - cost.LOOP2
            if code == 0x12:
                m[RVS] = 0x12
            elif code in COLOUR_OF_CODE:
                m[COLOR] = COLOUR_OF_CODE[code]
            elif code == 0x0E:
                m[VIC_D018] = m[VIC_D018] | 0x02
            elif code == 0x8E:                  # reachable only through the DEL fall-through
                m[VIC_D018] = m[VIC_D018] & 0xFD
            elif code == 0x08:
                m[MODE] = m[MODE] | 0x80
            elif code == 0x09:
                m[MODE] = m[MODE] & 0x7F

    def _shifted_control(self, code):
        """$80-$9F other than SHIFT-RETURN (the cycles: PRT's chain from UP5)."""
        m = self.mem
        if m[QTSW]:
            self.spent += cost.HIGH_HEAD + 7 + 5        # UP5: LDX QTSW / BNE UP6 (a page on): ORA #$40 / JMP NC3
            self._print(code | 0x40, 2)        # ((code & $7F) | $40) | $80
            return
        if code == 0x94:
            self.spent += cost.HIGH_HEAD + 9            # UP5: LDX QTSW / BNE / CMP #$14 / BNE
            self._insert()
            return
        if m[INSRT]:
            self.spent += cost.HIGH_HEAD + 11 + 5 + 5   # UP9: LDX INSRT / BEQ, UP6
            self._print(code | 0x40, 2)
            return
        if code == 0x91:
            self.spent += cost.HIGH_HEAD + 11 + 6 + 7   # UP9, UP2: CMP #$11 / BNE / LDX TBLX / BEQ
            self._cursor_up()
        elif code == 0x9D:
            self.spent += cost.HIGH_HEAD + 11 + 6 + 5 + 5 + 8   # ... NXT6: CMP #$1D / BNE / TYA / BEQ
            self._cursor_left()
        elif code == 0x93:
            self.spent += cost.HIGH_HEAD + 11 + 6 + 5 + 5 + 5 + 10 + 3   # NXT61: JSR CLSR, JPL2
            self.clear()
        else:
            self.spent += cost.high_control(code) - cost.LOOP2
            if code == 0x92:
                m[RVS] = 0
            elif code in COLOUR_OF_CODE:
                m[COLOR] = COLOUR_OF_CODE[code]
            elif code == 0x8E:
                m[VIC_D018] = m[VIC_D018] & 0xFD
