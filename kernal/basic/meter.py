"""What the ROM's math package would have spent: C64 cycles metered as kernal.basic.mbf computes.

Each routine of mbf adds an estimate that follows its 6502 code; the interpreter charges
what was spent to the clock with the statement (kernal.basic.interpreter, charge).
"""


class Meter:
    """The C64 cycles the ROM's routines would have spent on the operations done in mbf.

    Each routine adds an estimate that follows its 6502 code: FMULT's loop costs 41 cycles
    a bit and 41 more for each bit that adds ARG, a zero byte takes MULSHF's short way;
    FDIV generates 34 quotient bits; FADD pays per bit and byte of the alignment shift
    and of NORMAL.  The interpreter charges what was spent to the clock (take)."""

    __slots__ = ("cycles",)

    def __init__(self):
        self.cycles = 0

    def take(self):
        spent, self.cycles = self.cycles, 0
        return spent


METER = Meter()
# FMULT per byte of FAC: MULSHF for a zero byte, else MLTPL1's eight passes and an ARG added per bit set
BYTE_CYCLES = [80] + [14 + 8 * 41 + 41 * bin(b).count("1") for b in range(1, 256)]
ADD_CYCLES = 230            # CONUPK, FADDT's tests, the 4-byte add or subtract
SHIFT_BIT_CYCLES = 46       # SHIFTR / NORMAL, one bit
SHIFT_BYTE_CYCLES = 30      # a whole byte moved
MUL_CYCLES = 180            # CONUPK, MULDIV, clearing RES, MOVFR and NORMAL around the loop
DIV_CYCLES = 3000           # ROUND, MULDIV, 34 quotient bits of about 71 cycles, MOVFR
FLOAT_CYCLES = 80           # FLOAT / GIVAYF: an integer into FAC
QINT_CYCLES = 250           # QINT / INT: FAC shifted to an integer and back
GETADR_CYCLES = 150         # AYINT / GETADR
COMPARE_CYCLES = 60         # FCOMP
FOUT_CYCLES = 1500          # FOUT's digit loop (10 powers of ten added or subtracted)
FIN_CYCLES = 250            # FIN: its ten work bytes cleared, the sign, the end (FINE)
FIN_CHAR_CYCLES = 60        # FIN: CHRGET and the tests for each character
FIN_DIGIT_CYCLES = 150      # FINDIG / FINLOG around MUL10, FLOAT and FADDT
POLY_CYCLES = 120           # POLY / POLYX: MOV1F, MOV2F
POLY_TERM_CYCLES = 40       # per coefficient: the pointer moved on
FUNCTION_CYCLES = 300       # a series function's own moves and tests
