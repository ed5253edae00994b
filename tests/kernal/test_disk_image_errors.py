"""A disk image's directory and errors as a drive shows them: a 1581's directory of 296
entries, the track and sector of error 66, unclosed (*PRG) and locked (PRG<) files, the
error bytes of an image that has them (a sector marked bad reads as the error its byte
names), the temporary files a killed write left beside an image, and the message for an
image of a wrong size.
"""

import os
import time

import pytest

from c64.machine import C64
from kernal.disk_formats import ImageError, read_image
from kernal.disk_image import ImageDisk
from kernal.errors import KernalError
from tests.tools.image_writer import ImageWriter, check_bam_in_step, offset

STALE = 20 * 60                                                # older than a write can take


def write(tmp_path, disk, name="disk.d64", extra=b""):
    path = tmp_path / name
    path.write_bytes(disk.bytes() + extra)
    return path


def listing_lines(drive, pattern=b""):
    """The lines of LOAD"$" as the drive sends them: (number, text) pairs."""
    data = drive.load(b"$" + pattern)[2:]
    lines, at = [], 0
    while data[at] or data[at + 1]:
        end = data.index(0, at + 4)
        lines.append((data[at + 2] | data[at + 3] << 8, bytes(data[at + 4:end])))
        at = end + 1
    return lines


def test_a_d81_lists_all_its_files_and_its_directory_holds_296(tmp_path):
    disk = ImageWriter(b"MANY", b"M1", kind="d81")
    for n in range(295):
        disk.add(b"F%03d" % n, "prg", bytes([1, 8, n & 0xFF]))
    drive = ImageDisk(str(write(tmp_path, disk, "many.d81")))
    assert len(listing_lines(drive)) == 1 + 295 + 1            # header, files, BLOCKS FREE
    drive.save(b"LAST", bytes([1, 8, 1]))
    assert drive.error_text().startswith("00,")
    lines = listing_lines(drive)
    assert len(lines) == 1 + 296 + 1 and lines[-2][1].startswith(b'   "LAST"')
    with pytest.raises(KernalError):
        drive.save(b"ONE MORE", bytes([1, 8, 1]))
    assert drive.error_text().startswith("72,DISK FULL")


@pytest.mark.parametrize("kind, name", [("d64", "many.d64"), ("d71", "many.d71")])
def test_a_1541_or_1571_directory_is_full_at_144(tmp_path, kind, name):
    disk = ImageWriter(b"MANY", b"M1", kind=kind)
    for n in range(144):
        disk.add(b"F%03d" % n, "prg", bytes([1, 8, n]))
    drive = ImageDisk(str(write(tmp_path, disk, name)))
    assert len(listing_lines(drive)) == 1 + 144 + 1
    with pytest.raises(KernalError):
        drive.save(b"ONE MORE", bytes([1, 8, 1]))
    assert drive.error_text().startswith("72,DISK FULL")


@pytest.mark.parametrize("link, shown", [((36, 0), "36,00"), ((1, 21), "01,21")])
def test_error_66_names_the_track_and_sector_met(tmp_path, link, shown):
    disk = ImageWriter(b"BAD LINKS", b"B1")
    disk.add(b"GOOD", "prg", bytes([1, 8, 1]))
    disk.add(b"OFF", "prg", bytes([1, 8, 2]))
    disk.entries[-1][3:5] = bytes(link)                        # its first sector is not on the disk
    drive = ImageDisk(str(write(tmp_path, disk)))
    with pytest.raises(KernalError):
        drive.load(b"OFF")
    assert drive.error_text() == "66,ILLEGAL TRACK OR SECTOR," + shown
    drive.open(2, b"OFF,P,R")
    assert drive.error_text() == "66,ILLEGAL TRACK OR SECTOR," + shown
    assert drive.load(b"GOOD") == bytes([1, 8, 1])


def test_unclosed_and_locked_files_are_listed_as_a_1541_lists_them(tmp_path):
    disk = ImageWriter(b"SPLAT", b"S1")
    disk.add(b"OPEN", "prg", bytes([1, 8, 1]), closed=False)
    disk.add(b"LOCKED", "seq", b"KEPT")
    disk.entries[-1][2] |= 0x40
    disk.add(b"PLAIN", "usr", b"U")
    drive = ImageDisk(str(write(tmp_path, disk)))
    texts = [text for _, text in listing_lines(drive)[1:-1]]
    assert texts[0].startswith(b'   "OPEN"' + b" " * 12 + b"*PRG ")
    assert texts[1].startswith(b'   "LOCKED"' + b" " * 10 + b" SEQ<")
    assert texts[2].startswith(b'   "PLAIN"' + b" " * 11 + b" USR ")


def test_closed_del_files_are_listed_as_a_1541_lists_them_and_load_passes_over_them(tmp_path):
    """A closed DEL file (type byte $80: a separator line of many disks' directories) is
    listed as DEL, locked as DEL<; an unclosed one ($00) is a scratched slot, not listed.
    LOAD by name, LOAD"*" and the first program to start look at files only."""
    disk = ImageWriter(b"SEPARATED", b"S1")
    disk.add(b"----------------", "del", b"")
    disk.add(b"GAME", "prg", bytes([1, 8, 7]))
    disk.add(b"GONE", "del", b"", closed=False)
    disk.add(b"==LOCKED==", "del", b"")
    disk.entries[-1][2] |= 0x40
    path = write(tmp_path, disk)
    drive = ImageDisk(str(path))
    texts = [text for _, text in listing_lines(drive)[1:-1]]
    assert len(texts) == 3
    assert texts[0].startswith(b'   "----------------"' + b" DEL ")
    assert texts[1].startswith(b'   "GAME"' + b" " * 12 + b" PRG ")
    assert texts[2].startswith(b'   "==LOCKED=="' + b" " * 6 + b" DEL<")
    assert [text for _, text in listing_lines(drive, b"0:=*")][1].startswith(b'   "==LOCKED=="')
    assert drive.load(b"*") == bytes([1, 8, 7])
    with pytest.raises(KernalError):
        drive.load(b"----------------")
    assert drive.error_text().startswith("62,FILE NOT FOUND")
    assert drive.first_program()[1] == bytes([1, 8, 7])


def test_load_dollar_in_basic_lists_a_del_file(tmp_path):
    disk = ImageWriter(b"SEPARATED", b"S1")
    disk.add(b"GAME", "prg", bytes([1, 8, 7]))
    disk.add(b"-----", "del", b"")
    m = C64(disk_folder=str(write(tmp_path, disk)))
    m.run()
    m.type('LOAD"$",8{return}LIST{return}')
    m.run(max_cycles=20_000_000)
    assert '   "-----"            DEL' in m.screen_text()


def error_image(tmp_path):
    """A .d64 with error bytes: GOOD reads, BAD's second sector says 23 (read error),
    and the rest of track 17 says 20 (header not found)."""
    disk = ImageWriter(b"ERRORS", b"E1")
    disk.add(b"GOOD", "prg", bytes([1, 8]) + bytes(200))       # 17/0
    bad = disk.add(b"BAD", "seq", bytes(400))                  # 17/1, 17/2
    errors = bytearray([1]) * 683
    errors[offset(*bad[1]) // 256] = 5
    for sector in range(3, 21):
        errors[offset(17, sector) // 256] = 2
    return write(tmp_path, disk, "errors.d64", bytes(errors)), bad


def test_a_sector_marked_bad_reads_as_the_error_its_byte_names(tmp_path):
    path, bad = error_image(tmp_path)
    assert len(path.read_bytes()) == 175531
    drive = ImageDisk(str(path))
    assert drive.load(b"GOOD") == bytes([1, 8]) + bytes(200)
    drive.open(2, b"BAD,S,R")
    assert drive.error_text() == "23,READ ERROR,%02d,%02d" % bad[1]
    with pytest.raises(KernalError):
        drive.load(b"BAD")
    assert drive.error_text() == "23,READ ERROR,%02d,%02d" % bad[1]


def bad_directory_image(tmp_path, bad_sector, code_byte=5):
    """A .d64 with error bytes whose directory has two sectors (18/1, 18/4: 9 files):
    FIRST in 18/1, LAST in 18/4; `bad_sector` of track 18 marked bad (5: error 23)."""
    disk = ImageWriter(b"BAD DIR", b"D1")
    disk.add(b"FIRST", "prg", bytes([1, 8, 1]))
    for n in range(7):
        disk.add(b"F%d" % n, "prg", bytes([1, 8, 2]))
    disk.add(b"LAST", "prg", bytes([1, 8, 3]))
    errors = bytearray([1]) * 683
    errors[offset(18, bad_sector) // 256] = code_byte
    return write(tmp_path, disk, "baddir.d64", bytes(errors))


@pytest.mark.parametrize("bad_sector", [0, 1, 4])
def test_a_directory_sector_marked_bad_gives_its_read_error_as_a_1541_does(tmp_path, bad_sector):
    """The BAM (18/0) or a directory sector marked bad: LOAD"$" and OPEN "$" give the
    drive's read error for that sector (the C64 sees ?FILE NOT FOUND: no byte comes), a
    name the drive looks for past it the same (FIRST, found before it in 18/1, loads),
    and nothing is written to such a disk."""
    drive = ImageDisk(str(bad_directory_image(tmp_path, bad_sector)))
    expected = "23,READ ERROR,18,%02d" % bad_sector
    with pytest.raises(KernalError):
        drive.load(b"$")
    assert drive.error_text() == expected
    assert "track 18 sector %d" % bad_sector in drive.last_message
    drive.open(2, b"$")
    assert drive.error_text() == expected
    with pytest.raises(KernalError):
        drive.load(b"LAST")
    assert drive.error_text() == expected
    if bad_sector == 4:
        assert drive.load(b"FIRST") == bytes([1, 8, 1])
    before = (tmp_path / "baddir.d64").read_bytes()
    with pytest.raises(KernalError):
        drive.save(b"NEW", bytes([1, 8, 9]))
    assert drive.error_text() == expected
    assert (tmp_path / "baddir.d64").read_bytes() == before


def test_a_bad_directory_in_basic_is_file_not_found_and_the_drive_says_why(tmp_path):
    m = C64(disk_folder=str(bad_directory_image(tmp_path, 1)))
    m.run()
    m.type('LOAD"$",8{return}')
    m.run(max_cycles=20_000_000)
    assert "?FILE NOT FOUND  ERROR" in m.screen_text()
    assert m.drive_error() == "23,READ ERROR,18,01"


def test_ryg_on_an_image_whose_directory_is_marked_bad_says_so(tmp_path):
    from c64.loader import PrgError, read_image_program
    with pytest.raises(PrgError, match="track 18 sector 1"):
        read_image_program(str(bad_directory_image(tmp_path, 1)))


def test_a_write_keeps_the_error_bytes_and_stays_off_the_sectors_they_mark_bad(tmp_path):
    path, _ = error_image(tmp_path)
    errors = path.read_bytes()[174848:]
    drive = ImageDisk(str(path))
    drive.save(b"NEW", bytes([1, 8]) + bytes(range(256)) * 20)  # 21 blocks
    assert drive.error_text().startswith("00,")
    raw = path.read_bytes()
    assert len(raw) == 175531 and raw[174848:] == errors
    image = read_image(str(path))
    new = image.entries[-1]
    assert new.name == b"NEW" and image.read_file(new) == bytes([1, 8]) + bytes(range(256)) * 20
    assert new.track != 17                                      # track 17's free sectors are all bad
    check_bam_in_step(raw[:174848], "d64")
    drive.open(15, b"N0:FRESH,F1")                              # a full format writes every sector anew
    assert drive.error_text().startswith("00,")
    assert path.read_bytes()[174848:] == bytes([1]) * 683


def test_stale_temporary_files_beside_an_image_are_removed_when_it_is_attached(tmp_path):
    path = write(tmp_path, ImageWriter(b"TEMPS", b"T1"))
    old = time.time() - STALE
    stale, young, other = (tmp_path / ".ryg64-k1ll3d00.tmp", tmp_path / ".ryg64-wr1t1ng0.tmp",
                           tmp_path / ".ryg64-notes.txt")
    for temp in (stale, young, other):
        temp.write_bytes(bytes(819200))
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    link = tmp_path / ".ryg64-alink000.tmp"
    link.symlink_to(path.name)
    os.utime(link, (old, old), follow_symlinks=False)
    ImageDisk(str(path))
    assert not stale.exists()
    assert young.exists() and other.exists() and link.is_symlink() and path.exists()


def test_an_image_of_a_wrong_size_is_refused_with_its_own_size(tmp_path):
    path = tmp_path / "huge.d64"
    with open(path, "wb") as handle:
        handle.truncate(10 * 2 ** 30)                           # sparse: nothing is written
    with pytest.raises(ImageError) as error:
        read_image(str(path))
    assert "is not a disk image: 10,737,418,240 bytes" in str(error.value)


# -- an image that another program changes while it is drive 8 -------------------------------------

def test_an_image_changed_on_the_host_is_read_again_and_a_write_keeps_that_change(tmp_path):
    """Another program (a second ryg, a disk tool) writes the image while it is drive 8:
    the drive reads it again, as a disk swapped, before it lists, loads or writes --
    a SAVE then adds to the image as it is now, never writes the old one back over it."""
    disk = ImageWriter(b"SHARED", b"S1")
    disk.add(b"OURS", "prg", bytes([1, 8, 1]))
    path = write(tmp_path, disk)
    drive = ImageDisk(str(path))
    other = ImageDisk(str(path))
    other.save(b"THEIRS", bytes([1, 8, 2]))                     # the other program's write
    assert [text for _, text in listing_lines(drive)][2].startswith(b'   "THEIRS"')
    assert drive.load(b"THEIRS") == bytes([1, 8, 2])
    drive.save(b"MINE", bytes([1, 8, 3]))
    assert drive.error_text().startswith("00,")
    names = [entry.name for entry in read_image(str(path)).entries]
    assert names == [b"OURS", b"THEIRS", b"MINE"]


def test_a_write_open_while_the_image_changed_on_the_host_is_refused_not_written_over_it(tmp_path):
    disk = ImageWriter(b"SHARED", b"S1")
    disk.add(b"OURS", "prg", bytes([1, 8, 1]))
    path = write(tmp_path, disk)
    drive = ImageDisk(str(path))
    drive.open(2, b"NOTES,S,W")
    drive.chrout(2, 0x41)
    ImageDisk(str(path)).save(b"THEIRS", bytes([1, 8, 2]))       # meanwhile, on the host
    after_theirs = path.read_bytes()
    drive.close(2)
    assert drive.error_text().startswith("74,DRIVE NOT READY")
    assert "changed" in drive.last_message
    assert path.read_bytes() == after_theirs
    drive.save(b"NOTES", bytes([1, 8, 4]))                      # the disk as it is now
    assert [entry.name for entry in read_image(str(path)).entries] == [b"OURS", b"THEIRS", b"NOTES"]


@pytest.mark.parametrize("change", ["removed", "cut short", "a folder"])
def test_an_image_gone_or_broken_on_the_host_is_a_drive_not_ready_and_is_not_written(tmp_path, change):
    disk = ImageWriter(b"SHARED", b"S1")
    disk.add(b"OURS", "prg", bytes([1, 8, 1]))
    path = write(tmp_path, disk)
    drive = ImageDisk(str(path))
    os.remove(path)
    if change == "cut short":
        path.write_bytes(disk.bytes()[:1000])
    elif change == "a folder":
        path.mkdir()
    with pytest.raises(KernalError):
        drive.load(b"OURS")
    assert drive.error_text().startswith("74,DRIVE NOT READY")
    with pytest.raises(KernalError):
        drive.load(b"$")
    with pytest.raises(KernalError):
        drive.save(b"MINE", bytes([1, 8, 3]))
    assert drive.error_text().startswith("74,DRIVE NOT READY")
    drive.open(15, b"S0:OURS")
    assert drive.error_text().startswith("74,DRIVE NOT READY")
    if change == "removed":
        assert not path.exists()
    elif change == "cut short":
        assert path.read_bytes() == disk.bytes()[:1000]
    if path.is_dir():
        path.rmdir()
    elif path.exists():
        path.unlink()
    path.write_bytes(disk.bytes())                              # the disk back in the drive
    assert drive.load(b"OURS") == bytes([1, 8, 1])


def test_an_image_replaced_by_one_of_another_format_is_read_as_that_format(tmp_path):
    small = ImageWriter(b"SMALL", b"S1")
    small.add(b"ONE", "prg", bytes([1, 8, 1]))
    path = write(tmp_path, small, "disk.d81")                 # (the size tells the format)
    drive = ImageDisk(str(path))
    big = ImageWriter(b"BIG", b"B1", kind="d81")
    for n in range(200):
        big.add(b"F%03d" % n, "prg", bytes([1, 8, n]))
    path.write_bytes(big.bytes())
    assert len(listing_lines(drive)) == 1 + 200 + 1            # a 1541's 144 no longer
    assert drive.load(b"F199") == bytes([1, 8, 199])
