"""The jiffy clock: TIME $A0-$A2 (big-endian: $A0 = MSB), UDTIM, RDTIM, SETTIM."""

from kernal.locations import TIME, STKEY
WRAP = 0x4F1A01      # 24 hours of jiffies: the clock restarts at 0


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
        """One jiffy: advance TIME and sample the STOP key row into $91."""
        m = self.mem
        low = m[TIME + 2] + 1
        if low < 0x100 and m[TIME] < WRAP >> 16:
            m[TIME + 2] = low              # (most jiffies: only the low byte changes)
        else:
            self.set(self.read() + 1)
        m[STKEY] = self.keyboard.matrix(0x7F)
