"""The math package charges the genuine ROM's cycles (kernal.basic.meter).

Each figure below was measured on the genuine ROMs (KERNAL 901227-03 / BASIC 901226-01)
run on the project's cycle-exact CPU: the routine called from a stub with FAC and ARG
(and the text pointer for FIN) set up, counted from its entry to its RTS.  The charges
must be those cycles exactly, path by path: an alignment shift, NORMAL's shifts,
FMULTT's zero bytes, FDIVT's quotient bits, FOUT's digits, FIN's characters.
"""

import pytest

from kernal.basic import mbf, series
from kernal.basic.meter import METER

N = mbf.from_str


def metered(call, *operands):
    METER.cycles = 0
    call(*operands)
    return METER.cycles


@pytest.mark.parametrize("call, left, right, genuine", [
    (mbf.add, "3.7", "1.25", 194),           # FADDT: FAC shifted one bit, no carry
    (mbf.add, "1", "1", 117),                # equal exponents: the sum carries (RNDSHF)
    (mbf.add, "1E10", "1", 364),             # a 33-bit shift: SHIFTR's four byte moves and a bit
    (mbf.sub, "1", ".999", 330),             # FSUBT: NORMAL shifts the small difference back up
    (mbf.sub, ".5", "3", 259),               # the difference negative: NEGFAC
    (mbf.mul, "3.7", "1.25", 1007),          # FMULTT: five multiplier bytes through MLTPL1
    (mbf.mul, "2", "3", 1037),               # zero bytes of 3 through MULSHF
    (mbf.div, "1", "3", 2380),               # FDIVT: 34 quotient bits
    (mbf.div, "10", "4", 1723),
    (series.power, "2", "10", 28412),        # FPWRT: LOG, FMULT, EXP
], ids=lambda v: v if isinstance(v, str) else None)
def test_an_operator_takes_the_genuine_roms_cycles(call, left, right, genuine):
    assert metered(call, N(left), N(right)) == genuine


@pytest.mark.parametrize("call, operand, genuine", [
    (mbf.fout, "123", 6696),                 # FOUT: MUL10s up to nine digits
    (mbf.fout, "1E10", 9153),                # DIV10 down, the exponent written
    (mbf.int_, "-3.7", 983),                 # INT: QINT's NEGFCH and shift, FADFLT's NEGFAC
    (mbf.to_address, "1234", 410),           # GETADR: QINT
    (series.sqr, "2", 43758),
    (series.exp, "1", 22888),
    (series.log, "10", 20296),
    (series.sin, "1", 24382),
    (series.cos, "1", 24632),
    (series.tan, "1", 47673),
    (series.atn, "2", 38308),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_function_takes_the_genuine_roms_cycles(call, operand, genuine):
    assert metered(call, N(operand)) == genuine


def test_fout_of_a_third_takes_the_genuine_roms_cycles():
    third = mbf.div(mbf.ONE, N("3"))
    assert metered(mbf.fout, third) == 6455


@pytest.mark.parametrize("text, genuine", [
    (b"123\0", 3005),                        # three digits: CHRGET, MUL10, FINLOG each
    (b"1.5E-3:", 11941),                     # the point, the exponent, three DIV10s
    (b"-.5,", 2751),                         # the sign: NEGOP at the end
])
def test_fin_takes_the_genuine_roms_cycles_for_the_text(text, genuine):
    assert metered(mbf.fin, text, 0) == genuine


def test_givayf_fcomp_and_rnd_take_the_genuine_roms_cycles():
    assert metered(mbf.from_int, 1000) == 264
    assert metered(mbf.from_int, -5) == 361              # FADFLT through NEGFAC
    one, two = N("1"), N("2")
    assert metered(mbf.compare, one, two) == 58          # the exponents differ
    rnd = series.Rnd()                                   # the power-on seed
    assert metered(rnd.rnd, mbf.ONE) == 3092
