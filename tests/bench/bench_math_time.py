"""Benchmark: the math package's C64 cycles against the genuine ROM's, routine by routine.

    python tests/bench/bench_math_time.py [--rows FADDT,SIN,...]

For each routine of BASIC's floating-point package, a fixed sample of operands (made
from a seeded generator: random signs, exponents and mantissas, rounding bytes, zeros,
whole numbers, number texts) is run through kernal.basic.mbf / series and the cycles
kernal.basic.meter charges are added up.  "genuine" is the same sum measured on the
genuine ROMs (KERNAL 901227-03 / BASIC 901226-01) run on the project's cycle-exact CPU,
each routine called from a stub with FAC/ARG (and the text pointer for FIN) set up, from
its entry to its RTS; "ratio" is project / genuine.  The charges follow the ROM's paths
(meter.py), so the ratio is 1.0000 where every path is modelled.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from kernal.basic import mbf, series  # noqa: E402
from kernal.basic.meter import METER  # noqa: E402

SAMPLE = 200                      # operands per routine

# Sums of cycles over each routine's sample, measured on the genuine ROMs KERNAL
# 901227-03 / BASIC 901226-01 (entry to RTS, same operands as samples() makes).
GENUINE = {
    "FADDT": 349594, "FSUBT": 358605, "FMULTT": 262471, "FDIVT": 306875, "FCOMP": 11160,
    "MOVFM": 14000, "MOVMF": 20463, "QINT": 73978, "INT": 136694, "GIVAYF": 36046, "AYINT": 84192,
    "GETADR": 79339, "SGN": 71727, "ABS": 2200, "FIN": 1797083, "FOUT": 3613665, "SQR": 9566265,
    "FPWRT": 6611144, "EXP": 4767721, "LOG": 4090287, "SIN": 4909558, "COS": 5035297, "TAN": 9545540,
    "ATN": 8396298, "RND": 442627,
}


def number(rng, exponents=(0x01, 0xFF), zeros=0.03, rounding=True):
    """A FAC value: sign, exponent, normalised 32-bit mantissa, sometimes a rounding byte."""
    if rng.random() < zeros:
        return mbf.ZERO
    m = rng.getrandbits(32) | 1 << 31
    if rng.random() < 0.2:                          # zero bytes (MULSHF, short NORMALs)
        m &= ~(0xFF << 8 * rng.randrange(3)) | 1 << 31
    ov = rng.getrandbits(8) if rounding and rng.random() < 0.5 else 0
    return (rng.getrandbits(1), rng.randint(*exponents), m << 8 | ov)


def decimal(rng, lo, hi):
    """A number with a few decimals as FIN reads it (no rounding byte)."""
    return mbf.from_str("%.*f" % (rng.randrange(4), rng.uniform(lo, hi)))


def number_text(rng):
    """A number as BASIC text: sign, digits, point, exponent; then what ends it."""
    digits = "".join(rng.choice("0123456789") for _ in range(rng.choice((1, 2, 3, 5, 9))))
    if rng.random() < 0.4:
        k = rng.randrange(len(digits) + 1)
        digits = digits[:k] + "." + digits[k:]
    text = rng.choice(("", "", "-", "+")) + digits
    if rng.random() < 0.3:
        text += "E" + rng.choice(("", "-", "+")) + str(rng.randrange(30))
    return (text + rng.choice(("\0", ":", ",", ")"))).encode("latin-1")


def samples(rng=None):
    """name -> [operands]: the fixed sample of each routine (seeded)."""
    rng = rng or random.Random(33)
    n = SAMPLE
    near = lambda a: (a[0], max(1, min(255, a[1] + rng.randint(-9, 9))), a[2])  # noqa: E731
    pairs = []
    for _ in range(n):
        a = number(rng, rounding=False)
        f = number(rng)
        if a[1] and rng.random() < 0.5:
            f = near(a) if f[1] else f
        pairs.append((a, f))
    small = lambda: number(rng, (0x70, 0x9F))  # noqa: E731
    return {
        "FADDT": pairs, "FSUBT": pairs,
        "FMULTT": [(a, f) for a, f in pairs if not f[1] or a[1] + f[1] < 0x17F],
        "FDIVT": [(a, f) for a, f in pairs if f[1] and 0 <= a[1] - f[1] + 0x80 < 0xFF],
        "FCOMP": pairs,
        "MOVFM": [mbf.pack(f) for a, f in pairs],
        "MOVMF": [f for a, f in pairs if f[2] >> 8 != 0xFFFFFFFF],
        "QINT": [small() for _ in range(n)],
        "INT": [small() for _ in range(n)],
        "GIVAYF": [rng.randint(-32768, 32767) for _ in range(n)],
        "AYINT": [number(rng, (0x70, 0x8F)) for _ in range(n)],
        "GETADR": [(0, e, m) for _, e, m in (number(rng, (0x70, 0x90)) for _ in range(n))],
        "SGN": [number(rng) for _ in range(n)], "ABS": [number(rng) for _ in range(n)],
        "FIN": [number_text(rng) for _ in range(n)],
        "FOUT": [number(rng) if rng.random() < 0.6 else decimal(rng, -1000, 1000) for _ in range(n)],
        "SQR": [decimal(rng, 0, 1000) for _ in range(n)],
        "FPWRT": [case for case in ((decimal(rng, -10, 10), mbf.from_int(rng.randint(-5, 5))
                                     if rng.random() < 0.4 else decimal(rng, -3, 3)) for _ in range(n))
                  if not case[0][0] or mbf.floor(case[1]) == mbf.to_fraction(case[1])],
        "EXP": [decimal(rng, -80, 80) for _ in range(n)],
        "LOG": [(0, e, m) for _, e, m in (decimal(rng, 0.001, 1000) for _ in range(n))],
        "SIN": [decimal(rng, -100, 100) for _ in range(n)],
        "COS": [decimal(rng, -100, 100) for _ in range(n)],
        "TAN": [decimal(rng, -100, 100) for _ in range(n)],
        "ATN": [decimal(rng, -100, 100) for _ in range(n)],
        "RND": [(bytes((rng.randint(0x70, 0x88),)) + bytes(rng.getrandbits(8) for _ in range(4)),
                 rng.choice((mbf.ONE, mbf.from_int(-rng.randint(1, 99)), decimal(rng, 0.5, 9))))
                for _ in range(n)],
    }


def _fin(text):
    mbf.fin(text, 0)


def _rnd(case):
    seed, x = case
    ram = bytearray(0x90)
    rnd = series.Rnd(ram)
    ram[0x8B:0x90] = seed                           # RNDX
    rnd.rnd(x)


CALLS = {
    "FADDT": lambda c: mbf.add(*c), "FSUBT": lambda c: mbf.sub(*c), "FMULTT": lambda c: mbf.mul(*c),
    "FDIVT": lambda c: mbf.div(*c), "FCOMP": lambda c: mbf.compare(*c), "MOVFM": mbf.movfm,
    "MOVMF": mbf.movmf, "QINT": mbf.floor_int, "INT": mbf.int_, "GIVAYF": mbf.from_int,
    "AYINT": mbf.to_int16, "GETADR": mbf.to_address, "SGN": mbf.sgn, "ABS": mbf.abs_value,
    "FIN": _fin, "FOUT": mbf.fout, "SQR": series.sqr, "FPWRT": lambda c: series.power(*c), "EXP": series.exp,
    "LOG": series.log, "SIN": series.sin, "COS": series.cos, "TAN": series.tan, "ATN": series.atn,
    "RND": _rnd,
}


def project_cycles(name, cases):
    """The cycles kernal.basic.meter charges for the routine over its cases."""
    total = 0
    call = CALLS[name]
    for case in cases:
        METER.cycles = 0
        call(case)
        total += METER.cycles
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", help="routines to run, comma-separated (default: all)")
    args = parser.parse_args()
    rows = args.rows.split(",") if args.rows else list(GENUINE)
    unknown = [r for r in rows if r not in GENUINE]
    if unknown:
        parser.error("no such routine: %s (known: %s)" % (", ".join(unknown), ", ".join(GENUINE)))
    cases = samples()
    print("%-8s %6s %12s %12s %8s" % ("routine", "cases", "project", "genuine", "ratio"))
    for name in rows:
        ours = project_cycles(name, cases[name])
        genuine = GENUINE[name]
        ratio = "%8.4f" % (ours / genuine) if genuine else "       -"
        print("%-8s %6d %12d %12d %s" % (name, len(cases[name]), ours, genuine, ratio))


if __name__ == "__main__":
    main()
