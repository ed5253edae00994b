"""What the ROM's math package spends: C64 cycles metered as kernal.basic.mbf computes.

Each routine of mbf (and kernal.basic.series) adds the cycles the genuine BASIC ROM
(901226-01) takes from the routine's entry to its RTS for the same operands, path by path
as its 6502 code runs; the interpreter charges what was spent to the clock with the
statement (kernal.basic.interpreter, charge).  The counts are read off the ROM's
instructions and were checked against the genuine ROMs (KERNAL 901227-03, BASIC 901226-01)
run on the project's cycle-exact CPU: exact for every operand tried.

The boundary with the interpreter's own charges (kernal.basic.cycles): a
charge here runs from the math routine's first instruction to its RTS, the JSR (or the
operator dispatch) into it excluded; what happens around the call is the interpreter's
(FRMEVL's operator loop pushing and pulling the operands, PTRGET, CHRGET outside FIN,
ISFUN's dispatch and PARCHK, DOREL's result, FOR's stack frame).  Charged here:

* mbf.add FADDT ($B86A), mbf.sub FSUBT ($B853), mbf.mul FMULTT ($BA2B), mbf.div FDIVT
  ($BB12), series.power FPWRT ($BF7B): entered as FRMEVL enters an operator (ARG pulled,
  A = FACEXP).  Where the interpreter's ROM path enters FADD/FSUB/FMULT/FDIV with A/Y at
  a number (NEXT's FADD of the variable), the CONUPK before it (CONUPK_CYCLES) is the
  caller's to add.
* mbf.compare FCOMP ($BC5B) with A/Y at the number in memory.
* mbf.movfm MOVFM ($BBA2) and mbf.movmf MOVMF ($BBD4, ROUND in it): a variable fetched and
  stored (LET, FOR, NEXT, INPUT, READ, FN's parameter).  mbf.unpack, pack and round_fac
  are free: the interpreter's own moves.
* mbf.fin FIN ($BCF3) entered on the first character (its CHRGETs are its own), mbf.fout
  FOUT ($BDDD).
* mbf.from_int GIVAYF ($B391) (SNGFLT's LDA #0 before it is the caller's), mbf.floor_int
  QINT ($BC9B), mbf.int_ INT ($BCCC), mbf.to_int16 AYINT ($B1BF), mbf.to_address GETADR
  ($B7F7), mbf.to_byte CONINT ($B7A1, up to its JMP CHRGOT: CHRGOT's own instructions are
  CHRGET's), mbf.sgn SGN ($BC39), mbf.abs_value ABS ($BC58).
* series.sqr SQR ($BF71), series.exp EXP ($BFED), series.log LOG ($B9EA), series.sin SIN
  ($E26B), series.cos COS ($E264), series.tan TAN ($E2B4), series.atn ATN ($E30E),
  series.Rnd.rnd RND ($E097): from the entry ISFUN jumps to.
* Inside those, the routines the ROM calls as they run: ROUND, NORMAL, MUL10, DIV10,
  FINLOG, POLY/POLYX, NEGOP.
"""


class Meter:
    """The C64 cycles the ROM's routines spent on the operations done in mbf (take)."""

    __slots__ = ("cycles",)

    def __init__(self):
        self.cycles = 0

    def take(self):
        spent, self.cycles = self.cycles, 0
        return spent


METER = Meter()


# -- NORMAL ($B8D7) ----------------------------------------------------------------------------
def normal_cycles(man, exp):
    """NORMAL on a 40-bit mantissa (FACHO..FACOV) whose exponent is `exp`: whole bytes moved
    up while FACHO is 0 (39 cycles each; the fourth ends at ZEROFC: zero), then NORM2's bit
    shifts (30 each).  BNE NORM1 and the underflow's BCS ZEROFC both cross a page."""
    if man < 0x100:
        return 175
    lz = 40 - man.bit_length()
    return 38 + 39 * (lz >> 3) + 30 * (lz & 7)


# -- SHIFTR ($B999), ROLSHF ($B9B0): shifting right -----------------------------------------------
def rolshf_cycles(y, top, first=22):
    """From ROLSHF (first=22) or SHFTR3 (first=43) with Y counting up to 0: a bit a pass, to
    SHFTRT's RTS.  `top`: the top byte's bit 7, which SHFTR3 keeps (BCC SHFTR4 not taken, INC)."""
    n = 256 - y if y else 256
    return first + (n - 1) * (46 + 5 * top) + 10 + (5 * top if first == 43 else 0)


def shiftr_cycles(a, carry, top):
    """SHIFTR with A = minus the shift count and the carry it finds: SHFTR2 moves whole bytes
    (38 cycles each, BITS into the top byte), then SHFTR3 the bits left; to SHFTRT's RTS."""
    c = 0
    while True:
        a += 8 + carry
        carry, a = a >> 8, a & 0xFF
        if a & 0x80:
            c += 2 + 3 + 38
        elif a == 0:
            c += 2 + 2 + 3 + 38
        else:
            break
    a -= 8 + 1 - carry                     # SBC #$08
    carry, a = (0, a & 0xFF) if a < 0 else (1, a)
    c += 13                                # ADC, BMI, BEQ, SBC, TAY, LDA FACOV
    if carry:
        return c + 3 + 8                   # BCS SHFTRT: CLC, RTS
    return c + 2 + rolshf_cycles(a, top, 43)


# -- FADDT ($B86A) -------------------------------------------------------------------------------
FADD_FAC_ZERO = 86          # BNE not taken: JMP MOVFA copies ARG
FADD_ARG_ZERO = 25          # FADDC: TAY; BEQ ZERRTS
FADD_HEAD = (26, 50, 33)    # to FADD4 / FADD1: equal exponents, FAC shifted (ARG's sign taken), ARG shifted
FADD_SUM = 60               # FADD4: BIT ARISGN, BPL; FADD2: the five ADCs; JMP SQUEEZ, BCC RNDRTS, RTS
FADD_SUM_CARRY = 91         # ... RNDSHF instead: the carry shifted in, FACEXP + 1
FADD_DIFFERENCE = (66, 67)  # FADD4 to SUBIT's five SBCs: ARG shifted or none / FAC shifted (CPX #ARGEXP)
FSUB_HEAD = 20              # FSUBT: FACSGN flipped, ARISGN, LDA FACEXP, JMP FADDT
NEGFAC_CYCLES = (70, 77, 84, 91, 95)   # BCS not taken, JSR NEGFAC .. RTS, by the zero bytes INCFAC carries through


def _align_cycles(s):
    """FADD1 to FADD4: the operand with the smaller exponent shifted right s bits.  Up to 7
    (and from 136, where CMP #$F9 sees a positive number) LSR 1,X and ROLSHF take a bit at a
    time; otherwise SHIFTR moves whole bytes then the bits left (its top byte 0 from BITS)."""
    a = -s & 0xFF
    if (a - 0xF9) & 0x80 == 0:             # CMP #$F9, BMI not taken, TAY, LDA FACOV, LSR 1,X, JSR
        return 21 + rolshf_cycles(a, 0)
    return 2 + 3 + 6 + shiftr_cycles(a, 0, 0) + 3      # CMP, BMI FADD5, JSR SHIFTR; BCC FADD4


ALIGN_CYCLES = [0] + [_align_cycles(s) for s in range(1, 256)]


def negfac_cycles(man):
    """NEGFAC on a 40-bit value: INCFAC carries through its zero bytes (FACOV up)."""
    k = 0
    while k < 4 and not (man >> (8 * k)) & 0xFF:
        k += 1
    return NEGFAC_CYCLES[k]


# -- ROUND ($BC1B) -------------------------------------------------------------------------------
def round_cycles(f):
    """ROUND: 12 for zero, 19 with the rounding bit clear; else INCFAC through the mantissa's
    $FF bytes (7 each; FACHO is the last, without a branch) and RNDSHF when all four carry."""
    if f[1] == 0:
        return 12
    man = f[2]
    if not man & 0x80:
        return 19
    m = man >> 8
    k = 0
    while k < 4 and (m >> (8 * k)) & 0xFF == 0xFF:
        k += 1
    return (41, 48, 55, 59, 93)[k]


# -- FMULTT ($BA2B) -------------------------------------------------------------------------------
FMUL_FAC_ZERO = 11          # BNE not taken, JMP MULTRT
FMUL_ARG_ZERO = 40          # MULDIV: BEQ ZEREMV, PLA PLA, JMP ZEROFC
FMUL_UNDERFLOW = 50         # MULDIV: the exponents' sum below $81 (BPL ZEREMV)
FMUL_HEAD = (63, 58)        # MULDIV (its sum from $100 / below), RES cleared; MLTPLY's LDA/JSR are per byte
# per byte of FACOV..FACMOH through MLTPLY: a non-zero byte takes MLTPL1's eight passes (317),
# 37 cycles more for each bit set (the four ADCs of ARG); FACHO goes to MLTPL1 (3 less)
MUL_ZERO_CYCLES = (122, 78)   # a zero byte: MULSHF's byte move, one bit more when the carry is clear
MOVFR_CYCLES = 30           # JMP MOVFR: RES into FAC, JMP NORMAL


def fmult_cycles(multiplier, s, res):
    """FMULTT from MULDIV on: the 40-bit multiplier (FAC), the exponents' sum s, the product
    before NORMAL.  A sum of exactly $80 reaches ZEROML, which returns into FMULTT: the
    product is made and NORMAL finds exponent 0."""
    carry = s < 0x100
    c = (FMUL_HEAD[carry] - (s == 0x80) + 37 * multiplier.bit_count() + 317 - 3 + MOVFR_CYCLES
         + normal_cycles(res, s - 0x80 if s > 0x80 else 0))
    if multiplier & 0xFF and multiplier & 0xFF00 and multiplier & 0xFF0000 and multiplier & 0xFF000000:
        return c + 4 * 317                 # no zero byte: MLTPL1 for each
    for shift in (0, 8, 16, 24):
        if (multiplier >> shift) & 0xFF:
            c += 317
            carry = 1
        else:
            c += MUL_ZERO_CYCLES[carry]
            carry = 0
    return c


# -- FDIVT ($BB12) ---------------------------------------------------------------------------------
FDIV_HEAD = (106, 111)      # BEQ, JSR ROUND, the exponent negated, MULDIV (no carry / carry), INC FACEXP,
                            # MOVFR; ROUND's own cycles are added (round_cycles)
FDIV_ARG_ZERO = 55          # MULDIV: BEQ ZEREMV, PLA PLA, JMP ZEROFC (ROUND before it added)
DIV_COMPARE_CYCLES = (9, 17, 25, 30)   # DIVIDE: ARG against FAC a byte at a time, 0-3 bytes equal
# SAVQUO per bit (PHP, ROL, BCC QSHFT: 8; a quotient byte stored at bits 8, 16, 24: 16, LD100 at
# bit 32: 18), QSHFT/SHFARG for each of the first 33 (PLP, BCS, the shift: 26; DIVSUB's
# subtraction 44 more when the bit is 1), DIVNRM after the 34th (35)
DIV_FIXED_CYCLES = 34 * 8 + 3 * 8 + 10 + 33 * 26 + 35
_divide_cache = {}


def divide_cycles(a, f):
    """DIVIDE..DIVNRM: the 34 quotient bits of the 32-bit mantissas a / f (a < 2 f).  How
    each bit is found: the first by comparing the bytes; after each shift of the remainder
    its carry makes the bit 1 (BCS SAVQUO, 3), a top bit set compares the bytes (BMI
    DIVIDE, 5), else the bit is 0 (BPL SAVQUO, 7)."""
    key = (a, f)
    c = _divide_cache.get(key)
    if c is not None:
        return c
    c0, c1, c2, c3 = DIV_COMPARE_CYCLES
    x = a ^ f
    c = DIV_FIXED_CYCLES + (c0 if x >= 0x1000000 else c1 if x >= 0x10000 else c2 if x >= 0x100 else c3)
    r = a
    for _ in range(33):
        if r >= f:
            r -= f
            c += 44
        if r >= 0x80000000:
            c += 3
        elif r >= 0x40000000:
            x = (r << 1) ^ f
            c += 5 + (c0 if x >= 0x1000000 else c1 if x >= 0x10000 else c2 if x >= 0x100 else c3)
        else:
            c += 7
        r <<= 1
    if len(_divide_cache) > 4096:
        _divide_cache.clear()
    _divide_cache[key] = c
    return c


FDIV_UNDERFLOW = 65         # MULDIV: the exponent below 0 (BPL ZEREMV; ROUND before it added)


# -- MOVFM ($BBA2), MOVMF ($BBD4), CONUPK ($BA8C) ---------------------------------------------------
MOVFM_CYCLES = 70           # five bytes through (INDEX1),Y into FAC, FACOV cleared
MOVMF_CYCLES = 81           # JSR ROUND (its own added), the five bytes stored, FACOV cleared
CONUPK_CYCLES = 85          # FADD/FSUB/FMULT/FDIV with A/Y at a number: JSR CONUPK, ARG loaded, ARISGN


# -- FLOAT ($BC3C), GIVAYF ($B391), SGN ($BC39) ------------------------------------------------------
GIVAYF_HEAD = 43            # GIVAYF: FACHO/FACHO+1, LDX #$90; FLOATS .. FLOATB, JMP FADFLT
FLOAT_HEAD = 37             # FLOAT: STA FACHO, LDA #0, STA FACHO+1, LDX #$88; FLOATS ..


_float_cache = {}


def float_cycles(n, head, bits):
    """FLOATS on the integer n standing in the top `bits` bits of FAC: FADFLT's BCS NORMAL or
    NEGFAC, then NORMAL."""
    key = (n, head, bits)
    c = _float_cache.get(key)
    if c is not None:
        return c
    if n == 0:
        c = head + 3 + 175
    else:
        man = abs(n) << (40 - bits)
        c = head + (negfac_cycles(man) if n < 0 else 3) + normal_cycles(man, 0x80 + bits)
    if len(_float_cache) > 4096:
        _float_cache.clear()
    _float_cache[key] = c
    return c


# -- QINT ($BC9B) ------------------------------------------------------------------------------------
def qint_cycles(f):
    """QINT: FAC shifted right to a 32-bit integer at FACHO..FACLO ($A0 - FACEXP bits), a
    negative one complemented first (NEGFCH) and shifted with BITS = $FF coming in."""
    sign, exp, man = f
    if exp == 0:
        return 26                          # BEQ CLRFAC
    a = (exp - 0xA0) & 0xFF
    neg = sign and 1
    c = 15 if not neg else 13 + negfac_cycles(man)          # BPL not taken: TAX, BITS = $FF, JSR NEGFCH, TXA
    c += 4
    if (a - 0xF9) & 0x80 == 0:             # BPL QINT1: up to 7 bits (or a shift past 135)
        return c + 3 + 24 + rolshf_cycles(a, neg) + 9
    return c + 2 + 6 + shiftr_cycles(a, 0, neg) + 9


INT_BIG = 14                # INT: CMP #$A0; BCS INTRTS, FAC already whole
AYINT_HEAD = 11             # AYINT: CMP #144; BCC QINTGO; JMP QINT (QINT's own added)
AYINT_N32768 = 357          # AYINT of -32768: FCOMP against N32768 (equal), JMP QINT (all of it)
GETADR_HEAD = 36            # GETADR: the sign and size tests, JSR QINT, POKER (QINT's own added)
CONINT_HEAD = 57            # CONINT: POSINT (CHKNUM, the sign), AYINT, FACMO/FACLO, JMP CHRGOT (CHRGOT's own
                            # instructions not included: CHRGET's, the interpreter's)


def int_cycles(f, n):
    """INT below 2**31: QINT, then the integer at FACEXP $A0 back through FADFLT (NEGFAC for a
    negative one) and NORMAL."""
    c = 13 + qint_cycles(f) + 27
    if n == 0:
        return c + 3 + 175
    man = abs(n) << 8
    return c + (negfac_cycles(man) if n < 0 else 3) + normal_cycles(man, 0xA0)


# -- FCOMP ($BC5B), A/Y at the number in memory ---------------------------------------------------
FCOMP_ZERO = {0: 32, 1: 42, -1: 41}   # the number in memory is 0: SIGN of FAC (0, positive, negative)
FCOMP_SIGNS = (46, 47)                 # the signs differ (FCSIGN): the one in memory positive / negative
FCOMP_DIFFER = (58, 70, 82, 94, 110)   # FCOMPC after the exponent, FACHO, FACMOH, FACMO, FACLO differed
FCOMP_EQUAL = 94                       # SBC FACLO gave 0: BEQ QINTRT

SGN_HEAD = {0: 18, 1: 28, -1: 27}    # SGN: JSR SIGN by FAC's sign; FLOAT's own added (float_cycles)
ABS_CYCLES = 11                        # ABS: LSR FACSGN, RTS


# -- MUL10 ($BAE2), DIV10 ($BAFE): ROUND's own cycles and FADDT's / FDIVT's added ------------------
MUL10_ZERO = 111            # JSR MOVAF (MOVEF's six bytes), TAX, BEQ MUL10R
MUL10_HEAD = 137            # ... ADC #2, STX ARISGN, JSR FADDC (less FADDT's entry), INC FACEXP
DIV10_HEAD = 188            # JSR MOVAF, TENC through MOVFM, JMP FDIVT


# -- FIN ($BCF3), entered on the first character with CHRGET's carry ---------------------------------
# Each CHRGET inside FIN is charged where it runs (mbf.fin: 34 cycles for a character below
# ':', 23 from ':' up, 21 per space skipped, 4 more where TXTPTR's low byte wraps), then the
# branch on its carry (BCC: 3 for a digit, 2 not); MUL10, FINLOG and DIV10 as they run.
FIN_HEAD = 102              # LDY #0, LDX #$0A, FINZLP clearing DECCNT..TENEXP
FIN_FIRST = (7, 18, 17, 12) # the first character: a digit (BCC FINDGQ across a page, BCC FINDIG), '-' (SGNFLG, JSR CHRGET),
                            # '+' (JSR CHRGET), another (the sign tests, to FIN1)
FIN_DIGIT = 35              # FINDIG: PHA, BIT DPTFLG, JSR MUL10, PLA, SBC #'0', JSR FINLOG, JMP FINC, JSR CHRGET
FIN_DECIMAL = 4             # ... BPL not taken, INC DECCNT: a digit after the point
FIN_POINT = 22              # FIN1: CMP #'.', FINDP: ROR/BIT DPTFLG, BVC FINC, JSR CHRGET
FIN_POINT_AGAIN = 15        # a second point: BVC not taken, on to FINE
FIN_OTHER = 9               # FIN1: neither '.' nor 'E': BNE FINE
FIN_E = 14                  # 'E': JSR CHRGET
FIN_E_SIGN = {0xAB: 18, 0x2D: 22, 0xAA: 21, 0x2B: 25}   # the exponent's sign (token or character), JSR CHRGET
FIN_E_OTHER = 21            # no sign, no digit after the E: BNE FINEC2
FIN_E_DIGIT = 44            # FINEDG: TENEXP * 10 + the digit (MLEX10), JMP FINEC, JSR CHRGET
FIN_E_DIGIT_BIG = 27        # TENEXP already 10 or more: 100 (MLEXMI)
FIN_E_END = (6, 12)         # FINEC2: BIT EXPSGN; a negative exponent negated (on to FINE1)
FIN_NO_SCALE = 14           # FINE: TENEXP - DECCNT = 0, BEQ FINQNG
FIN_SCALE_UP = 15           # ... BPL FINMUL (each JSR MUL10, DEC, BNE: FIN_PER_SCALE), the last BNE
FIN_SCALE_DOWN = 17         # ... FINDIV (each JSR DIV10, INC, BNE), the last BNE and BEQ FINQNG
FIN_PER_SCALE = 14
FIN_POSITIVE = 11           # FINQNG: LDA SGNFLG, BMI not taken, RTS
FIN_NEGATIVE = (21, 28)     # ... JMP NEGOP on zero / a number
FINLOG_HEAD = 131           # FINLOG: PHA, JSR MOVAF (MOVEF's six bytes; ROUND added), PLA, JSR FLOAT,
                            # ARISGN, LDX FACEXP, JMP FADDT (FLOAT's and FADDT's own added)


# -- FOUT ($BDDD) -----------------------------------------------------------------------------------
# What FOUT spends beside the routines it calls (FMULT's FMULTT, FCOMP, MUL10, DIV10, FADDH's
# FADDT, QINT: metered as they run), by path; mbf.fout adds them by these indices.  Paths
# that always come together share one figure (FADDH's CONUPK is in `head`, which BIGGES
# takes back; an E+ or E- form in point>10 / point<0).
FOUT_PATHS = ("head negative exp<$80 exp=$80 bigges fout4>fout9 fout4>fout3 fout3= fout3>fout5 fout3>fout38 "
              "mul10 mul10-last div10 div10-last faddh point<0 point>10 x=0 x=-1 iter-even iter-odd point-put "
              "zero-dropped point-dropped E+ E- E-tens zero").split()
FOUT = [852, 1, 96, 96, -114, 29, 0, 27, 0, 28, 0, 0, 0, 0, 0, 43, 35, 10, 19, 50, 49, 0, 12, -1, 0, 0, 7, 55]

# -- the functions (kernal.basic.series) ------------------------------------------------------------
# What each function's path spends beside the routines it calls, which are metered as they
# run (FMULTT, FADDT, FDIVT, INT, FCOMP, FINLOG, ROUND in MOVAF/MOV1F/MOV2F/MOVMF, NEGOP by
# JSR: 25, 18 on zero).  The figures take in the CONUPKs of FMULT/FADD/FSUB/FDIV with a
# pointer, MOVFM/MOVEF/MOVFA copies, POLY's walk over its table and each function's tests;
# measured on the genuine BASIC ROM, path by path.
SERIES_GLUE = {
    "log": 1589,                # LOG from JSR SIGN to FMULT by LOG2: SQR05, SQR20, FONE, POLYX over LOGCN2
    "exp": 2059,                # EXP: FMULT by LOGEB2, STOLD, MOVEF, INT, the swap, FSUBT, POLY over EXPCON, MLDEXP
    "exp-round": -7,            # ... ADC #$50 carried: JSR INCRND (charged as ROUND) instead of BCC STOLDX
    "exp-carry": 5,             # ... MLDEXP's sum carried (BCC TRYOFF not taken)
    "exp-zero": 3297,           # EXP of 0 (or a product of zero): the whole path on zero, 1
    "exp-big": 248,             # |x / LOG(2)| from 128 up: JSR MLDVEX (0, or OVERFLOW)
    "exp-n128": -10,            # INT gave -128: MLDEXP finds 0 and returns zero
    "power": 316,               # FPWRT: MOVMF into TEMPF3, MOVFA1, JSR LOG, FMULT by TEMPF3, JSR EXP, the sign
    "power-zero": 3,            # ... the exponent 0: BEQ EXP
    "power-base-zero": 22,      # ... the base 0: JMP ZEROF1
    "power-negative": 338,      # ... a negative base: JSR INT, FCOMP against TEMPF3 (charged), INTEGR's low bit
    "power-odd": 12,            # ... an odd power of a negative base: into NEGOP
    "sqr": 180,                 # SQR: JSR MOVAF, FHALF into FAC (MOVFM), into FPWRT
    "sin": 2013,                # SIN: MOVAF, FDIVF by TWOPI, MOVAF, INT, FSUBT, FSUB FR4, FADD FR4, POLYX SINCON
    "sin-negative": 102,        # ... .25 - x below 0: FADDH, BMI SIN2
    "sin-toggle": 109,          # ... and above 0 after FADDH: TANSGN flipped, NEGOP
    "cos": 95,                  # COS: FADD PI2, into SIN
    "tan": 4001,                # TAN: MOV1F, JSR SIN, GMOVMF into TEMPF3, MOVFM, COSC, POLYX, FDIV by TEMPF3
    "tan-toggle": -1,           # ... TANSGN set: BPL SIN3 not taken (NEGOP charged)
    "atn": 2813,                # ATN: the sign and exponent pushed, POLYX over ATNCON, the tests after it
    "atn-big": 188,             # ... |x| >= 1: FDIV into FONE, FSUB from PI2
    "atn-negative": -8,         # ... x < 0: JSR NEGOP first, JMP NEGOP at the end (charged 22, 15 on zero)
    "rnd": {1: 286, 0: 119, -1: 83},    # RND by the sign of x: QSETNR (MOVFM RNDX, FMULT RMULC, FADD RADDC),
                                        # RDBAS and CIA 1's bytes, or x itself; RND1's swap, STRNEX (NORMAL
                                        # and MOVMF into RNDX charged)
}
