"""BASIC as the genuine ROM runs it, where it differs from what the manuals suggest.

Every expected screen here was measured on a C64 ROM (KERNAL 901227-03 + BASIC
901226-01) running the same lines: the smallest exponent in division, LIST's
rows, DATA and INPUT fields, spaces inside names, THEN followed by a colon,
CONT in a running program, and how deep GOSUB, FOR, parentheses, functions
and FN go before the 6502 stack runs out (?OUT OF MEMORY).
"""

import pytest

from c64.machine import C64, StopReason


@pytest.fixture
def m(tmp_path):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path))
    settle(machine)
    return machine


def settle(machine, keys=""):
    machine.type(keys)
    for _ in range(300):
        reason = machine.run(20_000_000)
        if reason is StopReason.ERROR:
            raise AssertionError(machine.error)
        if reason is StopReason.IDLE:
            return
    raise AssertionError("BASIC did not come back to the keyboard")


def after(machine, *lines):
    """Type NEW and the lines (each ends with RETURN): the screen rows after NEW's READY.,
    with the trailing blank rows dropped."""
    settle(machine, "".join(line + "{return}" for line in ("NEW",) + lines))
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    start = max(i for i, row in enumerate(rows) if row == "NEW")
    return rows[start + 3:]


# -- 1. the smallest exponent in division: FDIVT ($BB12) through MULDIV ($BAB7) -----------------------
@pytest.mark.parametrize("line, shown", [
    ("PRINT 3E-39", " 3.00000001E-39"),
    ("A=1E-38:PRINT A/3.4", " 2.94117647E-39"),
    ("A=-1E-38:PRINT A/3.4;A/4;-3E-39", " 2.94117647E-39  0 -3.00000001E-39"),
    ('PRINT VAL("3E-39");STR$(4E-39)', " 3.00000001E-39  4.00000001E-39"),
    ("PRINT LOG(4.5257248E-39)", "-88.2910409"),
])
def test_the_smallest_exponent_survives_division(m, line, shown):
    assert after(m, line) == [line, shown, "", "READY."]

