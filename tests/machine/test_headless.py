"""Headless mode from the command line: --keys syntax, --keys-file, --max-cycles,
--screen-format hex, --peek, --transcript, exit status and messages.

A couple of cases run `python ryg.py` in a subprocess, as a script would; the rest
call ryg.main(argv).  The programs are tests/programs/kernal_*.oph, assembled at
test time: kernal_keyecho prints the hex code of every key GETIN gives it ("Q" ends
it), kernal_screen prints through CHROUT/PLOT/SCREEN and returns to BASIC."""

import os
import subprocess
import sys

import pytest

import ryg
from tests.conftest import assemble_program
from tests.tools.processes import signals_as_from_a_shell

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def prg(tmp_path):
    """prg("kernal_keyecho") -> path of that test program assembled into tmp_path."""
    def make(name, raw=None):
        path = tmp_path / (name + ".prg")
        path.write_bytes(assemble_program(name) if raw is None else raw)
        return str(path)
    return make


def headless(capsys, *argv):
    """Run ryg.main with --headless and the py65 core; returns (status, stdout, stderr)."""
    status = ryg.main(["--headless", "--cpu", "py65", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def echoed(output):
    """The key codes kernal_keyecho printed (the first screen line), as a list of hex strings."""
    return output.splitlines()[0].split()


# -- through a real subprocess -------------------------------------------------------------------------

def test_ryg_py_headless_types_the_keys_and_prints_the_screen(prg):
    path = prg("kernal_keyecho")
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", "--keys", "ab{return}{f1}q", path],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 25
    assert lines[0] == "41 42 0D 85"
    assert lines[1] == "READY."                      # "Q": RTS to BASIC, which waits at READY.
    assert all(line == "" for line in lines[2:])


def test_ryg_py_headless_exits_1_with_the_reason_when_the_program_jams(tmp_path):
    path = tmp_path / "jam.prg"
    path.write_bytes(bytes([0x00, 0xC0, 0xEA, 0x02]))       # at $C000: NOP / JAM
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", str(path)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert "JAM" in proc.stderr and "$C001" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 25              # the screen is still printed


# -- key syntax -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("keys, codes", [
    ("{return}", "0D"), ("{down}", "11"), ("{up}", "91"), ("{left}", "9D"), ("{right}", "1D"),
    ("{clr}", "93"), ("{home}", "13"), ("{del}", "14"), ("{inst}", "94"), ("{stop}", "03"),
    ("{f1}{f2}{f3}{f4}", "85 89 86 8A"), ("{f5}{f6}{f7}{f8}", "87 8B 88 8C"),
    ("{space}", "20"), ("{3 down}", "11 11 11"), ("{$0d}{13}", "0D 0D"),
    ("aA", "41 41"), ("19!", "31 39 21"), ("{RETURN}{Down}", "0D 11"),
])
def test_key_text_gives_the_petscii_codes_of_the_c64_keys(prg, capsys, keys, codes):
    status, out, err = headless(capsys, "--keys", keys + "q", prg("kernal_keyecho"))
    assert status == 0, err
    assert echoed(out) == codes.split()


def test_restore_in_the_keys_raises_an_nmi_and_the_program_carries_on(prg, capsys):
    status, out, err = headless(capsys, "--keys", "a{restore}bq", prg("kernal_keyecho"))
    assert status == 0, err
    assert echoed(out) == ["41", "42"]


def test_the_run_ends_when_the_keys_are_used_up_and_the_program_waits(prg, capsys):
    status, out, err = headless(capsys, "--keys", "ab", prg("kernal_keyecho"))
    assert status == 0
    assert echoed(out) == ["41", "42"]
    assert err == ""


def test_bad_key_text_is_refused_with_a_message(prg, capsys):
    status, out, err = headless(capsys, "--keys", "{nonsense}", prg("kernal_keyecho"))
    assert status == 2
    assert "--keys" in err and "nonsense" in err


def test_keys_file_is_typed_after_the_keys_option(prg, capsys, tmp_path):
    keys_file = tmp_path / "keys.txt"
    keys_file.write_text("c{f7}\nq", encoding="utf-8")      # a newline is RETURN
    status, out, err = headless(capsys, "--keys", "ab", "--keys-file", str(keys_file),
                                prg("kernal_keyecho"))
    assert status == 0, err
    assert echoed(out) == ["41", "42", "43", "88", "0D"]


def test_a_keys_file_from_a_windows_editor_types_its_keys(prg, capsys, tmp_path):
    """A UTF-8 byte order mark is the file's, not a key; CR LF is one RETURN."""
    keys_file = tmp_path / "keys.txt"
    keys_file.write_bytes(b"\xef\xbb\xbfc{f7}\r\nq")
    status, out, err = headless(capsys, "--keys-file", str(keys_file), prg("kernal_keyecho"))
    assert status == 0, err
    assert echoed(out) == ["43", "88", "0D"]                # Q ends the program


def test_a_monitor_commands_file_with_a_byte_order_mark_runs_its_first_command(prg, capsys, tmp_path):
    commands = tmp_path / "cmds.txt"
    commands.write_bytes(b"\xef\xbb\xbfm 0400 0407\r\n")
    status, out, err = headless(capsys, "--moncommands", str(commands), prg("kernal_keyecho"))
    assert "ERROR" not in out and "unknown command" not in out and status == 0, (out, err)


def test_a_missing_keys_file_is_an_error_with_its_name(prg, capsys, tmp_path):
    status, out, err = headless(capsys, "--keys-file", str(tmp_path / "nope.txt"), prg("kernal_keyecho"))
    assert status == 2
    assert "nope.txt" in err


@pytest.mark.parametrize("content", [bytes(range(256)) * 4, b"\xff\xfe\x00q", b"ab\x00q"],
                         ids=["all bytes", "utf-16 mark", "nul byte"])
def test_a_binary_keys_file_is_refused_with_one_line(prg, capsys, tmp_path, content):
    keys_file = tmp_path / "keys.bin"
    keys_file.write_bytes(content)
    status, out, err = headless(capsys, "--keys-file", str(keys_file), prg("kernal_keyecho"))
    assert status == 2
    assert err.count("\n") == 1 and "keys.bin" in err and "Traceback" not in err


def test_a_binary_monitor_commands_file_is_refused_with_one_line(prg, capsys, tmp_path):
    commands = tmp_path / "cmds.bin"
    commands.write_bytes(bytes(range(128, 256)))
    status, out, err = headless(capsys, "--moncommands", str(commands), prg("kernal_keyecho"))
    assert status == 2
    assert err.count("\n") == 1 and "cmds.bin" in err and "Traceback" not in err


def test_a_keys_file_over_a_megabyte_is_refused_without_reading_it_all(prg, capsys, tmp_path):
    keys_file = tmp_path / "keys.txt"
    keys_file.write_bytes(b"a" * (1024 * 1024 + 1))
    status, out, err = headless(capsys, "--keys-file", str(keys_file), prg("kernal_keyecho"))
    assert status == 2
    assert err.count("\n") == 1 and "keys.txt" in err and "1 MB" in err


@pytest.mark.parametrize("keys", ["{10000000 down}", "{99999999999 down}"])
def test_a_huge_repeat_count_is_refused_with_one_line(prg, capsys, keys):
    status, out, err = headless(capsys, "--keys", keys, prg("kernal_keyecho"))
    assert status == 2
    assert err.count("\n") == 1 and "1,000,000" in err and out == ""


# -- stopping -----------------------------------------------------------------------------------------------

SPIN = bytes([0x00, 0xC0, 0x4C, 0x00, 0xC0])     # at $C000: JMP $C000


def test_max_cycles_stops_a_program_that_never_waits_with_status_3(prg, capsys):
    status, out, err = headless(capsys, "--max-cycles", "200000", prg("spin", SPIN))
    assert status == 3
    assert "--max-cycles 200000" in err and "default" not in err
    assert len(out.splitlines()) == 25


def test_the_default_cycle_limit_says_so_and_exits_3(prg, capsys, monkeypatch):
    from c64 import headless as headless_module
    monkeypatch.setattr(headless_module, "DEFAULT_MAX_CYCLES", 300_000)
    status, out, err = headless(capsys, prg("spin", SPIN))
    assert status == 3
    assert "default limit of 300,000 cycles" in err and "--max-cycles N" in err
    assert len(out.splitlines()) == 25


def test_help_documents_the_default_limit_and_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        ryg.main(["--help"])
    text = capsys.readouterr().out
    assert "2,000,000,000" in " ".join(text.split())
    statuses = text[text.index("exit status"):]
    for status, word in (("0", "ended"), ("1", "6502"), ("2", "bad"), ("3", "limit"), ("130", "Ctrl-C")):
        line = next(line for line in statuses.splitlines() if line.split()[:1] == [status])
        assert word in line


def test_ctrl_c_in_headless_mode_says_interrupted_and_exits_130(prg):
    import signal
    import time
    path = prg("spin", SPIN)
    proc = subprocess.Popen([sys.executable, "ryg.py", "--headless", path], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **signals_as_from_a_shell())
    time.sleep(2.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "ryg: interrupted\n"
    assert len(out.splitlines()) == 25               # the screen as it was


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGHUP"), reason="POSIX signals")
def test_sigterm_in_headless_mode_closes_the_transcript_and_exits_143(prg, tmp_path):
    import signal
    import time
    transcript = tmp_path / "out.txt"
    proc = subprocess.Popen([sys.executable, "ryg.py", "--headless", "--transcript", str(transcript),
                             prg("spin", SPIN)], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            **signals_as_from_a_shell())
    time.sleep(2.0)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM
    assert err == "ryg: ended by SIGTERM\n"
    assert transcript.exists()


def test_a_closed_stdout_ends_quietly(prg):
    reader, writer = os.pipe()
    os.close(reader)                                 # nobody reads: the first write fails (EPIPE)
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", prg("kernal_screen")], cwd=REPO,
                          stdout=writer, stderr=subprocess.PIPE, text=True, timeout=120)
    os.close(writer)
    assert proc.stderr == ""
    assert proc.returncode == 141                    # as a shell reports a program ended by SIGPIPE


def test_a_program_that_returns_to_basic_ends_at_ready_under_its_screen(prg, capsys):
    status, out, err = headless(capsys, prg("kernal_screen"))
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "KERNAL SCREEN TEST"
    assert lines[1] == "RED NORMAL"
    assert lines[10] == "     PLACED0A,0B"
    assert lines[11] == "28X19"
    assert lines[12] == "READY."                    # where a C64 waits after the program's RTS
    assert out.count("READY.") == 1


def test_a_missing_program_is_an_error_naming_it(capsys, tmp_path):
    status = ryg.main(["--headless", str(tmp_path / "absent.prg")])
    err = capsys.readouterr().err
    assert status == 2 and "absent.prg" in err


def test_a_program_without_a_basic_stub_starts_at_its_load_address_or_at_sys(prg, capsys):
    # $C000: LDA #$58 / JSR $FFD2 / RTS ; $C006: LDA #$59 / JSR $FFD2 / RTS
    raw = bytes([0x00, 0xC0, 0xA9, 0x58, 0x20, 0xD2, 0xFF, 0x60, 0xA9, 0x59, 0x20, 0xD2, 0xFF, 0x60])
    path = prg("raw", raw)
    status, out, err = headless(capsys, path)
    assert out.splitlines()[0] == "X"
    status, out, err = headless(capsys, "--sys", "$C006", path)
    assert out.splitlines()[0] == "Y"


# -- output formats -------------------------------------------------------------------------------------------

def test_screen_format_hex_prints_screen_codes_and_colours_per_row(prg, capsys):
    status, out, err = headless(capsys, "--screen-format", "hex", prg("kernal_screen"))
    rows = out.splitlines()
    assert len(rows) == 25
    number, codes, colours = rows[0].split()
    assert number == "00"
    title = bytes([0x0B, 0x05, 0x12, 0x0E, 0x01, 0x0C, 0x20, 0x13, 0x03, 0x12, 0x05, 0x05, 0x0E])  # KERNAL SCREEN
    assert bytes.fromhex(codes)[:13] == title
    assert colours[:18] == "1" * 18                       # printed in white
    number, codes, colours = rows[1].split()
    assert bytes.fromhex(codes)[:4] == bytes([0x92, 0x85, 0x84, 0x20])   # RVS "RED", then normal
    assert colours[:3] == "222"                           # red
    assert len(codes) == 80 and len(colours) == 40


def test_peek_prints_memory_ranges_and_single_addresses(prg, capsys):
    status, out, err = headless(capsys, "--peek", "$0400-$0411", "--peek", "53280", prg("kernal_screen"))
    lines = out.splitlines()
    assert lines[25] == "$0400: 0b 05 12 0e 01 0c 20 13 03 12 05 05 0e 20 14 05"
    assert lines[26] == "$0410: 13 14"
    assert lines[27] == "$D020: fe"


def test_a_peek_range_that_ends_before_it_starts_is_refused(prg, capsys):
    status, out, err = headless(capsys, "--peek", "$0410-$0400", prg("kernal_screen"))
    assert status == 2
    assert "--peek" in err


def test_transcript_records_everything_printed_through_chrout_as_text(prg, capsys, tmp_path):
    transcript = tmp_path / "out.txt"
    status, out, err = headless(capsys, "--transcript", str(transcript), prg("kernal_screen"))
    assert status == 0, err
    assert transcript.read_text(encoding="utf-8") == (
        "\n    **** COMMODORE 64 BASIC V2 ****\n\n 64K RAM SYSTEM  38911 BASIC BYTES FREE\n\nREADY.\n"
        "\n{clr}{wht}KERNAL SCREEN TEST\n{red}{rvs on}RED{rvs off} NORMAL\n{yel}PLACED0A,0B\n28X19"
        "\nREADY.\n")                   # the banner, RUN's RETURN, the program, READY. after it


def test_the_transcript_is_written_to_its_file_while_the_program_runs(tmp_path):
    from c64 import headless as headless_module
    from c64.machine import C64
    path = tmp_path / "out.txt"
    with headless_module.TranscriptFile(str(path)) as sink:
        m = C64(transcript=sink)
        m.type("10 REM HELLO{return}" + "LIST{return}" * 600)
        m.run(max_cycles=500_000_000)
        on_disk = path.read_text(encoding="utf-8")        # before the run's end closes it
        assert on_disk.count("10 REM HELLO") > 500
        assert len(sink.pending) < sink.BUFFER            # only a small buffer is kept
    assert path.read_text(encoding="utf-8").count("\n10 REM HELLO\n") == 600


def test_an_unwritable_transcript_is_reported_and_the_screen_still_printed(prg, capsys, tmp_path):
    status, out, err = headless(capsys, "--transcript", str(tmp_path / "no" / "such" / "dir.txt"),
                                prg("kernal_screen"))
    assert status == 2
    assert "transcript" in err
    assert out.splitlines()[0] == "KERNAL SCREEN TEST"


def test_the_sid_seed_option_makes_noise_reproducible(prg, capsys):
    # LDA #$80 / STA $D412 / LDA $D41B / STA $C100 / LDA $D41B / STA $C101 / RTS
    raw = bytes([0x00, 0xC0, 0xA9, 0x80, 0x8D, 0x12, 0xD4, 0xAD, 0x1B, 0xD4, 0x8D, 0x00, 0xC1,
                 0xAD, 0x1B, 0xD4, 0x8D, 0x01, 0xC1, 0x60])
    path = prg("noise", raw)
    runs = []
    for seed in ("7", "7", "8"):
        status, out, err = headless(capsys, "--seed", seed, "--peek", "$C100-$C101", path)
        runs.append(out.splitlines()[25])
    assert runs[0] == runs[1] != runs[2]


def test_keys_after_the_program_ends_are_typed_at_ready(prg, capsys):
    status, out, err = headless(capsys, "--keys", "aq{f1}x", prg("kernal_keyecho"))
    assert status == 0 and err == ""
    assert echoed(out) == ["41"]
    assert out.splitlines()[1:3] == ["READY.", "X"]


def test_keys_left_over_when_a_limit_ends_the_run_are_reported(prg, capsys):
    # (a limit past the start's RUN typed at READY. -- its four keys reach the buffer at four
    # jiffies' keyboard scans, the RETURN by about 66,000 cycles -- and short of the program's own keys)
    status, out, err = headless(capsys, "--keys", "aq{f1}x", "--max-cycles", "75000", prg("kernal_keyecho"))
    assert status == 3
    assert "4 keys not typed" in err and "AQ{f1}X" in err


def test_a_stop_with_keys_left_over_still_says_it_on_one_line(tmp_path, capsys, prg):
    status, out, err = headless(capsys, "--keys", "abc", prg("jam", bytes([0x00, 0xC0, 0x02])))
    assert status == 1
    assert err.count("\n") == 1
    assert "JAM" in err and "3 keys not typed: ABC" in err


@pytest.mark.parametrize("program, keys", [("kernal_screen", ""), ("kernal_keyecho", "ab{f1}{clr}q"),
                                           ("kernal_input", "BOB{return}")])
def test_both_cpu_cores_print_the_same_screen(prg, capsys, program, keys):
    path = prg(program)
    screens = []
    for core in ("py65", "fast"):
        status = ryg.main(["--headless", "--cpu", core, "--screen-format", "hex", "--keys", keys, path])
        out = capsys.readouterr().out
        assert status == 0
        screens.append(out)
    assert screens[0] == screens[1]


def test_the_transcript_leaves_out_the_line_feeds_the_screen_ignores():
    from c64.headless import transcript_text
    assert transcript_text(b"\r\nREADY.\r\n") == "\nREADY.\n"
