"""The keyboard: the KERNAL key buffer ($0277, count $C6) and the CIA1 matrix view.

Host keys arrive as PETSCII (the front end or a script translates them) and go
down in the matrix (type_key): as on a C64, the next keyboard scan (SCNKEY, from the
jiffy IRQ or a program's own JSR $FF9F) puts the key in the buffer, and UDTIM's next
sample of the RUN/STOP row sees RUN/STOP.  The key stays down for a few jiffies so
that programs reading $DC00/$DC01, $CB or $91 directly see it.  CTRL alone types nothing: it is only
held down in the matrix (and in SHFLAG $028D) for as long as the front end says
or until RUN/STOP is typed, which is what the screen editor's scroll looks at to slow
down (kernal.editor).  Each jiffy's scan charges the cycles the ROM's SCNKEY spends on the
keys down (scan), and UDTIM's sample of the RUN/STOP row follows the ROM (sample_stop_row).
"""

from kernal.locations import DELAY, KEYD, KOUNT, LSTSHF, NDX, RPTFLG, XMAX, SFDX, LSTX, SHFLAG, STKEY
NO_KEY = 64
HOLD_JIFFIES = 3  # how long a typed key stays down in the matrix

# Matrix code (row*8 + column; docs/c64.md, "Keyboard") -> PETSCII, plain and
# shifted (the KERNAL's decode tables at $EB81 and $EBC2).  None = no char.
_PLAIN = (0x14, 0x0D, 0x1D, 0x88, 0x85, 0x86, 0x87, 0x11,
          0x33, 0x57, 0x41, 0x34, 0x5A, 0x53, 0x45, None,
          0x35, 0x52, 0x44, 0x36, 0x43, 0x46, 0x54, 0x58,
          0x37, 0x59, 0x47, 0x38, 0x42, 0x48, 0x55, 0x56,
          0x39, 0x49, 0x4A, 0x30, 0x4D, 0x4B, 0x4F, 0x4E,
          0x2B, 0x50, 0x4C, 0x2D, 0x2E, 0x3A, 0x40, 0x2C,
          0x5C, 0x2A, 0x3B, 0x13, None, 0x3D, 0x5E, 0x2F,
          0x31, 0x5F, None, 0x32, 0x20, None, 0x51, 0x03)
_SHIFTED = {0: 0x94, 1: 0x8D, 2: 0x9D, 3: 0x8C, 4: 0x89, 5: 0x8A, 6: 0x8B, 7: 0x91,
            8: 0x23, 11: 0x24, 16: 0x25, 19: 0x26, 24: 0x27, 27: 0x28, 32: 0x29,
            40: 0xDB, 43: 0xDD, 44: 0x3E, 45: 0x5B, 46: 0xBA, 47: 0x3C, 48: 0xA9,
            49: 0xC0, 50: 0x5D, 51: 0x93, 54: 0xDE, 55: 0x3F, 56: 0x21, 59: 0x22,
            60: 0xA0, 63: 0x83}
# With CTRL down (the KERNAL's table at $EC78): colours, RVS, the control codes; None = no key.
_CTRL = (
          None, None, None, None, None, None, None, None,
          0x1C, 0x17, 0x01, 0x9F, 0x1A, 0x13, 0x05, None,
          0x9C, 0x12, 0x04, 0x1E, 0x03, 0x06, 0x14, 0x18,
          0x1F, 0x19, 0x07, 0x9E, 0x02, 0x08, 0x15, 0x16,
          0x12, 0x09, 0x0A, 0x92, 0x0D, 0x0B, 0x0F, 0x0E,
          None, 0x10, 0x0C, None, None, 0x1B, 0x00, None,
          0x1C, None, 0x1D, None, None, 0x1F, 0x1E, None,
          0x90, 0x06, None, 0x05, None, None, 0x11, None
)
LEFT_SHIFT = 15
RIGHT_SHIFT = 52
COMMODORE_KEY = 61
CTRL_KEY = 58          # row 7 ($DC00 = $7F), bit 2: $DC01 reads $FB with CTRL alone down
STOP_KEY = 63
MODIFIERS = (LEFT_SHIFT, CTRL_KEY)
SHFLAG_SHIFT, SHFLAG_CTRL = 0x01, 0x04


def _build_key_positions():
    positions = {}
    for code, petscii in enumerate(_PLAIN):
        if petscii is not None:
            positions.setdefault(petscii, (code, False))
            if 0x41 <= petscii <= 0x5A:
                positions.setdefault(petscii | 0x80, (code, True))
    for code, petscii in _SHIFTED.items():
        positions.setdefault(petscii, (code, True))
    return positions


KEY_POSITIONS = _build_key_positions()   # PETSCII -> (matrix code, shifted)

# SCNKEY's cycles ($EA87, KERNAL 901227-03) beyond its 59 with no key down, counted from its
# listing path by path and checked against the genuine ROM (KERNAL 901227-03 / BASIC 901226-01)
# for every key, plain, with SHIFT, CTRL or C=, new, held and repeating.  With a key down the
# ROM reads the whole matrix (SCN20-CKIT: 41 to get there, 1,283 for the 64 keys read up,
# more per key down), sets its decode table (CKIT1 .. SHFOUT, 44; CTRL's table 1 more), then
# REKEY: LDY SFDX / LDA (KEYTAB),Y (a page crossed in the SHIFT table from key 62) / TAX /
# CPY LSTX (13) and one of its ways out, each ending at SCNRTS (LDA #$7F / STA COLM / RTS, 12).
SCAN_NO_KEY = 59
SCAN_MATRIX = 41 + 1283 + 44 + 13 + 12 - SCAN_NO_KEY
KEY_DOWN, STOP_DOWN, MODIFIER_DOWN = 19, 23, 30    # more per key down: LSR / BCS not taken, PHA / LDA / CMP ... PLA
# A new key: BEQ not taken / LDY #$10 / STY DELAY / BNE CKIT2, CKIT2's LDY / STY / LDY / STY, CKIT3's
# CPX #$FF (28); then BEQ SCNRTS with no key to put (only SHIFT/C=/CTRL down), or TXA / LDX NDX /
# CPX XMAX (11) and BCS SCNRTS with the buffer full or PUTQUE's STA KEYD,X / INX / STX NDX (12).
NEW_KEY, NO_KEY_TO_PUT, KEY_TO_PUT, BUFFER_FULL, PUT_KEY = 28, 3, 11, 3, 12
# A key held: BEQ RPT10 taken / AND #$7F / BIT RPTFLG (9), then BMI RPT20 (every key repeats), BVS
# SCNRTS (none does), BMI / BVS / CMP #$7F / BEQ not taken (8) and the chain: INST/DEL, space,
# CRSR left/right, CRSR up/down (the last falls into RPT20); any other key leaves at SCNRTS.
HELD, ALL_REPEAT, NONE_REPEAT = 9, 4, 2 + 4
NO_KEY_HELD = 2 + 2 + 2 + 4 + 14 + 2 + 3             # BEQ CKIT2 (a page on), CKIT2, CKIT3's CPX / BEQ
REPEATING = {0x14: 8 + 5, 0x20: 8 + 4 + 5, 0x1D: 8 + 8 + 5, 0x11: 8 + 12 + 4}
NOT_REPEATING = 8 + 12 + 2 + 3
# RPT20: LDY DELAY / BEQ / DEC DELAY / BNE SCNRTS (15); as DELAY reaches 0 the BNE falls into RPT40
# (14); at 0 LDY / BEQ RPT40 (7).  RPT40: DEC KOUNT / BNE SCNRTS (9); KOUNT reaching 0: DEC KOUNT /
# BNE / LDY #4 / STY KOUNT / LDY NDX / DEY / BPL SCNRTS (22), or with the buffer empty on through
# CKIT2 to CKIT3 (37: the key repeats).
DELAY_COUNTING, DELAY_ENDS, DELAY_OVER = 15, 14, 7
KOUNT_COUNTING, REPEAT_WAITS, REPEAT_PUT = 9, 8 + 14, 21 + 14 + 2
SHIFT_TABLE_CROSSES = 62       # mode2 ($EBC2) + Y crosses a page from key 62 on


class Keyboard:
    def __init__(self, mem):
        self.mem = mem
        self.held = {}          # matrix code -> jiffies left
        self._found = NO_KEY    # the key the last scan found (the ROM's LSTX after SCNKEY)
        self._fresh = False     # a key was pressed since the last scan: SCNKEY finds it new
        self.arriving = []      # keys typed since the last scan: down, not yet in the buffer

    def reset(self):
        self.held.clear()
        self.mem[NDX] = 0
        self.mem[XMAX] = 10
        self.mem[SFDX] = self.mem[LSTX] = NO_KEY
        self.mem[SHFLAG] = 0
        self._found = NO_KEY
        self._fresh = False
        self.arriving.clear()

    # -- the buffer ----------------------------------------------------------
    def count(self):
        return self.mem[NDX]

    def room(self):
        return max(0, min(self.mem[XMAX], 10) - self.mem[NDX])

    def put(self, petscii):
        """Queue one key as if typed; returns False when the buffer is full."""
        if self.room() == 0:
            return False
        count = self.mem[NDX]
        self.mem[KEYD + count] = petscii
        self.mem[NDX] = count + 1
        self.press(petscii)
        return True

    def take(self):
        """Dequeue one key (the KERNAL routine at $E5B4); None when empty."""
        count = self.mem[NDX]
        if count == 0:
            return None
        count = min(count, 10)
        key = self.mem[KEYD]
        for i in range(count - 1):
            self.mem[KEYD + i] = self.mem[KEYD + i + 1]
        self.mem[NDX] = count - 1
        return key

    def flush(self):
        self.mem[NDX] = 0

    def type_key(self, petscii):
        """A key typed now: down in the matrix; the next scan puts it in the buffer, as a
        C64's SCNKEY does.  Keys typed faster than the scans come (a paste) wait together
        and reach the buffer at that scan.  Returns False, the key not taken, when the
        buffer has no room for it: a C64's SCNKEY would drop it; the caller keeps it and
        types it again once the program has read some."""
        if len(self.arriving) >= self.room():
            return False
        self.arriving.append(petscii)
        self._hold_down(petscii)
        return True

    # -- the matrix ------------------------------------------------------------
    def press(self, petscii):
        """The key down in the matrix now, seen at once in $CB/$028D and $91 (no buffer)."""
        if self._hold_down(petscii):
            self._publish()
            # UDTIM's sample of the RUN/STOP row into $91, as if the IRQ had just run.
            self.sample_stop_row()

    def _hold_down(self, petscii):
        """The key's matrix position (and SHIFT's) down for HOLD_JIFFIES; False if it has none."""
        position = KEY_POSITIONS.get(petscii)
        if position is None:
            return False
        code, shifted = position
        self._fresh = True
        ctrl = self.held.get(CTRL_KEY)
        self.held = {code: HOLD_JIFFIES}
        if ctrl and code != STOP_KEY:
            # CTRL stays down under a typed key; RUN/STOP releases it, or it would never be
            # seen alone in row 7 ($91 = $7F), the only way the KERNAL's STOP sees it.
            self.held[CTRL_KEY] = ctrl
        if shifted:
            self.held[LEFT_SHIFT] = HOLD_JIFFIES
        return True

    def hold_ctrl(self, jiffies):
        """Hold CTRL down for at least `jiffies` more jiffies (it types nothing by itself)."""
        self.hold(CTRL_KEY, jiffies)

    def hold(self, code, jiffies):
        """Keep the key at matrix `code` down for at least `jiffies` more jiffies."""
        self.held[code] = max(self.held.get(code, 0), jiffies)
        self._publish()
        self.sample_stop_row()

    def scan(self):
        """SCNKEY's bookkeeping: age held keys and publish $CB/$C5/$028D.  Returns the C64
        cycles the ROM's SCNKEY spends beyond its 59 with no key down (see scan_cycles).
        The keys typed since the last scan reach the buffer here."""
        held = self.held
        if self.arriving:
            cycles = self._scan_cycles() if held else 0
            self._deliver()
        elif not held:                     # (every jiffy of a program that runs on its own)
            m = self.mem
            m[LSTX] = m[SFDX]
            m[SFDX] = NO_KEY
            m[SHFLAG] = 0
            self._found = NO_KEY
            return 0
        else:
            cycles = self._scan_cycles()
        for code in list(held):
            held[code] -= 1
            if held[code] <= 0:
                del held[code]
        self._publish()
        return cycles

    def _deliver(self):
        """The typed keys into the buffer, as far as it has room (the rest wait for the next scan)."""
        arriving = self.arriving
        while arriving and self.room():
            count = self.mem[NDX]
            self.mem[KEYD + count] = arriving.pop(0)
            self.mem[NDX] = count + 1

    def _scan_cycles(self):
        """The ROM's SCNKEY on the keys down now, path by path (the table above), with the
        repeat counters DELAY and KOUNT and LSTSHF kept as it keeps them (the typed keys are
        put by scan, after this: the ROM's test of the buffer's room comes first); with C= down the key's
        plain code stands in for the C= table's (only INST/DEL, space and the cursor keys
        repeat, and only a missing key changes the path; SHIFT+C='s case switch is not
        counted).  With SHIFT the plain table serves too: it repeats the same keys."""
        m = self.mem
        cycles = SCAN_MATRIX
        shflag = 0
        found = NO_KEY
        for code in self.held:
            if code == LEFT_SHIFT or code == RIGHT_SHIFT:
                shflag |= 1
            elif code == COMMODORE_KEY:
                shflag |= 2
            elif code == CTRL_KEY:
                shflag |= 4
            else:
                cycles += STOP_DOWN if code == STOP_KEY else KEY_DOWN
                found = max(found, code) if found != NO_KEY else code
                continue
            cycles += MODIFIER_DOWN
        if shflag >= 4:
            cycles += 1                                  # KEYLG2: BCC not taken / LDA #6 (the CTRL table)
        elif shflag & 1:
            cycles += found >= SHIFT_TABLE_CROSSES       # LDA (KEYTAB),Y crosses a page
        value = _CTRL[found] if shflag >= 4 and found != NO_KEY else _PLAIN[found] if found != NO_KEY else None
        key = 0x7F if value is None else value & 0x7F
        new = found != self._found or (self._fresh and found != NO_KEY)
        self._found = found
        self._fresh = False
        if new:
            m[DELAY] = 0x10
            m[LSTSHF] = shflag
            return cycles + NEW_KEY + self._put_cycles(value)
        cycles += HELD
        flag = m[RPTFLG]
        if flag & 0x80:
            cycles += ALL_REPEAT
        elif flag & 0x40:
            return cycles + NONE_REPEAT
        elif key == 0x7F:
            m[LSTSHF] = shflag
            return cycles + NO_KEY_HELD
        elif key in REPEATING:
            cycles += REPEATING[key]
        else:
            return cycles + NOT_REPEATING
        return cycles + self._repeat_cycles(value, shflag)

    def _put_cycles(self, value):
        """CKIT3 on: nothing to put, the buffer full, or the key put (by scan, after this)."""
        if value is None:
            return NO_KEY_TO_PUT
        m = self.mem
        return KEY_TO_PUT + (BUFFER_FULL if m[NDX] >= m[XMAX] else PUT_KEY)

    def _repeat_cycles(self, value, shflag):
        """RPT20/RPT40: the repeat delay and speed counted down, as the ROM counts them."""
        m = self.mem
        delay = m[DELAY]
        if delay > 1:
            m[DELAY] = delay - 1
            return DELAY_COUNTING
        cycles = DELAY_ENDS if delay else DELAY_OVER
        m[DELAY] = 0
        kount = (m[KOUNT] - 1) & 0xFF
        m[KOUNT] = kount
        if kount:
            return cycles + KOUNT_COUNTING
        m[KOUNT] = 4
        if m[NDX]:
            return cycles + REPEAT_WAITS
        m[LSTSHF] = shflag
        return cycles + REPEAT_PUT + self._put_cycles(value)

    def _publish(self):
        keys = [c for c in self.held if c not in MODIFIERS]
        self.mem[LSTX] = self.mem[SFDX]
        self.mem[SFDX] = keys[0] if keys else NO_KEY
        self.mem[SHFLAG] = ((SHFLAG_SHIFT if LEFT_SHIFT in self.held else 0)
                            | (SHFLAG_CTRL if CTRL_KEY in self.held else 0))

    def matrix(self, columns):
        """$DC01 for the lines selected (0 bits) in `columns`: 0 bits where keys are down."""
        if not self.held:
            return 0xFF
        rows = 0
        for code in self.held:
            if not columns & (1 << (code >> 3)):
                rows |= 1 << (code & 7)
        return ~rows & 0xFF

    def sample_stop_row(self):
        """UDTIM's sample of the RUN/STOP row into STKEY ($91), as the ROM takes it: not while
        a key of the lines $BD selects (SHIFT among them) is down with RUN/STOP (SHIFT+RUN/STOP
        is no STOP).  Returns the row read, $7F with RUN/STOP down."""
        row = self.matrix(0x7F)
        if row & 0x80 or self.matrix(0xBD) == 0xFF:
            self.mem[STKEY] = row
        return row

    def stop_down(self):
        return STOP_KEY in self.held
