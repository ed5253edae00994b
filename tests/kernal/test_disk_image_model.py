"""Writing to disk images against a model: random runs of SAVE, @0: replacing, files
written through a channel, scratch, rename and validate on a .d64, .d71 and .d81,
through the drive's own entry points (the ones the KERNAL's SAVE, OPEN, CHROUT and
CLOSE call).  After every step the image file, read afresh, holds exactly the model's
files with their bytes, its BAM is in step with the files' chains and its BLOCKS FREE
is the model's; a step that does not fit gets 72,DISK FULL and changes nothing.
A few hundred steps a format here; `-m slow` runs thousands.
"""

import random

import pytest

from kernal.disk_formats import read_image
from kernal.disk_image import ImageDisk
from kernal.errors import KernalError
from tests.tools.image_writer import ImageWriter, check_bam_in_step

EMPTY = {"d64": 664, "d71": 1328, "d81": 3160}
DIRECTORY_ENTRIES = {"d64": 144, "d71": 144, "d81": 296}


def blocks(data):
    return max(1, (len(data) + 253) // 254)


def error_of(disk):
    return disk.error_text().split(",")[0]


class Model:
    def __init__(self, kind):
        self.kind = kind
        self.files = {}                  # name -> (type, bytes), in no order

    def free(self):
        return EMPTY[self.kind] - sum(blocks(data) for _, data in self.files.values())

    def fits(self, name, data):
        old = self.files.get(name)
        if old is None and len(self.files) >= DIRECTORY_ENTRIES[self.kind]:
            return False
        return blocks(data) <= self.free() + (blocks(old[1]) if old else 0)


def random_data(rng, kind):
    roll = rng.random()
    if roll < 0.1:
        return b""
    if roll < 0.8:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 1200)))
    return bytes([rng.randrange(256)]) * rng.randrange(254 * 40, 254 * (300 if kind == "d64" else 900))


def write_through_a_channel(disk, name, data):
    disk.open(2, name + b",S,W")
    for byte in data:
        disk.chrout(2, byte)
    disk.close(2)


def run_steps(tmp_path, kind, steps, seed):
    rng = random.Random(seed)
    path = tmp_path / ("model." + kind)
    path.write_bytes(ImageWriter(b"MODEL", b"M1", kind=kind).bytes())
    disk = ImageDisk(str(path))
    model = Model(kind)
    names = [b"F%d" % n for n in range(12)] + [b"LONG NAME %d" % n for n in range(4)]
    for step in range(steps):
        action = rng.choice(("save", "save", "replace", "channel", "scratch", "rename", "validate"))
        name = rng.choice(names)
        data = random_data(rng, kind)
        before = dict(model.files)
        if action in ("save", "replace"):
            try:
                disk.save((b"@0:" if action == "replace" else b"") + name, data)
            except KernalError:                   # (what the KERNAL's SAVE reports for 72)
                pass
            if name in model.files and action == "save":
                assert error_of(disk) == "63"
            elif model.fits(name, data):
                assert error_of(disk) == "00", (step, disk.error_text())
                model.files[name] = (model.files.get(name, ("prg",))[0], data)   # (@0: keeps the type)
            else:
                assert error_of(disk) == "72", (step, disk.error_text())
        elif action == "channel":
            if name in model.files:
                continue
            write_through_a_channel(disk, name, data)
            if model.fits(name, data):
                assert error_of(disk) == "00", (step, disk.error_text())
                model.files[name] = ("seq", data)
            else:
                assert error_of(disk) == "72", (step, disk.error_text())
        elif action == "scratch":
            disk.open(15, b"S0:" + name)
            assert disk.error_text().startswith("01, FILES SCRATCHED,%02d" % (name in model.files))
            model.files.pop(name, None)
        elif action == "rename":
            new = rng.choice(names)
            disk.open(15, b"R0:" + new + b"=" + name)
            if name not in model.files:
                assert error_of(disk) == "62"
            elif new in model.files:
                assert error_of(disk) == "63"
            else:
                assert error_of(disk) == "00"
                model.files[new] = model.files.pop(name)
        else:
            disk.open(15, b"V")
            assert error_of(disk) == "00"
        raw = path.read_bytes()
        image = read_image(str(path))
        found = {entry.name: (entry.type, image.read_file(entry)) for entry in image.entries}
        assert found == model.files, (step, action, name, sorted(set(found) ^ set(model.files)),
                                      sorted(set(before) ^ set(model.files)))
        assert all(entry.blocks == blocks(found[entry.name][1]) for entry in image.entries)
        assert check_bam_in_step(raw, kind) == image.free_blocks == model.free(), (step, action)


@pytest.mark.parametrize("kind", ("d64", "d71", "d81"))
def test_random_writes_keep_the_image_and_the_model_in_step(tmp_path, kind):
    run_steps(tmp_path, kind, steps=150, seed=kind)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ("d64", "d71", "d81"))
@pytest.mark.parametrize("seed", range(4))
def test_random_writes_keep_the_image_and_the_model_in_step_long(tmp_path, kind, seed):
    run_steps(tmp_path, kind, steps=1500, seed="%s-%d" % (kind, seed))


def test_a_file_larger_than_a_1541_disk_fits_on_a_d81_and_reads_back_whole(tmp_path):
    path = tmp_path / "big.d81"
    path.write_bytes(ImageWriter(b"BIG", b"B1", kind="d81").bytes())
    disk = ImageDisk(str(path))
    data = bytes(range(256)) * 1000                  # 1008 blocks: more than 664
    write_through_a_channel(disk, b"HUGE", data)
    assert error_of(disk) == "00"
    disk.open(3, b"HUGE,S,R")
    back = bytearray()
    while not disk.status & 0x40:
        back.append(disk.chrin(3))
    assert bytes(back) == data
