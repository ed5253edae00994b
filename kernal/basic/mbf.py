"""Microsoft's 5-byte floating point as BASIC V2 computes it (the ROM's math package).

A number in memory is five bytes: the exponent (excess $80; 0 means the
number is zero) and a 32-bit mantissa, most significant byte first, whose
top bit is always 1 and is therefore replaced by the sign (1 = negative).
The value is 0.mantissa * 2 ** (exponent - $80).

While BASIC computes, the number lives in FAC ($61-$66): exponent, four
mantissa bytes with the top bit present, a sign byte, and behind them the
rounding byte FACOV ($70) which catches the eight bits shifted out of the
mantissa.  Here a FAC value is the tuple ``(sign, exp, man)`` where ``man``
is those 40 bits (mantissa << 8 | rounding byte), normalised so that bit 39
is set (or exp == 0 for zero).  A value loaded from memory has a zero
rounding byte.  The routines below follow the ROM's:

* FADDT: the operand with the smaller exponent is shifted right through the
  rounding byte (bits beyond it are lost), the 40-bit mantissas are added or
  subtracted, and NORMAL shifts the result back left.  Equal exponents leave
  a carry that adds one to the rounding byte of a sum.
* FMULTT: shift-and-add over the 40 bits of FAC (the rounding byte first):
  the exact product truncated to 40 bits, except where a zero byte of FAC
  follows another (the multiply bug, see mul).
* FDIVT: FAC is ROUNDed first, then 34 quotient bits are generated (the
  last two land in the top of the rounding byte), truncated.
* ROUND: when a number leaves FAC (stored in a variable, pushed as the left
  operand of an operator, printed) the mantissa is incremented when bit 7 of
  the rounding byte is set.

Number to text is FOUT (nine significant digits, ` .333333333`, `1E+10`,
` 1.5E-05`) and text to number is FIN, both built from these operations as
the ROM builds them (MUL10, DIV10, FADDH, QINT), so the same rounding shows.
The functions (SQR, ^, EXP, LOG, SIN, COS, TAN, ATN, RND) are kernal.basic.series.
Each routine adds the genuine ROM's cycles for its path to kernal.basic.meter's METER.
"""

from fractions import Fraction

from kernal.basic import meter
from kernal.basic.meter import (ALIGN_CYCLES, FADD_ARG_ZERO, FADD_DIFFERENCE, FADD_FAC_ZERO, FADD_HEAD, FADD_SUM,
                                FADD_SUM_CARRY, FCOMP_DIFFER, FCOMP_EQUAL, FCOMP_SIGNS, FCOMP_ZERO, FDIV_HEAD,
                                FIN_DECIMAL, FIN_DIGIT, FIN_E, FIN_E_DIGIT, FIN_E_DIGIT_BIG, FIN_E_END, FIN_E_OTHER,
                                FIN_E_SIGN, FIN_FIRST, FIN_HEAD, FIN_NEGATIVE, FIN_NO_SCALE, FIN_OTHER, FIN_PER_SCALE,
                                FIN_POINT, FIN_POINT_AGAIN, FIN_POSITIVE, FIN_SCALE_DOWN, FIN_SCALE_UP, FINLOG_HEAD,
                                FLOAT_HEAD, FMUL_ARG_ZERO, FMUL_FAC_ZERO, FMUL_UNDERFLOW, FSUB_HEAD, GIVAYF_HEAD, METER,
                                normal_cycles)

MAN_BITS = 40
TOP = 1 << 39
FULL = 1 << 40
ZERO = (0, 0, 0)


class MathError(Exception):
    """OVERFLOW, DIVISION BY ZERO or ILLEGAL QUANTITY raised by the math package."""


# -- packing ------------------------------------------------------------------------------
def unpack(data):
    """Five bytes (exponent, mantissa with the sign in its top bit) -> FAC value (CONUPK/MOVFM)."""
    exp = data[0]
    if exp == 0:
        return ZERO
    m = ((data[1] | 0x80) << 24) | (data[2] << 16) | (data[3] << 8) | data[4]
    return (data[1] >> 7, exp, m << 8)


def round_fac(f):
    """ROUND: bit 7 of the rounding byte increments the mantissa; the rounding byte is cleared."""
    sign, exp, man = f
    if exp == 0:
        return ZERO
    m32 = man >> 8
    if man & 0x80:
        m32 += 1
        if m32 >> 32:                      # RNDSHF: the mantissa overflowed into a new bit
            m32 >>= 1
            exp += 1
            if exp > 255:
                raise MathError("OVERFLOW")
    return (sign, exp, m32 << 8)


def pack(f):
    """MOVMF: round FAC and give its five bytes as a variable holds them."""
    sign, exp, man = round_fac(f)
    if exp == 0:
        return bytes(5)
    m = man >> 8
    return bytes((exp, ((m >> 24) & 0x7F) | (sign << 7), (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF))


def movfm(data):
    """MOVFM: a number from memory into FAC (unpack, metered)."""
    METER.cycles += meter.MOVFM_CYCLES
    return unpack(data)


def movmf(f):
    """MOVMF: FAC rounded and stored (pack, metered: ROUND and the five stores)."""
    METER.cycles += meter.MOVMF_CYCLES + meter.round_cycles(f)
    return pack(f)


def normal(sign, exp, man):
    """NORMAL: shift left until bit 39 is set; underflow gives zero.

    The ROM moves whole bytes up while the top byte is zero and gives up after four: a
    mantissa whose top 32 bits are zero is zero, whatever its rounding byte holds."""
    if man < 0x100:
        return ZERO
    shift = 40 - man.bit_length()
    if shift > 0:
        man <<= shift
        exp -= shift
    if exp <= 0:
        return ZERO
    return (sign, exp, man)


# -- conversions with Python numbers (exact) ---------------------------------------------------
def from_int(n, head=GIVAYF_HEAD, bits=16):
    """An integer with |n| < 2**32 as FAC (FLOAT/GIVAYF are exact).

    Metered as GIVAYF with a 16-bit n (FLOAT: head=FLOAT_HEAD, bits=8); a larger one as
    FLOATB would take it from the top 32 bits; bits=0: not metered (the caller does)."""
    if bits == 16 and not -0x8000 <= n < 0x8000:
        bits = 32
    if bits:
        METER.cycles += meter.float_cycles(n, head, bits)
    if n == 0:
        return ZERO
    sign = 1 if n < 0 else 0
    n = abs(n)
    if n >> 40:
        raise MathError("OVERFLOW")
    bits = n.bit_length()
    return (sign, 0x80 + bits, n << (MAN_BITS - bits))


def to_fraction(f):
    """The exact value of a FAC value, rounding byte included."""
    sign, exp, man = f
    if exp == 0:
        return Fraction(0)
    value = Fraction(man) * Fraction(2) ** (exp - 0x80 - MAN_BITS)
    return -value if sign else value


def to_float(f):
    return float(to_fraction(f))


def from_fraction(value):
    """The nearest MBF number to an exact value (for constants and tests; not a ROM routine)."""
    value = Fraction(value)
    if value == 0:
        return ZERO
    sign = 1 if value < 0 else 0
    value = abs(value)
    exp = 0x80
    while value >= 1:
        value /= 2
        exp += 1
    while value < Fraction(1, 2):
        value *= 2
        exp -= 1
    m = value * (1 << 32)
    m32 = int(m)
    if m - m32 >= Fraction(1, 2):
        m32 += 1
        if m32 >> 32:
            m32 >>= 1
            exp += 1
    if exp > 255:
        raise MathError("OVERFLOW")
    if exp <= 0:
        return ZERO
    return (sign, exp, m32 << 8)


# -- arithmetic ---------------------------------------------------------------------------------
def neg(f):
    """NEGOP."""
    return f if f[1] == 0 else (f[0] ^ 1, f[1], f[2])


def fabs(f):
    return (0, f[1], f[2])


def add(arg, fac):
    """FADDT: ARG + FAC (ARG as it came from memory or a ROUNDed push: no rounding byte).

    The operand with the smaller exponent is shifted right (a shifted FAC takes its rounding
    byte along; bits beyond 40 are lost).  With equal exponents the carry left set by the
    exponents' subtraction goes into the rounding byte of a sum (FADD4 -> FADD2's ADC OLDOV):
    a sum of two numbers of the same binade carries a rounding byte of 1 more than FAC's."""
    if fac[1] == 0:
        METER.cycles += FADD_FAC_ZERO
        return (arg[0], arg[1], arg[2] & ~0xFF) if arg[1] else ZERO       # MOVFA
    asgn, aexp, aman = arg
    if aexp == 0:
        METER.cycles += FADD_ARG_ZERO
        return fac
    fsgn, fexp, fman = fac
    aman &= ~0xFF
    d = aexp - fexp
    carry = 0
    if d == 0:
        exp, sgn, y, x = fexp, fsgn, fman, aman
        carry = 1
        cycles = FADD_HEAD[0]
    elif d < 0:                                # FADDA: ARG is shifted
        exp, sgn, y, x = fexp, fsgn, fman, aman >> -d
        cycles = FADD_HEAD[2] + ALIGN_CYCLES[-d]
    else:                                      # FAC is shifted, the result takes ARG's sign
        exp, sgn, y, x = aexp, asgn, aman, fman >> d
        cycles = FADD_HEAD[1] + ALIGN_CYCLES[d]
    if asgn == fsgn:
        man = y + x + carry
        if man >= FULL:                        # SQUEEZ: shift right, the lowest bit is lost
            METER.cycles += cycles + FADD_SUM_CARRY
            man >>= 1
            exp += 1
            if exp > 255:
                raise MathError("OVERFLOW")
        else:
            METER.cycles += cycles + FADD_SUM
        return (sgn, exp, man)
    man = y - x                                # SUBIT: the unshifted one minus the shifted one
    cycles += FADD_DIFFERENCE[d > 0]
    if man < 0:                                # NEGFAC
        sgn ^= 1
        man = -man
        cycles += meter.negfac_cycles(man)
    else:
        cycles += 3                            # FADFLT: BCS NORMAL
    METER.cycles += cycles + normal_cycles(man, exp)
    return normal(sgn, exp, man)


def sub(arg, fac):
    """FSUBT: ARG - FAC."""
    METER.cycles += FSUB_HEAD
    return add(arg, neg(fac))


def mul(arg, fac):
    """FMULTT: FAC * ARG, the multiplier FAC taken a byte at a time, the rounding byte first.

    A non-zero byte adds ARG and shifts right once per bit (MLTPL1): that much is the exact
    product truncated to 40 bits.  A zero byte shifts the partial result right by a whole
    byte at once through MULSHF, which enters SHIFTR with the carry it finds: set after a
    non-zero byte (or when the exponents' sum stayed below $100), clear after another
    MULSHF.  With the carry clear the result is shifted one bit more, and the bit is not
    caught in the rounding byte: the multiply bug, so FAC * ARG need not equal ARG * FAC."""
    if fac[1] == 0:
        METER.cycles += FMUL_FAC_ZERO
        return ZERO
    if arg[1] == 0:
        METER.cycles += FMUL_ARG_ZERO
        return ZERO
    s = fac[1] + arg[1]                    # MULDIV
    if s >= 0x80 + 0x100:
        raise MathError("OVERFLOW")
    if s < 0x80:
        METER.cycles += FMUL_UNDERFLOW
        return ZERO
    a32 = arg[2] >> 8
    multiplier = fac[2]
    low = multiplier & 0xFFFFFFFF
    if (low & 0xFFFF and not low & 0xFFFF0000) or (low & 0xFF and not low & 0xFFFF00):
        # two zero bytes in a row after a non-zero one: the second is shifted by nine bits
        res = 0                            # RESHO..RESLO and FACOV as one 40-bit number
        carry = False                      # before the first non-zero byte nothing can be lost
        for shift in (0, 8, 16, 24):       # FACOV, FACLO, FACMO, FACMOH through MLTPLY
            byte = (multiplier >> shift) & 0xFF
            if byte:
                res = (res + ((byte * a32) << 8)) >> 8
                carry = True
            elif carry:
                res >>= 8
                carry = False
            else:                          # SHIFTR's extra bit; FACOV keeps the byte shift's
                res = ((res >> 17) << 8) | ((res >> 8) & 0xFF)
        res = (res + (((multiplier >> 32) * a32) << 8)) >> 8   # FACHO through MLTPL1
    else:
        res = (multiplier * a32) >> 32
    METER.cycles += meter.fmult_cycles(multiplier, s, res)
    if s == 0x80:                          # ZEROML returned into FMULTT: NORMAL finds exponent 0
        return ZERO
    return normal(fac[0] ^ arg[0], s - 0x80, res)


def div(arg, fac):
    """FDIVT: ARG / FAC.  FAC is rounded first; 34 quotient bits, truncated."""
    if fac[1] == 0:
        raise MathError("DIVISION BY ZERO")
    cycles = meter.round_cycles(fac)
    fac = round_fac(fac)
    if arg[1] == 0:
        METER.cycles += cycles + meter.FDIV_ARG_ZERO
        return ZERO
    a, f = arg[2] >> 8, fac[2] >> 8
    q = (a << 33) // f                     # DIVIDE: first bit is a >= f, then 33 more
    s = arg[1] - fac[1] + 0x80             # MULDIV ($BAB7) on the negated exponent
    if s >= 0x100:
        raise MathError("OVERFLOW")
    if s < 0:
        METER.cycles += cycles + meter.FDIV_UNDERFLOW
        return ZERO
    METER.cycles += cycles + FDIV_HEAD[s >= 0x80] - (s == 0) + meter.divide_cycles(a, f) + normal_cycles(q << 6, 1)
    sign = fac[0] ^ arg[0]
    if s == 0:
        # MULDIV's exponent 0 goes to ZEROML ($B8FB), which clears the sign and returns to
        # FDIVT instead of ending it: INC FACEXP makes it 1 and the quotient stands, as a
        # positive number (-1E-38/3.4 is 2.94117647E-39 on a C64)
        sign = 0
    exp = s + 1                            # INC FACEXP: $FF + 1 is OVERFLOW, whatever the quotient
    if exp > 255:
        raise MathError("OVERFLOW")
    return normal(sign, exp, q << 6)


def compare(arg, fac):
    """FCOMP: -1, 0 or 1 as ARG (a number from memory) is below, equal to or above FAC.

    The last byte is compared as FACLO plus one when the rounding byte's top bit is set,
    without carrying into the byte above (so FAC is taken rounded, nearly always)."""
    aexp = arg[1]
    if aexp == 0:
        METER.cycles += FCOMP_ZERO[sign(fac)]
        return -sign(fac)
    if arg[0] != fac[0]:
        METER.cycles += FCOMP_SIGNS[arg[0]]
        return -1 if arg[0] else 1
    m32, f32 = arg[2] >> 8, fac[2] >> 8
    if aexp != fac[1]:
        larger = aexp > fac[1]
        cycles = FCOMP_DIFFER[0]
    elif m32 >> 8 != f32 >> 8:
        larger = m32 >> 8 > f32 >> 8
        x = (m32 ^ f32) >> 8
        cycles = FCOMP_DIFFER[1 if x >> 16 else 2 if x >> 8 else 3]
    else:
        diff = (m32 & 0xFF) - (f32 & 0xFF) - (fac[2] >> 7 & 1)
        if diff & 0xFF == 0:
            METER.cycles += FCOMP_EQUAL
            return 0
        larger = diff > 0
        cycles = FCOMP_DIFFER[4]
    if arg[0]:                                 # FCOMPC: EOR #$FF when the carry is set; FCOMPS
        cycles += 1 if larger else -1
    METER.cycles += cycles
    return (1 if larger else -1) * (-1 if arg[0] else 1)


def sign(f):
    """SIGN: -1, 0, 1."""
    if f[1] == 0:
        return 0
    return -1 if f[0] else 1


def sgn(f):
    """SGN: SIGN, then FLOAT of -1, 0 or 1."""
    s = sign(f)
    METER.cycles += meter.SGN_HEAD[s]
    return from_int(s, FLOAT_HEAD, 8)


def abs_value(f):
    """ABS: LSR FACSGN."""
    METER.cycles += meter.ABS_CYCLES
    return (0, f[1], f[2])


# -- integers -------------------------------------------------------------------------------------
def floor(f):
    """The largest integer not above FAC (rounding byte included), unmetered."""
    sign, exp, man = f
    if exp == 0:
        return 0
    k = 0x80 + MAN_BITS - exp                  # the bits below the point
    if k <= 0:
        n = man << -k
    elif sign:
        return -((man + (1 << k) - 1) >> k)
    else:
        n = man >> k
    return -n if sign else n


def floor_int(f):
    """QINT as INT uses it: the largest integer not above FAC (rounding byte included)."""
    METER.cycles += meter.qint_cycles(f)
    return floor(f)


def int_(f):
    """INT: FAC unchanged from 2**31 up, else its floor as a float."""
    if f[1] >= 0xA0:
        METER.cycles += meter.INT_BIG
        return f
    n = floor(f)
    METER.cycles += meter.int_cycles(f, n)
    return from_int(n, 0, 0)


def to_int16(f):
    """AYINT: a signed 16-bit integer (integer variables, FRE's neighbours); ILLEGAL QUANTITY outside."""
    if f[1] >= 0x90:
        if f == (1, 0x90, 0x80 << 32):          # -32768 is allowed
            METER.cycles += meter.AYINT_N32768
            return -32768
        raise MathError("ILLEGAL QUANTITY")
    METER.cycles += meter.AYINT_HEAD
    return floor_int(f)


def to_address(f):
    """GETADR: 0-65535 (POKE, PEEK, SYS, WAIT); ILLEGAL QUANTITY otherwise."""
    if f[0] and f[1]:
        raise MathError("ILLEGAL QUANTITY")
    if f[1] > 0x90:
        raise MathError("ILLEGAL QUANTITY")
    METER.cycles += meter.GETADR_HEAD
    return floor_int(f)


def to_byte(f):
    """GETBYT's CONINT: 0-255."""
    if f[0] and f[1] or f[1] > 0x90:
        raise MathError("ILLEGAL QUANTITY")
    METER.cycles += meter.CONINT_HEAD
    n = floor_int(f)
    if n > 255:
        raise MathError("ILLEGAL QUANTITY")
    return n


# -- constants -----------------------------------------------------------------------------------
def const(data):
    """A constant as its five bytes, the way the ROM's tables hold them."""
    return unpack(bytes(data))


ONE = from_int(1)
TEN = from_int(10)
HALF = const((0x80, 0x00, 0x00, 0x00, 0x00))           # FHALF 0.5
N0999 = const((0x9B, 0x3E, 0xBC, 0x1F, 0xFD))          # 99999999.90625
N9999 = const((0x9E, 0x6E, 0x6B, 0x27, 0xFD))          # 999999999.25
NMIL = const((0x9E, 0x6E, 0x6B, 0x28, 0x00))           # 1E9


def rounded(f):
    """ROUND as the ROM calls it (MOVAF, MOVMF): metered."""
    if f[1] and not f[2] & 0x80:           # the rounding bit clear: 19 cycles, the byte dropped
        METER.cycles += 19
        return (f[0], f[1], f[2] & ~0xFF)
    METER.cycles += meter.round_cycles(f)
    return round_fac(f)


def mul10(f):
    """MUL10: FAC rounded (MOVAF), times 4 plus itself (FADDC), times 2."""
    f = rounded(f)
    if f[1] == 0:
        METER.cycles += meter.MUL10_ZERO
        return ZERO
    if f[1] + 2 > 255:
        raise MathError("OVERFLOW")
    METER.cycles += meter.MUL10_HEAD
    r = add(f, (f[0], f[1] + 2, f[2]))
    if r[1] + 1 > 255:
        raise MathError("OVERFLOW")
    return (r[0], r[1] + 1, r[2])


def div10(f):
    """DIV10: FAC rounded (MOVAF), TENC into FAC (MOVFM), FDIVT."""
    METER.cycles += meter.DIV10_HEAD
    return div(rounded(f), TEN)


# -- FOUT: number -> text --------------------------------------------------------------------------
def fout(f):
    """The characters STR$ gives and PRINT prints (without PRINT's trailing cursor right).

    Metered from FOUT's entry to its RTS: the scaling (FMULT by 1E9, the FCOMPs, MUL10s,
    DIV10s, FADDH, QINT as they run), the digit loop by its additions (meter.FOUT, indices
    named in meter.FOUT_PATHS), the trailing zeros dropped and the exponent written."""
    out = "-" if f[0] and f[1] else " "
    F = meter.FOUT
    if f[1] == 0:
        METER.cycles += F[27]
        return out + "0"
    cycles = F[0] + (F[1] if f[0] else 0)
    f = (0, f[1], f[2])
    deccnt = 0
    if f[1] <= 0x80:                       # below 1: scale up by 1E9 first
        cycles += F[3] if f[1] == 0x80 else F[2]
        f = mul(NMIL, f)
        deccnt = -9
    # Bring FAC between 99999999.9 and 999999999.25 (N0999, N9999; FCOMP takes FAC rounded),
    # following the ROM's labels: DECCNT reaching zero sends it on as the ROM's BNEs do.
    step = "fout4"
    while True:
        if step == "fout4":
            c = compare(N9999, f)
            if c == 0:                     # BIGGES: exactly 999999999.25 goes to QINT as is
                cycles += F[4]
                n = floor_int(f)
                break
            cycles += F[5] if c < 0 else F[6]
            step = "fout9" if c < 0 else "fout3"
        elif step == "fout3":
            c = compare(N0999, f)
            if c < 0:
                cycles += F[8]
                step = "fout5"
                continue
            cycles += F[7] if c == 0 else F[9]
            f = mul10(f)
            deccnt -= 1
            cycles += F[10] if deccnt else F[11]
            step = "fout3" if deccnt else "fout9"
        elif step == "fout9":
            f = div10(f)
            deccnt += 1
            cycles += F[12] if deccnt else F[13]
            step = "fout4" if deccnt else "fout5"
        else:                              # FOUT5: FADDH on FAC as it is, then QINT (a floor)
            cycles += F[14]
            n = floor_int(add(HALF, f))
            break
    digits = "%09d" % n
    point = deccnt + 10
    if 0 <= point <= 10:
        x, tenexp = point - 1, 0
    else:
        x, tenexp = 1, point - 2
        cycles += F[15] if point < 0 else F[16]
    if x == -1:
        text = ".0" + digits
        cycles += F[18]
    elif x == 0:
        text = "." + digits
        cycles += F[17]
    else:
        text = digits[:x] + "." + digits[x:]
        if x <= 9:
            cycles += F[21]
    # FOUT2: each digit by adding its power of ten (negative at the even places) until the sign turns
    cycles += (F[19] * (5 + n // 100000000 + n // 1000000 % 10 + n // 10000 % 10 + n // 100 % 10 + n % 10)
               + F[20] * (40 - n // 10000000 % 10 - n // 100000 % 10 - n // 1000 % 10 - n // 10 % 10))
    stripped = text.rstrip("0")
    cycles += F[22] * (len(text) - len(stripped))
    text = stripped
    if text.endswith("."):
        text = text[:-1]
        cycles += F[23]
    if tenexp:
        text += "E%s%02d" % ("-" if tenexp < 0 else "+", abs(tenexp))
        cycles += (F[25] if tenexp < 0 else F[24]) + F[26] * (abs(tenexp) // 10)
    METER.cycles += cycles
    return out + text


# -- FIN: text -> number ---------------------------------------------------------------------------
def fin(text, start=0):
    """FIN: parse a number as the ROM does (spaces skipped, digit by digit through MUL10).

    `text` is bytes (PETSCII).  Returns (FAC value, index after the number).  The minus
    and plus tokens ($AB, $AA) count as signs as they do in program text.  Metered from
    FIN's entry on the first character (the caller's CHRGET read it): each CHRGET after it
    (an index taken as its address for CHRGET's page crossings), each digit's MUL10 and
    FINLOG, the exponent's digits, the MUL10s or DIV10s that place the point.
    """
    i, n = start, len(text)
    while i < n and text[i] == 0x20:        # the caller's CHRGET skipped these
        i += 1
    cycles = FIN_HEAD

    def chrget(i):
        """CHRGET from i - 1: the index of the next character that is not a space, and it;
        its cycles metered."""
        j = i
        while j < n and text[j] == 0x20:
            j += 1
        c = text[j] if j < n else 0
        METER.cycles += (23 if c >= 0x3A else 34) + 21 * (j - i) + (
            4 * sum(1 for k in range(i, j + 1) if not k & 0xFF) if (i - 1) >> 8 != j >> 8 else 0)
        return j, c

    f = ZERO
    negative = False
    c = text[i] if i < n else 0
    if c in (0x2D, 0xAB):
        negative = True
        cycles += FIN_FIRST[1]
        i, c = chrget(i + 1)
        cycles += 3 if 0x30 <= c <= 0x39 else 2          # FINDGQ: BCC FINDIG
    elif c in (0x2B, 0xAA):
        cycles += FIN_FIRST[2]
        i, c = chrget(i + 1)
        cycles += 3 if 0x30 <= c <= 0x39 else 2
    else:
        cycles += FIN_FIRST[0 if 0x30 <= c <= 0x39 else 3]
    deccnt = tenexp = 0
    point = False
    while True:
        if 0x30 <= c <= 0x39:                # FINDIG
            if point:
                deccnt += 1
                cycles += FIN_DECIMAL
            METER.cycles += cycles + FIN_DIGIT
            cycles = 0
            f = finlog(mul10(f), c - 0x30)
            i, c = chrget(i + 1)
            cycles += 3 if 0x30 <= c <= 0x39 else 2
            continue
        if c == 0x2E and not point:          # FINDP
            point = True
            cycles += FIN_POINT
            i, c = chrget(i + 1)
            cycles += 3 if 0x30 <= c <= 0x39 else 2
            continue
        if c == 0x45:                       # E
            cycles += FIN_E
            i, c = chrget(i + 1)
            expneg = False
            if 0x30 <= c <= 0x39:
                cycles += 6                  # BCC FNEDG1, BCC FINEDG
            elif c in (0x2D, 0xAB, 0x2B, 0xAA):
                expneg = c in (0x2D, 0xAB)
                cycles += FIN_E_SIGN[c]
                i, c = chrget(i + 1)
                cycles += 3 if 0x30 <= c <= 0x39 else 2      # FNEDG1: BCC FINEDG
            else:
                cycles += FIN_E_OTHER
            while 0x30 <= c <= 0x39:         # FINEDG
                if tenexp >= 10:
                    if not expneg:
                        raise MathError("OVERFLOW")
                    tenexp = 100
                    cycles += FIN_E_DIGIT_BIG
                else:
                    tenexp = tenexp * 10 + c - 0x30
                    cycles += FIN_E_DIGIT
                i, c = chrget(i + 1)
                cycles += 3 if 0x30 <= c <= 0x39 else 2
            if expneg:
                tenexp = -tenexp
            cycles += FIN_E_END[expneg]      # FINEC2
        else:
            cycles += FIN_POINT_AGAIN if c == 0x2E else FIN_OTHER
        break
    tenexp -= deccnt                         # FINE
    if tenexp > 0:
        cycles += FIN_SCALE_UP + FIN_PER_SCALE * tenexp
    elif tenexp < 0:
        cycles += FIN_SCALE_DOWN - FIN_PER_SCALE * tenexp
    else:
        cycles += FIN_NO_SCALE
    METER.cycles += cycles
    while tenexp > 0:
        f = mul10(f)
        tenexp -= 1
    while tenexp < 0:
        f = div10(f)
        tenexp += 1
    if negative:                             # FINQNG: JMP NEGOP
        METER.cycles += FIN_NEGATIVE[f[1] != 0]
        f = neg(f)
    else:
        METER.cycles += FIN_POSITIVE
    return f, i


def finlog(f, a):
    """FINLOG: FAC + the signed byte a (MOVAF, FLOAT, FADDT), as FIN adds a digit and LOG
    its exponent."""
    METER.cycles += FINLOG_HEAD
    return add(rounded(f), from_int(a, FLOAT_HEAD, 8))


def val(text):
    """VAL: the number at the start of a string, 0 if there is none."""
    if isinstance(text, str):
        text = text.encode("latin-1")
    return fin(text)[0]


def from_str(text):
    """A number written in BASIC (for constants and tests)."""
    return val(text)


def time_jiffies(digits):
    """TI$ = six digits into jiffies as the ROM's TIMELP does (LET, $A9EB on): per pair of
    digits FINLOG the first, MUL10, FINLOG the second, then times 6 (MOVAF, FINML6: FADDC
    with ARG one exponent up, INC FACEXP) unless FAC is 0; at the end MUL10 and QINT.
    Metered; the digits are checked by the caller."""
    f = ZERO
    for i in (0, 2, 4):
        f = finlog(mul10(finlog(f, digits[i] - 0x30)), digits[i + 1] - 0x30)
        f = rounded(f)
        if f[1] == 0:
            METER.cycles += meter.MUL10_ZERO - 6      # (TAX, BEQ NOML6: no RTS of MUL10's)
            continue
        METER.cycles += meter.MUL10_HEAD + 4          # INX, TXA, JSR FINML6 for MUL10's CLC, ADC #2, BCS
        r = add(f, (f[0], f[1] + 1, f[2]))
        f = (r[0], r[1] + 1, r[2])
    return floor_int(mul10(f))
