"""Fuzzing the machine: random, truncated and hostile .prg files and random key streams.

Every case runs for a bounded number of cycles, through the machine API
(both CPU cores) and a few through `python ryg.py --headless`.  What must
hold whatever the program does: no Python exception escapes the machine,
no case hangs the host (an alarm bounds each case), and a program that
cannot go on ends with StopReason.ERROR and a one-line message in m.error
(or, on the command line, exit status 0/1/2 and at most one line on stderr,
never a traceback).  The drive is a fresh temporary folder, so hostile
programs may SAVE, scratch and rename freely; nothing outside it may change.

The default run uses a fixed seed and a modest number of cases; the
`slow` variants run many more.
"""

import contextlib
import os
import random
import signal
import stat
import subprocess
import sys
import threading

import pytest

from c64.cpu import CPU
from c64.loader import PrgError
from c64.machine import C64, StopReason
from kernal import entries

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 6502
CASE_SECONDS = 60            # a case that takes this long is a hang, not a slow case
CYCLES = 150_000

try:
    from c64.fastcpu import FastCPU
    CORES = [CPU, FastCPU]
except ImportError:          # pragma: no cover - the fast core is optional
    CORES = [CPU]

JUMP_TABLE = [addr for _, addr, _, _ in entries.JUMP_TABLE]
ROM_ENTRIES = [addr for _, addr in entries.ROM_ENTRIES]
JAMS = (0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2)


# -- program generators ----------------------------------------------------------------------------

def with_stub(code):
    """A .prg with the BASIC line 10 SYS2061 followed by code at $080D."""
    return bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes([0, 0, 0]) + bytes(code)


def random_bytes(rng):
    address = rng.choice([0x0801, 0xC000, 0x1000, 0x0200, rng.randrange(0x10000)])
    length = rng.randrange(1, 2048)
    return bytes([address & 0xFF, address >> 8]) + bytes(rng.randrange(256) for _ in range(length))


def random_code_after_stub(rng):
    return with_stub(rng.randrange(256) for _ in range(rng.randrange(1, 600)))


def truncated(rng):
    whole = with_stub(kernal_storm_code(rng)) if rng.random() < 0.5 else random_code_after_stub(rng)
    return whole[:rng.randrange(0, len(whole) + 1)]


def jam(rng):
    return with_stub([0xEA] * rng.randrange(0, 20) + [rng.choice(JAMS)])


def brk_storm(rng):
    return with_stub([0x00] * rng.randrange(1, 300))


def memory_writer(rng):
    """Writes a value (or counter) over all memory from a start page on, I/O and $00/$01 included."""
    start_page = rng.choice([0x00, 0x02, 0x04, 0xA0, 0xD0, 0xD4, 0xDC, 0xE0])
    value = rng.randrange(256)
    code = [0xA9, 0x00, 0x85, 0xFB,              # LDA #0 STA $FB
            0xA9, start_page, 0x85, 0xFC,        # LDA #page STA $FC
            0xA0, 0x00,                          # LDY #0
            0xA9, value,                         # loop: LDA #value
            0x91, 0xFB,                          # STA ($FB),Y
            0xC8,                                # INY
            0xD0, 0xF9,                          # BNE loop
            0xE6, 0xFC,                          # INC $FC
            0xD0, 0xF5,                          # BNE loop
            0x60]                                # RTS
    return with_stub(code)


def bank_flips(rng):
    """Random values into the processor port, then a jump somewhere into the upper 24 KB."""
    code = []
    for _ in range(rng.randrange(1, 8)):
        code += [0xA9, rng.randrange(256), 0x85, rng.choice([0x00, 0x01])]
    target = rng.randrange(0xA000, 0x10000)
    code += [0x4C, target & 0xFF, target >> 8]
    return with_stub(code)


def stack_smash(rng):
    kind = rng.randrange(4)
    if kind == 0:       # random stack pointer then RTS to whatever is there
        code = [0xA2, rng.randrange(256), 0x9A, 0x60]
    elif kind == 1:     # endless recursion: JSR to itself
        code = [0x20, 0x0D, 0x08]
    elif kind == 2:     # pull the stack empty and return
        code = [0x68] * rng.randrange(1, 300) + [0x60]
    else:               # push garbage and RTI
        code = [0xA9, rng.randrange(256), 0x48] * rng.randrange(1, 5) + [0x40]
    return with_stub(code)


def rom_jump(rng):
    target = rng.choice(ROM_ENTRIES + JUMP_TABLE + [rng.randrange(0xA000, 0x10000)])
    return with_stub([0x4C, target & 0xFF, target >> 8])


def kernal_storm_code(rng):
    """JSR to random jump-table entries and ROM entry points with random registers and flags."""
    code = []
    for _ in range(rng.randrange(1, 40)):
        target = rng.choice(JUMP_TABLE + ROM_ENTRIES)
        code += [0xA9, rng.randrange(256), 0xA2, rng.randrange(256), 0xA0, rng.randrange(256),
                 rng.choice([0x18, 0x38]), 0x20, target & 0xFF, target >> 8]
    return code + [0x60]


def kernal_storm(rng):
    return with_stub(kernal_storm_code(rng))


def file_storm(rng):
    """OPEN/CHKIN/CHKOUT/CHRIN/CHROUT/LOAD/SAVE on device 8 with random names, numbers and addresses."""
    name = bytes(rng.choice(b"AB*?:@0$,=/.\\SWRP\x00\xa0") for _ in range(rng.randrange(0, 12)))
    code = []
    for i, byte in enumerate(name):
        code += [0xA9, byte, 0x8D, (0xC800 + i) & 0xFF, 0xC8]
    for _ in range(rng.randrange(1, 20)):
        logical, secondary = rng.randrange(16), rng.choice([0, 1, 2, 3, 15, 0xFF, rng.randrange(256)])
        code += [0xA9, logical, 0xA2, rng.choice([8, 8, 8, 9, 3, 0, 1, 2]), 0xA0, secondary, 0x20, 0xBA, 0xFF]
        code += [0xA9, len(name), 0xA2, 0x00, 0xA0, 0xC8, 0x20, 0xBD, 0xFF]
        action = rng.randrange(6)
        if action == 0:
            code += [0x20, 0xC0, 0xFF]                                   # OPEN
        elif action == 1:
            code += [0xA2, logical, 0x20, 0xC6, 0xFF, 0x20, 0xCF, 0xFF, 0x20, 0xCC, 0xFF]   # CHKIN CHRIN CLRCHN
        elif action == 2:
            code += [0xA2, logical, 0x20, 0xC9, 0xFF, 0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x20, 0xCC, 0xFF]
        elif action == 3:
            code += [0xA9, 0, 0xA2, rng.randrange(256), 0xA0, rng.randrange(256), 0x20, 0xD5, 0xFF]   # LOAD
        elif action == 4:
            code += [0xA9, rng.randrange(256), 0xA2, rng.randrange(256), 0xA0, rng.randrange(256),
                     0x20, 0xD8, 0xFF]                                   # SAVE
        else:
            code += [0xA9, logical, 0x20, 0xC3, 0xFF]                    # CLOSE
    return with_stub(code + [0x60])


def irq_hijack(rng):
    """Point the IRQ (or BRK/NMI) vector somewhere random and let interrupts happen."""
    vector = rng.choice([0x0314, 0x0316, 0x0318, 0x0324, 0x0326, 0x032A])
    target = rng.randrange(0x10000)
    return with_stub([0x78, 0xA9, target & 0xFF, 0x8D, vector & 0xFF, vector >> 8,
                      0xA9, target >> 8, 0x8D, (vector + 1) & 0xFF, vector >> 8,
                      0x58, 0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x4C, 0x1F, 0x08])


GENERATORS = [random_bytes, random_code_after_stub, truncated, jam, brk_storm, memory_writer,
              bank_flips, stack_smash, rom_jump, kernal_storm, file_storm, irq_hijack]


def random_keys(rng):
    alphabet = (list(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $\",:*?@/.()=+-") * 2
                + [0x0D] * 10 + [0x14, 0x11, 0x91, 0x1D, 0x9D, 0x93, 0x13, 0x94, 0x85, 0x86, 0x03, 0x8D]
                + list(range(0x80, 0x100, 7)))
    keys = [rng.choice(alphabet) for _ in range(rng.randrange(1, 80))]
    words = [b'LOAD"$",8\r', b"LIST\r", b"RUN\r", b"NEW\r", b"SYS%d\r" % rng.randrange(70000),
             b'LOAD"*",8,1\r', b"10 SYS%d\r" % rng.randrange(65536)]
    for _ in range(rng.randrange(0, 4)):
        position = rng.randrange(len(keys) + 1)
        keys[position:position] = list(rng.choice(words))
    if rng.random() < 0.1:
        keys.insert(rng.randrange(len(keys) + 1), "restore")
    return keys


# -- running a case -----------------------------------------------------------------------------------

@contextlib.contextmanager
def time_limit(seconds):
    """Raise TimeoutError if the block runs longer than `seconds` (where SIGALRM exists)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise TimeoutError("fuzz case still running after %d s: the host hangs" % seconds)
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_stop(machine, reason, label):
    assert isinstance(reason, StopReason), label
    if reason is StopReason.ERROR:
        assert isinstance(machine.error, str) and machine.error.strip(), label
        assert "\n" not in machine.error and "Traceback" not in machine.error, label
    machine.screen_lines()
    machine.screen_codes()


def run_case(data, keys, core, folder, label, cycles=CYCLES):
    """Load and run one fuzz case; returns the final StopReason (None if the file was refused)."""
    with time_limit(CASE_SECONDS):
        machine = C64(sid_seed=len(data), disk_folder=folder, cpu_class=core)
        try:
            program = machine.load_prg(data)
        except PrgError as error:
            assert str(error), label
            return None
        machine.start(program.start)
        machine.type_keys(keys)
        reason = None
        for _ in range(4):                   # after a return to BASIC, let BASIC read the keys too
            reason = machine.run(cycles)
            check_stop(machine, reason, label)
            if reason is not StopReason.BASIC:
                break
        return reason


def outside_snapshot(folder):
    parent = os.path.dirname(folder)
    return sorted((name, os.path.getsize(os.path.join(parent, name)) if os.path.isfile(os.path.join(parent, name))
                   else -1) for name in os.listdir(parent) if os.path.join(parent, name) != folder)


def fuzz(tmp_path, seed, count, cycles=CYCLES):
    rng = random.Random(seed)
    outcomes = {}
    disk = tmp_path / "disk"
    disk.mkdir()
    (tmp_path / "outside.prg").write_bytes(b"\x00\xc0keep")
    planted = plant_special_files(disk, tmp_path)
    before = outside_snapshot(str(disk))
    for case in range(count):
        generator = GENERATORS[case % len(GENERATORS)]
        data = generator(rng)
        keys = random_keys(rng) if rng.random() < 0.7 else []
        core = CORES[case % len(CORES)]
        label = "seed %d case %d (%s, %s core)" % (seed, case, generator.__name__, core.__name__)
        reason = run_case(data, keys, core, str(disk), label, cycles)
        outcomes.setdefault(reason, 0)
        outcomes[reason] += 1
    assert outside_snapshot(str(disk)) == before
    assert (tmp_path / "outside.prg").read_bytes() == b"\x00\xc0keep"
    assert {name: kind_of(disk / name) for name in planted} == planted
    return outcomes


def plant_special_files(disk, tmp_path):
    """Names file_storm's names reach ("A", "B*"...) that are no regular file: a FIFO, a
    link to /dev/zero, a folder, a dangling link out of the drive.  The drive must neither
    block on them, read them, nor write through or over them.  {name: kind}."""
    if os.name != "posix" or not hasattr(os, "mkfifo"):
        return {}
    os.mkfifo(disk / "a.prg")
    (disk / "ab.prg").symlink_to("/dev/zero")
    (disk / "b.prg").mkdir()
    (disk / "ba.seq").symlink_to(tmp_path / "made-through-a-link")
    return {"a.prg": "fifo", "ab.prg": "link", "b.prg": "folder", "ba.seq": "link"}


def kind_of(path):
    mode = os.lstat(path).st_mode
    return "fifo" if stat.S_ISFIFO(mode) else "link" if stat.S_ISLNK(mode) else "folder" if stat.S_ISDIR(mode) else "file"


# -- the tests ----------------------------------------------------------------------------------------

def test_random_and_hostile_programs_end_with_a_clear_reason_never_a_crash(tmp_path):
    outcomes = fuzz(tmp_path, SEED, 48)
    # the generators really do provoke failures, and some programs really run
    assert outcomes.get(StopReason.ERROR, 0) >= 5
    assert sum(n for reason, n in outcomes.items() if reason is not StopReason.ERROR) >= 5


def test_every_generator_produces_loadable_programs_that_stop_cleanly(tmp_path):
    rng = random.Random(SEED + 1)
    disk = tmp_path / "disk"
    disk.mkdir()
    for generator in GENERATORS:
        for core in CORES:
            data = generator(rng)
            run_case(data, [], core, str(disk), "%s/%s" % (generator.__name__, core.__name__), 60_000)


def test_random_key_streams_in_basic_direct_mode_never_crash(tmp_path):
    rng = random.Random(SEED + 2)
    disk = tmp_path / "disk"
    disk.mkdir()
    (disk / "game.prg").write_bytes(with_stub([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60]))
    for case in range(12):
        with time_limit(CASE_SECONDS):
            machine = C64(sid_seed=case, disk_folder=str(disk), cpu_class=CORES[case % len(CORES)])
            machine.type_keys(random_keys(rng))
            for _ in range(6):
                reason = machine.run(CYCLES)
                check_stop(machine, reason, "keys case %d" % case)
                if reason in (StopReason.IDLE, StopReason.ERROR, StopReason.CYCLES):
                    break


BASIC_FRAGMENTS = [b"LOAD", b"SAVE", b"VERIFY", b"RUN", b"LIST", b"SYS", b"NEW", b"REM", b"END", b"STOP", b"CLR",
                   b"PRINT", b'"', b",", b":", b"-", b"(", b")", b"8", b"1", b"0", b"65535", b"99999999999",
                   b"$", b"*", b"GAME", b" ", b"@0:", b"10", b"?", b"\xc9", b"\xd5", b"\xff", b"A", b"../"]


def basic_lines(rng):
    """Keys for a few direct-mode lines glued together from keywords, numbers and punctuation."""
    keys = []
    for _ in range(rng.randrange(1, 8)):
        line = b"".join(rng.choice(BASIC_FRAGMENTS) for _ in range(rng.randrange(1, 8)))
        keys += list(line[:80]) + [0x0D]
    return keys


def type_into_basic(rng, folder, cases, core_index=0):
    for case in range(cases):
        with time_limit(CASE_SECONDS):
            machine = C64(sid_seed=case, disk_folder=folder, cpu_class=CORES[(case + core_index) % len(CORES)])
            machine.type_keys(basic_lines(rng))
            for _ in range(20):
                reason = machine.run(CYCLES)
                check_stop(machine, reason, "BASIC case %d" % case)
                if reason in (StopReason.IDLE, StopReason.ERROR, StopReason.CYCLES):
                    break


def test_random_basic_lines_never_crash_the_direct_mode(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    (disk / "game.prg").write_bytes(with_stub([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60]))
    type_into_basic(random.Random(SEED + 4), str(disk), 25)
    assert not (tmp_path / "game.prg").exists()          # "../" in a SAVE name never leaves the disk


def test_a_jam_is_reported_with_its_address():
    machine = C64(sid_seed=1)
    machine.run_program(jam(random.Random(1)))
    assert machine.run(100_000) is StopReason.ERROR
    assert "JAM" in machine.error and "$08" in machine.error


def test_a_brk_storm_is_reported_as_brk():
    machine = C64(sid_seed=1)
    machine.run_program(brk_storm(random.Random(1)))
    assert machine.run(100_000) is StopReason.ERROR
    assert "BRK" in machine.error


def test_a_program_that_overwrites_all_memory_stops_with_a_message_or_runs_out_of_cycles(tmp_path):
    for page in (0x00, 0x02, 0xD0):
        machine = C64(sid_seed=1, disk_folder=str(tmp_path))
        code = with_stub([0xA9, 0x00, 0x85, 0xFB, 0xA9, page, 0x85, 0xFC, 0xA0, 0x00, 0xA9, 0x00,
                          0x91, 0xFB, 0xC8, 0xD0, 0xF9, 0xE6, 0xFC, 0xD0, 0xF5, 0x60])
        machine.run_program(code)
        with time_limit(CASE_SECONDS):
            reason = machine.run(2_000_000)
        check_stop(machine, reason, "writer from page $%02X" % page)


# -- through the command line --------------------------------------------------------------------------

def test_the_cli_survives_hostile_programs_and_random_keys(tmp_path):
    rng = random.Random(SEED + 3)
    disk = tmp_path / "disk"
    disk.mkdir()
    for case, generator in enumerate((jam, brk_storm, memory_writer, bank_flips, file_storm, random_bytes)):
        path = tmp_path / ("fuzz%d.prg" % case)
        path.write_bytes(generator(rng))
        keys = "".join(chr(k) if isinstance(k, int) and 0x20 <= k < 0x7B and chr(k) not in "{}" else "{return}"
                       for k in random_keys(rng))
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "ryg.py"), "--headless", "--disk", str(disk),
                               "--max-cycles", "300000", "--keys", keys, str(path)],
                              capture_output=True, text=True, timeout=CASE_SECONDS, cwd=str(tmp_path))
        label = "%s: %s" % (generator.__name__, proc.stderr)
        assert proc.returncode in (0, 1, 2, 3), label              # 3: --max-cycles ended it
        assert "Traceback" not in proc.stderr, label
        assert proc.stderr.count("\n") <= 1, label
        if proc.returncode != 2:
            assert len(proc.stdout.splitlines()) == 25, label


# -- many more cases -----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_many_random_and_hostile_programs(tmp_path, seed):
    fuzz(tmp_path, 1000 + seed, 200, cycles=400_000)


@pytest.mark.slow
def test_many_random_basic_lines(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    (disk / "game.prg").write_bytes(with_stub([0xA9, 0x41, 0x20, 0xD2, 0xFF, 0x60]))
    type_into_basic(random.Random(SEED + 5), str(disk), 600)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["disk"]


# -- saved games through the command line ---------------------------------------------------------------

@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_hostile_saved_games_through_the_cli_end_in_one_of_the_programs_two_answers(tmp_path, capsys, version):
    """ryg3's key O on random, truncated, oversized and off-the-board saved games, as a user of
    `ryg.py --headless` meets them: exit status 0, nothing on stderr, the program's own answer
    (loaded or refused) on the screen, and nothing written on the disk.  (The 6502 side and its
    memory checks: tests/games/test_ryg3_saved_games.py.)"""
    import ryg
    from tests.games.test_ryg3_saved_games import MESSAGES, SAVE_FILES, fuzz_cases
    save_file = SAVE_FILES[version]                    # the default name in the game's language
    disk = tmp_path / "disk"
    disk.mkdir()
    assert ryg.main(["--headless", "--disk", str(disk), "--keys", "D2{return}W{return}", version]) == 0
    good = (disk / save_file).read_bytes()
    capsys.readouterr()
    loaded, refused = MESSAGES[version]
    answers = {loaded: 0, refused: 0}
    for kind, case in fuzz_cases(good, 12, SEED + 11):
        (disk / save_file).write_bytes(case)
        status = ryg.main(["--headless", "--disk", str(disk), "--keys", "OA", version])
        out, err = capsys.readouterr()
        assert status == 0 and err == "", (kind, err)
        answer = [text for text in (loaded, refused) if text in out]
        assert len(answer) == 1, (kind, out)
        answers[answer[0]] += 1
        assert sorted(p.name for p in disk.iterdir()) == [save_file], kind
        assert (disk / save_file).read_bytes() == case, kind
    assert answers[refused] >= 6, answers
