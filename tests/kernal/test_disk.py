"""Drive 8 on a host folder (kernal/disk.py): names, LOAD/SAVE, the directory, channels, commands, safety."""

import errno
import os
import stat

import pytest

from kernal.errors import KernalError
from kernal.disk import HostDisk, matches, parse_name, petscii_to_text

HELLO = bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes([0, 0, 0, 0x60])


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "hello.prg").write_bytes(HELLO)
    (tmp_path / "Notes.SEQ").write_bytes(b"LINE1\rLINE2\r")
    (tmp_path / "readme.txt").write_bytes(b"not a c64 file")
    return tmp_path


@pytest.fixture
def disk(folder):
    return HostDisk(str(folder))


def read_channel(disk, secondary, limit=10000):
    """Bytes read from a channel until ST reports EOI (bit 6); also returns the final status."""
    out = bytearray()
    disk.status = 0
    while len(out) < limit:
        out.append(disk.chrin(secondary))
        if disk.status & 0x40:
            break
    return bytes(out), disk.status


def error_channel(disk):
    return read_channel(disk, 15)[0].decode("ascii")


# -- names --------------------------------------------------------------------------------------

def test_petscii_letters_shifted_or_not_become_the_same_host_letters():
    assert petscii_to_text(b"GAME") == "GAME"
    assert petscii_to_text(bytes([0xC7, 0xC1, 0xCD, 0xC5])) == "GAME"
    assert petscii_to_text(b"A1 B-2.") == "A1 B-2."


def test_a_petscii_graphics_byte_in_a_name_is_refused():
    with pytest.raises(ValueError):
        petscii_to_text(bytes([0x41, 0xA6]))


def test_parse_name_understands_drive_prefix_replace_type_and_mode():
    assert parse_name(b"0:GAME") == ("GAME", False, None, None)
    assert parse_name(b"@0:GAME") == ("GAME", True, None, None)
    assert parse_name(b"@:GAME,S,W") == ("GAME", True, "seq", "W")
    assert parse_name(b"DATA,P,R") == ("DATA", False, "prg", "R")
    assert parse_name(b"LOG,A") == ("LOG", False, None, "A")


def test_parse_name_refuses_a_drive_other_than_0():
    with pytest.raises(ValueError):
        parse_name(b"1:GAME")


def test_wildcards_match_like_the_1541():
    assert matches("H*", "HELLO")
    assert matches("H?LLO", "HELLO")
    assert matches("*", "ANYTHING")
    assert matches("HE*XYZ", "HELLO")          # the 1541 ignores what follows the star
    assert not matches("H?LL", "HELLO")
    assert not matches("HELLO2", "HELLO")
    assert matches("hello", "HELLO")


# -- LOAD -----------------------------------------------------------------------------------------

def test_load_returns_the_whole_file_with_its_load_address(disk):
    assert disk.load(b"HELLO") == HELLO


def test_load_matches_names_without_regard_to_case_and_accepts_the_host_extension(disk):
    assert disk.load(b"hello") == HELLO
    assert disk.load(b"HELLO.PRG") == HELLO
    assert disk.load(b"0:HELLO") == HELLO


def test_load_with_wildcards_takes_the_first_matching_file(disk):
    assert disk.load(b"HE*") == HELLO
    assert disk.load(b"H?LLO") == HELLO


def test_load_of_a_missing_file_raises_error_4_sets_st_42_and_error_62(disk):
    with pytest.raises(KernalError) as caught:
        disk.load(b"NOPE")
    assert caught.value.number == 4
    assert disk.status == 0x42
    assert error_channel(disk) == "62,FILE NOT FOUND,00,00\r"
    assert "NOPE" in disk.last_message


def test_files_without_a_c64_extension_are_invisible(disk):
    with pytest.raises(KernalError):
        disk.load(b"README.TXT")
    with pytest.raises(KernalError):
        disk.load(b"README")


# -- names that would leave the folder ------------------------------------------------------------

@pytest.mark.parametrize("name", [b"../secret", b"../../etc/passwd", b"..", b"/etc/passwd", b"A/B",
                                  b"..\\x", b"C:\\boot", b".hidden", b"a\x00b"])
def test_names_that_would_leave_the_folder_are_refused_with_a_clear_message(folder, name):
    outside = folder.parent / "secret.prg"
    outside.write_bytes(b"\x00\x10secret")
    disk = HostDisk(str(folder))
    with pytest.raises(KernalError) as caught:
        disk.load(name)
    assert caught.value.number == 4
    disk.save(name, b"\x00\x10evil")
    assert outside.read_bytes() == b"\x00\x10secret"
    assert sorted(p.name for p in folder.iterdir()) == ["Notes.SEQ", "hello.prg", "readme.txt"]
    assert disk.last_message


def test_saving_dot_dot_slash_name_writes_nothing_anywhere(folder):
    disk = HostDisk(str(folder))
    disk.save(b"../escape", b"\x01\x08data")
    assert not (folder.parent / "escape.prg").exists()
    assert not any("escape" in p.name for p in folder.iterdir())
    assert error_channel(disk).startswith("33,SYNTAX ERROR")
    assert "leave" in disk.last_message or "refused" in disk.last_message


def test_a_symlink_pointing_outside_the_folder_is_not_on_the_disk(folder):
    outside = folder.parent / "outside.prg"
    outside.write_bytes(b"\x00\x10secret")
    os.symlink(str(outside), str(folder / "link.prg"))
    disk = HostDisk(str(folder))
    assert "LINK" not in [e.name.upper() for e in disk.entries()]
    with pytest.raises(KernalError):
        disk.load(b"LINK")
    disk.save(b"@0:LINK", b"\x00\x10overwritten")
    assert outside.read_bytes() == b"\x00\x10secret"


# -- SAVE ---------------------------------------------------------------------------------------------

def test_save_creates_a_lower_case_prg_file(disk, folder):
    disk.save(b"GAME1", b"\x00\xc0\x01\x02")
    assert (folder / "game1.prg").read_bytes() == b"\x00\xc0\x01\x02"
    assert error_channel(disk) == "00, OK,00,00\r"
    assert disk.load(b"GAME1") == b"\x00\xc0\x01\x02"


def test_save_over_an_existing_file_without_at_keeps_it_and_reports_63_without_a_kernal_error(disk, folder):
    disk.save(b"HELLO", b"\x00\xc0new")           # no exception: the real KERNAL reports no error
    assert (folder / "hello.prg").read_bytes() == HELLO
    assert error_channel(disk) == "63,FILE EXISTS,00,00\r"


@pytest.mark.parametrize("name", [b"@0:HELLO", b"@:HELLO", b"@0:hello"])
def test_save_with_at_replaces_the_existing_file_in_place(disk, folder, name):
    disk.save(name, b"\x00\xc0new")
    assert (folder / "hello.prg").read_bytes() == b"\x00\xc0new"
    assert sorted(p.name for p in folder.iterdir()) == ["Notes.SEQ", "hello.prg", "readme.txt"]


def test_a_write_failure_raises_a_kernal_error_with_the_reason_and_leaves_no_partial_file(disk, folder,
                                                                                        monkeypatch):
    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(KernalError) as caught:
        disk.save(b"@0:HELLO", b"\x00\xc0" + bytes(5000))
    assert caught.value.number == 5
    assert "No space left" in caught.value.message
    assert (folder / "hello.prg").read_bytes() == HELLO
    assert sorted(p.name for p in folder.iterdir()) == ["Notes.SEQ", "hello.prg", "readme.txt"]
    assert error_channel(disk).startswith("72,DISK FULL")


# -- the disk's size: 664 blocks, as a freshly formatted 1541 ------------------------------------

def _blocks(count):
    """A PRG image of exactly `count` blocks (254 data bytes each, the load address included)."""
    return b"\x00\xc0" + bytes(254 * count - 2)


def test_files_fill_the_disk_until_664_blocks_then_disk_full_and_nothing_written(tmp_path):
    disk = HostDisk(str(tmp_path))
    for number in range(6):
        disk.save(b"PART%d" % number, _blocks(100))
        assert error_channel(disk) == "00, OK,00,00\r"
    with pytest.raises(KernalError) as caught:
        disk.save(b"PART6", _blocks(100))                  # 600 used, 64 free
    assert "664" in caught.value.message and "64" in caught.value.message
    assert error_channel(disk) == "72,DISK FULL,00,00\r"
    assert not (tmp_path / "part6.prg").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part%d.prg" % n for n in range(6)]
    disk.save(b"LAST", _blocks(64))                        # exactly what is left fits
    assert error_channel(disk) == "00, OK,00,00\r"
    assert _lines(disk.load(b"$"))[-1][0] == 0


def test_files_already_in_the_folder_count_against_the_disk(tmp_path):
    (tmp_path / "big.prg").write_bytes(bytes(254 * 660))
    (tmp_path / "notes.txt").write_bytes(bytes(254 * 660))   # not on the disk: does not count
    disk = HostDisk(str(tmp_path))
    with pytest.raises(KernalError):
        disk.save(b"NEW", _blocks(5))
    assert error_channel(disk).startswith("72,DISK FULL")
    disk.save(b"NEW", _blocks(4))
    assert (tmp_path / "new.prg").stat().st_size == 254 * 4


def test_replacing_a_file_frees_its_blocks_first(tmp_path):
    disk = HostDisk(str(tmp_path))
    disk.save(b"GAME", _blocks(600))
    disk.save(b"@0:GAME", _blocks(664))
    assert error_channel(disk) == "00, OK,00,00\r"
    assert (tmp_path / "game.prg").stat().st_size == 254 * 664


@pytest.mark.parametrize("how", ["write channel", "append", "copy"])
def test_every_way_of_writing_a_file_counts_blocks(tmp_path, how):
    disk = HostDisk(str(tmp_path))
    disk.save(b"FILLER", _blocks(660))
    (tmp_path / "small.seq").write_bytes(bytes(254 * 2))       # 662 used, 2 free
    if how == "write channel":
        disk.open(2, b"0:LOG,S,W")
        for _ in range(254 * 3):
            disk.chrout(2, 0x41)
        disk.close(2)
        assert not (tmp_path / "log.seq").exists()
    elif how == "append":
        disk.open(2, b"SMALL,S,A")
        for _ in range(254 * 3):
            disk.chrout(2, 0x41)
        disk.close(2)
        assert (tmp_path / "small.seq").stat().st_size == 254 * 2
    else:
        disk.open(15, b"C0:COPY=SMALL")
        disk.open(15, b"C0:COPY2=SMALL")
        assert (tmp_path / "copy.seq").exists() and not (tmp_path / "copy2.seq").exists()
    assert error_channel(disk).startswith("72,DISK FULL")


def test_a_program_saving_in_a_loop_cannot_fill_the_host_disk(tmp_path):
    disk = HostDisk(str(tmp_path))
    for number in range(50):
        try:
            disk.save(b"F%d" % number, _blocks(664))
        except KernalError:
            pass
    total = sum(p.stat().st_size for p in tmp_path.iterdir())
    assert total <= 664 * 254


# -- how files are written: modes, durability, leftovers ----------------------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@posix_only
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        disk = HostDisk(str(tmp_path))
        disk.save(b"GAME", b"\x00\xc0\x01")
        disk.open(2, b"LOG,S,W")
        disk.chrout(2, 0x41)
        disk.close(2)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "game.prg").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "log.seq").stat().st_mode) == mode


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_replacing_a_file_keeps_its_mode(tmp_path, mode):
    (tmp_path / "game.prg").write_bytes(b"\x00\xc0old")
    os.chmod(tmp_path / "game.prg", mode)
    old = os.umask(0o077)
    try:
        HostDisk(str(tmp_path)).save(b"@0:GAME", b"\x00\xc0new")
    finally:
        os.umask(old)
    assert (tmp_path / "game.prg").read_bytes() == b"\x00\xc0new"
    assert stat.S_IMODE((tmp_path / "game.prg").stat().st_mode) == mode


def test_the_data_reaches_the_disk_before_the_file_replaces_the_old_one(tmp_path, monkeypatch):
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    HostDisk(str(tmp_path)).save(b"GAME", b"\x00\xc0\x01")
    assert events[:2] == ["fsync", "replace"]


def test_stale_temporary_files_of_an_interrupted_write_are_removed(tmp_path):
    import time
    stale = tmp_path / ".ryg64-abc123.tmp"
    fresh = tmp_path / ".ryg64-def456.tmp"
    other = tmp_path / ".other-abc.tmp"
    for path in (stale, fresh, other):
        path.write_bytes(b"half a file")
    hour_ago = time.time() - 3600
    os.utime(stale, (hour_ago, hour_ago))
    os.utime(other, (hour_ago, hour_ago))
    HostDisk(str(tmp_path))
    assert not stale.exists()
    assert fresh.exists()                       # maybe another session writing right now
    assert other.exists()                       # not ours


def test_a_read_only_folder_gives_write_protect_on(disk, folder, monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr("tempfile.mkstemp", denied)
    with pytest.raises(KernalError) as caught:
        disk.save(b"NEWFILE", b"\x00\xc0\x01")
    assert "Permission denied" in str(caught.value)
    assert error_channel(disk).startswith("26,WRITE PROTECT ON")
    assert not (folder / "newfile.prg").exists()


def test_a_missing_folder_fails_cleanly(tmp_path):
    disk = HostDisk(str(tmp_path / "gone"))
    with pytest.raises(KernalError) as caught:
        disk.load(b"X")
    assert caught.value.number in (4, 5) and caught.value.message


# -- the directory -------------------------------------------------------------------------------------

def _lines(program):
    """(line number, text) of a BASIC program image with its load address."""
    assert program[:2] == b"\x01\x08"
    out, offset = [], 2
    while True:
        link = program[offset] | (program[offset + 1] << 8)
        if link == 0:
            return out
        number = program[offset + 2] | (program[offset + 3] << 8)
        end = program.index(0, offset + 4)
        out.append((number, program[offset + 4:end]))
        assert link == 0x0801 + end + 1 - 2        # the links are real addresses
        offset = end + 1


def test_directory_is_a_basic_program_with_header_files_and_blocks_free(disk, folder):
    lines = _lines(disk.load(b"$"))
    number, header = lines[0]
    assert number == 0
    assert header.startswith(b'\x12"' + folder.name.upper().encode()[:16])
    assert header.endswith(b'" 64 2A')
    files = lines[1:-1]
    assert [(n, t.split(b'"')[1], t.split()[-1]) for n, t in files] == [(1, b"HELLO", b"PRG"),
                                                                       (1, b"NOTES", b"SEQ")]
    assert all(t.index(b'"') + len(str(n)) == 4 for n, t in files)   # quotes line up at column 5
    number, text = lines[-1]
    assert text.startswith(b"BLOCKS FREE.") and number == 664 - 2


def test_block_counts_follow_the_254_bytes_per_block_rule(disk, folder):
    (folder / "big.prg").write_bytes(bytes(254 * 3 + 1))
    lines = dict((t.split(b'"')[1], n) for n, t in _lines(disk.load(b"$"))[1:-1])
    assert lines[b"BIG"] == 4


def test_directory_with_a_pattern_lists_only_matching_files(disk):
    names = [t.split(b'"')[1] for _, t in _lines(disk.load(b"$0:H*"))[1:-1]]
    assert names == [b"HELLO"]


# -- channels -------------------------------------------------------------------------------------------

def test_error_channel_after_power_on_says_cbm_dos_then_ok(disk):
    assert error_channel(disk) == "73,CBM DOS V2.6 1541,00,00\r"
    assert error_channel(disk) == "00, OK,00,00\r"


def test_sequential_write_then_read_back_with_eoi_on_the_last_byte(disk, folder):
    disk.open(2, b"0:SCORES,S,W")
    for byte in b"HI 42\r":
        disk.chrout(2, byte)
    disk.close(2)
    assert (folder / "scores.seq").read_bytes() == b"HI 42\r"
    disk.open(3, b"SCORES,S,R")
    data, status = read_channel(disk, 3)
    assert data == b"HI 42\r" and status == 0x40


def test_reading_past_the_end_returns_return_with_st_42(disk):
    disk.open(2, b"NOTES")
    read_channel(disk, 2)
    disk.status = 0
    assert disk.chrin(2) == 0x0D
    assert disk.status == 0x42


def test_opening_a_missing_file_succeeds_but_reads_time_out_and_the_error_channel_says_62(disk):
    disk.open(2, b"MISSING,S,R")
    disk.status = 0
    assert disk.chrin(2) == 0x0D and disk.status == 0x42
    assert error_channel(disk) == "62,FILE NOT FOUND,00,00\r"


def test_a_write_channel_is_written_only_at_close(disk, folder):
    disk.open(2, b"PART,S,W")
    disk.chrout(2, 0x41)
    assert not (folder / "part.seq").exists()
    disk.close(2)
    assert (folder / "part.seq").read_bytes() == b"A"


def test_append_mode_adds_to_the_end(disk, folder):
    disk.open(2, b"NOTES,S,A")
    for byte in b"LINE3\r":
        disk.chrout(2, byte)
    disk.close(2)
    assert (folder / "Notes.SEQ").read_bytes() == b"LINE1\rLINE2\rLINE3\r"


def test_opening_an_existing_file_for_write_without_at_reports_63_and_keeps_it(disk, folder):
    disk.open(2, b"NOTES,S,W")
    disk.chrout(2, 0x41)
    disk.close(2)
    assert (folder / "Notes.SEQ").read_bytes() == b"LINE1\rLINE2\r"
    assert error_channel(disk).startswith("63,FILE EXISTS")


def test_secondary_1_writes_a_prg_and_secondary_0_reads_it_back(disk, folder):
    disk.open(1, b"RAW")
    for byte in b"\x00\x20xyz":
        disk.chrout(1, byte)
    disk.close(1)
    assert (folder / "raw.prg").read_bytes() == b"\x00\x20xyz"
    disk.open(0, b"RAW")
    assert read_channel(disk, 0)[0] == b"\x00\x20xyz"


def test_the_directory_can_be_read_through_a_channel(disk):
    disk.open(0, b"$")
    data, status = read_channel(disk, 0)
    assert data == disk.load(b"$") and status == 0x40


# -- commands --------------------------------------------------------------------------------------------

def command(disk, text):
    disk.open(15, text)
    return error_channel(disk)


def test_scratch_deletes_matching_files_and_counts_them(disk, folder):
    (folder / "save1.prg").write_bytes(b"\x00\x10")
    (folder / "save2.prg").write_bytes(b"\x00\x10")
    assert command(disk, b"S0:SAVE*") == "01, FILES SCRATCHED,02,00\r"
    assert sorted(p.name for p in folder.iterdir()) == ["Notes.SEQ", "hello.prg", "readme.txt"]


def test_scratch_never_touches_files_that_are_not_on_the_disk(disk, folder):
    command(disk, b"S0:*")
    assert [p.name for p in folder.iterdir()] == ["readme.txt"]


def test_rename_renames_and_refuses_existing_or_missing_names(disk, folder):
    assert command(disk, b"R0:WORLD=HELLO") == "00, OK,00,00\r"
    assert (folder / "world.prg").read_bytes() == HELLO and not (folder / "hello.prg").exists()
    assert command(disk, b"R0:NOTES=WORLD").startswith("63,FILE EXISTS")
    assert command(disk, b"R0:X=NOPE").startswith("62,FILE NOT FOUND")


def test_copy_duplicates_a_file(disk, folder):
    assert command(disk, b"C0:COPY=HELLO") == "00, OK,00,00\r"
    assert (folder / "copy.prg").read_bytes() == HELLO


def test_a_command_sent_with_chrout_runs_at_return(disk, folder):
    disk.open(15, b"")
    for byte in b"S0:HELLO\r":
        disk.chrout(15, byte)
    assert not (folder / "hello.prg").exists()


def test_a_command_without_return_runs_when_the_c64_unlistens(disk, folder):
    disk.open(15, b"")
    for byte in b"S0:HELLO":
        disk.chrout(15, byte)
    assert (folder / "hello.prg").exists()
    disk.unlisten(15)
    assert not (folder / "hello.prg").exists()


def test_initialise_and_reset_commands(disk):
    assert command(disk, b"I") == "00, OK,00,00\r"
    assert command(disk, b"UJ") == "73,CBM DOS V2.6 1541,00,00\r"


def test_format_and_unknown_commands_are_refused_and_nothing_is_deleted(disk, folder):
    assert command(disk, b"N0:EMPTY,01").startswith("31,SYNTAX ERROR")
    assert command(disk, b"XYZZY").startswith("31,SYNTAX ERROR")
    assert len(list(folder.iterdir())) == 3


def test_closing_the_command_channel_closes_all_files(disk, folder):
    disk.open(15, b"")
    disk.open(2, b"OUT,S,W")
    disk.chrout(2, 0x5A)
    disk.close(15)
    assert (folder / "out.seq").read_bytes() == b"Z"
    assert 2 not in disk.channels


@pytest.mark.parametrize("name", [b"$", b"$X", b"A*", b"B?", b'Q"', b"A=B", b"X" * 17])
def test_names_that_cannot_be_new_files_are_refused_with_33(disk, folder, name):
    disk.save(name, b"\x00\x10")
    assert error_channel(disk).startswith("33,SYNTAX ERROR")
    assert len(list(folder.iterdir())) == 3


def test_a_new_error_while_the_error_channel_is_half_read_starts_the_new_message(disk):
    for _ in range(20):
        disk.chrin(15)                        # halfway through 73,CBM DOS V2.6 1541,00,00
    disk.load(b"HELLO")
    assert error_channel(disk) == "00, OK,00,00\r"


@pytest.mark.parametrize("text", [b"R0:../OUT=HELLO", b"C0:../OUT=HELLO", b"R0:/TMP/OUT=HELLO", b"S0:../*"])
def test_rename_copy_and_scratch_cannot_reach_outside_the_folder(folder, text):
    (folder.parent / "out.prg").write_bytes(b"\x00\x10keep")
    disk = HostDisk(str(folder))
    disk.open(15, text)
    assert (folder.parent / "out.prg").read_bytes() == b"\x00\x10keep"
    assert (folder / "hello.prg").read_bytes() == HELLO
    assert not error_channel(disk).startswith("00")


def test_random_names_and_commands_never_raise_anything_but_kernal_errors_and_stay_inside(tmp_path):
    import random
    rng = random.Random(1541)
    inside = tmp_path / "disk"
    inside.mkdir()
    (tmp_path / "keep.prg").write_bytes(b"\x00\x10keep")
    disk = HostDisk(str(inside))
    alphabet = b"AB01*?:@$,=/\\.SRWPLCIUN \x00\xa0\xc1\xff"
    for _ in range(1500):
        name = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 20)))
        op = rng.randrange(7)
        try:
            if op == 0:
                disk.load(name)
            elif op == 1:
                disk.save(name, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 40))))
            elif op == 2:
                disk.open(rng.randrange(16), name)
            elif op == 3:
                disk.chrout(rng.randrange(16), rng.randrange(256))
            elif op == 4:
                disk.chrin(rng.randrange(16))
            elif op == 5:
                disk.close(rng.randrange(16))
            else:
                disk.unlisten(15)
        except KernalError as error:
            assert error.number in (4, 5) and error.message
        assert disk.error_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["disk", "keep.prg"]
    assert (tmp_path / "keep.prg").read_bytes() == b"\x00\x10keep"
    assert all(not p.name.startswith(".ryg64-") for p in inside.iterdir())    # no temporary files left


def test_the_directory_lists_at_most_144_files_like_a_1541(disk, folder):
    for i in range(150):
        (folder / ("f%03d.prg" % i)).write_bytes(b"\x01\x08")
    lines = _lines(disk.load(b"$"))
    assert len(lines) == 1 + 144 + 1


def test_load_star_gets_the_first_file_then_the_last_one_loaded(disk, folder):
    (folder / "zzz.prg").write_bytes(b"\x00\x10z")
    assert disk.load(b"*") == HELLO
    assert disk.load(b"ZZZ") == b"\x00\x10z"
    assert disk.load(b"*") == b"\x00\x10z"
    disk.open(15, b"I")
    assert disk.load(b"*") == HELLO


def test_a_file_larger_than_the_disk_through_a_channel_gets_disk_full_and_is_not_written(disk, folder):
    disk.open(2, b"HUGE,S,W")
    for _ in range(664 * 254 + 10):                  # more than a whole 1541 disk
        disk.chrout(2, 0x41)
    disk.close(2)
    assert disk.error_text().startswith("72,DISK FULL")
    assert not any(path.name.startswith("huge") for path in folder.iterdir())
