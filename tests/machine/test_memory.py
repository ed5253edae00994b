"""The C64 memory map as the CPU sees it: the processor port $00/$01, the bank table,
RAM under the ROMs, the I/O area and the stub ROM image (docs/c64.md, "Memory banking")."""

import random

import pytest

from c64.machine import C64
from c64.memory import C64Memory
from kernal.rom import build_rom

# $01 & 7 -> what the CPU reads at $A000, $D000 and $E000 (docs/c64.md, "Memory banking",
# spelled out here independently of the table in c64/memory.py).
BANKS = {
    7: ("basic", "io", "kernal"),
    6: ("ram", "io", "kernal"),
    5: ("ram", "io", "ram"),
    4: ("ram", "ram", "ram"),
    3: ("basic", "charrom", "kernal"),
    2: ("ram", "charrom", "kernal"),
    1: ("ram", "charrom", "ram"),
    0: ("ram", "ram", "ram"),
}

RAM_MARK = 0x5A
IO_MARK = 0xC3


class RecordingIO:
    """Stands in for the chips: every read answers IO_MARK, writes are recorded."""

    def __init__(self):
        self.writes = []

    def read(self, addr):
        return IO_MARK

    def write(self, addr, value):
        self.writes.append((addr, value))


def make_memory():
    rom = build_rom()
    io = RecordingIO()
    mem = C64Memory(rom, io)
    for addr in range(0x0002, 0x10000):
        mem.ram[addr] = RAM_MARK
    return mem, rom, io


def source_seen(mem, rom, addr):
    value = mem[addr]
    if value == IO_MARK:
        return "io"
    if value == RAM_MARK:
        return "ram"
    assert value == rom[addr]
    return {0xA: "basic", 0xB: "basic", 0xD: "charrom"}.get(addr >> 12, "kernal")


@pytest.mark.parametrize("config", sorted(BANKS))
def test_each_port_configuration_shows_basic_io_charrom_and_kernal_as_the_pla_does(config):
    mem, rom, io = make_memory()
    # Distinct ROM bytes at the probe points, so ROM cannot be mistaken for RAM.
    for addr in (0xA000, 0xBFFF, 0xD000, 0xDFFF, 0xE000, 0xFFFF):
        rom[addr] = 0x11
    mem[0x00] = 0x2F
    mem[0x01] = 0x30 | config
    basic, d000, kernal = BANKS[config]
    assert source_seen(mem, rom, 0xA000) == basic
    assert source_seen(mem, rom, 0xBFFF) == basic
    assert source_seen(mem, rom, 0xD000) == d000
    assert source_seen(mem, rom, 0xDFFF) == d000
    assert source_seen(mem, rom, 0xE000) == kernal
    assert source_seen(mem, rom, 0xFFFF) == kernal
    # RAM everywhere else, whatever the configuration.
    for addr in (0x0002, 0x0801, 0x9FFF, 0xC000, 0xCFFF):
        assert mem[addr] == RAM_MARK


def test_writes_under_basic_and_kernal_rom_land_in_the_ram_beneath():
    mem, rom, io = make_memory()
    mem[0x01] = 0x37
    mem[0xA000] = 0x42
    mem[0xE123] = 0x43
    assert mem[0xA000] == rom[0xA000] != 0x42        # reads still see the ROM...
    assert mem[0xE123] == rom[0xE123] != 0x43
    assert mem.ram[0xA000] == 0x42 and mem.ram[0xE123] == 0x43   # ...the RAM got the bytes
    mem[0x01] = 0x34
    assert mem[0xA000] == 0x42 and mem[0xE123] == 0x43


def test_switching_basic_out_makes_ram_at_a000_readable_as_ryg17_needs():
    mem, rom, io = make_memory()
    mem[0x01] = 0x36
    mem[0xA000] = 0x99
    assert mem[0xA000] == 0x99
    mem[0x01] = 0x37
    assert mem[0xA000] == rom[0xA000]


def test_writes_to_d000_reach_the_chips_when_io_is_banked_in_and_ram_otherwise():
    mem, rom, io = make_memory()
    mem[0x01] = 0x37
    mem[0xD020] = 0x01
    assert io.writes == [(0xD020, 0x01)]
    assert mem.ram[0xD020] == RAM_MARK
    mem[0x01] = 0x33                        # character ROM: writes fall through to RAM
    mem[0xD020] = 0x02
    assert io.writes == [(0xD020, 0x01)]
    assert mem.ram[0xD020] == 0x02
    assert mem[0xD020] == rom[0xD020]
    mem[0x01] = 0x34
    assert mem[0xD020] == 0x02


def test_the_port_reads_37_and_the_direction_register_2f_after_boot():
    m = C64()
    assert m.peek(0x00) == 0x2F
    assert m.peek(0x01) == 0x37


def test_port_bits_switched_to_input_float_high_for_the_banking():
    mem, rom, io = make_memory()
    mem[0x01] = 0x30                         # all RAM while the bank bits are outputs
    assert mem[0xE000] == RAM_MARK
    mem[0x00] = 0x28                         # bits 0-2 become inputs: they read as 1
    assert mem[0xE000] == rom[0xE000]
    assert mem[0xD020] == IO_MARK
    assert mem[0x01] & 0x07 == 0x07


def port_model(writes):
    """What $01 reads after each write of `writes` ((address, value) pairs), by the 6510
    port's pins on a C64 (docs/c64.md, "The processor port"): an output bit reads its
    latch; an input reads 1 on bits 0-2 and 4 (pull-ups; bit 4 is the cassette sense, no
    datasette key down), 0 on bit 5 (the motor line's pull-down), and on bits 3, 6 and 7
    the level the pin was last driven to (no time passes here for it to fade)."""
    ddr, data, last = 0x2F, 0x37, 0x00
    for addr, value in writes:
        if addr:
            data = value
        else:
            ddr = value
        last = (last & ~ddr) | (data & ddr)
        read = 0
        for bit in range(8):
            mask = 1 << bit
            if ddr & mask:
                read |= data & mask
            elif mask in (0x01, 0x02, 0x04, 0x10):
                read |= mask
            elif mask in (0x08, 0x40, 0x80):
                read |= last & mask
        yield ddr, read


def test_the_port_reads_back_each_bit_as_the_6510s_pins_on_a_c64_do():
    rng = random.Random(6510)
    writes = [(rng.randrange(2), rng.randrange(256)) for _ in range(3000)]
    writes[:4] = [(0, 0xFF), (1, 0xFF), (0, 0x00), (1, 0x00)]    # the case the suite's cpuport reports
    mem, rom, io = make_memory()
    for (addr, value), (ddr, read) in zip(writes, port_model(writes)):
        mem[addr] = value
        assert (mem[0x00], mem[0x01]) == (ddr, read), "after $%02X -> $%02X" % (value, addr)
        assert mem.ram[0x01] == read                                 # (what translated code reads)
    mem, rom, io = make_memory()
    for addr, value in writes[:3]:
        mem[addr] = value
    assert mem[0x01] == 0xDF      # all driven 1, then all inputs: 7, 6, 3 held, 5 pulled down


def test_the_banking_follows_the_pins_not_the_latch():
    mem, rom, io = make_memory()
    mem[0x00] = 0xFF
    mem[0x01] = 0x00                         # all RAM
    assert mem[0xE000] == RAM_MARK
    mem[0x00] = 0xFE                         # LORAM an input: pulled up, config 1: char ROM only
    assert mem[0xD000] == rom[0xD000] and mem[0xE000] == RAM_MARK


def test_the_floating_bits_fade_to_0_about_350_ms_after_they_were_last_driven():
    m = C64()
    for addr, value in ((0x0800, 0x4C), (0x0801, 0x00), (0x0802, 0x08)):    # JMP $0800
        m.poke(addr, value)
    m.start(0x0800)
    m.poke(0x00, 0xFF)
    m.poke(0x01, 0xFF)                       # bits 3, 6, 7 driven high
    m.poke(0x00, 0x27)                       # 3, 4, 6, 7 inputs now
    assert m.peek(0x01) == 0xFF              # 3, 6, 7 hold their charge, 4 is pulled up
    m.run(max_cycles=300_000)
    assert m.peek(0x01) == 0xFF
    m.run(max_cycles=100_000)
    assert m.peek(0x01) == 0x37              # gone: they read 0
    m.poke(0x00, 0x2F)                       # bit 3 an output again: the latch's level, which the
    assert m.peek(0x01) == 0x37              # KERNAL's IRQ rewrote with what it read (KEY4's motor
    m.poke(0x01, 0x3F)                       # bit, ORA #$20 / STA $01: the faded 0), as on the genuine ROM
    assert m.peek(0x01) == 0x3F              # the latch's 1 driven


def test_colour_ram_is_four_bits_wide():
    m = C64()
    m.poke(0xD800, 0xFF)
    m.poke(0xDBE7, 0x3C)
    assert m.peek(0xD800) & 0x0F == 0x0F
    assert m.peek(0xDBE7) & 0x0F == 0x0C
    assert m.mem.io.colour_ram[0] == 0x0F
    assert m.mem.io.colour_ram[0x3E7] == 0x0C


def test_vic_sid_and_cia1_registers_repeat_through_their_io_pages():
    m = C64()
    m.poke(0xD020, 0x02)
    assert m.peek(0xD060) & 0x0F == 0x02      # VIC every $40
    assert m.peek(0xD3E0) & 0x0F == 0x02
    m.poke(0xD432, 0x80)                      # SID every $20: $D432 = $D412 (noise on voice 3)
    assert m.sid.regs[0x12] == 0x80
    m.poke(0xDC13, 0x00)                      # CIA1 every $10: $DC13 = $DC03 (DDR B)
    assert m.peek(0xDC03) == 0x00
    m.poke(0xDC13, 0x0F)
    assert m.peek(0xDC03) == 0x0F


def test_peek_and_poke_go_through_the_banking():
    m = C64()
    m.poke(0xE000, 0x77)
    assert m.peek(0xE000) != 0x77
    assert m.mem.ram[0xE000] == 0x77
    m.poke(0x01, 0x35)
    assert m.peek(0xE000) == 0x77


# -- the stub ROM image ---------------------------------------------------------------

def _word(image, addr):
    return image[addr] | (image[addr + 1] << 8)


@pytest.mark.parametrize("entry, vector", [
    (0xFFC0, 0x031A), (0xFFC3, 0x031C), (0xFFC6, 0x031E), (0xFFC9, 0x0320), (0xFFCC, 0x0322),
    (0xFFCF, 0x0324), (0xFFD2, 0x0326), (0xFFE1, 0x0328), (0xFFE4, 0x032A), (0xFFE7, 0x032C),
])
def test_vectored_jump_table_entries_jump_through_their_ram_vector(entry, vector):
    rom = build_rom()
    assert rom[entry] == 0x6C                  # JMP (vector)
    assert _word(rom, entry + 1) == vector


@pytest.mark.parametrize("entry, target", [
    (0xFF81, 0xFF5B), (0xFF84, 0xFDA3), (0xFF87, 0xFD50), (0xFF8A, 0xFD15), (0xFF8D, 0xFD1A),
    (0xFF90, 0xFE18), (0xFF93, 0xEDB9), (0xFF96, 0xEDC7), (0xFF99, 0xFE25), (0xFF9C, 0xFE34),
    (0xFF9F, 0xEA87), (0xFFA2, 0xFE21), (0xFFA5, 0xEE13), (0xFFA8, 0xEDDD), (0xFFAB, 0xEDEF),
    (0xFFAE, 0xEDFE), (0xFFB1, 0xED0C), (0xFFB4, 0xED09), (0xFFB7, 0xFE07), (0xFFBA, 0xFE00),
    (0xFFBD, 0xFDF9), (0xFFD5, 0xF49E), (0xFFD8, 0xF5DD), (0xFFDB, 0xF6E4), (0xFFDE, 0xF6DD),
    (0xFFEA, 0xF69B), (0xFFED, 0xE505), (0xFFF0, 0xE50A), (0xFFF3, 0xE500),
])
def test_direct_jump_table_entries_jump_to_the_901227_03_targets(entry, target):
    rom = build_rom()
    assert rom[entry] == 0x4C                  # JMP target
    assert _word(rom, entry + 1) == target


def test_hardware_vectors_point_at_the_kernal_nmi_reset_and_irq_handlers():
    rom = build_rom()
    assert _word(rom, 0xFFFA) == 0xFE43
    assert _word(rom, 0xFFFC) == 0xFCE2
    assert _word(rom, 0xFFFE) == 0xFF48
    assert bytes(rom[0xFFF6:0xFFFA]) == b"RRBY"


def test_the_irq_entry_and_exit_hold_the_real_6502_code():
    rom = build_rom()
    # PHA TXA PHA TYA PHA TSX LDA $0104,X AND #$10 BEQ +3 JMP ($0316) JMP ($0314)
    assert bytes(rom[0xFF48:0xFF5B]) == bytes.fromhex("488a489848babd04012910f0036c16036c1403")
    # PLA TAY PLA TAX PLA RTI
    assert bytes(rom[0xEA81:0xEA87]) == bytes.fromhex("68a868aa6840")
    assert bytes(rom[0xFEBC:0xFEC2]) == bytes.fromhex("68a868aa6840")


def test_rom_areas_without_a_routine_hold_a_jam_opcode_filler():
    rom = build_rom()
    for addr in (0xA00C, 0xB000, 0xC000 - 1, 0xD000, 0xE000, 0xF000):
        assert rom[addr] == 0x02               # JAM: a jump there stops, it does not run on


def test_the_load_and_save_entries_run_the_real_preambles_through_their_vectors():
    rom = build_rom()
    # LOAD $F49E: STX $C3 / STY $C4 / JMP ($0330)
    assert bytes(rom[0xF49E:0xF4A5]) == bytes.fromhex("86c384c46c3003")
    # SAVE $F5DD: STX $AE / STY $AF / TAX / LDA $00,X / STA $C1 / LDA $01,X / STA $C2 / JMP ($0332)
    assert bytes(rom[0xF5DD:0xF5ED]) == bytes.fromhex("86ae84afaab50085c1b50185c26c3203")
