"""A disk image's BAM is not trusted for what is in use: SAVE, the directory growing,
scratch, rename and V (validate) never hand out or free a sector the directory or one
of its entries owns -- a file's chain (DEL and unclosed files too), a REL file's side
sectors, a 1581 partition's range -- whatever the BAM says.  Crafted images here, and a
property test: random images (BAM lies, chains of any shape, full directories,
partitions) under random runs of SAVE, @0: replacing, scratch, rename and validate never
change a block an entry owned, unless that entry was the one scratched or replaced
(`-m slow` runs many more).
"""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from c64.machine import C64
from kernal.disk_formats import read_image
from kernal.disk_image import ImageDisk
from kernal.errors import KernalError
from tests.tools.basic_keys import settle
from tests.tools.image_writer import SECTORS, ImageWriter, check_bam_in_step, offset, owners

EMPTY = {"d64": 664, "d71": 1328, "d81": 3160}


def full_d64_directory():
    disk = ImageWriter(b"FULL", b"F1")
    for n in range(144):                                       # 18 directory sectors, 18/1-18/18
        disk.add(b"F%03d" % n, "prg", bytes([1, 8, n]))
    disk.bytes()
    return disk


def sector_of(raw, track, sector, kind="d64"):
    return raw[offset(track, sector, kind):offset(track, sector, kind) + 256]


@pytest.mark.parametrize("free", [range(19), [1], [0], [4, 7]], ids=["all", "18/1", "18/0", "18/4+7"])
def test_a_full_directory_whose_bam_calls_its_sectors_free_gets_disk_full(tmp_path, free):
    disk = full_d64_directory()
    for sector in free:
        disk.lie_free(18, sector)
    path = tmp_path / "full.d64"
    path.write_bytes(disk.bytes())
    before = path.read_bytes()
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"NEWFILE",8{return}')
    assert m.drive_error().startswith("72,DISK FULL")
    assert path.read_bytes() == before
    image = read_image(str(path))
    assert len(image.entries) == 144 and image.name == b"FULL" and image.id == b"F1"


def test_the_directory_grows_past_a_file_stored_on_its_track_the_bam_calls_free(tmp_path):
    disk = ImageWriter(b"DIRTRACK", b"D1")
    kept = bytes(range(256))[:250]
    disk.add(b"ON TRACK 18", "seq", kept, chain=[(18, 7)])    # where the directory grows next
    for n in range(15):
        disk.add(b"F%02d" % n, "prg", bytes([1, 8, n]))       # 16 entries: 18/1 and 18/4 full
    for sector in range(19):
        disk.lie_free(18, sector)
    path = tmp_path / "dirtrack.d64"
    path.write_bytes(disk.bytes())
    block = sector_of(path.read_bytes(), 18, 7)
    m = C64(disk_folder=str(path))
    settle(m, 'SAVE"SEVENTEENTH",8{return}')
    assert m.drive_error() is None
    raw = path.read_bytes()
    assert sector_of(raw, 18, 7) == block
    image = read_image(str(path))
    assert len(image.entries) == 17 and image.read_file(image.entries[0]) == kept


def test_v_keeps_a_1581_partition_and_the_next_save_stays_out_of_it(tmp_path):
    disk = ImageWriter(b"PARTS", b"P1", kind="d81")
    disk.add_partition(b"PART", 38, 0, 80)                     # tracks 38 and 39, next to the directory
    disk.add(b"FILE", "prg", bytes([1, 8]) + bytes(300))
    path = tmp_path / "parts.d81"
    raw = bytearray(disk.bytes())
    for track in (38, 39):
        for sector in range(40):
            raw[offset(track, sector, "d81"):offset(track, sector, "d81") + 256] = bytes([track, sector]) * 128
    path.write_bytes(bytes(raw))
    check_bam_in_step(bytes(raw), "d81")
    m = C64(disk_folder=str(path))
    settle(m, 'OPEN15,8,15,"V":CLOSE15{return}')
    assert m.drive_error() is None
    check_bam_in_step(path.read_bytes(), "d81")                # the partition's 80 blocks still used
    settle(m, 'OPEN2,8,2,"BIG,S,W":FOR I=1 TO 25000:PRINT#2,"B";:NEXT:CLOSE2{return}')
    assert m.drive_error() is None
    after = path.read_bytes()
    for track in (38, 39):
        for sector in range(40):
            assert sector_of(after, track, sector, "d81") == bytes([track, sector]) * 128
    image = read_image(str(path))
    assert [e.name for e in image.entries] == [b"FILE", b"BIG"]
    assert image.read_file(image.entries[1]) == b"B" * 25000
    assert image.free_blocks == EMPTY["d81"] - 2 - 80 - 99


def test_v_keeps_a_closed_del_files_chain_and_a_rel_files_side_sector(tmp_path):
    disk = ImageWriter(b"ODD FILES", b"O1")
    deleted = disk.add(b"DELETED", "del", bytes(range(256)) * 2)
    records, side = disk.add_rel(b"RECORDS", bytes(range(200)) * 3)
    for track, sector in deleted + records + [side]:
        disk.lie_free(track, sector)                           # and a BAM that calls them free
    path = tmp_path / "odd.d64"
    path.write_bytes(disk.bytes())
    before = path.read_bytes()
    m = C64(disk_folder=str(path))
    settle(m, 'OPEN15,8,15,"V":CLOSE15{return}')
    check_bam_in_step(path.read_bytes(), "d64")
    settle(m, 'OPEN2,8,2,"NEW,S,W":FOR I=1 TO 3000:PRINT#2,"N";:NEXT:CLOSE2{return}')
    assert m.drive_error() is None
    after = path.read_bytes()
    for track, sector in deleted + records + [side]:
        assert sector_of(after, track, sector) == sector_of(before, track, sector)
    check_bam_in_step(after, "d64")


def test_a_save_stays_clear_of_a_rel_files_side_sector_the_bam_calls_free(tmp_path):
    disk = ImageWriter(b"REL", b"R1")
    records, side = disk.add_rel(b"RECORDS", bytes(range(200)) * 3)
    disk.lie_free(*side)
    path = tmp_path / "rel.d64"
    path.write_bytes(disk.bytes())
    before = sector_of(path.read_bytes(), *side)
    drive = ImageDisk(str(path))
    drive.save(b"NEW", bytes([1, 8]) + bytes(254 * 20))
    assert drive.error_text().startswith("00,")
    assert sector_of(path.read_bytes(), *side) == before


# -- the property ------------------------------------------------------------------------------------

@st.composite
def random_images(draw):
    """A RandomImage: files laid out, some with chains of any shape (crossed,
    looping, leaving the disk, on the directory track), DEL, unclosed and REL files, a
    partition, sometimes a full directory, and a BAM that lies about random sectors."""
    kind = draw(st.sampled_from(("d64", "d71", "d81")))
    disk = ImageWriter(b"RANDOM", b"R1", kind=kind)
    home = 40 if kind == "d81" else 18
    directory_sectors = 37 if kind == "d81" else 18
    full = draw(st.booleans()) and kind != "d81"
    count = 8 * directory_sectors if full else draw(st.integers(0, 30))
    made = [kind]                                              # (what the image is made of, for a failure's report)
    if kind == "d81" and draw(st.booleans()):                  # (a partition never holds track 40)
        track = draw(st.sampled_from((36, 38, 41, 44)))
        blocks = draw(st.integers(1, 120 if track > 40 else (40 - track) * 40))
        disk.add_partition(b"PART", track, 0, blocks)
        made.append(("partition", track, blocks))
    sectors = SECTORS[kind]
    home_spare = [] if full else [home_sector for home_sector in ((39, 38, 37) if kind == "d81" else (18, 17, 14))]
    chains = []
    for n in range(count):
        roll = draw(st.integers(0, 9)) if n < 30 else 9
        size = draw(st.integers(0, 600)) if n < 30 else 1
        data = bytes([n & 0xFF]) * size
        name = b"F%03d" % n
        made.append((roll, size))
        if roll == 0 and home_spare and size <= 254:          # a file on the directory track
            disk.add(name, "prg", data, chain=[(home, home_spare.pop())])
        elif roll == 1:
            disk.add(name, "del", data)
        elif roll == 2:
            disk.add(name, "seq", data, closed=False)
        elif roll == 3 and kind != "d81":
            disk.add_rel(name, data or b"R")
        elif roll == 4:                                        # a chain crossed, looping or off the disk
            chain = disk.add(name, "usr", bytes(300))
            target = draw(st.sampled_from(("cross", "loop", "off")))
            links = {"cross": draw(st.sampled_from(chains)) if chains else (1, 0), "loop": chain[0],
                     "off": (17, 30) if kind != "d81" else (81, 0)}
            block = disk.get(*chain[0])
            block[0], block[1] = links[target]
            made.append((target, links[target]))
            disk.put(*chain[0], block)
            chains += chain
        else:
            chains += disk.add(name, "prg", data)
    lies = draw(st.lists(st.tuples(st.integers(1, len(sectors) - 1), st.integers(0, 39)), max_size=60))
    if draw(st.booleans()):
        lies += [(home, sector) for sector in range(sectors[home])]
    for track, sector in lies:
        if sector < sectors[track]:
            disk.lie_free(track, sector)
    made.append(("lies", lies))
    return RandomImage(kind, disk.bytes(), made)


class RandomImage:
    """An image made by random_images: its kind, bytes, and what it was made of (its repr)."""

    def __init__(self, kind, raw, made):
        self.kind, self.raw, self.made = kind, raw, made

    def __repr__(self):
        return "RandomImage%r" % (self.made,)


operations = st.lists(st.tuples(st.sampled_from(("save", "replace", "scratch", "rename", "validate")),
                                st.integers(0, 40), st.integers(0, 40), st.integers(0, 60)),
                      min_size=1, max_size=6)


def check_owned_blocks_kept(tmp_path, image, steps):
    kind, raw = image.kind, image.raw
    path = tmp_path / ("random." + kind)
    path.write_bytes(raw)
    drive = ImageDisk(str(path))
    for action, first, second, size in steps:
        before = path.read_bytes()
        entries = owners(before, kind, strict=False)
        name, other = b"F%03d" % first, b"F%03d" % second
        if action in ("save", "replace"):
            try:
                drive.save((b"@0:" if action == "replace" else b"") + name, bytes([1, 8, size]) * (85 * size))
            except KernalError:
                pass
            gone = {name} if action == "replace" else set()
        elif action == "scratch":
            drive.open(15, b"S0:" + name)
            gone = {name}
        elif action == "rename":
            drive.open(15, b"R0:" + other + b"=" + name)
            gone = set()
        else:
            drive.open(15, b"V")
            gone = {entry[5:21].rstrip(b"\xa0") for _, entry, _ in entries if entry[2] & 7 and not entry[2] & 0x80}
        after = path.read_bytes()
        for number, entry, owned in entries:
            if entry[5:21].rstrip(b"\xa0") in gone:
                continue
            for track, sector in owned:
                assert sector_of(after, track, sector, kind) == sector_of(before, track, sector, kind), \
                    (action, name, number, entry[2], track, sector)
        read_image(str(path))                                  # still an image that reads


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                   HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_images(), operations)
def test_random_writes_never_change_a_block_another_entry_owns(tmp_path, image, steps):
    check_owned_blocks_kept(tmp_path, image, steps)


@pytest.mark.slow
@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                    HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_images(), operations)
def test_random_writes_never_change_a_block_another_entry_owns_long(tmp_path, image, steps):
    check_owned_blocks_kept(tmp_path, image, steps)
