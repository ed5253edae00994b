"""The BASIC V2 interpreter (kernal/basic/interpreter.py) typed at READY. as on a C64.

Expected screens come from the C64's documented behaviour: numbers printed with a
leading space (or minus) and a cursor right after them, commas to 10-column zones,
the error texts `?NAME  ERROR IN line`, READY. after a blank line.
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


def screen(machine):
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def typed(machine, *lines):
    """Type the lines (each ends with RETURN); the screen rows after the last one typed."""
    settle(machine, "".join(line + "{return}" for line in lines))
    rows = screen(machine)
    index = max(i for i, row in enumerate(rows) if row == lines[-1])
    return rows[index + 1:]


def run(machine, *program):
    """NEW, the program lines, RUN: the rows RUN printed."""
    return typed(machine, "NEW", *program, "RUN")


def test_print_of_an_expression_in_direct_mode(m):
    assert typed(m, "PRINT 2+2") == [" 4", "", "READY."]


def test_numbers_are_printed_with_a_sign_place_and_followed_by_a_cursor_right(m):
    assert typed(m, "PRINT 1;-2;3") == [" 1 -2  3", "", "READY."]
    assert typed(m, 'PRINT "A";1/3') == ["A .333333333", "", "READY."]


def test_commas_move_to_ten_column_zones(m):
    assert typed(m, 'PRINT 1,2,"X"') == [" 1         2        X", "", "READY."]


def test_the_question_mark_is_print(m):
    assert typed(m, "?2/3") == [" .666666667", "", "READY."]


def test_a_program_with_loops_subroutines_and_data(m):
    rows = run(m, "10 FOR I=1 TO 3:PRINT I;:NEXT:PRINT", "20 GOSUB 100:PRINT \"BACK\"",
               "30 READ A,B$:PRINT A*2;B$", "40 END", "100 PRINT \"SUB\":RETURN", "200 DATA 21,\"HI\"")
    assert rows == [" 1  2  3", "SUB", "BACK", " 42 HI", "", "READY."]


def test_for_with_a_negative_step_and_nested_loops(m):
    rows = run(m, "10 FOR I=3 TO 1 STEP -1:FOR J=1 TO I:PRINT J;:NEXT J:PRINT:NEXT I")
    assert rows == [" 1  2  3", " 1  2", " 1", "", "READY."]


def test_division_by_zero_names_the_line(m):
    rows = run(m, "10 A=1", "30 PRINT A/0")
    assert rows == ["", "?DIVISION BY ZERO  ERROR IN 30", "READY."]


def test_reading_past_the_data_is_out_of_data(m):
    rows = run(m, "10 READ A,B", "20 DATA 5")
    assert rows == ["", "?OUT OF DATA  ERROR IN 10", "READY."]


@pytest.mark.parametrize("line, message", [
    ("10 NEXT", "?NEXT WITHOUT FOR  ERROR IN 10"),
    ("10 RETURN", "?RETURN WITHOUT GOSUB  ERROR IN 10"),
    ("10 GOTO 99", "?UNDEF'D STATEMENT  ERROR IN 10"),
    ("10 A$=1", "?TYPE MISMATCH  ERROR IN 10"),
    ("10 A(11)=1", "?BAD SUBSCRIPT  ERROR IN 10"),
    ("10 DIM A(2):DIM A(3)", "?REDIM'D ARRAY  ERROR IN 10"),
    ("10 A%=40000", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 PRINT 1E38*10", "?OVERFLOW  ERROR IN 10"),
    ("10 PRINT FNX(1)", "?UNDEF'D FUNCTION  ERROR IN 10"),
    ('10 A$="X":FOR I=1 TO 8:A$=A$+A$:NEXT', "?STRING TOO LONG  ERROR IN 10"),
    ("10 PRINT LOG(0)", "?ILLEGAL QUANTITY  ERROR IN 10"),
    ("10 PRINT CHR$(256)", "?ILLEGAL QUANTITY  ERROR IN 10"),
])
def test_errors_have_the_c64_texts(m, line, message):
    assert run(m, line) == ["", message, "READY."]


def test_illegal_direct_and_cant_continue(m):
    assert typed(m, "INPUT A") == ["", "?ILLEGAL DIRECT  ERROR", "READY."]
    assert typed(m, "NEW", "CONT") == ["", "?CAN'T CONTINUE  ERROR", "READY."]


def test_input_asks_again_after_a_bad_number_and_for_missing_fields(m):
    settle(m, "NEW{return}10 INPUT \"N\";A,B{return}20 PRINT A+B{return}RUN{return}X{return}3{return}4{return}")
    assert screen(m)[-8:] == ["RUN", "N? X", "?REDO FROM START", "N? 3", "?? 4", " 7", "", "READY."]


def test_input_of_strings_and_extra_fields(m):
    settle(m, "NEW{return}10 INPUT A$:PRINT \"<\";A$;\">\"{return}RUN{return}HELLO, WORLD{return}")
    assert screen(m)[-5:] == ["? HELLO, WORLD", "?EXTRA IGNORED", "<HELLO>", "", "READY."]


def test_get_returns_the_next_key_and_an_empty_string_without_one(m):
    settle(m, "NEW{return}10 GET K$:IF K$=\"\" THEN 10{return}20 PRINT ASC(K$){return}RUN{return}")
    settle(m, "Z")
    assert screen(m)[-3:] == [" 90", "", "READY."]


def test_run_stop_breaks_and_cont_goes_on(m):
    settle(m, "NEW{return}10 I=I+1:GOTO 10{return}")
    m.type("RUN{return}")
    assert m.run(3_000_000) is StopReason.CYCLES          # still running
    m.press(0x03)                                          # RUN/STOP
    settle(m)
    assert screen(m)[-3:] == ["", "BREAK IN 10", "READY."]
    settle(m, "PRINT I>0{return}")
    assert screen(m)[-3:] == ["-1", "", "READY."]
    m.type("CONT{return}")
    assert m.run(3_000_000) is StopReason.CYCLES
    m.press(0x03)
    settle(m)
    assert screen(m)[-3:] == ["", "BREAK IN 10", "READY."]


def test_stop_statement_says_break_in_its_line(m):
    assert run(m, "10 STOP", "20 PRINT \"ON\"") == ["", "BREAK IN 10", "READY."]
    assert typed(m, "CONT") == ["ON", "", "READY."]


def test_a_fresh_machine_has_38911_bytes_and_fre_counts_as_a_signed_number(m):
    assert typed(m, "PRINT FRE(0)") == ["-26627", "", "READY."]


def test_variables_live_after_the_program_as_a_c64_keeps_them(m):
    run(m, "10 AB=1:C%=-2:D$=\"HI\"")
    vartab = m.peek(0x2D) | (m.peek(0x2E) << 8)
    arytab = m.peek(0x2F) | (m.peek(0x30) << 8)
    assert arytab - vartab == 21
    cells = [m.peek(vartab + i) for i in range(21)]
    assert cells[0:7] == [0x41, 0x42, 0x81, 0, 0, 0, 0]                 # AB = 1.0
    assert cells[7:11] == [0xC3, 0x80, 0xFF, 0xFE]                        # C% = -2, high byte first
    assert cells[14:17] == [0x44, 0x80, 2]                                # D$: length 2
    address = cells[17] | (cells[18] << 8)
    assert bytes(m.peek(address + i) for i in range(2)) == b"HI"        # the literal in the program
    assert 0x0801 < address < vartab


def test_only_two_characters_of_a_name_count(m):
    assert run(m, "10 ABC=5:PRINT ABX") == [" 5", "", "READY."]


def test_arrays_have_eleven_elements_by_default_and_dim_makes_more(m):
    assert run(m, "10 A(10)=7:DIM B$(20):B$(20)=\"Z\":PRINT A(10);B$(20)") == [" 7 Z", "", "READY."]


def test_strings_are_made_below_memsiz_and_fre_sees_them(m):
    rows = run(m, "10 A=FRE(0):A$=CHR$(65)+CHR$(66):PRINT A-FRE(0);A$")
    assert rows == [" 9 AB", "", "READY."]                              # 7 for A$, 2 for its text


def test_string_functions(m):
    rows = run(m, '10 A$="COMMODORE":PRINT LEFT$(A$,3);RIGHT$(A$,4);MID$(A$,4,3);LEN(A$)',
               '20 PRINT STR$(12);VAL("3.5E2");ASC("A");CHR$(66)')
    assert rows == ["COMDOREMOD 9", " 12 350  65 B", "", "READY."]


def test_numeric_functions(m):
    rows = run(m, "10 PRINT SQR(16);INT(-2.5);ABS(-3);SGN(-7);2^10;-2^2",
               "20 PRINT SIN(0);COS(0);EXP(0);ATN(0);3 AND 5;3 OR 5;NOT 0")
    assert rows == [" 4 -3  3 -1  1024 -4", " 0  1  1  0  1  7 -1", "", "READY."]


def test_relations_give_minus_one_or_zero(m):
    assert typed(m, 'PRINT 1<2;2<1;"A"<"B";1<>1;2>=2') == ["-1  0 -1  0 -1", "", "READY."]


def test_def_fn_and_on_goto(m):
    rows = run(m, "10 DEF FNA(X)=X*X+1", "20 ON 2 GOTO 30,40", "30 PRINT \"NO\"", "40 PRINT FNA(3)")
    assert rows == [" 10", "", "READY."]


def test_if_then_runs_the_rest_of_the_line_only_when_true(m):
    rows = run(m, "10 IF 1 THEN PRINT \"A\";:PRINT \"B\"", "20 IF 0 THEN PRINT \"C\":PRINT \"D\"",
               "30 IF 1 GOTO 50", "40 PRINT \"E\"", "50 PRINT \"F\"")
    assert rows == ["AB", "F", "", "READY."]


def test_ti_counts_jiffies_and_ti_string_sets_the_clock(m):
    rows = run(m, '10 TI$="123456":PRINT TI$;TI>2717000', "20 T=TI:FOR I=1 TO 1000:NEXT:PRINT TI-T>30")
    assert rows == ["123456-1", "-1", "", "READY."]


def test_poke_and_peek_see_memory(m):
    assert typed(m, "POKE 828,42:PRINT PEEK(828)") == [" 42", "", "READY."]
    assert typed(m, "POKE 1024,1") == ["", "READY."]
    assert m.peek(1024) == 1


def test_sys_from_a_program_comes_back_to_the_next_statement(m):
    # $C000: LDA #$58 ('X') / JSR $FFD2 / RTS
    rows = run(m, "10 FOR I=0 TO 5:READ B:POKE 49152+I,B:NEXT", "20 SYS 49152:PRINT \"Y\"",
               "30 DATA 169,88,32,210,255,96")
    assert rows == ["XY", "", "READY."]


def test_list_gives_back_the_typed_lines(m):
    lines = ['10 PRINT "HELLO";:GOTO 10', "20 FOR I=1 TO 10 STEP 2:NEXT I",
             '30 IF A$<>"X" THEN A=A+1:REM ANYTHING', "40 DATA 1,2,PRINT",
             "50 ON X GOSUB 10,20", "60 DEF FNA(X)=SIN(X)*2^3", "63999 END"]
    assert typed(m, "NEW", *lines, "LIST") == [""] + lines + ["READY."]


def test_abbreviated_keywords_list_in_full(m):
    assert typed(m, "NEW", "10 ?\"A\":g{shift-o}20", "LIST") == ["", '10 PRINT"A":GOTO20', "READY."]


def test_save_and_load_of_a_basic_program_then_run(m):
    typed(m, "NEW", '10 PRINT "SAVED"', 'SAVE"PROG",8', "NEW")
    assert typed(m, 'LOAD"PROG",8', "RUN")[-3:] == ["SAVED", "", "READY."]


def test_print_to_a_file_and_read_it_back(m):
    rows = run(m, '10 OPEN 2,8,2,"DATA,S,W":PRINT#2,"ONE":PRINT#2,42:CLOSE 2',
               '20 OPEN 2,8,2,"DATA,S,R":INPUT#2,A$,B:CLOSE 2:PRINT A$;B')
    assert rows == ["ONE 42", "", "READY."]


def test_ryg_basic_boots_to_the_start_banner_and_runs_typed_keys(capsys):
    import ryg
    assert ryg.main(["--headless", "--basic", "--keys", "PRINT 2+2{return}"]) == 0
    rows = [row.rstrip() for row in capsys.readouterr().out.splitlines()]
    assert rows[:10] == ["", "    **** COMMODORE 64 BASIC V2 ****", "", " 64K RAM SYSTEM  38911 BASIC BYTES FREE",
                         "", "READY.", "PRINT 2+2", " 4", "", "READY."]


def test_the_version_menu_offers_basic_last():
    from c64.terminal.menu import menu_entries
    entries = menu_entries([], folder="/nonexistent")
    assert entries[-1].name == "BASIC" and entries[-1].path is None


def test_a_listed_line_changed_on_the_screen_and_entered_with_return_replaces_the_line(m):
    settle(m, 'NEW{return}10 PRINT "A"{return}LIST{return}')
    settle(m, "{up}{up}" + "{right}" * 10 + "B{return}{clr}LIST{return}")
    assert screen(m) == ["LIST", "", '10 PRINT "B"', "READY."]
    assert typed(m, "RUN") == ["B", "", "READY."]


def test_usr_calls_the_routine_at_0311_with_the_argument_in_fac(m):
    # $C000: INC $61 (the FAC exponent: times two) / RTS
    typed(m, "POKE 49152,230:POKE 49153,97:POKE 49154,96", "POKE 785,0:POKE 786,192")
    assert typed(m, "PRINT USR(21)+1") == [" 43", "", "READY."]


def test_wait_lets_the_machine_run_until_the_bits_are_set(m):
    settle(m, 'NEW{return}10 POKE 198,0:WAIT 198,1:GET A$:PRINT "GOT ";A${return}RUN{return}')
    assert screen(m)[-1] == "RUN"                              # waiting, no READY. yet
    settle(m, "Q")
    assert screen(m)[-3:] == ["GOT Q", "", "READY."]


def test_cmd_sends_print_to_an_open_file(m):
    assert run(m, '10 OPEN 4,3:CMD 4:PRINT "VIA CMD";:PRINT#4,"X":CLOSE 4') == ["", "VIA CMDX", "", "READY."]


def test_run_stop_breaks_a_long_list(m):
    for number in range(1, 201):
        m.basic.store_line(number, b"\x8f LINE %d" % number)            # REM LINE n
    m.type("LIST{return}")
    assert m.run(300_000) is StopReason.CYCLES
    m.press(0x03)
    settle(m)
    rows = screen(m)
    assert rows[-2:] == ["BREAK", "READY."]
    assert "200 REM LINE 200" not in rows


# 10 PRINT "HI"  /  20 GOTO 40  /  30 END  /  40 PRINT 1+1: as a C64 saves it (load address, links)
SAVED_BY_A_C64 = bytes([0x01, 0x08,
                        0x0C, 0x08, 0x0A, 0x00, 0x99, 0x20, 0x22, 0x48, 0x49, 0x22, 0x00,
                        0x15, 0x08, 0x14, 0x00, 0x89, 0x20, 0x34, 0x30, 0x00,
                        0x1B, 0x08, 0x1E, 0x00, 0x80, 0x00,
                        0x25, 0x08, 0x28, 0x00, 0x99, 0x20, 0x31, 0xAA, 0x31, 0x00,
                        0x00, 0x00])


def test_a_program_saved_by_a_c64_loads_lists_runs_and_saves_back_the_same_bytes(m, tmp_path):
    (tmp_path / "c64.prg").write_bytes(SAVED_BY_A_C64)
    assert typed(m, 'LOAD"C64",8', "LIST")[-6:] == ["", '10 PRINT "HI"', "20 GOTO 40", "30 END", "40 PRINT 1+1",
                                                "READY."]
    assert typed(m, "RUN") == ["HI", " 2", "", "READY."]
    typed(m, 'SAVE"AGAIN",8')
    assert (tmp_path / "again.prg").read_bytes() == SAVED_BY_A_C64


def test_typing_the_same_lines_stores_the_same_bytes_a_c64_stores(m):
    typed(m, "NEW", '10 PRINT "HI"', "20 GOTO 40", "30 END", "40 PRINT 1+1")
    end = m.peek(0x2D) | (m.peek(0x2E) << 8)
    assert bytes([0x01, 0x08]) + bytes(m.peek(a) for a in range(0x0801, end)) == SAVED_BY_A_C64


def test_an_error_ends_cmd_and_the_messages_go_to_the_screen(m):
    assert run(m, "10 OPEN 4,3:CMD 4", "20 PRINT 1/0")[-3:] == ["", "?DIVISION BY ZERO  ERROR IN 20", "READY."]
    assert m.peek(0x13) == 0


def test_usr_before_a_program_sets_its_vector_is_an_illegal_quantity(m):
    assert [m.peek(0x0310 + i) for i in range(3)] == [0x4C, 0x48, 0xB2]
    assert typed(m, "PRINT USR(1)") == ["", "?ILLEGAL QUANTITY  ERROR", "READY."]


# -- random programs never break the machine ------------------------------------------------------------
FUZZ_EXPRESSIONS = ["A", "B%", "C$", "A(I)", "1", "-2.5", "1E38", "1E-38", "LEN(C$)", "ASC(C$)", "CHR$(65)",
                    "STR$(A)", "VAL(C$)", "RND(1)", "SIN(A)", "LOG(A)", "SQR(A)", "INT(A)", "PEEK(A)", "FRE(0)",
                    "POS(0)", "MID$(C$,2)", "LEFT$(C$,A)", "A+B%", "A*A", "A/B%", "A^B%", "A=B%", "NOT A",
                    "A AND B%", "C$+C$", "TI", "TI$", "ST", "FNF(A)", "(A)", '"X"',
                    # the smallest exponent, spaces inside names, deep nesting (issue 23 and 24's forms)
                    "3E-39", "1E-38/3.4", "-1E-38/4", "A B", "A 1", "B %", "C $", "A (I)",
                    "(" * 30 + "A" + ")" * 30, "(" * 40 + "1" + ")" * 40, "CHR$(ASC(" * 12 + "C$+\"A\"" + "))" * 12,
                    "SIN(" * 25 + "A" + ")" * 25, "-" * 30 + "1", "NOT " * 20 + "A", "FNR(A)"]
FUZZ_STATEMENTS = ["A={e}", "B%={e}", "C$={e}", "A(I)={e}", "PRINT {e};{e},{e}", "IF {e} THEN {n}", "GOTO {n}",
                   "GOSUB {n}", "RETURN", "FOR I={e} TO {e}:NEXT", "DIM A({e})", "POKE {e},{e}",
                   'DATA 1,X,"Y"', "READ A", "READ C$", "RESTORE", "ON {e} GOTO {n},{n}", "DEF FNF(X)={e}",
                   "PRINT TAB({e});SPC({e})", "GET C$", "CLR", "I=I+1:IF I<{e} THEN {n}", "END", "STOP",
                   "WAIT 1,0", "OPEN 1,3:PRINT#1,{e}:CLOSE 1", "CMD 3", "LIST",
                   "DATA AB  ,C , D E", "READ C$,C$", "IF {e} THEN:PRINT {e}", "LIST {n}", "LIST {n}-{n}", "LIST {n}-",
                   "LIST -{n}", "DEF FNR(X)=FNR(X)+1", "N=N+1:GOSUB {n}", "FOR J=1 TO 9:GOSUB {n}:NEXT", "CONT",
                   "A B={e}:PRINT AB"]


def _random_program(rng):
    lines = []
    for n in range(1, rng.randint(2, 8)):
        text = ":".join(rng.choice(FUZZ_STATEMENTS).format(e=rng.choice(FUZZ_EXPRESSIONS), n=rng.randint(1, 8) * 10)
                        for _ in range(rng.randint(1, 3)))
        lines.append((n * 10, crunch(text.encode("latin-1"))))
    return lines


@pytest.mark.parametrize("count, seed", [pytest.param(12, 1), pytest.param(300, 2, marks=pytest.mark.slow)])
def test_random_programs_end_in_basic_errors_or_ready_never_in_a_machine_error(count, seed):
    import random
    rng = random.Random(seed)
    for case in range(count):
        machine = C64(sid_seed=case)
        machine.run(500_000)
        program = _random_program(rng)
        for number, tokens in program:
            machine.basic.store_line(number, tokens)
        machine.type("RUN{return}")
        for _ in range(6):
            reason = machine.run(2_000_000)
            assert reason is not StopReason.ERROR, (machine.error, program)
            if reason is StopReason.IDLE:
                break


@pytest.mark.parametrize("program, jiffies", [
    # short statements: a NEWSTT visit ends at the next interrupt due
    (("10 FOR I=1 TO 3000:A=A+1:IF A>0 THEN GOTO 20", "20 NEXT"), 100),
    # statements of about 150,000 cycles, nine jiffies each: their time passes with the
    # interrupts running (C64.stall)
    (("10 Y=1:FOR I=1 TO 20", "20 Y=(TAN(ATN(SQR(Y*Y)))+1)/Y:NEXT"), 150),
], ids=["short statements", "statements longer than a jiffy"])
def test_ti_keeps_the_time_a_program_is_charged(m, program, jiffies):
    # Every jiffy interrupt the charged time covers is taken, so TI counts what the clock
    # and the pacing count.
    typed(m, "NEW", *program)
    cycles, start = m.cycles, m.kernal.clock.read()
    typed(m, "RUN")
    charged = (m.cycles - cycles) / (m.clock_hz / 60)
    assert charged > jiffies
    assert abs((m.kernal.clock.read() - start) - charged) <= 2


def test_a_number_typed_where_a_shorter_one_stood_is_read_whole(m):
    # direct lines reuse the input buffer: "1" of X=1+2 sits where "1000" is typed next
    assert typed(m, "X=1+2", "PRINT 1000*2") == [" 2000", "", "READY."]
    assert typed(m, "PRINT 1E3", "PRINT 1E3*2", "PRINT 1.5") == [" 1.5", "", "READY."]


def test_pi_is_the_roms_constant_and_prints_as_a_c64_shows_it(m):
    # BASIC's pi ($AEA8) is 82 49 0F DA A1, one unit of the last place below the nearest
    # five-byte number (which FOUT would show as 3.14159266)
    settle(m, "CLR:P={pi}:PRINT P{return}")
    assert screen(m)[-3:] == [" 3.14159265", "", "READY."]
    assert typed(m, "A=PEEK(45)+256*PEEK(46):PRINT PEEK(A+6)") == [" 161", "", "READY."]


def test_cmd_keeps_its_file_through_ready_until_print_hash(m, tmp_path):
    # as on a C64 (the Programmer's Reference Guide's CMD example ends with PRINT#4:CLOSE 4):
    # READY. and what direct lines print go to CMD's file; PRINT# lets it go
    typed(m, 'OPEN 2,8,2,"LISTING,S,W":CMD 2:PRINT "ONE"', 'PRINT "TWO"', "PRINT#2:CLOSE 2")
    assert typed(m, 'PRINT "THREE"') == ["THREE", "", "READY."]
    text = (tmp_path / "listing.seq").read_bytes()
    # CMD 2 at the end of its statement prints a RETURN ($AAA0); READY. is "\r\nREADY.\r\n"
    # ($A376); a typed line's own RETURN is not sent into CMD's file ($AACA); PRINT#2 alone
    # prints a RETURN
    assert text == b"\rONE\r\r\nREADY.\r\nTWO\r\r\nREADY.\r\n\r"


def test_input_hash_reads_a_line_and_drops_what_its_variables_leave(m, tmp_path):
    (tmp_path / "data.seq").write_bytes(b"1,2\r3\r\r4\r5,X\rEND\r")
    rows = run(m, '10 OPEN 2,8,2,"DATA,S,R"', "20 INPUT#2,A:INPUT#2,B:PRINT A;B",
               "30 INPUT#2,C,D:PRINT C;D", "40 INPUT#2,E$:PRINT E$", "50 INPUT#2,G:PRINT G;ST AND 64",
               "60 CLOSE 2")
    # the 2 of "1,2" is dropped; an empty line first is skipped ($ABEF), so C gets 4 and D
    # the next line's 5 (X dropped); past the end G keeps 0 and ST says EOI
    assert rows == [" 1  3", " 4  5", "END", " 0  64", "", "READY."]


def test_input_hash_is_illegal_at_ready_once_the_file_is_open(m):
    assert typed(m, "INPUT#9,A") == ["", "?FILE NOT OPEN  ERROR", "READY."]
    assert typed(m, "OPEN 15,8,15:INPUT#15,A") == ["", "?ILLEGAL DIRECT  ERROR", "READY."]
    typed(m, "CLOSE 15")


def test_each_file_statement_says_the_kernal_s_error_by_its_name(m):
    assert typed(m, 'PRINT#9,"X"') == ["", "?FILE NOT OPEN  ERROR", "READY."]
    assert typed(m, "CMD 9") == ["", "?FILE NOT OPEN  ERROR", "READY."]
    assert run(m, "10 GET#9,A$") == ["", "?FILE NOT OPEN  ERROR IN 10", "READY."]
    assert run(m, "10 INPUT#9,A") == ["", "?FILE NOT OPEN  ERROR IN 10", "READY."]
    assert typed(m, 'OPEN 1,0:PRINT#1,"X"') == ["", "?NOT OUTPUT FILE  ERROR", "READY."]     # the keyboard
    assert typed(m, "OPEN 5,9") == ["", "?DEVICE NOT PRESENT  ERROR", "READY."]
    typed(m, "CLOSE 1")


def test_new_closes_the_files_as_clr_does(m):
    assert typed(m, "OPEN 6,3:NEW", 'PRINT#6,"Z"') == ["", "?FILE NOT OPEN  ERROR", "READY."]


def test_load_in_a_program_runs_the_new_one_with_the_variables_kept(m):
    typed(m, "NEW", '10 PRINT "SECOND";A', 'SAVE"P2",8', "NEW", '10 A=5:PRINT "FIRST"', '20 LOAD"P2",8')
    # no SEARCHING/LOADING in a program (MSGFLG), the variables stay ($E1B5)
    assert typed(m, "RUN") == ["FIRST", "SECOND 5", "", "READY."]


def test_the_loader_idiom_loads_machine_code_once_and_goes_on(m, tmp_path):
    (tmp_path / "ml.prg").write_bytes(bytes((0x00, 0xC0, 0xA9, 0x2A, 0x60)))      # $C000: LDA #42, RTS
    typed(m, "NEW", '10 IF A=0 THEN A=1:LOAD"ML",8,1', '20 PRINT PEEK(49153)')
    assert typed(m, "RUN") == [" 42", "", "READY."]


def test_saving_is_said_at_ready_not_by_a_running_program(m):
    assert typed(m, "NEW", '10 SAVE"S",8:PRINT "SAVED"', "RUN") == ["SAVED", "", "READY."]
    # GOTO typed at READY. leaves the KERNAL's messages on (only RUN turns them off)
    assert typed(m, "GOTO 10") == ["", "SAVING SSAVED", "", "READY."]


@pytest.mark.parametrize("key, shown", [("7", " 7"), (":", " 0"), (",", " 0"), ("E", " 0"),
                                        ("Z", "?SYNTAX  ERROR IN 20")])
def test_get_into_a_number_takes_what_fin_and_chrgot_take(m, key, shown):
    settle(m, "NEW{return}10 IF PEEK(198)=0 THEN 10{return}20 GET K:PRINT K{return}")
    m.type("RUN{return}")
    m.run(5_000_000)                                   # the program waits in line 10
    m.press(ord(key))
    settle(m)
    assert [row for row in screen(m) if row][-2:] == [shown, "READY."]


def test_for_takes_only_a_float_variable(m):
    # FOR's variable is a float: an integer or a string one is a SYNTAX error, as on a C64
    assert typed(m, "FOR I%=1 TO 3:NEXT") == ["", "?SYNTAX  ERROR", "READY."]
    assert typed(m, 'FOR I$="A" TO "B":NEXT') == ["", "?SYNTAX  ERROR", "READY."]
    assert typed(m, "FOR I=1 TO 3:PRINT I;:NEXT") == [" 1  2  3", "READY."]


def test_a_fourth_pending_string_is_formula_too_complex(m):
    # the ROM's three temporary descriptors: "A", "B" and "C" wait while "D" is made
    assert typed(m, 'PRINT "A"+("B"+("C"+"D"))') == ["", "?FORMULA TOO COMPLEX  ERROR", "READY."]
    assert typed(m, 'PRINT "A"+("B"+"C")') == ["ABC", "", "READY."]


@pytest.mark.parametrize("line, shown", [
    ('PRINT "A"+"B"+"C"+"D"+"E"+"F"', "ABCDEF"),                 # each + uses both up
    ('A$="X":PRINT A$+(A$+(A$+(A$+A$)))', "XXXXX"),             # variables are no temporaries
    ('PRINT LEFT$("ABC",2);MID$("ABCDEF",LEN("XY"),2);CHR$(65);STR$(1)', "ABBCA 1"),
    ('PRINT "A"<"B","B"="B";LEN("ABC"+"DE");ASC("Q")+LEN("R")', "-1        -1  5  82"),
    ('A$="1":B$=A$+"2":C$=B$+"3":D$=C$+"4":PRINT D$;VAL(D$+"5")', "1234 12345"),
])
def test_strings_used_up_as_they_go_do_not_fill_the_three_descriptors(m, line, shown):
    settle(m, "{clr}" + line + "{return}")
    rows = screen(m)
    assert rows[1 + (len(line) - 1) // 40] == shown          # the row after the typed line
