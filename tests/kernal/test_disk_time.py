"""LOAD and SAVE on drive 8 take a stock C64 and 1541's time (kernal.disk_time): about 400 bytes
a second, the commonly published figure, and half a second to find the file (an estimate); the
interrupts run meanwhile, and BASIC says READY. once the time has passed."""

from c64.machine import C64
from kernal.disk_time import transfer_cycles

LOAD, SAVE, SETLFS, SETNAM = 0xFFD5, 0xFFD8, 0xFFBA, 0xFFBD
NAME_AT = 0xC800
PAL_HZ = 985_248


def _machine(folder):
    machine = C64(sid_seed=1, disk_folder=str(folder), vic_dma=False)
    machine.run(2_000_000)
    return machine


def _name(machine, name):
    for i, byte in enumerate(name):
        machine.poke(NAME_AT + i, byte)
    machine.call(SETNAM, a=len(name), x=NAME_AT & 0xFF, y=NAME_AT >> 8)


def test_the_rate_is_400_bytes_a_second_and_half_a_second_to_find_the_file():
    assert transfer_cycles(1002) == round(PAL_HZ * (0.5 + 1002 / 400))      # 2,960,670 cycles, 3.0 s
    assert transfer_cycles(202 * 254) == round(PAL_HZ * (0.5 + 202 * 254 / 400))   # a full disk's file, 2 min
    assert transfer_cycles(1002, pal=False) == round(1_022_727 * (0.5 + 1002 / 400))


def test_a_kernal_load_takes_the_drives_time_with_the_jiffy_clock_running(tmp_path):
    (tmp_path / "data.prg").write_bytes(bytes((0x00, 0xC0)) + bytes(range(256)) * 4)   # 1,026 bytes
    machine = _machine(tmp_path)
    machine.call(SETLFS, a=1, x=8, y=1)
    _name(machine, b"DATA")
    before_jiffies = machine.peek(0xA2) | machine.peek(0xA1) << 8
    before = machine.cycles
    machine.cpu.p &= ~0x04                                       # interrupts on, as a program has them
    machine.call(LOAD, a=0, max_cycles=10_000_000)
    spent = machine.cycles - before
    expected = transfer_cycles(1026)                             # 3.07 s of C64 time
    assert expected <= spent < expected + 250 * spent // 16421     # (the interrupts' own cycles on top)
    assert bytes(machine.mem.ram[0xC000:0xC400]) == bytes(range(256)) * 4
    jiffies = (machine.peek(0xA2) | machine.peek(0xA1) << 8) - before_jiffies
    assert abs(jiffies - spent / 16421) <= 1                     # TI ran on: the ROM's CLI after each byte


def test_a_kernal_save_takes_the_drives_time(tmp_path):
    machine = _machine(tmp_path)
    machine.call(SETLFS, a=1, x=8, y=0)
    _name(machine, b"OUT")
    machine.poke(0xFB, 0x00)
    machine.poke(0xFC, 0xC0)
    before = machine.cycles
    machine.call(SAVE, a=0xFB, x=0x00, y=0xC2, max_cycles=10_000_000)   # $C000-$C1FF: 514 bytes
    assert (tmp_path / "out.prg").stat().st_size == 514
    spent = machine.cycles - before
    assert transfer_cycles(514) <= spent < transfer_cycles(514) + 250 * spent // 16421


def test_basic_load_shows_loading_and_says_ready_once_the_drives_time_has_passed(tmp_path):
    (tmp_path / "prog.prg").write_bytes(bytes((0x01, 0x08, 0, 0, 0)) + b"\x00" * 3995)   # 4,000 bytes: 10.5 s
    machine = _machine(tmp_path)
    machine.type('LOAD"PROG",8\r')
    machine.run(max_cycles=3 * PAL_HZ)                           # three C64 seconds on
    rows = [row.rstrip() for row in machine.screen_lines()]
    assert "SEARCHING FOR PROG" in rows and "LOADING" in rows
    assert rows[rows.index("LOADING") + 1:].count("READY.") == 0     # still loading
    machine.run(max_cycles=8 * PAL_HZ)                           # 11 s in all
    rows = [row.rstrip() for row in machine.screen_lines()]
    assert rows[rows.index("LOADING") + 1] == "READY."
