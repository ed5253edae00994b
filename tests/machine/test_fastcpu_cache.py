"""The compiled blocks kept for the next process (c64/fastcpu/block_cache.py): a new
process finds the blocks an earlier one made, changed code is translated anew, and a
damaged, foreign or unwritable cache is ignored -- never a traceback, never a wrong block:
every run here ends with py65's cycles, registers and RAM."""

import marshal
import os
import zlib

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.fastcpu.block_cache import BLOCKS, CORE_VERSION, MAGIC, as_new_process, default_folder
from c64.machine import C64, StopReason
from tests.conftest import assemble

# A loop called through a subroutine, 256 passes per call: hot enough to be compiled.
PROGRAM = """
        .org $C000
        ldy #4
outer:  ldx #0
inner:  lda #{value}
        jsr put
        inx
        bne inner
        dey
        bne outer
        rts
put:    clc
        adc $C100,x
        sta $C100,x
        rts
"""


@pytest.fixture
def cache_folder(tmp_path):
    """BLOCKS on an empty folder of its own for the test, as a new process."""
    previous = BLOCKS.folder
    folder = str(tmp_path / "blocks")
    BLOCKS.folder = folder
    as_new_process()
    yield folder
    BLOCKS.folder = previous


def run_program(core, value=1):
    """The program SYSed on a new C64 until it returns to BASIC: (cycles, a, x, y, sp, p, RAM
    without the dead bytes of the stack page)."""
    machine = C64(sid_seed=7, cpu_class=core)
    code = assemble(PROGRAM.format(value=value))
    machine.mem.ram[0xC000:0xC000 + len(code)] = code
    machine.start(0xC000)
    assert machine.run(max_cycles=20_000_000) is StopReason.BASIC
    cpu = machine.cpu
    ram = bytearray(machine.mem.ram)
    # Dead stack bytes left out: the KERNAL's jiffy IRQ is taken at a block's end on the
    # fast core, at the exact instruction on py65 (c64/machine.py, _own_handlers), so the
    # PC it pushed, below the stack pointer now, may differ.
    ram[0x100:0x101 + cpu.sp] = bytes(cpu.sp + 1)
    return (machine.cycles, cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, bytes(ram))


def new_process_run(value=1):
    """What the next process does: the cache saved, everything in memory forgotten, a run."""
    as_new_process()
    return run_program(FastCPU, value)


def test_a_new_process_runs_the_blocks_an_earlier_one_compiled(cache_folder):
    first = run_program(FastCPU)
    assert BLOCKS.misses > 0 and BLOCKS.hits == 0
    second = new_process_run()
    assert os.path.exists(BLOCKS.path)
    assert BLOCKS.misses == 0 and BLOCKS.hits > 0       # nothing translated again
    assert first == second == run_program(CPU)


def test_changed_code_at_the_same_address_is_translated_anew(cache_folder):
    run_program(FastCPU, value=1)
    changed = new_process_run(value=3)                 # one operand differs: LDA #3
    assert BLOCKS.misses > 0
    assert changed == run_program(CPU, value=3)
    assert changed[-1][0xC100:0xC200] == bytes([12]) * 256      # 4 passes of +3


def test_without_a_folder_nothing_is_written_and_nothing_is_read(cache_folder):
    run_program(FastCPU)
    BLOCKS.folder = None                         # (what was made so far is saved first)
    assert BLOCKS.path is None
    before = {name: os.stat(os.path.join(cache_folder, name)).st_mtime_ns
              for name in os.listdir(cache_folder)}
    assert new_process_run() == run_program(CPU)
    BLOCKS.save()
    assert BLOCKS.hits == 0
    assert {name: os.stat(os.path.join(cache_folder, name)).st_mtime_ns
            for name in os.listdir(cache_folder)} == before


def _saved_file(folder):
    run_program(FastCPU)
    BLOCKS.save()
    path = os.path.join(folder, "blocks-%s.bin" % CORE_VERSION)
    with open(path, "rb") as stream:
        return path, stream.read()


@pytest.mark.parametrize("contents", [
    b"",
    b"not a cache file at all",
    MAGIC,
    MAGIC + b"\x00\x01\x02",
    MAGIC + marshal.dumps([1, 2, 3]),
    MAGIC + marshal.dumps({b"key": "not bytes", 5: b"\x00" * 9}),
], ids=["empty", "foreign", "header only", "cut short", "a list", "odd entries"])
def test_a_file_that_is_not_a_cache_is_ignored_and_replaced(cache_folder, contents):
    path, _ = _saved_file(cache_folder)
    with open(path, "wb") as stream:
        stream.write(contents)
    assert new_process_run() == run_program(CPU)
    assert BLOCKS.hits == 0
    assert new_process_run() == run_program(CPU)     # the next process has a good file again
    assert BLOCKS.misses == 0 and BLOCKS.hits > 0


def test_damaged_bytes_anywhere_in_the_file_never_run_a_wrong_block(cache_folder):
    path, good = _saved_file(cache_folder)
    reference = run_program(CPU)
    for offset in range(len(MAGIC) + 3, len(good), max(1, len(good) // 9)):
        damaged = bytearray(good)
        damaged[offset] ^= 0x5A
        with open(path, "wb") as stream:
            stream.write(bytes(damaged))
        assert new_process_run() == reference, "byte %d damaged" % offset


def test_entries_that_are_not_blocks_are_not_run(cache_folder):
    path, good = _saved_file(cache_folder)
    entries = marshal.loads(good[len(MAGIC):])
    assert entries and all(isinstance(entry, bytes) for entry in entries.values())
    # Well-formed entries with good checksums, holding code that is not a block.
    stranger = marshal.dumps(compile("import os\nos.environ['BLOCK_RAN'] = '1'\n", "x", "exec"))
    packed = zlib.crc32(stranger).to_bytes(4, "little") + stranger
    with open(path, "wb") as stream:
        stream.write(MAGIC + marshal.dumps({key: packed for key in entries}))
    assert new_process_run() == run_program(CPU)
    assert BLOCKS.hits == 0
    assert "BLOCK_RAN" not in os.environ


def test_another_users_file_is_not_read(cache_folder, monkeypatch):
    _saved_file(cache_folder)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(cache_folder).st_uid + 1)
    assert new_process_run() == run_program(CPU)
    assert BLOCKS.hits == 0


def test_a_folder_that_cannot_be_made_is_quietly_left_alone(tmp_path):
    previous = BLOCKS.folder
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    try:
        BLOCKS.folder = str(blocker / "blocks")       # under a regular file: cannot exist
        assert new_process_run() == run_program(CPU)
        BLOCKS.save()
        assert blocker.read_text() == "in the way"
    finally:
        BLOCKS.folder = previous


def test_files_of_other_translator_versions_are_removed_when_saving(cache_folder):
    os.makedirs(cache_folder, exist_ok=True)
    old = os.path.join(cache_folder, "blocks-000000000000.bin")
    with open(old, "wb") as stream:
        stream.write(MAGIC + marshal.dumps({}))
    _saved_file(cache_folder)
    assert os.listdir(cache_folder) == ["blocks-%s.bin" % CORE_VERSION]


def test_the_folder_is_the_env_var_or_off_or_the_user_cache_folder():
    assert default_folder({"RYG64_BLOCK_CACHE": "off"}) is None
    assert default_folder({"RYG64_BLOCK_CACHE": "OFF"}) is None
    assert default_folder({"RYG64_BLOCK_CACHE": "/some/where"}) == "/some/where"
    from platformdirs import user_cache_dir
    assert default_folder({}) == os.path.join(user_cache_dir("ryg64", appauthor=False), "blocks")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_or_a_folder_in_the_files_place_is_not_waited_on_nor_read(cache_folder):
    reference = run_program(CPU)
    path, _ = _saved_file(cache_folder)
    os.unlink(path)
    os.mkfifo(path)                              # nobody ever writes into it
    assert new_process_run() == reference
    assert BLOCKS.hits == 0
    os.unlink(path)
    os.mkdir(path)
    assert new_process_run() == reference
    assert BLOCKS.hits == 0
