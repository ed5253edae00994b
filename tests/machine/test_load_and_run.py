"""Programs start as a C64 starts them: LOAD and RUN (c64.loader's Program.run).

The banner, READY., RUN typed, then BASIC runs the program's lines: what comes before
its SYS, the machine code, and after the code's RTS the rest of the line; the run ends
at READY., where a C64 waits.  The bundled RYG versions, whose BASIC is only their SYS,
start at the SYS as they always have; --sys starts machine code directly.  The programs
are made here: a BASIC line tokenised by BASIC's own cruncher, machine code after it."""

import pytest

import ryg
from c64.loader import only_a_sys_line, parse_prg, read_prg
from c64.machine import C64, StopReason
from kernal.basic.direct import crunch

CODE_AT = 2096                  # $0830: after the longest line here


def basic_prg(lines, code=b""):
    """A .prg at $0801: the lines ((number, text typed), tokenised as typed at READY.),
    then `code` at CODE_AT."""
    body, address = bytearray(), 0x0801
    for number, text in lines:
        tokens = crunch(text.encode("ascii"))
        address += 4 + len(tokens) + 1
        body += bytes([address & 0xFF, address >> 8, number & 0xFF, number >> 8]) + tokens + b"\0"
    body += b"\0\0"
    if code:
        assert 0x0801 + len(body) <= CODE_AT
        body += bytes(CODE_AT - 0x0801 - len(body)) + code
    return b"\x01\x08" + bytes(body)


STORE_251 = bytes([0xA9, 42, 0x85, 251, 0x60])                 # LDA #42 / STA 251 / RTS
PRINT_A = bytes([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60])          # LDA #"A" / JSR CHROUT / RTS
# What a cc65 program does at its end: its exit code in ST ($90), then RTS to BASIC.
EXIT_3 = bytes([0xA9, 0x03, 0x85, 0x90, 0x60])                 # LDA #3 / STA $90 / RTS


def headless(capsys, path, *argv):
    status = ryg.main(["--headless", *argv, str(path)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_basic_after_the_sys_runs_when_the_code_returns(tmp_path, capsys):
    path = tmp_path / "sys251.prg"
    path.write_bytes(basic_prg([(10, "SYS 2096:PRINT PEEK(251)")], STORE_251))
    status, out, err = headless(capsys, path)
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert lines[-4:] == ["READY.", "RUN", " 42", "READY."]       # RUN typed, the line, READY.
    assert "COMMODORE 64 BASIC V2" in lines[0]


def test_a_loader_s_pokes_before_its_sys_are_done(tmp_path, capsys):
    path = tmp_path / "loader.prg"
    path.write_bytes(basic_prg([(10, "POKE 53280,0:POKE 53281,0:SYS 2096")], PRINT_A))
    status, out, err = headless(capsys, path, "--peek", "53280-53281")
    assert status == 0, err
    assert out.splitlines()[-1] == "$D020: f0 f0"                 # black border and background
    assert [line for line in out.splitlines() if line][-4:-1] == ["RUN", "A", "READY."]


def test_a_c_program_s_exit_code_is_at_90_when_basic_is_ready(tmp_path, capsys):
    path = tmp_path / "cprogram.prg"
    path.write_bytes(basic_prg([(2023, "SYS2096")], EXIT_3))
    status, out, err = headless(capsys, path, "--keys", "PRINT ST{return}")
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert lines[-5:] == ["RUN", "READY.", "PRINT ST", " 3", "READY."]


def test_the_machine_runs_a_program_by_run_and_stops_where_basic_waits():
    machine = C64()
    program = machine.run_program(basic_prg([(10, "SYS 2096:PRINT PEEK(251)")], STORE_251))
    assert program.run and program.start == CODE_AT
    reason = machine.run(20_000_000)
    if reason is StopReason.BASIC:                 # the SYS line was the last: READY. next
        reason = machine.run(20_000_000)
    assert reason is StopReason.IDLE
    assert machine.peek(251) == 42
    assert " 42" in [line.rstrip() for line in machine.screen_lines()]


def test_sys_given_starts_the_code_directly_without_basic(tmp_path, capsys):
    path = tmp_path / "loader.prg"
    path.write_bytes(basic_prg([(10, "POKE 53280,0:SYS 2096")], PRINT_A))
    status, out, err = headless(capsys, path, "--sys", "2096", "--peek", "53280")
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert lines[:2] == ["A", "READY."] and lines[-1] == "$D020: fe"


def test_the_bundled_versions_start_at_their_sys_as_before():
    from asm import versions
    for version in versions.available_versions():
        program = read_prg(version.path)
        assert only_a_sys_line(program), version.name
        assert not program.run and program.start == 2064, version.name


def test_a_copy_of_a_bundled_version_is_loaded_and_run(tmp_path):
    from asm import versions
    version = versions.available_versions()[0]
    copy = tmp_path / "copy.prg"
    copy.write_bytes(open(version.path, "rb").read())
    assert read_prg(str(copy)).run


def test_a_bundled_version_is_told_by_its_name_and_bytes_in_any_folder(tmp_path):
    # the loader (start at the SYS) and the front end (ryg3's level, the last move) ask the same
    from asm import versions
    for version in versions.available_versions():
        data = open(version.path, "rb").read()
        (tmp_path / (version.name.upper() + ".PRG")).write_bytes(data)
        program = read_prg(str(tmp_path / (version.name.upper() + ".PRG")))
        assert not program.run and versions.bundled_version(program.name, program.data) == version
        (tmp_path / (version.name + ".prg")).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
        program = read_prg(str(tmp_path / (version.name + ".prg")))     # a build of one's own
        assert program.run and versions.bundled_version(program.name, program.data) is None


@pytest.mark.parametrize("lines, expected", [
    ([(10, "SYS2064")], True),
    ([(10, "SYS 2064")], True),
    ([(10, "SYS 2064:PRINT")], False),
    ([(10, "POKE 1,55:SYS 2064")], False),
    ([(10, "SYS 2064"), (20, "END")], False),
])
def test_only_a_sys_line_is_one_line_of_just_the_sys(lines, expected):
    assert only_a_sys_line(parse_prg(basic_prg(lines))) is expected


def test_machine_code_raises_a_basic_error_through_0300(tmp_path, capsys):
    # LDX #14 / JMP ($0300): ?ILLEGAL QUANTITY, in the line of the SYS; LDX #$80: READY. alone
    path = tmp_path / "error.prg"
    path.write_bytes(basic_prg([(10, "PRINT 1"), (20, "SYS 2096:PRINT 2")],
                               bytes([0xA2, 14, 0x6C, 0x00, 0x03])))
    status, out, err = headless(capsys, path, "--keys", "POKE 2097,128:SYS 2096{return}")
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert lines[-5:] == [" 1", "?ILLEGAL QUANTITY  ERROR IN 20", "READY.", "POKE 2097,128:SYS 2096", "READY."]


@pytest.mark.parametrize("number, name", [(1, "TOO MANY FILES"), (4, "FILE NOT FOUND"), (9, "ILLEGAL DEVICE NUMBER"),
                                          (10, "NEXT WITHOUT FOR"), (29, "LOAD"), (30, "BREAK")])
def test_every_basic_error_number_has_the_rom_s_name(tmp_path, capsys, number, name):
    # the KERNAL's numbers (1-9) and BASIC's own (10-30) through one table
    path = tmp_path / "error.prg"
    path.write_bytes(basic_prg([(10, "SYS 2096")], bytes([0xA2, number, 0x6C, 0x00, 0x03])))
    status, out, err = headless(capsys, path)
    assert status == 0, err
    assert "?%s  ERROR IN 10" % name in out.splitlines()



def test_jmp_to_basic_s_warm_start_keeps_the_screen_as_the_rom_s_e37b_does(tmp_path, capsys):
    # JMP $E37B: CLRCHN, the stack, READY. -- not RUN/STOP+RESTORE's CINT, which clears the screen
    path = tmp_path / "warm.prg"
    path.write_bytes(basic_prg([(10, "SYS 2096:PRINT 2")], bytes([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x4C, 0x7B, 0xE3])))
    status, out, err = headless(capsys, path, "--keys", "PRINT 7{return}")
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert "COMMODORE 64 BASIC V2" in lines[0]
    assert lines[-6:] == ["RUN", "A", "READY.", "PRINT 7", " 7", "READY."]


def test_machine_code_that_ends_with_jmp_through_a002_gives_basic_back_as_the_warm_start(tmp_path, capsys):
    # JMP ($A002): the BASIC ROM's warm start vector ($E37B), as many programs end
    path = tmp_path / "warm.prg"
    path.write_bytes(basic_prg([(10, "SYS 2096:PRINT 2")], bytes([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x6C, 0x02, 0xA0])))
    status, out, err = headless(capsys, path, "--keys", "PRINT 7{return}", "--peek", "40960-40971")
    assert status == 0, err
    lines = [line for line in out.splitlines() if line]
    assert "COMMODORE 64 BASIC V2" in lines[0]                              # the screen kept, not cleared
    assert lines[-7:-1] == ["RUN", "A", "READY.", "PRINT 7", " 7", "READY."]  # no PRINT 2: the line was left
    assert lines[-1] == "$A000: 94 e3 7b e3 43 42 4d 42 41 53 49 43"       # $E394, $E37B, CBMBASIC


def test_load_and_run_rechains_the_lines_as_basic_s_load_does(tmp_path, capsys):
    """A .prg whose first link points into nothing (a packer's or a hand-made file): BASIC's
    LOAD rechains every line from its end zero (LNKPRG) before RUN, so LIST and GOTO see
    all of them, as after LOAD"PROG",8 at READY."""
    raw = bytearray(basic_prg([(10, 'PRINT "A"'), (20, 'PRINT "B"')]))
    raw[2:4] = b"\x00\x09"                                     # line 10 links to $0900: zeros
    path = tmp_path / "links.prg"
    path.write_bytes(bytes(raw))
    status, out, err = headless(capsys, path, "--keys", "LIST{return}")
    assert status == 0, err
    rows = [row.rstrip() for row in out.splitlines()]
    listed = [row for row in rows[rows.index("LIST") + 1:] if row]
    assert listed[:3] == ['10 PRINT "A"', '20 PRINT "B"', "READY."]
