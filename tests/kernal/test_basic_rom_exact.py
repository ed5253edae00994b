"""BASIC as the genuine ROM runs it, where it differs from what the manuals suggest.

Every expected screen here was measured on a C64 ROM (KERNAL 901227-03 + BASIC
901226-01) running the same lines: the smallest exponent in division, LIST's
rows, DATA and INPUT fields, spaces inside names, THEN followed by a colon,
CONT in a running program, and how deep GOSUB, FOR, parentheses, functions
and FN go before the 6502 stack runs out (?OUT OF MEMORY).
"""

import pytest


from c64.machine import C64, StopReason
from kernal.basic import crunch
from tests.tools.basic_keys import settle


@pytest.fixture
def m(tmp_path):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path))
    settle(machine)
    return machine


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


# -- 6 and hardening: the 6502 stack -- FOR and GOSUB frames where the ROM pushes them, and
# GETSTK ($A3FB) asked for room by FOR, GOSUB and FRMEVL (each expression, each operand an
# operator waits on) -- ends deep programs in ?OUT OF MEMORY where a C64 does
def stored_and_run(machine, *lines):
    """The program stored as the editor would store it (lines longer than a screen line
    too), then RUN: the last two rows."""
    machine.type("NEW{return}")
    settle(machine)
    for number, text in lines:
        machine.basic.store_line(number, crunch(text.encode("latin-1")))
    settle(machine, "RUN{return}")
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    return rows[-2:]


def test_gosub_runs_out_of_stack_at_the_depth_a_c64_does(m):
    assert after(m, "10 N=N+1:GOSUB 10", "RUN", "PRINT N")[-8:] == [
        "RUN", "", "?OUT OF MEMORY  ERROR IN 10", "READY.", "PRINT N", " 24", "", "READY."]


def test_nine_nested_for_loops_leave_no_room_for_a_tenth_and_its_print(m):
    rows = after(m, "10 FOR A=1TO2:?1;:FOR B=1TO2:?2;:FOR C=1TO2:?3;:FOR D=1TO2:?4;",
                 "20 FOR E=1TO2:?5;:FOR F=1TO2:?6;:FOR G=1TO2:?7;:FOR H=1TO2:?8;",
                 "30 FOR I=1TO2:?9;:FOR J=1TO2:?10;:FOR K=1TO2:?11;:FOR L=1TO2:?12;", "RUN")
    assert rows[-3:] == [" 1  2  3  4  5  6  7  8  9", "?OUT OF MEMORY  ERROR IN 30", "READY."]


@pytest.mark.parametrize("lines, ok, failing", [
    # nested parentheses: 35 fit in LET, the 36th does not
    (lambda n: [(10, "A=" + "(" * n + "1" + ")" * n)], 35, 36),
    (lambda n: [(10, "PRINT " + "(" * n + "1" + ")" * n)], 35, 36),
    (lambda n: [(10, "PRINT 1" + "+(1" * n + ")" * n)], 10, 11),
    (lambda n: [(10, "A=1" + "+1*(1" * n + ")" * n)], 6, 7),
    (lambda n: [(10, "PRINT " + "SIN(" * n + "1" + ")" * n)], 22, 23),
])
def test_nesting_ends_in_out_of_memory_at_the_c64s_depth(m, lines, ok, failing):
    assert "ERROR" not in " ".join(stored_and_run(m, *lines(ok)))
    assert stored_and_run(m, *lines(failing)) == ["?OUT OF MEMORY  ERROR IN 10", "READY."]


@pytest.mark.parametrize("lines", [
    [(10, "DEF FN A(X)=FN A(X)+1"), (20, "PRINT FN A(1)")],
    [(10, "A=" + "(" * 240 + "1" + ")" * 240)],
    [(10, "A$=" + "CHR$(ASC(" * 60 + '"A"' + "))" * 60)],
    [(10, "PRINT " + "-" * 200 + "1")],
    [(10, "PRINT " + "NOT " * 120 + "1")],
    [(10, "DIM B(2):PRINT " + "B(" * 100 + "0" + ")" * 100)],
    [(10, 'A$="A":PRINT ' + "LEFT$(" * 40 + "A$" + ",1)" * 40)],
])
def test_recursion_in_an_expression_is_out_of_memory_never_an_emulation_error(m, lines):
    last = lines[-1][0]
    assert stored_and_run(m, *lines) == ["?OUT OF MEMORY  ERROR IN %d" % last, "READY."]


def test_the_frames_are_on_the_6502_stack_as_the_rom_pushes_them(m):
    # GOSUB: its token, CURLIN, TXTPTR at the line number, JSR GONE3's return address
    assert after(m, "10 GOSUB 20", "20 FOR K=0 TO 6:PRINT PEEK(500+K);:NEXT", "RUN")[-3:] == [
        "RUN", " 141  10  0  7  8  233  167", "READY."]
    # FOR I below it: token, the variable, STEP as FAC holds it and its sign, the limit, line, text
    rows = after(m, "10 GOSUB 20", "20 FOR I=1 TO 5 STEP -2:FOR K=0 TO 24:PRINT PEEK(475+K);:NEXT", "RUN")
    assert rows[-4:] == [" 0  0  0  20  0  8  39  129  58  8  130", " 128  0  0  0  255  131  32  0  0  0  20",
                         "  0  8  28", "READY."]
