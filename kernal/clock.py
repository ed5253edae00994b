"""The jiffy clock: TIME $A0-$A2 (big-endian: $A0 = MSB), UDTIM, RDTIM, SETTIM."""

from kernal.locations import TIME
WRAP = 0x4F1A01      # 24 hours of jiffies: the clock restarts at 0
# UDTIM's cycles beyond its usual 54 (KERNAL 901227-03, counted from its listing and checked on
# the genuine ROM): the clock rolling over at 24 hours (BCC UD60 not taken, three STX: 8); the
# RUN/STOP key down (TAX / BMI UD80 not taken, LDX #$BD / STX COLM, UD70's settling read, STA
# COLM / INX / BNE: 23), and 2 fewer when a key of the lines $BD selects (SHIFT among them) is
# down too: BNE UD90 skips the STA STKEY, so SHIFT+RUN/STOP leaves $91 as it was.
ROLL_OVER = 8
STOP_ROW, STOP_AND_SHIFT_ROW = 23, 21
SHIFT_LINES = 0xBD      # the lines UDTIM reads with RUN/STOP down: a key there, and it is no STOP


class JiffyClock:
    def __init__(self, mem, keyboard):
        self.mem = mem
        self.keyboard = keyboard

    def read(self):
        m = self.mem
        return (m[TIME] << 16) | (m[TIME + 1] << 8) | m[TIME + 2]

    def set(self, jiffies):
        jiffies %= WRAP
        m = self.mem
        m[TIME], m[TIME + 1], m[TIME + 2] = jiffies >> 16, (jiffies >> 8) & 0xFF, jiffies & 0xFF

    def udtim(self):
        """One jiffy: advance TIME and sample the STOP key row into $91.  Returns the C64
        cycles UDTIM spends beyond its usual path (the carries aside: the caller counts them)."""
        m = self.mem
        low = m[TIME + 2] + 1
        cycles = 0
        if low < 0x100 and m[TIME] < WRAP >> 16:
            m[TIME + 2] = low              # (most jiffies: only the low byte changes)
        else:
            jiffies = self.read() + 1
            cycles = ROLL_OVER if jiffies >= WRAP else 0
            self.set(jiffies)
        keyboard = self.keyboard
        if keyboard.sample_stop_row() & 0x80:       # RUN/STOP up
            return cycles
        return cycles + (STOP_AND_SHIFT_ROW if keyboard.matrix(SHIFT_LINES) != 0xFF else STOP_ROW)
