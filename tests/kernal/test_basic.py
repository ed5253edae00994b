"""BASIC direct mode (kernal/basic/direct.py): READY., RUN, LOAD, SYS, NEW, LIST, errors, screen layout."""

import pytest

from c64.machine import C64, StopReason
from kernal.basic import KEYWORDS, TOKEN, crunch, detokenise
from tests.tools.basic_keys import settle

HELLO = bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes([0, 0, 0])
# at $080D: LDA #'H' JSR $FFD2 LDA #'I' JSR $FFD2 RTS
HELLO += bytes([0xA9, 0x48, 0x20, 0xD2, 0xFF, 0xA9, 0x49, 0x20, 0xD2, 0xFF, 0x60])
# a machine-code file for $C000: LDA #'X' JSR $FFD2 RTS
AT_C000 = bytes([0x00, 0xC0, 0xA9, 0x58, 0x20, 0xD2, 0xFF, 0x60])


@pytest.fixture
def folder(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "hello.prg").write_bytes(HELLO)
    (games / "mc.prg").write_bytes(AT_C000)
    return games


@pytest.fixture
def m(folder):
    machine = C64(sid_seed=1, disk_folder=str(folder))
    settle(machine)
    return machine


def screen(machine):
    """Screen rows, right-stripped, without the empty rows at the bottom."""
    rows = [row.rstrip() for row in machine.screen_lines()]
    while rows and not rows[-1]:
        rows.pop()
    return rows


def after(machine, typed):
    """The rows from the last row showing `typed` to the end of the text."""
    rows = screen(machine)
    index = max(i for i, row in enumerate(rows) if row == typed)
    return rows[index:]


def cursor(machine):
    return machine.peek(0xD6), machine.peek(0xD3)


# -- the prompt and the layout of errors -----------------------------------------------------------

def test_power_on_shows_ready_and_waits_with_the_cursor_below_it(m):
    rows = screen(m)
    assert rows[-1] == "READY."
    assert cursor(m) == (len(rows), 0)


def test_an_unknown_command_answers_syntax_error_after_a_blank_line_then_ready(m):
    settle(m, "FOO{return}")
    assert after(m, "FOO") == ["FOO", "", "?SYNTAX  ERROR", "READY."]
    assert cursor(m) == (len(screen(m)), 0)


def test_an_empty_line_gives_no_ready_only_a_new_line(m):
    before = len(screen(m))
    settle(m, "{return}")
    assert screen(m).count("READY.") == 1
    assert cursor(m) == (before + 1, 0)


def test_new_clears_the_program_and_prints_ready_after_a_blank_line(m):
    settle(m, 'LOAD"HELLO",8{return}NEW{return}')
    assert after(m, "NEW") == ["NEW", "", "READY."]
    assert m.peek(0x0801) == 0 and m.peek(0x0802) == 0
    assert (m.peek(0x2D), m.peek(0x2E)) == (0x03, 0x08)


# -- LOAD --------------------------------------------------------------------------------------------

def test_load_prints_searching_and_loading_puts_the_program_at_0801_and_sets_its_end(m):
    settle(m, 'LOAD"HELLO",8{return}')
    assert after(m, 'LOAD"HELLO",8') == ['LOAD"HELLO",8', "", "SEARCHING FOR HELLO", "LOADING", "READY."]
    assert bytes(m.mem.ram[0x0801:0x0801 + len(HELLO) - 2]) == HELLO[2:]
    end = 0x0801 + len(HELLO) - 2
    assert (m.peek(0x2D), m.peek(0x2E)) == (end & 0xFF, end >> 8)


def test_load_with_secondary_1_uses_the_files_own_address(m):
    settle(m, 'LOAD"MC",8,1{return}')
    assert bytes(m.mem.ram[0xC000:0xC006]) == AT_C000[2:]
    assert (m.peek(0x2D), m.peek(0x2E)) == (0x06, 0xC0)     # direct-mode LOAD sets the end even with ,1


def test_load_of_a_missing_file_says_file_not_found_under_the_searching_line(m):
    settle(m, 'LOAD"NOPE",8{return}')
    assert after(m, 'LOAD"NOPE",8') == ['LOAD"NOPE",8', "", "SEARCHING FOR NOPE",
                                         "?FILE NOT FOUND  ERROR", "READY."]


@pytest.mark.parametrize("typed, message", [
    ('LOAD"HELLO"', "?DEVICE NOT PRESENT  ERROR"),       # device 1: no datasette here
    ('LOAD"HELLO",9', "?DEVICE NOT PRESENT  ERROR"),
    ('LOAD"HELLO",3', "?ILLEGAL DEVICE NUMBER  ERROR"),
    ('LOAD"",8', "?MISSING FILE NAME  ERROR"),
    ('LOAD"HELLO",8,999', "?ILLEGAL QUANTITY  ERROR"),
    ("LOAD HELLO", "?TYPE MISMATCH  ERROR"),     # the name is an expression, here a number
])
def test_load_errors_are_the_basic_messages(m, typed, message):
    settle(m, typed + "{return}")
    assert after(m, typed)[-2:] == [message, "READY."]


def test_load_dollar_then_list_shows_the_directory(m, folder):
    settle(m, 'LOAD"$",8{return}LIST{return}')
    rows = after(m, "LIST")
    assert rows[1] == ""
    assert rows[2] == '0 "GAMES           " 64 2A'
    assert rows[3] == '1    "HELLO"            PRG'
    assert rows[4] == '1    "MC"               PRG'
    assert rows[5] == "662 BLOCKS FREE."
    assert rows[6] == "READY."
    header = m.screen_codes()[screen(m).index(rows[2])]
    assert header[0] < 0x80 and all(code >= 0x80 for code in header[2:26]) and header[26] < 0x80   # the disk name line is reversed


def test_run_of_a_directory_listing_is_a_syntax_error_in_line_0(m):
    settle(m, 'LOAD"$",8{return}RUN{return}')
    assert after(m, "RUN")[-2:] == ["?SYNTAX  ERROR IN 0", "READY."]


# -- RUN and SYS ----------------------------------------------------------------------------------------

def test_run_starts_the_sys_line_and_ready_follows_the_programs_output(m):
    settle(m, 'LOAD"HELLO",8{return}RUN{return}')
    assert after(m, "RUN") == ["RUN", "HI", "READY."]


def test_run_again_reruns_the_program_in_memory(folder):
    machine = C64(sid_seed=1, disk_folder=str(folder))
    program = machine.load_prg(HELLO)
    machine.start(program.start)
    assert machine.run(1_000_000) is StopReason.BASIC
    settle(machine, "RUN{return}")
    assert screen(machine)[-3:] == ["RUN", "HI", "READY."]


def test_sys_calls_machine_code_and_comes_back_to_ready(m):
    settle(m, 'LOAD"MC",8,1{return}SYS 49152{return}')
    assert after(m, "SYS 49152") == ["SYS 49152", "X", "READY."]
    settle(m, "SYS(49152){return}")
    assert after(m, "SYS(49152)") == ["SYS(49152)", "X", "READY."]


def test_sys_outside_memory_is_an_illegal_quantity(m):
    settle(m, "SYS 70000{return}")
    assert after(m, "SYS 70000") == ["SYS 70000", "", "?ILLEGAL QUANTITY  ERROR", "READY."]


def test_sys_without_a_number_is_a_syntax_error(m):
    settle(m, "SYS{return}")
    assert after(m, "SYS")[-2:] == ["?SYNTAX  ERROR", "READY."]


def test_keyword_abbreviations_work_as_on_the_c64(m):
    settle(m, 'LOAD"HELLO",8{return}r{shift-u}{return}')
    assert screen(m)[-2:] == ["HI", "READY."]


# -- program lines, LIST, RUN of simple programs ---------------------------------------------------------

def test_typed_lines_are_stored_listed_and_run(m):
    settle(m, 'LOAD"MC",8,1{return}NEW{return}20 SYS 49152{return}10 REM HELLO "X"{return}LIST{return}')
    assert after(m, "LIST") == ["LIST", "", '10 REM HELLO "X"', "20 SYS 49152", "READY."]
    settle(m, "RUN{return}")
    assert after(m, "RUN") == ["RUN", "X", "READY."]


def test_a_line_number_alone_deletes_that_line(m):
    settle(m, "NEW{return}10 REM A{return}20 REM B{return}10{return}LIST{return}")
    assert after(m, "LIST") == ["LIST", "", "20 REM B", "READY."]


def test_list_with_a_range(m):
    settle(m, "NEW{return}10 REM A{return}20 REM B{return}30 REM C{return}LIST 20-{return}")
    assert after(m, "LIST 20-") == ["LIST 20-", "", "20 REM B", "30 REM C", "READY."]
    settle(m, "LIST -10{return}")
    # the RETURN LIST prints before it finds line 20 past the range's end ($A6C9): a blank row
    assert after(m, "LIST -10") == ["LIST -10", "", "10 REM A", "", "READY."]
    settle(m, "LIST 20{return}")
    assert after(m, "LIST 20") == ["LIST 20", "", "20 REM B", "", "READY."]


def test_run_stops_with_syntax_error_in_the_line_it_cannot_do(m):
    settle(m, "NEW{return}10 REM FINE{return}20 FOO{return}RUN{return}")
    assert after(m, "RUN") == ["RUN", "", "?SYNTAX  ERROR IN 20", "READY."]


def test_run_of_an_empty_program_just_says_ready(m):
    settle(m, "NEW{return}RUN{return}")
    assert after(m, "RUN") == ["RUN", "", "READY."]


def test_run_with_a_missing_line_is_undefd_statement(m):
    settle(m, "NEW{return}10 END{return}RUN 50{return}")
    assert after(m, "RUN 50")[-2:] == ["?UNDEF'D STATEMENT  ERROR", "READY."]


# -- the tokeniser ---------------------------------------------------------------------------------------

def test_crunch_turns_keywords_into_tokens_anywhere_as_basic_v2_does():
    assert crunch(b"PRINT") == bytes([TOKEN["PRINT"]])
    assert crunch(b"?") == bytes([TOKEN["PRINT"]])
    assert crunch(b"SCORE") == b"SC" + bytes([TOKEN["OR"]]) + b"E"     # the famous BASIC V2 quirk
    assert crunch(b'PRINT"LIST"') == bytes([TOKEN["PRINT"]]) + b'"LIST"'
    assert crunch(b"REM LIST") == bytes([TOKEN["REM"]]) + b" LIST"
    assert crunch(b"SYS2064") == bytes([TOKEN["SYS"]]) + b"2064"


def test_crunch_reads_a_shifted_letter_as_the_end_of_an_abbreviated_keyword():
    assert crunch(bytes([0x4C, 0xC9])) == bytes([TOKEN["LIST"]])       # l + shift-I
    assert crunch(bytes([0x53, 0xD9]) + b"49152") == bytes([TOKEN["SYS"]]) + b"49152"


# What CRUNCH ($A579) of the genuine BASIC 901226-01 made of these bytes (measured: the bytes
# put in BUF and CRUNCH called; 1,500 random lines of keywords, abbreviations, shifted letters,
# quotes, REM, DATA and any byte agreed too).
ROM_CRUNCHED = [
    (b"FORI=ATOB", "8149b241a442"),             # FOR I = A TO B: ATN does not match, TO does
    (b"EN\xc4", "454e"),                        # a shifted last letter is no abbreviation ...
    (b"EN\xc4FOR", "80"),                       # ... the match goes on into FOR's letters
    (b"EN\xc4X:NEXT", "454e583a82"),            # ... and the token counted after it is one less
    (b"I\xc6X", "4958"),                        # IF's shifted F: I, then the F dropped
    (b"F\xce", "46"),                           # FN the same
    (b"MID\xa4GO", "ca"),                       # MID$ with a shifted $ runs on into GO
    (b"S\xd4", "90"),                           # sT: STOP, the first keyword with S, T
    (b"L\xc9", "9b"),                           # lI: LIST
    (b"GO TO", "cb20a4"),
    (b"A\xffB", "41ff42"),                      # pi is kept outside quotes, other bytes above $7F are not
    (b'?"HI":REM A\xc1', "99224849223a8f2041c1"),
    (b'DATA A\xc1B,"\xc1":PRINT', "832041422c22c1223a99"),     # in DATA: dropped, but not in quotes
    (b'DATA"A:B",PRINT:PRINT', "8322413a42222c5052494e543a99"),
    (b'REM"X:PRINT', "8f22583a5052494e54"),
    (b"DEFFNA(X)=X", "96a541285829b258"),
    (b"IFA THEN10", "8b4120a73130"),
]


@pytest.mark.parametrize("typed, tokenised", ROM_CRUNCHED)
def test_crunch_makes_what_the_roms_crunch_makes(typed, tokenised):
    assert crunch(typed).hex() == tokenised


def test_detokenise_prints_every_v2_keyword_and_marks_unknown_tokens():
    for token, word in enumerate(KEYWORDS, 0x80):
        assert detokenise(bytes([token])) == word.encode()
    assert detokenise(bytes([0xCC])) == b"{$CC}"
    assert detokenise(b'"' + bytes([0x99]) + b'"') == b'"\x99"'          # inside quotes: raw


def test_save_writes_the_basic_program_and_it_loads_back(m, folder):
    settle(m, "NEW{return}10 REM SAVED{return}SAVE\"MINE\",8{return}")
    assert after(m, 'SAVE"MINE",8') == ['SAVE"MINE",8', "", "SAVING MINE", "READY."]
    data = (folder / "mine.prg").read_bytes()
    assert data[:2] == b"\x01\x08" and b"SAVED" in data
    settle(m, 'NEW{return}LOAD"MINE",8{return}LIST{return}')
    assert after(m, "LIST") == ["LIST", "", "10 REM SAVED", "READY."]


def test_save_to_a_full_disk_says_ready_and_the_drive_reports_disk_full(m, folder):
    (folder / "big.prg").write_bytes(bytes(664 * 254))           # all of a 1541's 664 blocks
    settle(m, "NEW{return}10 REM SAVED{return}SAVE\"MINE\",8{return}")
    assert after(m, 'SAVE"MINE",8') == ['SAVE"MINE",8', "", "SAVING MINE", "READY."]
    assert not (folder / "mine.prg").exists()
    assert m.kernal.channels.devices[8].pending_error() == "72,DISK FULL,00,00"


def test_save_without_a_name_or_to_tape_is_refused(m):
    settle(m, 'SAVE"",8{return}')
    assert screen(m)[-2:] == ["?MISSING FILE NAME  ERROR", "READY."]
    settle(m, 'SAVE"X"{return}')
    assert screen(m)[-2:] == ["?DEVICE NOT PRESENT  ERROR", "READY."]


def test_load_from_a_drive_that_is_not_there_searches_first_then_says_device_not_present(m):
    settle(m, 'LOAD"HELLO",9{return}')
    assert after(m, 'LOAD"HELLO",9') == ['LOAD"HELLO",9', "", "SEARCHING FOR HELLO",
                                          "?DEVICE NOT PRESENT  ERROR", "READY."]


def test_verify_compares_the_file_with_memory(m):
    settle(m, 'LOAD"HELLO",8{return}VERIFY"HELLO",8{return}')
    assert after(m, 'VERIFY"HELLO",8') == ['VERIFY"HELLO",8', "", "SEARCHING FOR HELLO", "VERIFYING", "OK",
                                            "", "READY."]
    m.poke(0x0810, 0xEA)
    settle(m, 'VERIFY"HELLO",8{return}')
    assert after(m, 'VERIFY"HELLO",8')[-3:] == ["VERIFYING", "?VERIFY  ERROR", "READY."]
    assert m.peek(0x0810) == 0xEA                     # VERIFY never writes


def test_statements_after_a_colon_run_but_not_after_rem(m):
    settle(m, "NEW{return}10 REM A{return}REM:NEW{return}LIST{return}")
    assert after(m, "LIST")[-2:] == ["10 REM A", "READY."]
    settle(m, "CLR:NEW{return}LIST{return}")
    assert after(m, "LIST") == ["LIST", "", "READY."]
