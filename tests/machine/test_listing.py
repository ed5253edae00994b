"""BASIC listings as text (c64.listing): `ryg game.bas` and `ryg --listing prog.prg`.

Round trips over every BASIC program of the project and over generated ones (every
keyword, quotes, REM, DATA, graphic and shifted characters, control codes in strings),
programs typed at READY. in the emulator against the tokenised listing byte for byte,
and every bad input refused with one line and exit status 2.
"""

import glob
import os
import random

import pytest

import ryg
from c64.listing import (ListingError, line_text, listing_of, program_image, read_line, read_listing,
                         read_listing_file, text_to_petscii)
from c64.loader import parse_prg, read_prg
from c64.machine import C64
from kernal.basic import KEYWORDS, TOKEN, crunch
from tests.conftest import assemble_program
from tests.kernal.test_basic_programs import PROGRAMS
from tests.tools.basic_keys import settle

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASIC_PRGS = sorted(glob.glob(os.path.join(REPO, "asm", "*.prg"))) + [os.path.join(REPO, "examples", "board.prg")]


def as_program(image, name="test"):
    return parse_prg(b"\x01\x08" + image, name, 0x0801)


def round_trip(image, case="upper"):
    """The listing of a program image, and what reading it back gives."""
    text, notes = listing_of(as_program(image), case)
    return text, notes, program_image(read_listing(text, case))


# -- reading ------------------------------------------------------------------------------------

def test_a_listing_is_tokenised_as_typed_lines_are():
    lines = read_listing('10 print "{clr}hi"\n20 fOR i=ATOB:?i;:next\n')
    assert lines == {10: bytes([TOKEN["PRINT"]]) + b' "\x93HI"',
                     20: crunch(b"FOR I=ATOB:?I;:NEXT")}
    assert lines[20][:7] == bytes([TOKEN["FOR"]]) + b" I" + bytes([TOKEN["="]]) + b"A" + bytes([TOKEN["TO"]]) + b"B"


def test_no_keyword_is_crunched_in_quotes_after_rem_or_in_data():
    lines = read_listing('10 ? "PRINT":REM PRINT\n20 DATA PRINT,"GOTO":GOTO 10\n')
    assert lines[10] == bytes([TOKEN["PRINT"]]) + b' "PRINT":' + bytes([TOKEN["REM"]]) + b" PRINT"
    assert lines[20] == bytes([TOKEN["DATA"]]) + b' PRINT,"GOTO":' + bytes([TOKEN["GOTO"]]) + b" 10"


def test_a_later_line_replaces_an_earlier_one_and_a_number_alone_deletes_it():
    lines = read_listing("30 C\n10 A\n20 B\n10 AA\n30\n")
    assert lines == {10: b"AA", 20: b"B"}
    assert program_image(lines) == bytes([0x08, 0x08, 10, 0, 0x41, 0x41, 0, 0x0E, 0x08, 20, 0, 0x42, 0, 0, 0])


def test_abbreviations_and_shifted_letters_are_read_as_the_cruncher_reads_them():
    assert read_line("10 l{SHIFT-I}") == (10, bytes([TOKEN["LIST"]]))
    assert read_line("10 gO", case="mixed") == (10, bytes([TOKEN["GOTO"]]))      # mixed: a capital is shifted
    assert read_line('10 ? "Hi"', case="mixed") == (10, bytes([TOKEN["PRINT"]]) + b' "\xc8I"')
    assert read_line("10 A{SHIFT-A}") == (10, b"A")                 # a graphic outside quotes: dropped
    assert read_line("10 I{shift-f}X") == (10, b"IX")               # IF's last letter shifted is no IF


def test_codes_and_signs_give_their_petscii_bytes():
    assert text_to_petscii("{clr}{home}{rvs on}{RVOF}{red}{3 down}{down*2}{$8d}{147}") == bytes(
        [0x93, 0x13, 0x12, 0x92, 0x1C, 0x11, 0x11, 0x11, 0x11, 0x11, 0x8D, 0x93])
    assert text_to_petscii("{2 SPACES}{RVS}X{OFF}{WHITE}{Light Green}{gray}") == bytes(
        [0x20, 0x20, 0x12, 0x58, 0x92, 0x05, 0x99, 0x98])             # printed listings' names
    assert text_to_petscii("{CBM-K}{SHIFT-*}{shift-space}{light blue}{pi}~\u03c0\\\u00a3^_@[]") == bytes(
        [0xA1, 0xC0, 0xA0, 0x9A, 0xFF, 0xFF, 0xFF, 0x5C, 0x5C, 0x5E, 0x5F, 0x40, 0x5B, 0x5D])


def test_spaces_around_the_number_and_at_the_end_are_dropped_as_the_editor_and_linget_drop_them():
    assert read_line("   1 0  PRINT   ") == (10, bytes([TOKEN["PRINT"]]))
    assert read_listing(";petcat's header\n\n  \n10 A\n") == {10: b"A"}
    assert read_listing("10 A\r20 B\r\n30 C") == {10: b"A", 20: b"B", 30: b"C"}      # old Macs' ends, Windows


# -- round trips ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", BASIC_PRGS, ids=os.path.basename)
def test_every_basic_program_of_the_project_lists_and_reads_back_the_same(path):
    program = read_prg(path, 0x0801)
    text, notes = listing_of(program)
    image = program_image(read_listing(text))
    assert image == program.data[:len(image)]
    assert all("bytes after the BASIC program" in note for note in notes)      # only the machine code


@pytest.mark.parametrize("name", sorted(os.path.basename(path)[:-4]
                                         for path in glob.glob(os.path.join(REPO, "tests", "programs", "*.oph"))))
def test_the_6502_test_programs_basic_lines_round_trip(name):
    program = parse_prg(assemble_program(name), name)
    text, notes = listing_of(program)
    image = program_image(read_listing(text))
    assert text == "10 SYS2064\n" and image == program.data[:len(image)]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("case", ["upper", "mixed"])
def test_the_test_programs_round_trip(name, case):
    image = program_image(read_listing(PROGRAMS[name][0]))
    text, notes, again = round_trip(image, case)
    assert (again, notes) == (image, [])


def test_every_keyword_round_trips_as_itself():
    for token, word in enumerate(KEYWORDS, 0x80):
        lines = {10: b"A" + bytes([token]) + b"1", 20: bytes([token])}
        text, notes, again = round_trip(program_image(lines))
        assert (again, notes) == (program_image(lines), []), word
        assert text.startswith("10 A%s1\n" % word)


def test_every_byte_round_trips_in_quotes_and_after_rem():
    low, high = bytes(range(1, 0x80)), bytes(range(0x80, 0x100))
    lines = {10: b'"' + low.replace(b'"', b"") + b'"', 20: b'"' + high + b'"',
             30: bytes([TOKEN["REM"]]) + low, 40: bytes([TOKEN["REM"]]) + high}
    for case in ("upper", "mixed"):
        text, notes, again = round_trip(program_image(lines), case)
        assert (again, notes) == (program_image(lines), [])


def random_typed_line(rng):
    """A line as a person might type it: keywords, names, numbers, operators, strings with
    control codes and graphics, REM with anything, DATA with quoted and plain items."""
    parts = []
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        if kind < 0.35:
            parts.append(rng.choice(KEYWORDS))
        elif kind < 0.55:
            parts.append(rng.choice(["A", "B1", "X$", "SC", "I%", "ST", "TI$", "Q", "N"]))
        elif kind < 0.7:
            parts.append(rng.choice(["1", "2.5", "=", "+", "(", ")", ",", ";", ":", " ", "<>", "~", "?", "#"]))
        elif kind < 0.85:
            inside = "".join(rng.choice(["A", " ", "{clr}", "{red}", "{rvon}", "{SHIFT-Q}", "{CBM-K}",
                                         "{$a0}", "PRINT", ":", "{3 down}", "~", "\\"])
                             for _ in range(rng.randint(0, 6)))
            parts.append('"%s"' % inside)
        elif kind < 0.92:
            parts.append("DATA " + ",".join(rng.choice(["1", "AB", '"X:Y"', "-2.5", " PRINT "])
                                            for _ in range(rng.randint(1, 3))) + ":")
        else:
            parts.append("REM " + "".join(rng.choice(["A", "{SHIFT-A}", "\"", ":", "{$ff}", "GOTO"])
                                          for _ in range(rng.randint(0, 8))))
            break
    return "".join(parts)


@pytest.mark.parametrize("seed", range(4))
def test_generated_programs_round_trip(seed):
    rng = random.Random(seed)
    text = "".join("%d %s\n" % (number, random_typed_line(rng)) for number in range(10, 2000, 10))
    for case in ("upper", "mixed"):
        image = program_image(read_listing(text))
        listing, notes, again = round_trip(image, case)
        assert (again, notes) == (image, [])
        assert program_image(read_listing(listing, case)) == image


def test_a_line_no_typed_line_gives_is_listed_and_named_in_a_note():
    lines = {10: b"STOP", 20: b"A" + bytes([0xDA]), 30: bytes([TOKEN["PRINT"]]) + b"#1"}
    text, notes, again = round_trip(program_image(lines))
    assert text == "10 STOP\n20 A{SHIFT-Z}\n30 ?#1\n"           # PRINT then #: written ?#, read back the same
    assert notes == ["test: lines 10, 20 would read back as other bytes: they hold bytes no typed line gives"]


# -- typed at READY. -----------------------------------------------------------------------------

TYPED = """\
10 PRINT "{clr}{3 down}{rvon}HELLO{rvof} {red}{CBM-K}{SHIFT-Q}"
20 FORI=ATOB STEP2:?I;:NEXT
30 DATA 1,"A:B",PRINT:READ X:REM {SHIFT-A}{SHIFT-B}
40 IF A{SHIFT-A}=1 THEN 10
50 G{SHIFT-O} 20:L{SHIFT-I}
60 PRINT ~;"~\\^_@"
20 A=1
"""


def typed_image(machine):
    ram, start = machine.mem.ram, 0x0801
    end = ram[0x2D] | ram[0x2E] << 8
    return bytes(ram[start:end])


@pytest.mark.parametrize("case", ["upper", "mixed"])
def test_a_program_typed_at_ready_is_the_tokenised_listing_byte_for_byte(case):
    text = TYPED if case == "upper" else TYPED.lower().replace("{shift-", "{SHIFT-")
    machine = C64()
    settle(machine)
    keys = text.replace("~", "{pi}").replace("\n", "{return}")
    if case == "mixed":         # typed: the keys give plain letters; the listing reads them the same
        keys = keys.upper()
    settle(machine, keys)
    assert typed_image(machine) == program_image(read_listing(text, case))


@pytest.mark.parametrize("seed", range(3))
def test_generated_programs_typed_at_ready_are_their_tokenised_listings(seed):
    rng = random.Random(seed)
    lines = []
    while len(lines) < 12:
        line = "%d %s" % (rng.randint(1, 300), random_typed_line(rng))
        if len(text_to_petscii(line)) <= 76:        # a line a C64 can type: two rows of the screen
            lines.append(line)
    text = "\n".join(lines) + "\n"
    machine = C64()
    settle(machine)
    settle(machine, text.replace("~", "{pi}").replace("\n", "{return}"))
    assert typed_image(machine) == program_image(read_listing(text))


def test_a_program_typed_with_headless_keys_and_saved_is_the_file_a_listing_gives(tmp_path, capsys):
    keys = TYPED.replace("~", "{pi}").replace("\n", "{return}") + 'SAVE"TYPED",8{return}'
    status = ryg.main(["--headless", "--cpu", "py65", "--basic", "--disk", str(tmp_path), "--keys", keys])
    assert status == 0, capsys.readouterr().err
    listing = tmp_path / "typed.bas"
    listing.write_text(TYPED, encoding="utf-8")
    assert (tmp_path / "typed.prg").read_bytes() == b"\x01\x08" + read_listing_file(str(listing)).data


# -- the command line ---------------------------------------------------------------------------

def run_ryg(capsys, *argv):
    status = ryg.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_ryg_runs_a_listing_as_a_loaded_program(tmp_path, capsys):
    path = tmp_path / "game.bas"
    path.write_text("20 print a$;b:end\n10 a$=\"sum\":b=2+3\n", encoding="utf-8")
    status, out, err = run_ryg(capsys, "--headless", "--cpu", "py65", str(path))
    assert (status, err) == (0, "")
    assert "SUM 5" in out.splitlines()


def test_ryg_listing_prints_the_text_that_reads_back(tmp_path, capsys):
    status, out, err = run_ryg(capsys, "--listing", os.path.join(REPO, "examples", "board.prg"))
    assert status == 0 and err == ""
    assert out.splitlines()[:2] == ["10 REM THE BOARD AT THE START", "20 FOR R=8 TO 1 STEP -1"]
    path = tmp_path / "board.txt"
    path.write_text(out, encoding="utf-8")
    assert read_listing_file(str(path)).data == read_prg(os.path.join(REPO, "examples", "board.prg")).data
    status, out, err = run_ryg(capsys, "--listing", "--case", "mixed", os.path.join(REPO, "examples", "board.prg"))
    assert out.splitlines()[0] == "10 rem the board at the start"


def test_ryg_listing_of_a_program_with_machine_code_says_what_is_left_out(capsys):
    status, out, err = run_ryg(capsys, "--listing", "ryg23")
    assert (status, out) == (0, "10 SYS2064\n")
    assert "bytes after the BASIC program (machine code?) are not in the listing" in err


BAD_LISTINGS = [
    ("PRINT 1\n", "game.bas:1: no line number at its start: 'PRINT 1'"),
    ("10 PRINT\n64000 PRINT\n", "game.bas:2: line number 64000 is over 63999, the highest BASIC takes"),
    ("10 REM " + "X" * 250 + "\n", "game.bas:1: line 10 is 257 bytes tokenised (with its link, number and end); "
                                   "BASIC takes 255 at most"),
    ('10 PRINT "{foo}"\n', "game.bas:1: {foo} is no PETSCII code (a name such as {clr}, {SHIFT-A}, {CBM-K}, "
                           "or {$8d} for any byte)"),
    ('10 PRINT "{restore}"\n', "game.bas:1: {restore} is no PETSCII code"),
    ('10 PRINT "{300 down}"\n', "game.bas:1: {300 down}: a count goes from 1 to 255 (the bytes of a line at most)"),
    ('10 PRINT "{' + "9" * 5000 + ' down}"\n', "game.bas:1: {" + "9" * 30 + "...}: a count goes from 1 to 255"),
    ('10 PRINT "A{$00}B"\n20 PRINT\n', "game.bas:1: line 10 holds a zero byte ({$00}), which ends a BASIC "
                                       "line: no line can hold one"),
    ('10 PRINT "{clr"\n', "game.bas:1: a { without its } at column 11"),
    ("10 PRINT `\n", "game.bas:1: '`' (U+0060) at column 10 is no C64 character; write it as a {code}"),
    ("10 PRINT }\n", "game.bas:1: a } without its { at column 10"),
    ("", "game.bas is empty: no BASIC line to read"),
    ("10 A\n10\n", "game.bas holds no BASIC line"),
    ("".join("%d REM %s\n" % (n, "X" * 240) for n in range(160)),
     "game.bas is 39522 bytes tokenised; BASIC has 38911"),
    ("".join("%d REM %s\n" % (n, "X" * 240) for n in range(300)),          # past 64 KB from $0801
     "game.bas is 74102 bytes tokenised; BASIC has 38911"),
    (b'10 PRINT "\xa3"\n', "game.bas is not UTF-8 text (byte $A3 at position 10)"),
    ("10 PRINT 1\n".encode("utf-16"), "game.bas is UTF-16 text (it starts with that byte order mark): save it "
                                       "as UTF-8 to read it as a listing"),
    (open(os.path.join(REPO, "examples", "board.prg"), "rb").read(),
     "game.bas is not a text listing: it holds zero bytes, as a binary file does (a .prg? it starts as one "
     "loaded at $0801)"),
]


@pytest.mark.parametrize("content, message", BAD_LISTINGS)
def test_a_bad_listing_is_refused_with_one_line_and_status_2(tmp_path, capsys, content, message):
    path = tmp_path / "game.bas"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    status, out, err = run_ryg(capsys, "--headless", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("ryg: " + message) and err.count("\n") == 1
    with pytest.raises(ListingError):
        read_listing_file(str(path))


def test_a_file_name_with_control_characters_is_shown_with_none_in_the_message(tmp_path, capsys):
    """The message names the file as it is, but a terminal must not obey what its name
    holds (an ESC [2J clears the screen, a newline makes two lines of the one)."""
    path = tmp_path / "a\x1b[2Jb\nc\x9b.bas"
    path.write_text("PRINT 1\n", encoding="utf-8")
    status, out, err = run_ryg(capsys, "--headless", str(path))
    assert (status, out) == (2, "")
    assert err.startswith("ryg: a?[2Jb?c?.bas:1: no line number") and err.count("\n") == 1
    assert "\x1b" not in err and "\x9b" not in err


def test_listing_needs_a_basic_program(tmp_path, capsys):
    assert run_ryg(capsys, "--listing")[0] == 2
    code = tmp_path / "code.prg"
    code.write_bytes(b"\x00\xc0\x60")
    status, out, err = run_ryg(capsys, "--listing", str(code))
    assert (status, out, err) == (2, "", "ryg: code.prg is loaded at $C000, not at BASIC's start ($0801): "
                                         "no BASIC program\n")
    assert run_ryg(capsys, "--headless", "--case", "mixed", str(code))[2] == (
        "ryg: --case is for a BASIC listing (.bas, .txt) or --listing\n")


def test_line_text_lists_keywords_only_where_the_cruncher_makes_them():
    body = crunch(b'PRINT"PRINT":DATA PRINT,"A:B":GOTO 1:REM GOTO') + bytes([0xC1])
    assert line_text(5, body) == '5 PRINT"PRINT":DATA PRINT,"A:B":GOTO 1:REM GOTO{SHIFT-A}'
    assert line_text(5, body, "mixed") == '5 print"print":data print,"a:b":goto 1:rem gotoA'


def test_the_version_menu_offers_the_listings_of_the_folder(tmp_path):
    from c64.terminal.menu import menu_entries
    (tmp_path / "game.bas").write_text("10 PRINT 1\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a program\n", encoding="utf-8")
    entries = menu_entries([], folder=str(tmp_path))
    assert [(entry.name, entry.description) for entry in entries] == [
        ("game.bas", "a BASIC listing in this folder"), ("BASIC", "COMMODORE 64 BASIC V2, no program")]


def test_a_chain_of_links_that_loops_or_leaves_the_file_ends_the_listing():
    looping = b"\x01\x08" + bytes([0x01, 0x08, 10, 0, 0x41, 0])          # line 10 links to itself
    leaving = b"\x01\x08" + bytes([0x00, 0x07, 10, 0, 0x41, 0, 0, 0])    # a link below BASIC's start
    for raw in (looping, leaving):
        text, notes = listing_of(parse_prg(raw, "odd.prg", 0x0801))
        assert text == "10 A\n"
        assert notes == ["odd.prg: its lines are not laid out as BASIC lays them out (their links or order), "
                         "which reading the listing back makes anew"]


def test_the_python_api_loads_and_runs_a_listing_as_ryg_does(tmp_path):
    path = tmp_path / "game.bas"
    path.write_text("20 print a$;b:end\n10 a$=\"sum\":b=2+3\n", encoding="utf-8")
    m = C64()
    program = m.run_program(str(path))
    assert program.data == read_listing_file(str(path)).data and program.run
    m.run(max_cycles=20_000_000)
    assert "SUM 5" in [line.rstrip() for line in m.screen_lines()]
    loaded = C64().load_prg(str(path))
    assert (loaded.load_address, loaded.data) == (0x0801, program.data)
    (tmp_path / "bad.txt").write_text("PRINT 1\n", encoding="utf-8")
    with pytest.raises(ListingError, match="bad.txt:1: no line number at its start"):
        C64().run_program(str(tmp_path / "bad.txt"))
