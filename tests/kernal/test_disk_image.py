"""Drive 8 on a disk image (.d64, .d71, .d81): the image read (kernal/disk_formats.py),
the drive on it (kernal/disk_image.py), LOAD"$", LOAD"NAME",8,1, a read-only image file
as a write-protected disk (writing: test_disk_image_writing.py), `ryg image.d64` starting its first program, and damaged images.  The images
are made here by tests/tools/image_writer.py; kernal/disk_formats.py was also checked by
hand against the Emulator Test Suite's own images (its 303 files on four .d64 images,
300 of them byte for byte the .prg files built separately in the same repository; the
other three are one-block stubs the suite's disks hold in their place; and the same
files on the suite's .d81 image).
"""

import os
import subprocess
import sys

import pytest

from c64.machine import C64
from kernal.basic import crunch
from kernal.disk_formats import DiskImage, ImageError, read_image
from kernal.disk_image import ImageDisk
from tests.tools.image_writer import ImageWriter, offset
from tests.tools.basic_keys import settle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def basic_program(lines):
    """A BASIC program at $0801 as the bytes of a .prg, from (number, text) lines."""
    out, address = bytearray(b"\x01\x08"), 0x0801
    for number, text in lines:
        body = crunch(text.encode("ascii"))
        address += 4 + len(body) + 1
        out += bytes([address & 0xFF, address >> 8, number & 0xFF, number >> 8]) + body + b"\x00"
    return bytes(out + b"\x00\x00")


# The C64 loader idiom: the LOAD restarts the program, which then goes on to SYS.
FIRST = basic_program([(10, 'IF A=0 THEN A=1:PRINT "FIRST":LOAD"SECOND",8,1'), (20, "SYS 49152")])
# machine code for $C000: LDA #'Y' / JSR $FFD2 / RTS, then 600 bytes of padding (3 blocks)
SECOND = bytes([0x00, 0xC0, 0xA9, 0x59, 0x20, 0xD2, 0xFF, 0x60]) + bytes(range(256)) * 2 + bytes(88)
NOTES = b"LINE ONE\rLINE TWO\r"


def sample_disk(extra=0):
    disk = ImageWriter(b"GAMES DISK", b"G1")
    disk.add(b"FIRST", "prg", FIRST)
    disk.add(b"SECOND", "prg", SECOND)
    disk.add(b"NOTES", "seq", NOTES)
    disk.add(b"OLD", "prg", b"\x00\xc0\x60")
    disk.scratch(b"OLD")
    for n in range(extra):
        disk.add(b"F%02d" % n, "prg", bytes([0x00, 0x10, n]))
    return disk


@pytest.fixture
def image(tmp_path):
    path = tmp_path / "games.d64"
    path.write_bytes(sample_disk().bytes())
    return path


# -- the image format --------------------------------------------------------------------------------

def test_the_directory_names_types_blocks_and_files_come_back_as_written():
    disk = sample_disk(extra=20)               # 23 files: three directory sectors
    image = DiskImage(disk.bytes())
    assert image.name == b"GAMES DISK" and image.id == b"G1" and image.dos_type == b"2A"
    names = [entry.name for entry in image.entries]
    assert names[:3] == [b"FIRST", b"SECOND", b"NOTES"] and len(names) == 23   # OLD is scratched
    assert [entry.type for entry in image.entries[:3]] == ["prg", "prg", "seq"]
    assert [entry.blocks for entry in image.entries[:3]] == [1, 3, 1]
    assert image.read_file(image.entries[0]) == FIRST
    assert image.read_file(image.entries[1]) == SECOND
    assert image.read_file(image.entries[2]) == NOTES
    assert image.read_file(image.entries[22]) == bytes([0x00, 0x10, 19])
    assert image.free_blocks == disk.free_blocks() == 664 - 1 - 3 - 1 - 1 - 20   # (OLD's block stays used)


def test_a_40_track_image_and_one_with_error_bytes_are_read_too():
    raw = sample_disk().bytes()
    for data in (raw + bytes(683), raw + bytes(5 * 17 * 256), raw + bytes(5 * 17 * 256 + 768)):
        image = DiskImage(data)
        assert image.read_file(image.entries[1]) == SECOND


@pytest.mark.parametrize("size", (0, 1000, 174847, 174849, 200000))
def test_a_file_of_another_size_is_refused_with_the_sizes_the_formats_have(size):
    with pytest.raises(ImageError) as error:
        DiskImage(bytes(size), "x.d64")
    assert "x.d64 is not a disk image" in str(error.value) and "174,848" in str(error.value)
    assert "349,696" in str(error.value) and "819,200" in str(error.value)


def test_a_link_off_the_disk_and_a_chain_that_loops_are_reported_not_followed():
    disk = sample_disk()
    chain = disk.add(b"LONG", "prg", bytes(600))
    broken = disk.get(*chain[0])
    broken[0], broken[1] = 40, 3                               # track 40 on a 35-track disk
    disk.put(*chain[0], broken)
    image = DiskImage(disk.bytes(), "bad.d64")
    with pytest.raises(ImageError) as error:
        image.read_file(image.entries[-1])
    assert "track 40 sector 3" in str(error.value) and "bad.d64 is damaged" in str(error.value)
    looping = disk.get(*chain[1])
    looping[0], looping[1] = chain[0]
    broken[0], broken[1] = chain[1]
    disk.put(*chain[0], broken)
    disk.put(*chain[1], looping)
    image = DiskImage(disk.bytes(), "bad.d64")
    with pytest.raises(ImageError) as error:
        image.read_file(image.entries[-1])
    assert "comes back" in str(error.value)


def test_a_directory_chain_that_loops_is_refused_when_the_image_is_read(tmp_path):
    disk = sample_disk()
    raw = bytearray(disk.bytes())
    raw[offset(18, 1)], raw[offset(18, 1) + 1] = 18, 1         # 18/1 links to itself
    path = tmp_path / "loop.d64"
    path.write_bytes(bytes(raw))
    with pytest.raises(ImageError) as error:
        read_image(str(path))
    assert "directory chain comes back" in str(error.value)



@pytest.mark.parametrize("kind, total, dos", [("d71", 1328, b"2A"), ("d81", 3160, b"3D")])
def test_a_d71_and_a_d81_read_their_directory_files_and_free_blocks(kind, total, dos):
    disk = ImageWriter(b"BIG DISK", b"B2", kind=kind)
    disk.add(b"FIRST", "prg", FIRST)
    for n in range(20):                                        # three directory sectors
        disk.add(b"F%02d" % n, "prg", bytes([0x00, 0x10, n]))
    long = bytes(range(256)) * 700                             # 706 blocks: past side 1 of a 1571
    chain = disk.add(b"LONG", "seq", long)
    image = DiskImage(disk.bytes())
    assert image.kind == kind and image.name == b"BIG DISK" and image.id == b"B2" and image.dos_type == dos
    assert [entry.name for entry in image.entries][:2] == [b"FIRST", b"F00"] and len(image.entries) == 22
    assert image.read_file(image.entries[0]) == FIRST
    assert image.read_file(image.entries[-1]) == long and image.entries[-1].blocks == len(chain)
    if kind == "d71":
        assert max(track for track, _ in chain) > 35                # the chain crossed to side 2
    assert image.free_blocks == disk.free_blocks() == total - 1 - 20 - len(chain)
    with_errors = DiskImage(disk.bytes() + bytes(len(disk.bytes()) // 256))
    assert with_errors.read_file(with_errors.entries[-1]) == long


def test_a_fifo_named_like_an_image_is_refused_at_once(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    path = tmp_path / "pipe.d64"
    os.mkfifo(path)
    with pytest.raises(ImageError) as error:
        read_image(str(path))                                 # (a blocking open would hang here)
    assert "not a regular file" in str(error.value)

# -- the drive on the image ------------------------------------------------------------------------------

def test_load_dollar_lists_the_images_directory(image):
    m = C64(disk_folder=str(image))
    screen = settle(m, 'LOAD"$",8{return}LIST{return}')
    lines = [line.rstrip() for line in screen.splitlines()]
    header = next(line for line in lines if "GAMES DISK" in line)
    assert header.startswith('0 "GAMES DISK') and header.endswith('G1 2A')
    assert '1    "FIRST"            PRG' in lines
    assert '3    "SECOND"           PRG' in lines
    assert '1    "NOTES"            SEQ' in lines
    assert not any("OLD" in line for line in lines)
    assert "%d BLOCKS FREE." % (664 - 6) in lines                # (the BAM: OLD's block not freed)


def test_load_name_8_1_loads_at_the_files_address_and_a_program_loads_the_next_file(image):
    m = C64(disk_folder=str(image))
    settle(m, 'LOAD"SECOND",8,1{return}')
    assert [m.peek(0xC000 + i) for i in range(6)] == list(SECOND[2:8])
    for address in range(0xC000, 0xC300):
        m.poke(address, 0)
    screen = settle(m, 'LOAD"F*",8{return}RUN{return}')     # FIRST: prints, LOADs SECOND, SYS
    assert "FIRST" in screen and "Y" in screen.split("FIRST")[-1]
    assert bytes(m.peek(0xC000 + i) for i in range(len(SECOND) - 2)) == SECOND[2:]


def test_a_seq_file_reads_through_open_and_input(image):
    m = C64(disk_folder=str(image))
    screen = settle(m, '10 OPEN2,8,2,"NOTES":INPUT#2,A$,B$:CLOSE2:PRINT A$;"/";B${return}RUN{return}')
    assert "LINE ONE/LINE TWO" in screen


def test_a_read_only_image_file_is_a_write_protected_disk_and_is_not_changed(image):
    image.chmod(0o444)                 # (checked by its mode bits too: root may write any file)
    before = image.read_bytes()
    m = C64(disk_folder=str(image))
    settle(m, '10 OPEN15,8,15:INPUT#15,E,E$:CLOSE15:PRINT E;E${return}')
    screen = settle(m, 'SAVE"NEW",8{return}')
    assert "SAVING NEW" in screen and "ERROR" not in screen      # as a 1541 with the notch covered
    assert m.drive_error() == "26,WRITE PROTECT ON,00,00"        # (its light blinks: the status line)
    assert "read-only (a write-protected disk)" in m.kernal.channels.devices[8].last_message
    assert " 26 WRITE PROTECT ON" in settle(m, "RUN{return}")
    settle(m, 'OPEN15,8,15,"S0:FIRST":CLOSE15{return}')
    assert m.drive_error() == "26,WRITE PROTECT ON,00,00"
    settle(m, 'OPEN15,8,15,"R0:ANEW=FIRST":CLOSE15{return}')
    settle(m, 'OPEN3,8,3,"LOG,S,W":PRINT#3,"X":CLOSE3{return}')
    assert m.drive_error() == "26,WRITE PROTECT ON,00,00"
    assert image.read_bytes() == before
    assert "FIRST" in settle(m, 'LOAD"$",8{return}LIST{return}')


def test_a_damaged_file_gives_error_66_and_a_message_not_a_traceback(tmp_path):
    disk = sample_disk()
    disk.add_damaged(b"BROKEN")                                # its 2nd sector links off track 17
    path = tmp_path / "damaged.d64"
    path.write_bytes(disk.bytes())
    m = C64(disk_folder=str(path))
    screen = settle(m, 'LOAD"BROKEN",8,1{return}')
    assert "ERROR" in screen
    drive = m.kernal.channels.devices[8]
    assert drive.error[0] == 66 and "track 17 sector 30" in drive.last_message
    screen = settle(m, 'LOAD"FIRST",8{return}')               # the rest of the disk still reads
    assert "READY." in screen


def test_load_dollar_on_a_d81_lists_its_header_and_the_1581s_free_blocks(tmp_path):
    disk = ImageWriter(b"FLOPPY", b"F8", kind="d81")
    disk.add(b"FIRST", "prg", FIRST)
    disk.add(b"SECOND", "prg", SECOND)
    path = tmp_path / "floppy.d81"
    path.write_bytes(disk.bytes())
    m = C64(disk_folder=str(path))
    lines = [line.rstrip() for line in settle(m, 'LOAD"$",8{return}LIST{return}').splitlines()]
    assert any(line.startswith('0 "FLOPPY') and line.endswith("F8 3D") for line in lines)
    assert '3    "SECOND"           PRG' in lines and "3156 BLOCKS FREE." in lines
    screen = settle(m, 'NEW{return}LOAD"FIRST",8{return}RUN{return}')
    assert "FIRST" in screen and "Y" in screen.split("FIRST")[-1]


def test_the_drive_is_an_image_disk_only_for_an_image_file(image, tmp_path):
    assert isinstance(C64(disk_folder=str(image)).kernal.channels.devices[8], ImageDisk)
    assert not isinstance(C64(disk_folder=str(tmp_path)).kernal.channels.devices[8], ImageDisk)


# -- the command line ---------------------------------------------------------------------------------

def ryg(*args, cwd):
    return subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py"), "--headless", *args],
                          capture_output=True, text=True, timeout=180, cwd=str(cwd))


def test_ryg_image_d64_starts_its_first_program_with_the_image_as_drive_8(image, tmp_path):
    proc = ryg("--max-cycles", "20000000", str(image), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "FIRST" in proc.stdout and "\nY" in proc.stdout.split("FIRST")[-1]   # its LOAD found SECOND
    assert "FILE NOT FOUND" not in proc.stdout and "SEARCHING" not in proc.stdout


def test_a_disk_image_s_program_is_run_by_basic_before_and_after_its_sys(tmp_path):
    program = basic_program([(10, "POKE 53280,0:SYS 2096:PRINT PEEK(251)")])
    program += bytes(2096 - 0x0801 - (len(program) - 2)) + bytes([0xA9, 42, 0x85, 251, 0x60])
    disk = ImageWriter(b"LOADER", b"L1")
    disk.add(b"LOADER", "prg", program)
    path = tmp_path / "loader.d64"
    path.write_bytes(disk.bytes())
    proc = ryg("--peek", "53280", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line]
    assert lines[-4:] == ["RUN", " 42", "READY.", "$D020: f0"]


def test_disk_image_option_lists_the_image(image, tmp_path):
    proc = ryg("--basic", "--disk", str(image), "--keys", 'load"$",8{return}list{return}', cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert '"GAMES DISK' in proc.stdout and "NOTES" in proc.stdout


@pytest.mark.parametrize("content, message", [
    (b"\x00" * 1234, "is not a disk image: 1,234 bytes"),
    (None, "no such disk image"),
])
def test_a_bad_image_is_one_line_and_status_2(tmp_path, content, message):
    path = tmp_path / "bad.d64"
    if content is not None:
        path.write_bytes(content)
    for args in ((str(path),), ("--basic", "--disk", str(path))):
        proc = ryg(*args, cwd=tmp_path)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


@pytest.mark.parametrize("kind", ("d71", "d81"))
def test_ryg_starts_the_first_program_of_a_d71_and_a_d81(tmp_path, kind):
    disk = ImageWriter(b"GAMES", b"G2", kind=kind)
    disk.add(b"NOTES", "seq", NOTES)
    disk.add(b"FIRST", "prg", FIRST)
    disk.add(b"SECOND", "prg", SECOND)
    path = tmp_path / ("games." + kind)
    path.write_bytes(disk.bytes())
    proc = ryg("--max-cycles", "20000000", str(path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "FIRST" in proc.stdout and "\nY" in proc.stdout.split("FIRST")[-1]


def test_new_disk_makes_an_empty_image_that_programs_then_write_to(tmp_path):
    proc = ryg("--basic", "--new-disk", "games.d81", "--keys",
               '10 print "hi"{return}save"first",8{return}load"$",8{return}list{return}', cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert '0 "GAMES           " 01 3D' in proc.stdout and "3159 BLOCKS FREE." in proc.stdout
    image = read_image(str(tmp_path / "games.d81"))
    assert [entry.name for entry in image.entries] == [b"FIRST"]
    again = ryg("--basic", "--new-disk", "games.d81", cwd=tmp_path)          # never over a file
    assert again.returncode == 2 and "there is a file there already" in again.stderr
    assert read_image(str(tmp_path / "games.d81")).entries[0].name == b"FIRST"
    for args, message in ((("--new-disk", "x.zip"), "name the image .d64, .d71 or .d81"),
                          (("--new-disk", "y.d64", "--disk", "."), "not two"),
                          (("--disk", "missing.d64"), "ryg --new-disk missing.d64 makes an empty one")):
        proc = ryg("--basic", *args, cwd=tmp_path)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "y.d64").exists()


def test_an_image_without_a_program_says_so(tmp_path):
    disk = ImageWriter(b"DATA", b"D1")
    disk.add(b"NOTES", "seq", NOTES)
    path = tmp_path / "data.d64"
    path.write_bytes(disk.bytes())
    proc = ryg(str(path), cwd=tmp_path)
    assert proc.returncode == 2 and "holds no PRG file to start" in proc.stderr


def test_a_refused_run_makes_no_new_disk(tmp_path):
    for args, message in ((("--headless", "--moncommands", "missing.txt"), "cannot read the monitor commands"),
                          (("--break", "1000"), "need --headless"),
                          ((), "needs a terminal")):
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py"), "--basic", "--new-disk", "a.d64",
                               *args], capture_output=True, text=True, timeout=180, cwd=str(tmp_path),
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 2 and message in proc.stderr, proc.stderr
        assert not (tmp_path / "a.d64").exists(), args
    proc = ryg("--basic", "--new-disk", "a.d64", cwd=tmp_path)              # the corrected command
    assert proc.returncode == 0, proc.stderr
    assert read_image(str(tmp_path / "a.d64")).entries == []
