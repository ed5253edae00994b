"""Writing to a disk image (.d64, .d71, .d81) as drive 8: SAVE, files opened for writing,
@0: replacing, scratch, rename and copy change the image as the drive's DOS would
(kernal/disk_writing.py) and write it back to its file; the BAM stays in step with the
files (checked by tests/tools/image_writer.py's own reading of the layout); a disk or
directory that is full, a read-only image file and a failed host write change nothing.
"""

import pytest

import kernal.disk_image
from c64.machine import C64
from kernal.disk_formats import D64, D71, D81, read_image
from kernal.disk_writing import blank_image
from tests.tools.basic_keys import settle
from tests.tools.image_writer import ImageWriter, check_bam_in_step

KINDS = ("d64", "d71", "d81")
EMPTY = {"d64": 664, "d71": 1328, "d81": 3160}


def make_image(tmp_path, kind, files=((b"OLD", "prg", bytes([1, 8]) + bytes(600)),)):
    disk = ImageWriter(b"WRITE TEST", b"W1", kind=kind)
    for name, file_type, data in files:
        disk.add(name, file_type, data)
    path = tmp_path / ("disk." + kind)
    path.write_bytes(disk.bytes())
    return path


def assert_bam_in_step(path, kind):
    """The BAM marks exactly the sectors the directory and the files use, and the listing's
    BLOCKS FREE is the BAM's; the image read."""
    free = check_bam_in_step(path.read_bytes(), kind)
    image = read_image(str(path))
    assert image.free_blocks == free
    return image


@pytest.mark.parametrize("kind", KINDS)
def test_save_and_a_written_seq_file_land_on_the_image_and_load_back(tmp_path, kind):
    path = make_image(tmp_path, kind)
    m = C64(disk_folder=str(path))
    settle(m, '10 PRINT "HELLO"{return}20 FOR I=1 TO 300:A$=A$+"X":NEXT{return}')
    settle(m, 'SAVE"PROG",8{return}')
    settle(m, 'OPEN2,8,2,"DATA,S,W":FOR I=1 TO 2000:PRINT#2,I;:NEXT:CLOSE2{return}')
    assert m.drive_error() is None
    image = assert_bam_in_step(path, kind)
    names = {entry.name: entry for entry in image.entries}
    assert set(names) == {b"OLD", b"PROG", b"DATA"}
    data = image.read_file(names[b"DATA"])
    assert data.startswith(b" 1  2  3 ") and data.endswith(b" 2000 ") and names[b"DATA"].type == "seq"
    assert names[b"DATA"].blocks == (len(data) + 253) // 254 and names[b"DATA"].closed
    assert image.free_blocks == EMPTY[kind] - 3 - 1 - names[b"DATA"].blocks
    fresh = C64(disk_folder=str(path))                      # another session reads what was written
    screen = settle(fresh, 'LOAD"PROG",8{return}RUN{return}')
    assert "HELLO" in screen
    listing = settle(fresh, 'LOAD"$",8{return}LIST{return}')
    assert '%d BLOCKS FREE.' % image.free_blocks in listing and '"DATA"             SEQ' in listing


@pytest.mark.parametrize("kind", KINDS)
def test_replace_scratch_rename_and_copy_keep_the_bam_in_step(tmp_path, kind):
    path = make_image(tmp_path, kind)
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"OLD",8{return}')
    assert m.drive_error().startswith("63,FILE EXISTS")
    assert read_image(str(path)).entries[0].blocks == 3       # not written
    settle(m, '10 REM{return}SAVE"@0:OLD",8{return}')
    image = assert_bam_in_step(path, kind)
    assert [(e.name, e.blocks) for e in image.entries] == [(b"OLD", 1)]   # its 3 blocks are free again
    settle(m, 'OPEN15,8,15,"C0:TWIN=OLD":CLOSE15{return}')
    settle(m, 'OPEN15,8,15,"R0:RENAMED=OLD":CLOSE15{return}')
    image = assert_bam_in_step(path, kind)
    assert [e.name for e in image.entries] == [b"RENAMED", b"TWIN"]
    assert image.read_file(image.entries[0]) == image.read_file(image.entries[1])
    screen = settle(m, '10 OPEN15,8,15,"S0:R*,TWIN":INPUT#15,E,E$,T:CLOSE15:PRINT E;E$;T{return}RUN{return}')
    assert " 1 FILES SCRATCHED 2" in screen
    image = assert_bam_in_step(path, kind)
    assert image.entries == [] and image.free_blocks == EMPTY[kind]
    settle(m, 'SAVE"AGAIN",8{return}')                          # a freed slot is used again
    assert [e.name for e in assert_bam_in_step(path, kind).entries] == [b"AGAIN"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_file_that_does_not_fit_gets_disk_full_and_changes_nothing(tmp_path, kind):
    fill = bytes(254 * (EMPTY[kind] - 5))                       # leaves 5 blocks free
    path = make_image(tmp_path, kind, files=((b"BIG", "seq", fill),))
    before = path.read_bytes()
    m = C64(disk_folder=str(path))
    settle(m, 'OPEN2,8,2,"MORE,S,W":FOR I=1 TO 1600:PRINT#2,"X";:NEXT:CLOSE2{return}')   # 7 blocks
    assert m.drive_error().startswith("72,DISK FULL")
    assert path.read_bytes() == before
    settle(m, 'OPEN2,8,2,"SMALL,S,W":FOR I=1 TO 1000:PRINT#2,"X";:NEXT:CLOSE2{return}')  # 4 blocks fit
    assert m.drive_error() is None
    image = assert_bam_in_step(path, kind)
    assert image.free_blocks == 1 and [e.name for e in image.entries] == [b"BIG", b"SMALL"]


def test_a_full_directory_gets_disk_full(tmp_path):
    files = [(b"F%03d" % n, "prg", b"\x01\x08") for n in range(144)]    # a 1541's 18 directory sectors
    path = make_image(tmp_path, "d64", files=files)
    before = path.read_bytes()
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"ONE MORE",8{return}')
    assert m.drive_error().startswith("72,DISK FULL") and path.read_bytes() == before


def test_a_directory_grows_into_a_new_sector_when_its_last_is_full(tmp_path):
    files = [(b"F%d" % n, "prg", b"\x01\x08") for n in range(8)]
    path = make_image(tmp_path, "d64", files=files)
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"NINTH",8{return}')
    image = assert_bam_in_step(path, "d64")
    assert len(image.entries) == 9 and image.entries[-1].name == b"NINTH"


def test_a_failed_host_write_leaves_the_image_as_it_was_in_memory_and_on_the_host(tmp_path, monkeypatch):
    path = make_image(tmp_path, "d64")
    before = path.read_bytes()
    m = C64(disk_folder=str(path))

    def refuse(target, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(kernal.disk_image, "replace_file", refuse)
    settle(m, 'SAVE"NEW",8{return}')
    assert m.drive_error().startswith("72,DISK FULL")
    assert "No space left on device" in m.kernal.channels.devices[8].last_message
    assert path.read_bytes() == before
    listing = settle(m, '{clr}LOAD"$",8{return}LIST{return}')
    assert '"NEW"' not in listing and "661 BLOCKS FREE." in listing
    monkeypatch.undo()
    settle(m, 'SAVE"NEW",8{return}')
    assert [e.name for e in assert_bam_in_step(path, "d64").entries] == [b"OLD", b"NEW"]


def test_a_damaged_files_chain_is_not_freed_by_replacing_or_scratching_it(tmp_path):
    disk = ImageWriter(b"DAMAGED", b"D1")
    disk.add_damaged(b"BROKEN")                                # its 2nd sector links off track 17
    path = tmp_path / "damaged.d64"
    path.write_bytes(disk.bytes())
    before = path.read_bytes()
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"@0:BROKEN",8{return}')
    assert m.drive_error().startswith("66,ILLEGAL TRACK OR SECTOR")
    settle(m, 'OPEN15,8,15,"S0:BROKEN":CLOSE15{return}')
    assert m.drive_error().startswith("66,ILLEGAL TRACK OR SECTOR")
    assert path.read_bytes() == before


def test_an_image_named_through_a_link_is_changed_where_the_link_points(tmp_path):
    path = make_image(tmp_path, "d64")
    link = tmp_path / "link.d64"
    link.symlink_to(path.name)
    m = C64(disk_folder=str(link))
    settle(m, 'SAVE"NEW",8{return}')
    assert link.is_symlink() and [e.name for e in assert_bam_in_step(path, "d64").entries] == [b"OLD", b"NEW"]


@pytest.mark.parametrize("kind", KINDS)
def test_n_formats_the_image_and_n_without_an_id_keeps_it(tmp_path, kind):
    path = make_image(tmp_path, kind)
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"PROG",8{return}')
    settle(m, 'OPEN15,8,15,"N0:QUICK":CLOSE15{return}')
    image = assert_bam_in_step(path, kind)
    assert (image.name, image.id, image.entries, image.free_blocks) == (b"QUICK", b"W1", [], EMPTY[kind])
    settle(m, 'OPEN2,8,2,"XS,S,W":FOR I=1 TO 3000:PRINT#2,"X";:NEXT:CLOSE2{return}')
    assert path.read_bytes().count(b"XXXXXXXX") > 300
    settle(m, 'OPEN15,8,15,"N0:FRESH DISK,02":CLOSE15{return}')
    assert m.drive_error() is None
    image = assert_bam_in_step(path, kind)
    assert (image.name, image.id, image.entries, image.free_blocks) == (b"FRESH DISK", b"02", [], EMPTY[kind])
    raw = path.read_bytes()
    assert b"XX" not in raw and raw.count(0) > len(raw) - 3 * 256   # a full format clears every sector
    listing = settle(m, '{clr}LOAD"$",8{return}LIST{return}')
    assert '0 "FRESH DISK      " 02 %s' % ("3D" if kind == "d81" else "2A") in listing
    assert "%d BLOCKS FREE." % EMPTY[kind] in listing
    settle(m, 'OPEN15,8,15,"N0:,02":CLOSE15{return}')
    assert m.drive_error().startswith("34,SYNTAX ERROR") and path.read_bytes() == raw


@pytest.mark.parametrize("kind", KINDS)
def test_a_blank_image_has_an_empty_directory_and_every_block_free(tmp_path, kind):
    path = tmp_path / ("blank." + kind)
    path.write_bytes(blank_image({"d64": D64, "d71": D71, "d81": D81}[kind], b"BLANK", b"01"))
    image = assert_bam_in_step(path, kind)
    assert (image.name, image.id, image.entries, image.free_blocks) == (b"BLANK", b"01", [], EMPTY[kind])
    m = C64(disk_folder=str(path))
    settle(m, '10 PRINT "ON A NEW DISK"{return}SAVE"FIRST",8{return}')
    assert [e.name for e in assert_bam_in_step(path, kind).entries] == [b"FIRST"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_bam_that_lies_never_gets_a_file_overwritten_and_v_makes_it_true(tmp_path, kind):
    disk = ImageWriter(b"LIES", b"L1", kind=kind)
    keep = bytes(range(256)) * 4
    chain = disk.add(b"KEEP", "seq", keep)
    disk.add(b"OPEN", "seq", b"NEVER CLOSED", closed=False)
    for track, sector in chain:                                # the BAM says KEEP's sectors are free
        disk.used[track].discard(sector)
    path = tmp_path / ("lies." + kind)
    path.write_bytes(disk.bytes())
    m = C64(disk_folder=str(path))
    settle(m, 'OPEN2,8,2,"NEW,S,W":FOR I=1 TO 2000:PRINT#2,"N";:NEXT:CLOSE2{return}')
    image = read_image(str(path))
    names = {entry.name: entry for entry in image.entries}
    assert image.read_file(names[b"KEEP"]) == keep and image.read_file(names[b"NEW"]) == b"N" * 2000
    with pytest.raises(AssertionError):
        assert_bam_in_step(path, kind)                          # KEEP's sectors still free in the BAM
    settle(m, 'OPEN15,8,15,"V":CLOSE15{return}')
    image = assert_bam_in_step(path, kind)
    assert [entry.name for entry in image.entries] == [b"KEEP", b"NEW"]          # OPEN was never closed
    assert image.free_blocks == EMPTY[kind] - len(chain) - names[b"NEW"].blocks
