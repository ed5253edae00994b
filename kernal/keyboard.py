"""The keyboard: the KERNAL key buffer ($0277, count $C6) and the CIA1 matrix view.

Host keys arrive as PETSCII (the front end or a script translates them);
they are queued in the buffer as SCNKEY would have done, and the key is
also held down in the matrix for a few jiffies so that programs reading
$DC00/$DC01, $CB or $91 directly see it.  CTRL alone types nothing: it is only
held down in the matrix (and in SHFLAG $028D) for as long as the front end says
or until RUN/STOP is typed, which is what the screen editor's scroll looks at to slow
down (kernal.editor).
"""

from kernal.locations import KEYD, NDX, XMAX, SFDX, LSTX, SHFLAG, STKEY
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
LEFT_SHIFT = 15
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


class Keyboard:
    def __init__(self, mem):
        self.mem = mem
        self.held = {}          # matrix code -> jiffies left

    def reset(self):
        self.held.clear()
        self.mem[NDX] = 0
        self.mem[XMAX] = 10
        self.mem[SFDX] = self.mem[LSTX] = NO_KEY
        self.mem[SHFLAG] = 0

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

    # -- the matrix ------------------------------------------------------------
    def press(self, petscii):
        position = KEY_POSITIONS.get(petscii)
        if position is None:
            return
        code, shifted = position
        ctrl = self.held.get(CTRL_KEY)
        self.held = {code: HOLD_JIFFIES}
        if ctrl and code != STOP_KEY:
            # CTRL stays down under a typed key; RUN/STOP releases it, or it would never be
            # seen alone in row 7 ($91 = $7F), the only way the KERNAL's STOP sees it.
            self.held[CTRL_KEY] = ctrl
        if shifted:
            self.held[LEFT_SHIFT] = HOLD_JIFFIES
        self._publish()
        # On the C64 a key reaches the buffer through the IRQ, whose UDTIM has just
        # sampled the RUN/STOP row into $91: a program that gets {stop} from GETIN and
        # then calls STOP ($FFE1) sees it down.
        self.mem[STKEY] = self.matrix(0x7F)

    def hold_ctrl(self, jiffies):
        """Hold CTRL down for at least `jiffies` more jiffies (it types nothing by itself)."""
        self.hold(CTRL_KEY, jiffies)

    def hold(self, code, jiffies):
        """Keep the key at matrix `code` down for at least `jiffies` more jiffies."""
        self.held[code] = max(self.held.get(code, 0), jiffies)
        self._publish()
        self.mem[STKEY] = self.matrix(0x7F)

    def scan(self):
        """SCNKEY's bookkeeping: age held keys and publish $CB/$C5/$028D."""
        held = self.held
        if not held:                       # (every jiffy of a program that runs on its own)
            m = self.mem
            m[LSTX] = m[SFDX]
            m[SFDX] = NO_KEY
            m[SHFLAG] = 0
            return
        for code in list(held):
            held[code] -= 1
            if held[code] <= 0:
                del held[code]
        self._publish()

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

    def stop_down(self):
        return STOP_KEY in self.held
