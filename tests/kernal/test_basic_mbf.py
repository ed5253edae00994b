"""The 5-byte float (kernal/basic/mbf.py) against exact rational arithmetic and the C64's printed forms.

The rounding rules checked here are stated in terms of fractions.Fraction only:
a result is the exact operation truncated to the 40 bits FAC keeps (32 mantissa
bits and the rounding byte), then rounded half up to 32 bits when it leaves FAC.
"""

import math
from fractions import Fraction

import pytest
from hypothesis import example, given, settings, strategies as st

from kernal.basic import mbf, series

# five bytes of a stored number: exponents kept away from over/underflow
stored = st.tuples(st.integers(0x60, 0xA0), st.integers(0, 255), st.integers(0, 255),
                   st.integers(0, 255), st.integers(0, 255)).map(bytes)


def value(data):
    return mbf.to_fraction(mbf.unpack(data))


def exponent_of(x):
    """e such that |x| is in [2**(e-1), 2**e): the C64 exponent byte minus $80."""
    x = abs(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e <= x:
        e += 1
    while Fraction(2) ** (e - 1) > x:
        e -= 1
    return e


def trunc_to_grid(x, grid):
    q = abs(x) / grid
    t = (q.numerator // q.denominator) * grid
    return t if x >= 0 else -t


def round_32(x):
    """ROUND as a rule: half up (in magnitude) at the 32nd significant bit."""
    if x == 0:
        return x
    ulp = Fraction(2) ** (exponent_of(x) - 32)
    q = abs(x) / ulp + Fraction(1, 2)
    r = (q.numerator // q.denominator) * ulp
    return r if x > 0 else -r


def stored_value(f):
    return mbf.to_fraction(mbf.unpack(mbf.pack(f)))


@given(stored)
def test_unpack_then_pack_gives_the_same_five_bytes(data):
    assert mbf.pack(mbf.unpack(data)) == data


@given(stored)
def test_the_top_mantissa_bit_is_the_sign_and_the_exponent_is_excess_128(data):
    x = value(data)
    assert (x < 0) == bool(data[1] & 0x80)
    assert exponent_of(x) == data[0] - 0x80


@settings(max_examples=400)
@given(stored, stored)
def test_add_truncates_the_smaller_operand_to_40_bits_then_rounds_half_up(a, b):
    x, y = value(a), value(b)
    big, small = (x, y) if exponent_of(x) >= exponent_of(y) else (y, x)
    grid = Fraction(2) ** (exponent_of(big) - 40)
    r = big + trunc_to_grid(small, grid)
    if r != 0 and abs(r) >= Fraction(2) ** exponent_of(big):     # carry: one bit falls off
        r = trunc_to_grid(r, grid * 2)
    assert stored_value(mbf.add(mbf.unpack(a), mbf.unpack(b))) == round_32(r)


@settings(max_examples=400)
@given(stored, stored)
def test_subtract_is_add_of_the_negated_operand(a, b):
    got = stored_value(mbf.sub(mbf.unpack(a), mbf.unpack(b)))
    assert got == stored_value(mbf.add(mbf.unpack(a), mbf.neg(mbf.unpack(b))))
    exact = value(a) - value(b)
    if exact:
        assert abs(got - exact) <= Fraction(2) ** (exponent_of(exact) - 31)


def nine_bit_shift_happens(fac, exponent_sum):
    """Whether FMULTT's MULSHF shifts a non-zero partial product by nine bits: a zero byte of
    FAC (FACOV up to FACMOH) right after another zero byte, once a non-zero byte has gone in."""
    carry, started = exponent_sum < 0x100, False
    for shift in (0, 8, 16, 24):
        byte = (fac[2] >> shift) & 0xFF
        if byte:
            carry = started = True
        else:
            if not carry and started:
                return True
            carry = False
    return False


def multiply_as_the_6502_does(arg, fac):
    """FMULTT step by step, flags included: MLTPLY for FACOV..FACMOH, MLTPL1 for FACHO; a zero
    byte goes to MULSHF (a byte shift of RESHO..RESLO into FACOV, BITS = 0 into RESHO) and on
    into SHIFTR with A = 0 and the carry as it stands.  Returns the 40 bits RES:FACOV."""
    s = fac[1] + arg[1]
    carry = 1 if s < 0x100 else 0                        # as MULDIV leaves it
    argm = arg[2] >> 8
    res, facov = 0, 0
    fac_bytes = [(fac[2] >> shift) & 0xFF for shift in (0, 8, 16, 24, 32)]
    facov = fac_bytes[0]
    for index, byte in enumerate(fac_bytes):
        if byte == 0 and index < 4:
            facov = res & 0xFF                           # MULSHF
            res >>= 8
            a = 0 + 8 + carry                            # SHIFTR: ADC #$08
            a = a - 8 - 1                                # SBC #$08, the ADC left the carry clear
            if a < 0:                                    # borrow: Y = $FF, one more ROR
                res >>= 1                                # the bit goes to A, which MLTPLY drops
            carry = 0                                    # SHFTRT: CLC
            continue
        a = (byte >> 1) | 0x80                           # MLTPL1: LSR A, ORA #$80
        carry = byte & 1
        while True:
            if carry:
                res += argm
                carry, res = res >> 32, res & 0xFFFFFFFF
            low = res & 1
            res = (carry << 31) | (res >> 1)             # ROR RESHO..RESLO
            facov = (low << 7) | (facov >> 1)            # ROR FACOV
            carry = a & 1                                # TYA, LSR A
            a >>= 1
            if not a:
                break
    return (res << 8) | facov


multiplier_bytes = st.sampled_from([0, 0, 0, 1, 0x80, 0xFF]) | st.integers(0, 255)


@settings(max_examples=400)
@given(stored, stored)
def test_multiply_is_the_exact_product_truncated_to_40_bits_unless_a_byte_shift_takes_nine(a, b):
    x, y = value(a), value(b)
    p = x * y
    grid = Fraction(2) ** (a[0] + b[0] - 256 - 40)      # the product register before NORMAL
    got = stored_value(mbf.mul(mbf.unpack(a), mbf.unpack(b)))
    if not nine_bit_shift_happens(mbf.unpack(b), a[0] + b[0]):
        assert got == round_32(trunc_to_grid(p, grid))
    # at worst half of what FAC's three low bytes add is lost
    assert abs(got - p) <= abs(p) * Fraction(2) ** -23


@settings(max_examples=600)
@given(st.integers(0x70, 0x90), st.integers(0x70, 0x90), st.tuples(*[multiplier_bytes] * 5),
       st.integers(0x80000000, 0xFFFFFFFF))
def test_multiply_follows_the_6502_routine_bit_for_bit(arg_exp, fac_exp, fac_bytes, arg_mantissa):
    fac_mantissa = sum(byte << (8 * i) for i, byte in enumerate(fac_bytes)) | (1 << 39)
    arg, fac = (0, arg_exp, arg_mantissa << 8), (0, fac_exp, fac_mantissa)
    assert mbf.mul(arg, fac) == mbf.normal(0, arg_exp + fac_exp - 0x80, multiply_as_the_6502_does(arg, fac))


def test_the_multiply_bug_makes_the_product_depend_on_the_order():
    one = mbf.ONE
    x = mbf.unpack(bytes((0x81, 0x00, 0x00, 0x00, 0xFF)))     # 1 + 255/2**31
    assert mbf.mul(x, one) == x                               # FAC = 1: no non-zero low byte
    assert mbf.to_fraction(mbf.sub(mbf.round_fac(mbf.mul(one, x)), x)) == Fraction(-127, 2 ** 31)


@settings(max_examples=400)
@given(stored, stored)
def test_divide_keeps_34_quotient_bits_then_rounds(a, b):
    x, y = value(a), value(b)
    q = x / y
    grid = Fraction(2) ** (a[0] - b[0] - 33)
    assert stored_value(mbf.div(mbf.unpack(a), mbf.unpack(b))) == round_32(trunc_to_grid(q, grid))
    assert abs(stored_value(mbf.div(mbf.unpack(a), mbf.unpack(b))) - q) <= abs(q) * Fraction(2) ** -31


def test_the_rounding_byte_decides_the_rounding():
    one_and_half_ulp = (0, 0x81, (0x80000000 << 8) | 0x80)
    assert mbf.pack(one_and_half_ulp) == bytes((0x81, 0, 0, 0, 1))
    assert mbf.pack((0, 0x81, (0x80000000 << 8) | 0x7F)) == bytes((0x81, 0, 0, 0, 0))
    assert mbf.pack((0, 0x81, (0xFFFFFFFF << 8) | 0x80)) == bytes((0x82, 0, 0, 0, 0))


def test_division_by_zero_and_overflow_are_errors():
    with pytest.raises(mbf.MathError, match="DIVISION BY ZERO"):
        mbf.div(mbf.ONE, mbf.ZERO)
    with pytest.raises(mbf.MathError, match="OVERFLOW"):
        mbf.mul(mbf.from_str("1E38"), mbf.from_str("1E38"))
    # FDIVT's INC FACEXP overflows before the quotient is normalised: 2**126 / .75 would fit
    big = mbf.unpack(bytes((0xFF, 0, 0, 0, 0)))
    with pytest.raises(mbf.MathError, match="OVERFLOW"):
        mbf.div(big, mbf.from_str(".75"))
    assert mbf.div(big, mbf.from_str("1.5"))[1] == 0xFE          # INC FACEXP to $FF, then NORMAL


@given(st.integers(-999999999, 999999999))
def test_whole_numbers_below_a_billion_print_as_their_digits(n):
    assert mbf.fout(mbf.from_int(n)) == ("-" if n < 0 else " ") + str(abs(n))


@given(st.integers(-999999999, 999999999))
def test_whole_numbers_typed_are_read_exactly(n):
    assert mbf.from_str(str(n)) == mbf.from_int(n)


@given(st.integers(0, 8), st.integers(1, 999999999))
def test_numbers_from_text_are_within_a_rounding_of_their_decimal_value(places, digits):
    text = "%d.%s" % (digits // 10 ** places, str(digits % 10 ** places).zfill(places)) if places else str(digits)
    exact = Fraction(text)
    got = stored_value(mbf.from_str(text))
    assert abs(got - exact) <= exact * Fraction(2) ** -29


# printed forms from the C64's documented number format
PRINTED = [
    ("1/3", " .333333333"), ("2/3", " .666666667"), ("1E10", " 1E+10"), ("1.5E-5", " 1.5E-05"),
    (".01", " .01"), (".001", " 1E-03"), ("123456789", " 123456789"),
    ("1234567890", " 1.23456789E+09"), ("1E9", " 1E+09"), ("-1", "-1"), ("0", " 0"),
    ("3.14159265", " 3.14159265"), (".1", " .1"), ("-.5", "-.5"), ("1E38", " 1E+38"),
    ("10/4", " 2.5"), ("100000*10000", " 1E+09"), ("1E-38", " 1E-38"), ("7/2", " 3.5"),
]


def _evaluate(text):
    if "/" in text:
        a, b = text.split("/")
        return mbf.div(mbf.round_fac(mbf.from_str(a)), mbf.from_str(b))
    if "*" in text:
        a, b = text.split("*")
        return mbf.mul(mbf.round_fac(mbf.from_str(a)), mbf.from_str(b))
    return mbf.from_str(text)


@pytest.mark.parametrize("text, printed", PRINTED)
def test_numbers_print_as_on_a_c64(text, printed):
    assert mbf.fout(_evaluate(text)) == printed


FUNCTIONS = [
    (series.sqr, "2", " 1.41421356"), (series.log, "10", " 2.30258509"), (series.exp, "1", " 2.71828183"),
    (series.sin, "1", " .841470985"), (series.cos, "1", " .540302306"), (series.tan, "1", " 1.55740772"),
    (series.sqr, "16", " 4"), (series.sin, "0", " 0"), (series.cos, "0", " 1"), (series.exp, "0", " 1"),
    (series.atn, "0", " 0"),
]


@pytest.mark.parametrize("function, argument, printed", FUNCTIONS)
def test_functions_print_their_nine_digits(function, argument, printed):
    assert mbf.fout(function(mbf.from_str(argument))) == printed


@settings(max_examples=300)
@given(st.floats(-50, 50, allow_nan=False))
@example(1.6427858111631231e-07)      # COS: .999999948, 5.24E-08 off (hypothesis found it)
def test_series_functions_agree_with_the_exact_functions_to_seven_digits(x):
    # seven, not eight: the multiply bug can lose up to 2**-24 of a product (COS(1E-7) is
    # .999999968: the last multiply of the series has FAC = 4.00000025, bytes $80 $00 $00 ..),
    # so the bound is 2**-24 (5.96E-08), not a rounder 5E-08
    f = mbf.from_fraction(Fraction(x))
    v = float(mbf.to_fraction(f))
    for ours, exact in ((series.sin, math.sin), (series.cos, math.cos), (series.atn, math.atan)):
        assert float(stored_value(ours(f))) == pytest.approx(exact(v), abs=2 ** -24 * max(1, abs(v)))
    if -80 < v < 80:
        assert float(stored_value(series.exp(f))) == pytest.approx(math.exp(v), rel=1e-9 * (2 + abs(v)))
    if v > 0:
        assert float(stored_value(series.log(f))) == pytest.approx(math.log(v), rel=1e-8, abs=1e-8)
        assert float(stored_value(series.sqr(f))) == pytest.approx(math.sqrt(v), rel=1e-8)


def test_log_of_zero_or_negative_is_an_illegal_quantity():
    for text in ("0", "-1"):
        with pytest.raises(mbf.MathError, match="ILLEGAL QUANTITY"):
            series.log(mbf.from_str(text))


def test_power_of_a_negative_base_needs_a_whole_exponent():
    assert mbf.fout(series.power(mbf.from_str("-2"), mbf.from_str("3"))) == "-8"
    assert mbf.fout(series.power(mbf.from_str("2"), mbf.from_str("10"))) == " 1024"
    with pytest.raises(mbf.MathError, match="ILLEGAL QUANTITY"):
        series.power(mbf.from_str("-2"), mbf.from_str(".5"))


def test_rnd_starts_from_the_power_on_seed_and_repeats_after_the_same_negative_seed():
    r = series.Rnd()
    assert mbf.fout(r.rnd(mbf.ONE)) == " .185564016"     # the C64's first RND(1) after power-on
    r.rnd(mbf.from_int(-1))
    first = [mbf.fout(r.rnd(mbf.ONE)) for _ in range(5)]
    r.rnd(mbf.from_int(-1))
    assert [mbf.fout(r.rnd(mbf.ONE)) for _ in range(5)] == first
    values = [mbf.to_fraction(r.rnd(mbf.ONE)) for _ in range(500)]
    assert all(0 <= v < 1 for v in values) and len(set(values)) == 500


def test_rnd_of_zero_takes_the_mantissa_from_the_cia_timers_without_the_swap():
    r = series.Rnd()
    value = r.rnd(mbf.ZERO, bytes((0x12, 0x34, 0x56, 0x78)))      # $DC04-$DC07
    # mantissa $12 $56 $34 $78 (timer A low, B low, A high, B high), exponent $80, normalised
    assert value == mbf.normal(0, 0x80, 0x1256347800)


# -- the math package's own quirks, each from the routine's code path ----------------------------


def test_a_sum_of_two_numbers_with_one_exponent_carries_one_more_into_the_rounding_byte():
    # FADDT with equal exponents skips the shift and enters FADD2 with the carry still set
    # from the exponents' SBC: ADC OLDOV adds FAC's rounding byte plus one.  Both top bits
    # are set, so the sum is shifted right once (SQUEEZ) and the extra one shows in bit 0
    # of an odd rounding byte.
    fac = (0, 0x81, (0xA0000000 << 8) | 0x01)                       # 1.25, rounding byte 1
    assert mbf.add(mbf.from_str("1.5"), fac) == (0, 0x82, (0xB0000000 << 8) | 0x01)
    shifted = (0, 0x82, (0xA0000000 << 8) | 0x01)                   # 2.5: ARG is shifted
    assert mbf.add(mbf.from_str("1.5"), shifted) == (0, 0x83, (0x80000000 << 8) | 0x00)
    assert mbf.sub(mbf.from_str("1.5"), mbf.from_str("1.25")) == mbf.from_str(".25")


def test_a_difference_left_only_in_the_rounding_byte_is_zero():
    # NORMAL moves whole bytes up at most four times, so the rounding byte alone never
    # becomes a number
    assert mbf.add(mbf.ONE, (1, 0x81, (0x80000000 << 8) | 0x40)) == mbf.ZERO


def test_fout_adds_the_half_to_fac_unrounded_and_then_takes_the_floor():
    k = 123456789
    # exponent $9B: steps of 1/32; k + 15/32 with the rounding byte's top bit set.  Rounding
    # first would give k + 1/2 and print k + 1; the ROM's FADDH on the unrounded FAC does not.
    assert mbf.fout((0, 0x9B, ((32 * k + 15) << 8) | 0x80)) == " 123456789"


def test_exp_of_a_number_whose_exponent_part_is_minus_128_is_zero():
    # y = x / LOG(2) in [-128, -127): MLDEXP gets INT(y) + $80 = 0 and gives zero, though
    # 2 ** y would still fit (the smallest number is 2 ** -128)
    assert series.exp(mbf.from_str("-88.5")) == mbf.ZERO
    assert series.exp(mbf.from_str("-88")) != mbf.ZERO


def test_fcomp_takes_fac_rounded_by_its_last_byte_only():
    x = mbf.from_str("1")
    assert mbf.compare(x, (0, 0x81, (0x80000000 << 8) | 0x80)) == -1     # x below FAC rounded
    assert mbf.compare(x, (0, 0x81, (0x7FFFFFFF << 8) | 0x80)) == 1      # 0.5 exponent differs
    below = (0, 0x81, (0x800000FF << 8) | 0x80)                           # rounds up to ..0100
    # FAC rounded is 1 + 2**-23, yet the byte above is compared unrounded; and the last
    # byte's subtraction, $00 - $FF - 1, leaves zero: "equal" to 1
    assert mbf.compare(mbf.unpack(bytes((0x81, 0, 0, 1, 0))), below) == 1
    assert mbf.compare(mbf.unpack(bytes((0x81, 0, 0, 0, 0))), below) == 0


def test_the_series_start_with_x_times_the_first_coefficient():
    # POLY's first FMULT has FAC = x and ARG = the coefficient; the later ones FAC = the sum.
    # The first coefficient here has two zero bytes over a non-zero one: as FAC it would meet
    # the multiply bug, as ARG it does not.
    x = mbf.unpack(mbf.pack(mbf.from_str(".3")))
    table = [mbf.unpack(bytes((0x81, 0x00, 0x00, 0x00, 0xFF))), mbf.from_int(2), mbf.from_int(3)]
    expected = mbf.add(table[2], mbf.mul(x, mbf.add(table[1], mbf.mul(table[0], x))))
    assert series.poly(x, table) == expected
    swapped = mbf.add(table[2], mbf.mul(x, mbf.add(table[1], mbf.mul(x, table[0]))))
    assert swapped != expected
