"""The monitor opened at READY. names the KERNAL's and BASIC's routines of the stub ROM
(traps into Python), where it listed a page of JAMs that looked like a crash."""

from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from c64.monitor import Monitor


def basic_at_ready():
    machine = C64(cpu_class=FastCPU)
    machine.start_basic()
    assert machine.run(max_cycles=3_000_000) is StopReason.IDLE       # READY., waiting for a line
    return machine, Monitor(machine)


def test_the_register_line_at_ready_names_basics_main_loop():
    machine, monitor = basic_at_ready()
    text = monitor.execute("r")
    assert "in Python" in text and "BASIC's" in text, text
    stop = monitor.status_line()
    assert "JAM" not in stop and "TRAP" in stop and "in Python" in stop, stop


def test_disassembly_of_the_stub_rom_shows_the_routines_not_jams():
    machine, monitor = basic_at_ready()
    text = monitor.execute("d a474 a7b0")
    assert "JAM" not in text
    lines = text.splitlines()
    assert lines[:2] == ["BASIC_READY:", ".C:A474  02         TRAP       ; BASIC's READY. message, in Python"]
    assert "BASIC_MAIN:" in lines
    assert ".C:A480  02         TRAP       ; BASIC's main loop (reads a line, runs it), in Python" in lines
    assert ".C:A481  02 ...     (stub ROM filler to $A482: no code)" in lines
    assert ".C:A483  02         TRAP       ; BASIC's main loop behind IMAIN ($0302), in Python" in lines
    chrout = monitor.execute("d f1ca f1ca").splitlines()
    assert chrout == ["CHROUT:", ".C:F1CA  02         TRAP       ; the KERNAL's CHROUT, in Python"]
    # the jump table is real code, shown as it is
    assert monitor.execute("d ffd2 ffd4") == ".C:FFD2  6C 26 03   JMP ($0326)"


def test_with_the_rom_switched_out_the_ram_below_is_listed_as_code():
    machine, monitor = basic_at_ready()
    machine.mem.ram[0xA480] = 0xEA                 # a NOP in the RAM under BASIC
    monitor.execute("bank ram")
    assert monitor.execute("d a480 a480") == ".C:A480  EA         NOP"


def test_every_rom_entry_has_a_name_that_says_what_it_is():
    from kernal import entries
    from c64.monitor.rom_names import ENTRY_NOTES
    assert [name for name, _ in entries.ROM_ENTRIES if name not in ENTRY_NOTES] == []
