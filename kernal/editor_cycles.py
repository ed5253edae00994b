"""The C64 cycles of the screen editor's ROM paths (KERNAL 901227-03), for the Python editor to charge.

Each figure is the 6502 instructions of one path of the ROM's editor, counted from its
listing (taken branches 3 cycles, 4 where they cross a page; indexed loads one more where
the index crosses a page) and checked against the ROM run cycle by cycle (the figures of
tests/bench/bench_kernal_time.py were measured on the genuine ROMs KERNAL 901227-03 /
BASIC 901226-01).  A routine's "body" is from its first instruction through its RTS; the
JSR that calls it (6 cycles) is counted by the caller's figure.  kernal.editor adds them up
as it takes the same path, and the trap charges the sum: arithmetic, not stepping.
"""

ROW_CROSSES_PAGE = 16     # setpnt's LDA ldtb2,X ($ECF0 + X) crosses a page from row 16 on
# The ROM's scroll (SCROL) slows down while CTRL is held: a delay loop of 256 DEY/BNE around
# NOP/DEX/BNE (X is 24 the first time, then wraps to 256): 458,156 cycles, about half a second,
# during which interrupts keep running.
CTRL_SCROLL_DELAY = 2 + (23 * 7 + 6) + 255 * (255 * 7 + 6) + 255 * 5 + 4 + 3


# -- CHROUT's way to the editor: NBSOUT ($F1CA) PHA / LDA DFLTO / CMP #3 / BNE / PLA / JMP PRT --
NBSOUT_SCREEN = 17
# PRT ($E716) from PHA to LDA DATA / BPL: 30 for a code below $80; from there:
PRT_HEAD = 30
PRT_HEAD_HIGH = 29 + 3          # BPL not taken / JMP NXTX


def _entry(code):
    """Cycles from $F1CA to NXT3 (the store of a printable character) for `code`, quote
    mode toggling aside (QTSWC: 9 more for a quote); None for a control code."""
    if code < 0x80:
        if code < 0x20 or code == 0x0D:
            return None
        head = NBSOUT_SCREEN + PRT_HEAD + 5      # CMP #$0D / BNE taken
        # NJT1: CMP #' ' / BCC / CMP #$60 / BCC NJT8 / AND #$3F (9 + 2), or AND #$DF / BNE (13)
        head += 11 if code < 0x60 else 13
        return head + 6 + 11 + 3                 # JSR QTSWC, its CMP / BNE / RTS, JMP NXT3
    low = code & 0x7F
    if low < 0x20 and code != 0xFF:
        return None
    # NXTX: AND #$7F / CMP #$7F / BNE (7; 8 for $FF: LDA #$5E), NXTX1 CMP / BCC / JMP NXT33 (7), ORA #$40
    return NBSOUT_SCREEN + PRT_HEAD_HIGH + (8 if code == 0xFF else 7) + 7 + 2


QUOTE_TOGGLE = 9                 # QTSWC for a quote: LDA QTSW / EOR #1 / STA QTSW / LDA #$22
# NXT3: LDX RVS / BEQ (6); with RVS on: BEQ not taken / NC3 ORA #$80 (7)
RVS_OFF, RVS_ON = 6, 7
# NVS: LDX INSRT / BEQ (6); with inserts pending: DEC INSRT (10)
NO_INSERT, INSERT = 6, 10
# NVS1: LDX COLOR / JSR DSPP; DSPP: TAY / LDA #2 / STA BLNCT / JSR SCOLOR / TYA / LDY PNTR /
# STA (PNT),Y / TXA / STA (USER),Y / RTS -- SCOLOR's body included
SCOLOR = 22                      # LDA PNT / STA USER / LDA PNT+1 / AND #3 / ORA #$D8 / STA USER+1 / RTS
DSPP_BODY = 38 + SCOLOR
STORE = 4 + 6 + DSPP_BODY        # LDX COLOR, JSR DSPP, DSPP
# LOOP2: PLA / TAY / LDA INSRT / BEQ, LOP2: PLA / TAX / PLA / CLC / CLI / RTS (32); with
# inserts pending LSR QTSW too (36)
LOOP2, LOOP2_INSERTS = 32, 36

# WLOGIC ($E6B6): JSR CHKDWN, then INC PNTR / LDA LNMX / CMP PNTR / BCS WLGRTS (a page away) / RTS
CHKDWN_MISS = 37                 # LDX #2 / LDA #39 / two passes of CMP PNTR...BNE / RTS
WLOGIC_IN_ROW = 6 + CHKDWN_MISS + 5 + 3 + 3 + 4 + 6


def in_line_cycles(code, rvs):
    """CHROUT's cycles for a printable `code` (not a quote) printed inside its row with no
    inserts pending (the one-step path, kernal.editor_fastpath): $F1CA to the RTS."""
    return _entry(code) + (RVS_ON if rvs else RVS_OFF) + NO_INSERT + STORE + 6 + WLOGIC_IN_ROW + LOOP2


# The one-step path's cycles per code with RVS off (None: not printable); RVS on adds 1.
IN_LINE = tuple(None if _entry(code) is None or code == 0x22 else in_line_cycles(code, False)
                for code in range(256))
# CRSR left inside a row ($9D, the cursor not on column 0 or 40): the control chain to NXT6,
# CHKBAK's two misses, DEY / STY PNTR / JMP LOOP2, LOOP2.
CURSOR_LEFT_IN_ROW = 184


def setpnt(row):
    """SETPNT's body ($E9F0): ($D1) from the link table and ldtb2 for row X."""
    return 26 + (row >= ROW_CROSSES_PAGE)


def clrln(row):
    """CLRLN's body ($E9FF): 40 spaces and 40 colours (CPATCH) on a row."""
    return 2 + 6 + setpnt(row) + 6 + SCOLOR + 40 * 35 - 1 + 6


def scrlin(source_low):
    """SCRLIN's body ($E9C8): one row's 40 characters and colours copied up or down; the two
    LDA (SAL),Y / LDA (EAL),Y take one cycle more for each byte past the source's page."""
    crossing = max(0, (source_low & 0xFF) + 40 - 256)
    return 2 + 4 + 3 + 6 + 50 + 2 + 40 * 27 - 1 + 2 * crossing + 6


# -- the control codes: PRT's chain of compares (NTCN .. CHKCOL .. OUTHRE) ------------------------
LOW_HEAD = NBSOUT_SCREEN + PRT_HEAD + 5 + 5      # to NTCN (CMP #' ' / BCC taken)
HIGH_HEAD = NBSOUT_SCREEN + PRT_HEAD_HIGH + 7 + 5 + 5  # to UP5 (NXTX1's BCC taken, UHUH's CMP #$0D / BNE)
# COLTAB ($E8DA): the colour control codes in colour order 0-15, which CHKCOL searches
# (the screen editor's COLOR takes the index of the one printed: kernal.editor).
COLTAB = (0x90, 0x05, 0x1C, 0x9F, 0x9C, 0x1E, 0x1F, 0x9E,
          0x81, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0x9B)


def chkcol(code):
    """JSR CHKCOL and its way back (JMP LOWER / UPPER): LDX #15, CMP COLTAB,X / BEQ / DEX / BPL
    down from 15, STX COLOR / RTS on a match."""
    if code in COLTAB:
        index = COLTAB.index(code)
        return 6 + 2 + (15 - index) * 11 + 7 + 13
    return 6 + 2 + 15 * 11 + 19


# After CHKCOL, the case and lock compares to OUTHRE / LEXIT (PATCHES' LOWER, UPPER, LOCK, UNLOCK).
def _case_chain(code):
    if code == 0x0E:
        return 13 + 4 + 3                    # LOWER: ... STA VICREG+24, ULSET, OUTHRE
    if code == 0x8E:
        return 10 + 4 + 3                    # UPPER
    if code == 0x08:
        return 5 + 5 + 13 + 7                # LOCK, LEXIT
    if code == 0x09:
        return 5 + 5 + 5 + 10 + 7            # UNLOCK, LEXIT
    return (5 + 5 + 5 + 5 + 3) if code < 0x80 else (5 + 5 + 5 + 3)


def low_control(code):
    """A control code below $20 that only sets something (RVS on, a colour, the case, the lock,
    or nothing), no inserts pending, quote mode off: $F1CA to the RTS, LOOP2 included."""
    cycles = LOW_HEAD + 6 + 5 + 6             # NTCN LDX INSRT / BEQ, CNC3X (not DEL), NTCN1 LDX QTSW / BEQ
    cycles += 7 if code == 0x12 else 5        # NC3W: CMP #$12 / BNE (STA RVS)
    cycles += 5 + 5 + 5                       # NC1, NC2, NCX2 compares
    return cycles + chkcol(code) + _case_chain(code) + LOOP2


def high_control(code):
    """The same for $80-$9F (RVS off, a colour, upper case, or nothing): UP5's insert check,
    UP9, UP2, NXT2, NXT6, NXT61, SCCL's ORA #$80 / JSR CHKCOL."""
    cycles = HIGH_HEAD + 11 + 6 + 5           # UP5 LDX QTSW / BNE / CMP #$14 / BNE, UP9, UP2
    cycles += 9 if code == 0x92 else 5        # NXT2: CMP #$12 / BNE (LDA #0 / STA RVS)
    cycles += 5 + 5 + 8 - 6                   # NXT6, NXT61, SCCL (its JSR counted in chkcol)
    return cycles + chkcol(code) + _case_chain(code) + LOOP2


# Cycles from $F1CA to NXT3 per printable code (quote toggling aside), None for control codes.
IN_LINE_ENTRY = tuple(_entry(code) for code in range(256))


# -- SCROL ($E8EA) and NEWLIN's rows moved down ----------------------------------------------------
def _row_low(row):
    return (row * 40) & 0xFF          # ldtb2: the rows' address low bytes


# One pass of SCROL but CLRLN's body (_clear_row charges it) and the link shifting's BPLs: SCRO0's
# LDX #$FF / DEC TBLX / DEC LSXP / DEC LINTMP; per row copied up INX / JSR SETPNT / CPX / BCS /
# LDA ldtb2+1,X (a page crossed from row 15) / STA SAL / LDA / JSR SCRLIN / BMI (a page back),
# SETPNT's and SCRLIN's bodies; row 24: INX / JSR SETPNT / CPX / BCS / JSR CLRLN; LDX #0; the
# links: 25 cycles a row (one less where the next row continues a line, counted as it goes),
# then LDA / ORA / STA marking row 24 and LDA LDTB1 (its BPL: 2 out, 4 back a page).
SCROLL_PASS = (18 + sum(33 + (row >= 15) + setpnt(row) + scrlin(_row_low(row + 1)) for row in range(24))
               + 2 + 6 + setpnt(24) + 2 + 3 + 6 + 2 + 25 * 24 - 1 + 11)
# NEWLIN moving row target-1 down to target: SCD10's DEX / JSR SETPNT / CPX LINTMP / BCC / BEQ /
# LDA ldtb2-1,X (a page crossed from row 17) / STA / LDA / JSR SCRLIN / BMI, with the bodies.
COPY_DOWN = tuple(36 + (target >= 17) + setpnt(target) + scrlin(_row_low(target - 1)) for target in range(26))
