"""SID, only as far as a text program uses it: voice 3 as a random-number source.

The registers $D400-$D418 are write-only.  With noise selected on voice 3
($D412 bit 7) the upper bits of its oscillator, $D41B, read as random
numbers; here they come from a seeded generator, one new byte per read, so
runs are reproducible.
"""

import random


class SID:
    def __init__(self, seed=None):
        self.regs = bytearray(0x20)
        self.seed(seed)

    def seed(self, seed):
        self._random = random.Random(seed)

    def read(self, reg):
        reg &= 0x1F
        if reg == 0x1B:
            if self.regs[0x12] & 0x80:
                return self._random.getrandbits(8)
            return 0
        if reg in (0x19, 0x1A):      # paddles: nothing connected
            return 0xFF
        return 0                      # write-only registers and the envelope

    def write(self, reg, value):
        self.regs[reg & 0x1F] = value
