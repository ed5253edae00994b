"""The .prg loader (c64/loader.py): load address, BASIC SYS stubs, --sys, and clear errors from the CLI."""

import os
import subprocess
import sys

import pytest

import ryg
from c64.loader import PrgError, UsageError, find_sys_address, parse_address, parse_prg, read_prg

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RTS_PROGRAM = bytes([0x00, 0xC0, 0x60])


def basic_stub(text, number=10, pad_to=None):
    """A one-line BASIC program at $0801 whose line is `text` (already tokenised bytes)."""
    line_end = 0x0801 + 4 + len(text) + 1
    body = bytes([line_end & 0xFF, line_end >> 8, number & 0xFF, number >> 8]) + text + b"\x00\x00\x00"
    if pad_to is not None:
        body += bytes(pad_to - 0x0801 - len(body))
    return b"\x01\x08" + body


# -- parsing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("line, start", [
    (b"\x9e2061", 2061),
    (b"\x9e 2064", 2064),
    (b"\x9e(2064)", 2064),
    (b"\x9e  ( 4096 )", 4096),
    (b'\x8f"\x9e1234":\x9e2070', 2070),          # REM... a SYS inside quotes is not the SYS
])
def test_the_sys_address_is_read_from_the_basic_stub(line, start):
    program = parse_prg(basic_stub(line) + b"\x60")
    assert program.start == start and program.load_address == 0x0801


def test_a_sys_in_the_second_line_is_found():
    first = bytes([0x08, 0x08, 0x0A, 0x00, 0x8F, 0x41, 0x00])       # 10 REM A  (next line at $0808)
    second = bytes([0x14, 0x08, 0x14, 0x00, 0x9E]) + b"2080" + bytes([0x00, 0x00, 0x00])
    assert find_sys_address(first + second, 0x0801) == 2080


def test_a_line_chain_that_loops_is_not_a_program():
    looping = bytes([0x01, 0x08, 0x0A, 0x00, 0x8F, 0x00])          # the link points at itself
    assert find_sys_address(looping, 0x0801) is None


def test_a_basic_program_without_sys_is_left_to_basic_unless_sys_is_given():
    data = basic_stub(b"\x8f HELLO")
    assert parse_prg(data, "nosys.prg").start is None          # the machine RUNs it
    assert parse_prg(data, "nosys.prg", sys=0x0810).start == 0x0810


def test_a_sys_number_beyond_ffff_is_refused_with_that_number():
    with pytest.raises(PrgError) as caught:
        parse_prg(basic_stub(b"\x9e99999") + b"\x60", "far.prg")
    assert "SYS 99999" in str(caught.value) and "--sys" in str(caught.value)


def test_a_file_not_at_0801_starts_at_its_load_address_or_at_sys():
    assert parse_prg(RTS_PROGRAM).start == 0xC000
    assert parse_prg(RTS_PROGRAM, sys=0xC123).start == 0xC123


@pytest.mark.parametrize("raw, words", [
    (b"", "0 bytes"), (b"\x01", "1 byte"), (b"\x01\x08", "2 bytes"),
])
def test_a_file_too_short_to_be_a_prg_is_refused(raw, words):
    with pytest.raises(PrgError) as caught:
        parse_prg(raw, "tiny.prg")
    assert words in str(caught.value) and "tiny.prg" in str(caught.value)


def test_a_file_that_would_run_past_ffff_is_refused():
    with pytest.raises(PrgError) as caught:
        parse_prg(b"\x00\xff" + bytes(257), "long.prg")
    assert "$FFFF" in str(caught.value)


def test_a_file_that_ends_exactly_at_ffff_loads():
    program = parse_prg(b"\x00\xff" + bytes(256))
    assert program.end == 0x10000


@pytest.mark.parametrize("text, value", [("2064", 2064), ("$0810", 0x810), ("0x810", 0x810), ("$ffff", 0xFFFF)])
def test_addresses_are_decimal_dollar_hex_or_0x_hex(text, value):
    assert parse_address(text) == value


@pytest.mark.parametrize("text", ["65536", "$10000", "-1", "abc", "$", ""])
def test_bad_addresses_are_refused(text):
    with pytest.raises(UsageError):
        parse_address(text)


def test_a_file_that_cannot_be_read_gives_the_reason(tmp_path, monkeypatch):
    path = tmp_path / "locked.prg"
    path.write_bytes(RTS_PROGRAM)
    real_open = os.open

    def denied(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)          # the loader opens with os.open (c64.host.files)
    with pytest.raises(PrgError) as caught:
        read_prg(str(path))
    assert "Permission denied" in str(caught.value) and "locked.prg" in str(caught.value)


def test_the_cli_reports_an_unreadable_program_in_one_line(tmp_path, monkeypatch, capsys):
    path = tmp_path / "locked.prg"
    path.write_bytes(RTS_PROGRAM)
    real_open = os.open

    def denied(name, *args, **kwargs):
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)
    monkeypatch.setattr(os, "open", denied)          # the loader opens with os.open (c64.host.files)
    assert ryg.main(["--headless", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Permission denied" in err


# -- through the command line ------------------------------------------------------------------------

def cli(*argv, cwd=ROOT):
    return subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py"), "--headless", *argv],
                          capture_output=True, text=True, cwd=cwd, timeout=60)


def assert_clean_failure(proc, *words):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("ryg: ")
    for word in words:
        assert word in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("content, words", [
    (b"", ("0 bytes",)),
    (b"\x01\x08", ("2 bytes",)),
    (b"\x00\xf0" + bytes(0x1001), ("$FFFF",)),
])
def test_the_cli_refuses_bad_prg_files_with_one_line_and_status_2(tmp_path, content, words):
    path = tmp_path / "bad.prg"
    path.write_bytes(content)
    assert_clean_failure(cli(str(path)), "bad.prg", *words)


@pytest.mark.parametrize("address, under", [(0xA000, "the BASIC ROM"), (0xD000, "the I/O chips"),
                                            (0xE000, "the KERNAL ROM"), (0xFF00, "the KERNAL ROM")])
def test_machine_code_loaded_under_a_rom_or_the_chips_is_refused_not_run(tmp_path, address, under):
    """After LOAD the CPU sees ROM or the chips there, not the bytes loaded: a C64 would
    run those (ours stopped with a CPU JAM, or a BRK at $D000, that blamed the program).
    --sys starts it elsewhere; the version menu does not offer it."""
    from c64.terminal.menu import menu_entries
    path = tmp_path / "high.prg"
    path.write_bytes(bytes([address & 0xFF, address >> 8, 0x60]))
    assert_clean_failure(cli(str(path)), "high.prg", "$%04X" % address, under, "--sys")
    assert cli("--sys", "$C000", str(path)).returncode == 1          # runs, into the BRK at $C000
    assert "high.prg" not in [entry.name for entry in menu_entries([], str(tmp_path))]


def test_the_cli_runs_a_basic_program_without_sys_as_load_and_run(tmp_path, capsys):
    path = tmp_path / "hello.prg"
    path.write_bytes(basic_stub(b'\x99"HELLO"'))                   # 10 PRINT"HELLO"
    assert ryg.main(["--headless", str(path)]) == 0
    rows = [row.rstrip() for row in capsys.readouterr().out.splitlines()]
    assert rows[1:7] == ["    **** COMMODORE 64 BASIC V2 ****", "", " 64K RAM SYSTEM  38911 BASIC BYTES FREE",
                         "", "READY.", "RUN"]
    assert rows[7:10] == ["HELLO", "", "READY."]


def test_the_cli_names_a_missing_file(tmp_path):
    assert_clean_failure(cli(str(tmp_path / "missing.prg")), "missing.prg")


def test_the_cli_names_a_missing_folder(tmp_path):
    assert_clean_failure(cli(str(tmp_path / "nodir" / "x.prg")), "x.prg")


def test_the_cli_says_when_the_program_is_a_folder(tmp_path):
    folder = tmp_path / "adir.prg"
    folder.mkdir()
    assert_clean_failure(cli(str(folder)), "folder")


def test_the_cli_refuses_a_bad_sys_address(tmp_path):
    path = tmp_path / "p.prg"
    path.write_bytes(RTS_PROGRAM)
    assert_clean_failure(cli("--sys", "$12345", str(path)), "$12345")
    assert_clean_failure(cli("--sys", "nope", str(path)), "nope")


def test_the_cli_refuses_a_disk_folder_that_does_not_exist(tmp_path):
    path = tmp_path / "p.prg"
    path.write_bytes(RTS_PROGRAM)
    assert_clean_failure(cli("--disk", str(tmp_path / "nowhere"), str(path)), "nowhere")


def test_the_cli_starts_a_stubless_program_at_sys(tmp_path):
    # at $C000: RTS; at $C001: LDA #'Z' JSR $FFD2 RTS -- --sys picks the second routine
    path = tmp_path / "two.prg"
    path.write_bytes(bytes([0x00, 0xC0, 0x60, 0xA9, 0x5A, 0x20, 0xD2, 0xFF, 0x60]))
    proc = cli("--sys", "$C001", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "Z" in proc.stdout
    proc = cli(str(path))
    assert proc.returncode == 0 and "Z" not in proc.stdout


def test_a_file_too_big_for_memory_is_refused_with_its_own_size(tmp_path):
    path = tmp_path / "big.prg"
    path.write_bytes(b"\x00\xc0" + bytes(69998))                  # 70,000 bytes
    with pytest.raises(PrgError) as caught:
        read_prg(str(path))
    assert "69998 bytes loaded at $C000" in str(caught.value)
    assert "65537" not in str(caught.value)
