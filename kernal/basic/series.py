"""The ROM math package's functions on kernal.basic.mbf's numbers: SQR, ^ (FPWRT), EXP, LOG,
SIN, COS, TAN, ATN (each through POLY/POLYX and the ROM's series tables) and RND.

Each is computed as the ROM computes it, step by step with mbf's routines, so the same
rounding shows; each meters the ROM's cycles from its entry to its RTS (kernal.basic.meter:
the routines it calls as they run, ROUND where MOVAF/MOVMF round, and the glue of each path).
"""

from kernal.basic import meter
from kernal.basic.mbf import (HALF, ONE, ZERO, MathError, add, compare, const, div, fabs, finlog, floor, from_int, int_,
                              movfm, movmf, mul, neg, normal, round_fac, rounded, sign, sub, unpack)
from kernal.basic.meter import METER, SERIES_GLUE as GLUE

# -- the functions: the ROM's series ---------------------------------------------------------------
# Each table is the ROM math package's: the coefficients of a polynomial, highest degree
# first, as five-byte numbers (the decimal value beside each).
FOUR = from_int(4)
SQR05 = const((0x80, 0x35, 0x04, 0xF3, 0x34))          # 0.707106781 = SQR(.5)
SQR20 = const((0x81, 0x35, 0x04, 0xF3, 0x34))          # 1.41421356 = SQR(2)
NEGHLF = const((0x80, 0x80, 0x00, 0x00, 0x00))         # -0.5
LOG2 = const((0x80, 0x31, 0x72, 0x17, 0xF8))           # 0.693147181 = LOG(2)
LOGEB2 = const((0x81, 0x38, 0xAA, 0x3B, 0x29))         # 1.44269504 = 1/LOG(2)
PI2 = const((0x81, 0x49, 0x0F, 0xDA, 0xA2))            # 1.57079633 = pi/2
TWOPI = const((0x83, 0x49, 0x0F, 0xDA, 0xA2))          # 6.28318531
FR4 = const((0x7F, 0x00, 0x00, 0x00, 0x00))            # 0.25

LOGCN2 = [const(c) for c in (
    (0x7F, 0x5E, 0x56, 0xCB, 0x79),                      # 0.434255942
    (0x80, 0x13, 0x9B, 0x0B, 0x64),                      # 0.576584541
    (0x80, 0x76, 0x38, 0x93, 0x16),                      # 0.961800759
    (0x82, 0x38, 0xAA, 0x3B, 0x20))]                     # 2.88539007
EXPCON = [const(c) for c in (
    (0x71, 0x34, 0x58, 0x3E, 0x56),                      # 2.14987637E-05
    (0x74, 0x16, 0x7E, 0xB3, 0x1B),                      # 1.4352314E-04
    (0x77, 0x2F, 0xEE, 0xE3, 0x85),                      # 1.34226348E-03
    (0x7A, 0x1D, 0x84, 0x1C, 0x2A),                      # 9.61401701E-03
    (0x7C, 0x63, 0x59, 0x58, 0x0A),                      # .0555051269
    (0x7E, 0x75, 0xFD, 0xE7, 0xC6),                      # .240226385
    (0x80, 0x31, 0x72, 0x18, 0x10),                      # .693147186
    (0x81, 0x00, 0x00, 0x00, 0x00))]                     # 1
SINCON = [const(c) for c in (
    (0x84, 0xE6, 0x1A, 0x2D, 0x1B),                      # -14.3813907
    (0x86, 0x28, 0x07, 0xFB, 0xF8),                      # 42.0077971
    (0x87, 0x99, 0x68, 0x89, 0x01),                      # -76.7041703
    (0x87, 0x23, 0x35, 0xDF, 0xE1),                      # 81.6052237
    (0x86, 0xA5, 0x5D, 0xE7, 0x28),                      # -41.3417021
    (0x83, 0x49, 0x0F, 0xDA, 0xA2))]                     # 6.28318531
ATNCON = [const(c) for c in (
    (0x76, 0xB3, 0x83, 0xBD, 0xD3),                      # -6.84793912E-04
    (0x79, 0x1E, 0xF4, 0xA6, 0xF5),                      # 4.85094216E-03
    (0x7B, 0x83, 0xFC, 0xB0, 0x10),                      # -.0161117015
    (0x7C, 0x0C, 0x1F, 0x67, 0xCA),                      # .034209638
    (0x7C, 0xDE, 0x53, 0xCB, 0xC1),                      # -.0542791328
    (0x7D, 0x14, 0x64, 0x70, 0x4C),                      # .0724571965
    (0x7D, 0xB7, 0xEA, 0x51, 0x7A),                      # -.0898023954
    (0x7D, 0x63, 0x30, 0x88, 0x7E),                      # .110932413
    (0x7E, 0x92, 0x44, 0x99, 0x3A),                      # -.142839808
    (0x7E, 0x4C, 0xCC, 0x91, 0xC7),                      # .19999912
    (0x7F, 0xAA, 0xAA, 0xAA, 0x13),                      # -.333333316
    (0x81, 0x00, 0x00, 0x00, 0x00))]                     # 1
RMULZC = const((0x98, 0x35, 0x44, 0x7A, 0x00))          # 11879546
RADDZC = const((0x68, 0x28, 0xB1, 0x46, 0x00))          # 3.92767774E-08
RND_SEED = bytes((0x80, 0x4F, 0xC7, 0x52, 0x58))        # RNDX at power-on: .811635157


def _negop(f):
    """JSR NEGOP: the sign flipped unless FAC is zero."""
    METER.cycles += 25 if f[1] else 18
    return neg(f)


def poly(f, table):
    """POLY: Horner's rule over the table with FAC as x (each step FMULT then FADD).

    The first product is x (FAC) times the first coefficient; each later one is the sum so
    far (FAC, with its rounding byte) times x (TEMPF2, rounded by MOV2F)."""
    x = rounded(f)
    acc = mul(table[0], x)
    for c in table[1:-1]:
        acc = mul(x, add(c, acc))
    return add(table[-1], acc)


def polyx(f, table):
    """POLYX: the odd series x * P(x*x) (x rounded into TEMPF1 by MOV1F)."""
    x = rounded(f)
    return mul(x, poly(mul(x, x), table))


def log(f):
    """LOG: ILLEGAL QUANTITY for x <= 0; the series in (x-SQR(.5))/(x+SQR(.5)), plus the exponent."""
    if f[1] == 0 or f[0]:
        raise MathError("ILLEGAL QUANTITY")
    METER.cycles += GLUE["log"]
    e = f[1] - 0x80
    m = (0, 0x80, f[2])                         # the mantissa alone, rounding byte and all
    m = add(SQR05, m)
    m = div(SQR20, m)
    m = sub(ONE, m)
    m = polyx(m, LOGCN2)
    m = add(NEGHLF, m)
    m = finlog(m, e)
    return mul(LOG2, m)


def exp(f):
    """EXP: y = x/LOG(2) split into INT(y) (the exponent) and y - INT(y) (the series)."""
    y = mul(LOGEB2, f)
    sign_, e, man = y
    ov = man & 0xFF
    m32 = man >> 8
    if ov + 0x50 > 0xFF:                        # ADC #$50: a rounding byte from $B0 rounds up
        METER.cycles += GLUE["exp-round"] + meter.round_cycles(y)
        m32 += 1
        if m32 >> 32:
            m32 >>= 1
            e += 1
            if e > 255:
                raise MathError("OVERFLOW")
    saved = (ov + 0x50) & 0xFF                  # and what is left of it stays for the subtraction
    if e == 0 or m32 == 0:
        METER.cycles += GLUE["exp-zero"]        # INT, FSUBT and POLY on zero: 1
        return ONE
    if e >= 0x88:                               # MLDVEX: |y| >= 128
        METER.cycles += GLUE["exp-big"]
        if sign_:
            return ZERO
        raise MathError("OVERFLOW")
    whole = (sign_, e, m32 << 8)
    n = floor(whole)
    METER.cycles += GLUE["exp"] + meter.int_cycles(whole, n)
    frac = _negop(sub(from_int(n, 0, 0), (sign_, e, (m32 << 8) | saved)))    # y - INT(y), in [0, 1)
    r = poly(frac, EXPCON)
    if n == -128:                               # MLDEXP takes n + $80 = 0 for zero
        METER.cycles += GLUE["exp-n128"]
        return ZERO
    if r[1] == 0:
        return ZERO
    exponent = r[1] + n
    if exponent > 255:
        raise MathError("OVERFLOW")
    if exponent <= 0:                           # (not reached: n < -128 took MLDVEX)
        return ZERO
    if n + 0x80 + r[1] >= 0x100:                # MLDEXP: the exponents' sum carries (BCC TRYOFF not taken)
        METER.cycles += GLUE["exp-carry"]
    return (r[0], exponent, r[2])


def power(arg, fac):
    """FPWRT: ARG ^ FAC as EXP(FAC * LOG(ARG)); a negative base needs a whole exponent."""
    if fac[1] == 0:
        METER.cycles += GLUE["power-zero"]      # BEQ EXP
        return exp(fac)
    if arg[1] == 0:
        METER.cycles += GLUE["power-base-zero"]
        return ZERO                             # 0 ^ y is 0, for a negative y too
    y = rounded(fac)                            # MOVMF into TEMPF3
    odd = False
    base = arg
    if arg[0]:
        METER.cycles += GLUE["power-negative"]
        if compare(y, int_(y)) != 0:
            raise MathError("ILLEGAL QUANTITY")
        odd = floor(y) & 1 == 1
        base = fabs(arg)
    else:
        METER.cycles += GLUE["power"]
    r = exp(mul(y, log(base)))
    if odd:
        METER.cycles += GLUE["power-odd"]
        return neg(r)
    return r


def sqr(f):
    """SQR: x ^ .5 (as the ROM computes it: MOVAF, FHALF into FAC, FPWRT)."""
    METER.cycles += GLUE["sqr"]
    return power(rounded(f), HALF)


def _sin_argument(f):
    """SIN's reduction: x/(2 pi) to a fraction of a turn, folded to the series' quarter.

    Returns the series argument and whether the fold toggled TAN's sign flag."""
    x = div(rounded(f), TWOPI)
    x = rounded(x)
    x = sub(x, int_(x))                         # the fraction of a turn, [0, 1)
    x = sub(FR4, x)                             # .25 - x
    negative = x[0]
    toggled = False
    if negative:
        x = add(HALF, x)
        if not x[0]:
            toggled = True
            x = _negop(x)
            METER.cycles += GLUE["sin-toggle"]
        else:
            METER.cycles += GLUE["sin-negative"]
    else:
        x = _negop(x)
    x = add(FR4, x)
    if negative:
        x = _negop(x)
    return x, toggled


def sin(f):
    """SIN: the odd series on the reduced argument."""
    METER.cycles += GLUE["sin"]
    return polyx(_sin_argument(f)[0], SINCON)


def cos(f):
    """COS: SIN(x + pi/2)."""
    METER.cycles += GLUE["cos"]
    return sin(add(PI2, f))


def tan(f):
    """TAN: SIN(x) over the cosine the same series gives at .25 - |t| (t: SIN's argument)."""
    METER.cycles += GLUE["tan"]
    t, toggled = _sin_argument(rounded(f))
    s = rounded(polyx(t, SINCON))
    u = add(FR4, _negop(fabs(round_fac(t))))
    if toggled:
        METER.cycles += GLUE["tan-toggle"]
        u = _negop(u)
    return div(s, polyx(u, SINCON))


def atn(f):
    """ATN: the odd series on x or 1/x, folded with pi/2 - y."""
    METER.cycles += GLUE["atn"]
    negative = f[0]
    x = _negop(f) if negative else f
    big = x[1] >= 0x81
    if big:
        METER.cycles += GLUE["atn-big"]
        x = div(ONE, x)
    y = polyx(x, ATNCON)
    if big:
        y = sub(PI2, y)
    if negative:
        METER.cycles += GLUE["atn-negative"] + (22 if y[1] else 15)      # JMP NEGOP
        return neg(y)
    return y


class Rnd:
    """RND and its seed RNDX ($8B-$8F)."""

    def __init__(self, mem=None, seed_address=0x8B):
        self.mem = mem
        self.address = seed_address
        self._seed = RND_SEED
        self.reseed()

    def reseed(self):
        """The seed BASIC's cold start copies into RNDX (with CHRGET, INITCZ)."""
        self._set(RND_SEED)

    def _get(self):
        if self.mem is None:
            return self._seed
        return bytes(self.mem[self.address:self.address + 5])

    def _set(self, data):
        if self.mem is None:
            self._seed = bytes(data)
        else:
            self.mem[self.address:self.address + 5] = data

    def rnd(self, f, timers=b"\0\0\0\0"):
        """RND(x): x < 0 seeds from x, x > 0 steps the sequence, x = 0 takes CIA1's timers.

        timers: $DC04-$DC07 (timer A low, high, timer B low, high)."""
        s = sign(f)
        METER.cycles += GLUE["rnd"][s]
        if s > 0:
            f = mul(RMULZC, movfm(self._get()))
            f = add(RADDZC, f)
        if s == 0:
            # the mantissa straight from the timers (A low, B low, A high, B high), no swap
            b = [timers[0], timers[2], timers[1], timers[3]]
            exp_byte = 0
        else:
            # swap the outer and the inner mantissa bytes; the old exponent becomes the rounding byte
            m = f[2] >> 8
            b = [m & 0xFF, (m >> 8) & 0xFF, (m >> 16) & 0xFF, (m >> 24) & 0xFF]
            exp_byte = f[1]
        man = (b[0] << 32) | (b[1] << 24) | (b[2] << 16) | (b[3] << 8) | exp_byte
        METER.cycles += meter.normal_cycles(man, 0x80)
        r = normal(0, 0x80, man) if man else ZERO
        data = movmf(r)                         # into RNDX
        self._set(data)
        return unpack(data)
