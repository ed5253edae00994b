"""What a running BASIC program can PEEK of the ROM's own state, and the memory the ROM
changes for a while and puts back only when all goes well.

Every expected screen was measured on the genuine ROMs (KERNAL 901227-03 + BASIC
901226-01) running the same lines: CURLIN ($39) along GOTO, GOSUB and RETURN, OLDTXT
($3D) and OLDLIN ($3B), VARPNT ($47) and FORPNT ($49), TXTPTR ($7A) inside PEEK, DATLIN
($3F); VAL's zero left in the text by an OVERFLOW, FN's parameter left by an error.
"""

import pytest

from c64.machine import C64
from tests.tools.basic_keys import settle


@pytest.fixture
def m(tmp_path):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path))
    settle(machine)
    return machine


def after(machine, *lines):
    """NEW, then the lines typed (each ends with RETURN): the screen rows after the last
    line typed (the rows it printed), trailing blank rows dropped."""
    settle(machine, "".join(line + "{return}" for line in ("NEW",) + lines))
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    start = max(i for i, row in enumerate(rows) if row == lines[-1])
    return rows[start + 1:]


def test_curlin_follows_goto_gosub_and_return(m):
    rows = after(m, "10 PRINT PEEK(57)+256*PEEK(58):GOTO 30",
                 "30 PRINT PEEK(57)+256*PEEK(58):GOSUB 50:PRINT PEEK(57)+256*PEEK(58):END",
                 "50 PRINT PEEK(57)+256*PEEK(58):RETURN", "RUN")
    assert rows == [" 10", " 30", " 50", " 30", "", "READY."]


def test_direct_mode_sets_only_curlins_high_byte(m):
    rows = after(m, "80 X=1", "RUN", "PRINT PEEK(57);PEEK(58)")
    assert rows == [" 80  255", "", "READY."]


def test_txtptr_oldtxt_varpnt_and_forpnt_read_as_on_a_c64(m):
    rows = after(m, "10 A=PEEK(122)+256*PEEK(123):PRINT A",
                 "20 B=PEEK(61)+256*PEEK(62):PRINT B",
                 "30 C=PEEK(71)+256*PEEK(72):PRINT C",
                 "40 D=PEEK(73)+256*PEEK(74):PRINT D;PEEK(63);PEEK(64)",
                 "70 PRINT PEEK(122)+256*PEEK(123); PEEK(122)+256*PEEK(123)",
                 "80 PRINT PEEK(122)+256*PEEK(123), PEEK(122)+256*PEEK(123)", "RUN")
    # TXTPTR after PEEK's ")"; OLDTXT at the end of the line before; the variable LET assigns
    assert rows == [" 2061", " 2076", " 2271", " 2278  0  0", " 2179  2198", " 2222      2241",
                    "", "READY."]


def test_datlin_datptr_forpnt_and_the_cont_locations_after_stop(m):
    rows = after(m, "10 DATA 5,6:READ A:PRINT PEEK(63);PEEK(65)+256*PEEK(66)",
                 "20 FOR I=1 TO 2:PRINT PEEK(73)+256*PEEK(74):NEXT:PRINT PEEK(73)+256*PEEK(74)",
                 "30 GOTO 40", "40 PRINT PEEK(61)+256*PEEK(62):STOP", "RUN",
                 "PRINT PEEK(59);PEEK(61)+256*PEEK(62)")
    assert rows == [" 40  2171", "", "READY."]
    rows = after(m, "10 DATA 5,6:READ A:PRINT PEEK(63);PEEK(65)+256*PEEK(66)",
                 "20 FOR I=1 TO 2:PRINT PEEK(73)+256*PEEK(74):NEXT:PRINT PEEK(73)+256*PEEK(74)",
                 "30 GOTO 40", "40 PRINT PEEK(61)+256*PEEK(62):STOP", "RUN")
    assert rows == [" 10  2056", " 2183", " 2183", " 2183", " 2147", "", "BREAK IN 40", "READY."]


def test_vals_overflow_leaves_its_zero_in_the_program(m):
    rows = after(m, '1234 X=1:PRINT VAL("1E39")', "RUN", "GOTO 1234", "LIST 1234")
    assert rows == ["", '1234 X=1:PRINT VAL("1E39', "READY."]
    assert after(m, '1234 X=1:PRINT VAL("1E39")', "RUN", "GOTO 1234") == ["", "?SYNTAX  ERROR IN 1234", "READY."]


def test_val_puts_the_byte_back_when_fin_returns(m):
    program = ('10 A$="12X":B$="34":C$=A$+B$:D$=LEFT$(C$,2)', '20 PRINT VAL(D$);C$;VAL("5")')
    assert after(m, *program, "RUN") == [" 12 12X34 5", "", "READY."]
    assert after(m, *program, "RUN", "LIST 20") == ["", '20 PRINT VAL(D$);C$;VAL("5")', "READY."]


def test_an_error_in_fn_leaves_the_parameter_with_the_argument(m):
    rows = after(m, "10 DEF FNA(X)=1/X", "20 X=5:PRINT FNA(0)", "RUN", "PRINT X")
    assert rows == [" 0", "", "READY."]
    assert after(m, "10 DEF FNA(X)=X*2", "20 X=5:PRINT FNA(3);X", "RUN") == [" 6  5", "", "READY."]


def test_fn_whose_body_ends_before_its_statement_is_a_syntax_error(m):
    assert after(m, "10 DEF FNA(X)=X)+1", "20 PRINT FNA(2)", "RUN") == ["", "?SYNTAX  ERROR IN 20", "READY."]
