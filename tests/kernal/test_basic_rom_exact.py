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



# -- 2. LIST ($A69C): a RETURN before each line, also before the one past the range ------------------
@pytest.mark.parametrize("line, shown", [
    ("LIST 10", ["", "10 A=1", ""]),            # the RETURN of line 20, which ends the range
    ("LIST 20", ["", "20 B=2"]),                # the last line: the program's end stops LIST
    ("LIST 2-3", ["", ""]),
    ("LIST30-5", [""]),                         # no line from 30 on: the end of the program
    ("LIST 20-", ["", "20 B=2"]),
    ("LIST 0", ["", "10 A=1", "20 B=2"]),       # LINGET's 0 is no end
    ("LIST 15-0", ["", "20 B=2"]),
    ("LIST -15", ["", "10 A=1", ""]),
    ("LIST (10)", ["", "?SYNTAX  ERROR"]),
    ("LIST 10-15X", ["", "?SYNTAX  ERROR"]),
])
def test_list_prints_the_roms_rows(m, line, shown):
    assert after(m, "10 A=1", "20 B=2", line)[2:] == [line] + shown + ["READY."]


# -- 3. DATA and INPUT: STRLT2 ($B48D) keeps an unquoted item's spaces ----------------------------------
def test_unquoted_data_and_input_keep_their_spaces(m):
    rows = after(m, '10 DATA AB  ,C, D E ,"F" ,G',
                 '20 READ A$,B$,C$,D$,E$:PRINT "<"A$">";"<"B$">";"<"C$">";"<"D$">";"<"E$">"',
                 '30 INPUT X$,Y$:PRINT "<"X$">";"<"Y$">"', "RUN", "AB  , C D ")
    assert rows[-5:] == ["<AB  ><C><D E ><F><G>", "? AB  , C D", "<AB  ><C D>", "", "READY."]


# -- 4. PTRGET ($B08B) reads a name with CHRGET, which skips spaces ---------------------------------
@pytest.mark.parametrize("line, shown", [
    ("A B=5:PRINT AB", " 5"),
    ("A=1:B%=2:AB%=3:PRINT A B%", " 3"),
    ("A1=7:PRINT A 1", " 7"),
    ("DIM Q (3):Q (2)=4:PRINT Q(2)", " 4"),
    ('A $="S":PRINT A$', "S"),
])
def test_spaces_inside_a_name_are_skipped(m, line, shown):
    assert after(m, line) == [line, shown, "", "READY."]


# -- 5. IF ($A928): THEN followed by a colon --------------------------------------------------------
def test_a_colon_right_after_then_is_an_empty_statement(m):
    assert after(m, 'IF 1 THEN:PRINT "X"') == ['IF 1 THEN:PRINT "X"', "X", "", "READY."]
    assert after(m, 'IF 0 THEN:PRINT "X"') == ['IF 0 THEN:PRINT "X"', "", "READY."]


# -- 7. CONT ($A857) in a running program goes on from OLDTXT: itself, in line OLDLIN ------------------
def test_cont_in_a_program_runs_itself_until_run_stop(m):
    settle(m, 'NEW{return}5 PRINT "A";{return}10 PRINT "LINE";:CONT{return}')
    m.type("RUN{return}")
    assert m.run(3_000_000) is StopReason.CYCLES          # still at its CONT
    assert rows_after_stop(m)[-4:] == ["RUN", "ALINE", "BREAK IN 0", "READY."]   # a fresh OLDLIN
    settle(m, '5 PRINT "A";:STOP{return}RUN{return}')
    m.type("CONT{return}")
    assert m.run(3_000_000) is StopReason.CYCLES
    assert rows_after_stop(m)[-8:] == ["RUN", "A", "BREAK IN 5", "READY.", "CONT", "LINE", "BREAK IN 5", "READY."]


def rows_after_stop(machine):
    """RUN/STOP pressed: the screen rows once BASIC is back at READY."""
    machine.press(0x03)
    settle(machine)
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    return rows
