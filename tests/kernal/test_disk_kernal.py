"""Files on device 8 as a 6502 program sees them: the KERNAL channel routines with the host-folder drive."""

import pytest

from c64.machine import C64, StopReason
from kernal.basic import crunch
from tests.conftest import assemble_program

SETLFS, SETNAM, OPEN, CLOSE, CHKIN, CHKOUT = 0xFFBA, 0xFFBD, 0xFFC0, 0xFFC3, 0xFFC6, 0xFFC9
CLRCHN, CHRIN, CHROUT, GETIN, READST, CLALL = 0xFFCC, 0xFFCF, 0xFFD2, 0xFFE4, 0xFFB7, 0xFFE7
LOAD, SAVE = 0xFFD5, 0xFFD8
C = 0x01
NAME_AT = 0xC800


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "words.seq").write_bytes(b"AB")
    return tmp_path


@pytest.fixture
def m(folder):
    return C64(sid_seed=1, disk_folder=str(folder))


def kcall(m, entry, a=0, x=0, y=0):
    m.cpu.p = 0x24
    return m.call(entry, a=a, x=x, y=y, max_cycles=1_000_000)


def open_file(m, logical, device, secondary, name):
    for i, byte in enumerate(name):
        m.poke(NAME_AT + i, byte)
    kcall(m, SETLFS, a=logical, x=device, y=secondary)
    kcall(m, SETNAM, a=len(name), x=NAME_AT & 0xFF, y=NAME_AT >> 8)
    return kcall(m, OPEN)


# -- the test program --------------------------------------------------------------------------------

def cores():
    from c64.cpu import CPU
    try:
        from c64.fastcpu import FastCPU
    except ImportError:
        return [CPU]
    return [CPU, FastCPU]


@pytest.mark.parametrize("core", cores(), ids=lambda core: core.__name__)
def test_a_6502_program_saves_loads_writes_and_reads_files_through_the_jump_table(tmp_path, core):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path), cpu_class=core)
    program = machine.load_prg(assemble_program("disk_files"))
    machine.start(program.start)
    reason = machine.run(20_000_000)
    assert reason is StopReason.BASIC, machine.error
    rows = [row.rstrip() for row in machine.screen_lines()]
    text = [row for row in rows if row]
    assert text == ["SAVE OK", "LOAD OK", "READ:HELLO DISK", "NF 04", "62,FILE NOT FOUND,00,00"]
    assert "FAIL" not in "".join(rows)
    pattern = bytes(i ^ 0x5A for i in range(256))
    assert (tmp_path / "block.prg").read_bytes() == b"\x00\xc0" + pattern
    assert (tmp_path / "log.seq").read_bytes() == b"HELLO DISK\r"
    assert (machine.peek(0xC200), machine.peek(0xC201)) == (0x00, 0xC1)   # LOAD's end address + 1
    assert machine.peek(0xC2FF) & 0x40                                    # READST saw EOI


def test_the_test_program_runs_twice_because_it_saves_with_at(tmp_path):
    for _ in range(2):
        machine = C64(sid_seed=1, disk_folder=str(tmp_path))
        machine.run_program(assemble_program("disk_files"))
        assert machine.run(20_000_000) is StopReason.BASIC
        assert "LOAD OK" in machine.screen_text() and "FAIL" not in machine.screen_text()


# -- channel routines -----------------------------------------------------------------------------------

def test_open_stores_the_secondary_address_with_60_and_clears_st(m):
    m.poke(0x90, 0x42)
    a, x, y, p = open_file(m, 2, 8, 2, b"WORDS")
    assert not p & C
    assert (m.peek(0x0259), m.peek(0x0263), m.peek(0x026D)) == (2, 8, 0x62)
    assert m.peek(0x90) == 0


def test_chrin_from_a_file_sets_eoi_on_the_last_byte_and_readst_returns_it(m):
    open_file(m, 2, 8, 2, b"WORDS")
    assert not kcall(m, CHKIN, x=2)[3] & C
    assert m.peek(0x99) == 8
    assert kcall(m, CHRIN)[0] == 0x41
    assert kcall(m, READST)[0] == 0
    assert kcall(m, CHRIN)[0] == 0x42
    assert kcall(m, READST)[0] == 0x40
    # past the end: CHRIN ($F1AD) sees ST set and returns RETURN without asking the drive
    a, x, y, p = kcall(m, CHRIN)
    assert a == 0x0D and kcall(m, READST)[0] == 0x40
    # CHKIN clears ST ($F30F), so the next read asks the drive: nothing more, a time-out
    assert not kcall(m, CHKIN, x=2)[3] & C and kcall(m, READST)[0] == 0
    a, x, y, p = kcall(m, CHRIN)
    assert a == 0x0D and kcall(m, READST)[0] == 0x42


def test_the_error_channel_read_again_by_input_gives_the_new_message(m):
    # the usual 10 OPEN 15,8,15:INPUT#15,E,E$,T,S run twice: the second time reads
    # "00, OK,00,00", though the first read left ST = $40 (EOI)
    for number, text in ((10, b'OPEN 15,8,15:INPUT#15,E,E$,T,S:PRINT E;E$;T;S:CLOSE 15'),
                         (20, b'OPEN 15,8,15:INPUT#15,E,E$,T,S:PRINT E;E$;T;S:CLOSE 15')):
        m.basic.store_line(number, crunch(text))
    m.type("RUN{return}")
    for _ in range(50):
        if m.run(20_000_000) is StopReason.IDLE:
            break
    rows = [row.strip() for row in m.screen_lines() if row.strip()]
    assert rows[-3:] == ["73 CBM DOS V2.6 1541 0  0", "0 OK 0  0", "READY."]


def test_getin_from_a_file_reads_bytes_like_chrin(m):
    open_file(m, 2, 8, 2, b"WORDS")
    kcall(m, CHKIN, x=2)
    assert [kcall(m, GETIN)[0] for _ in range(2)] == [0x41, 0x42]


def test_chkout_chrout_close_writes_a_file(m, folder):
    open_file(m, 3, 8, 3, b"OUT,S,W")
    assert not kcall(m, CHKOUT, x=3)[3] & C
    for byte in b"XYZ":
        assert not kcall(m, CHROUT, a=byte)[3] & C
    kcall(m, CLRCHN)
    kcall(m, CLOSE, a=3)
    assert (folder / "out.seq").read_bytes() == b"XYZ"
    assert m.peek(0x98) == 0


def test_clall_closes_the_drive_files_too(m, folder):
    open_file(m, 3, 8, 3, b"OUT2,S,W")
    kcall(m, CHKOUT, x=3)
    kcall(m, CHROUT, a=0x51)
    kcall(m, CLALL)
    assert (folder / "out2.seq").read_bytes() == b"Q"


def test_a_command_sent_without_return_runs_at_clrchn(m, folder):
    open_file(m, 15, 8, 15, b"")
    kcall(m, CHKOUT, x=15)
    for byte in b"S0:WORDS":
        kcall(m, CHROUT, a=byte)
    assert (folder / "words.seq").exists()
    kcall(m, CLRCHN)
    assert not (folder / "words.seq").exists()


def test_open_with_a_command_name_runs_it_and_the_status_can_be_read(m, folder):
    open_file(m, 15, 8, 15, b"R0:NEW=WORDS")
    kcall(m, CHKIN, x=15)
    status = bytearray()
    while not kcall(m, READST)[0] & 0x40 and len(status) < 40:
        status.append(kcall(m, CHRIN)[0])
    assert bytes(status) == b"00, OK,00,00\r"
    assert (folder / "new.seq").read_bytes() == b"AB"


def test_reading_from_a_device_nobody_answers_times_out_instead_of_crashing(m):
    m.poke(0x99, 9)                       # a program pokes DFLTN to a drive that is not there
    a, x, y, p = kcall(m, CHRIN)
    assert a == 0x0D and m.peek(0x90) & 0x42 == 0x42


def test_chkin_to_a_missing_drive_fails_with_error_5(m):
    m.mem[0x0259], m.mem[0x0263], m.mem[0x026D], m.mem[0x98] = 4, 10, 0x62, 1
    a, x, y, p = kcall(m, CHKIN, x=4)
    assert p & C and a == 5


def test_save_and_load_through_the_jump_table_use_the_host_folder(m, folder):
    for i in range(4):
        m.poke(0x3000 + i, 0x10 + i)
    m.poke(0xFB, 0x00)
    m.poke(0xFC, 0x30)
    open_name = b"MEM"
    for i, byte in enumerate(open_name):
        m.poke(NAME_AT + i, byte)
    kcall(m, SETLFS, a=1, x=8, y=0)
    kcall(m, SETNAM, a=3, x=NAME_AT & 0xFF, y=NAME_AT >> 8)
    a, x, y, p = kcall(m, SAVE, a=0xFB, x=0x04, y=0x30)
    assert not p & C
    assert (folder / "mem.prg").read_bytes() == b"\x00\x30\x10\x11\x12\x13"
    kcall(m, SETLFS, a=1, x=8, y=0)
    a, x, y, p = kcall(m, LOAD, a=0, x=0x00, y=0x40)
    assert not p & C and (x, y) == (0x04, 0x40)
    assert [m.peek(0x4000 + i) for i in range(4)] == [0x10, 0x11, 0x12, 0x13]
    assert m.peek(0x90) == 0x40


def test_load_of_a_missing_file_returns_error_4_with_st_42(m):
    for i, byte in enumerate(b"GONE"):
        m.poke(NAME_AT + i, byte)
    kcall(m, SETLFS, a=1, x=8, y=1)
    kcall(m, SETNAM, a=4, x=NAME_AT & 0xFF, y=NAME_AT >> 8)
    a, x, y, p = kcall(m, LOAD, a=0)
    assert p & C and a == 4
    assert m.peek(0x90) == 0x42


def test_save_that_cannot_write_returns_carry_set_and_keeps_the_old_file(m, folder, monkeypatch):
    import os

    def refuse(*args):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(os, "replace", refuse)
    for i, byte in enumerate(b"@0:WORDS,S"):
        m.poke(NAME_AT + i, byte)
    kcall(m, SETLFS, a=1, x=8, y=0)
    kcall(m, SETNAM, a=10, x=NAME_AT & 0xFF, y=NAME_AT >> 8)
    m.poke(0xFB, 0x00)
    m.poke(0xFC, 0x30)
    a, x, y, p = kcall(m, SAVE, a=0xFB, x=0x10, y=0x30)
    assert p & C and a == 5
    assert (folder / "words.seq").read_bytes() == b"AB"
    assert "Permission denied" in m.kernal.channels.devices[8].last_message


# -- the serial-bus routines behind LISTEN/TALK (kernal.channels; wired to traps by dispatch) ----------

def test_listen_second_ciout_unlisten_open_a_file_and_talk_acptr_read_it(m, folder):
    ch = m.kernal.channels
    ch.listen(8)
    ch.second(0xF2)                       # OPEN channel 2, the name follows
    for byte in b"BUS,S,W":
        ch.ciout(byte)
    ch.unlisten()
    ch.listen(8)
    ch.second(0x62)                       # data to channel 2
    for byte in b"OK":
        ch.ciout(byte)
    ch.unlisten()
    ch.listen(8)
    ch.second(0xE2)                       # CLOSE channel 2
    ch.unlisten()
    assert (folder / "bus.seq").read_bytes() == b"OK"
    ch.listen(8)
    ch.second(0xF3)
    for byte in b"BUS":
        ch.ciout(byte)
    ch.unlisten()
    ch.talk(8)
    ch.tksa(0x63)
    m.poke(0x90, 0)
    assert [ch.acptr(), ch.acptr()] == [0x4F, 0x4B]
    assert m.peek(0x90) == 0x40
    ch.untalk()


def test_listen_to_a_device_that_is_not_there_sets_st_bit_7(m):
    m.poke(0x90, 0)
    m.kernal.channels.listen(11)
    assert m.peek(0x90) & 0x80
    m.kernal.channels.ciout(0x41)         # nothing happens, nothing breaks
    assert m.kernal.channels.acptr() == 0x0D


def test_the_command_line_disk_option_is_drive_8(tmp_path):
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    program = tmp_path / "disk_files.prg"
    program.write_bytes(assemble_program("disk_files"))
    drive = tmp_path / "drive"
    drive.mkdir()
    proc = subprocess.run([sys.executable, os.path.join(root, "ryg.py"), "--headless", "--disk", str(drive),
                           str(program)], capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "READ:HELLO DISK" in proc.stdout and "62,FILE NOT FOUND,00,00" in proc.stdout
    assert sorted(p.name for p in drive.iterdir()) == ["block.prg", "log.seq"]


def test_a_host_name_with_an_underscore_is_found_by_typing_the_underscore(tmp_path):
    from c64.machine import C64, StopReason
    (tmp_path / "my_game.prg").write_bytes(b"\x01\x08\x0b\x08\x0a\x00\x9e2061\x00\x00\x00\x60")
    m = C64(disk_folder=str(tmp_path))
    m.type('LOAD"MY_GAME",8{return}')                 # typed on the host keyboard
    assert m.run(max_cycles=10_000_000) is StopReason.IDLE
    screen = m.screen_text()
    assert "LOADING" in screen and "FILE NOT FOUND" not in screen
