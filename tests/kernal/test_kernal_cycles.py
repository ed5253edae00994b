"""The C64 cycles each KERNAL path charges: the genuine ROM's, path by path (issue 33).

The figures were measured on the genuine ROMs KERNAL 901227-03 / BASIC 901226-01 running on this
project's cycle-exact CPU, from the routine's ROM address to its RTS (RTI for the interrupt);
here they are constants, and the project's KERNAL in Python must charge exactly them, on the
plain py65 core and on the fast core (its one-step CHROUT, kernal.editor_fastpath, included).
"""

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64

CORES = {"py65": CPU, "fast": FastCPU}
JMP_INDIRECT = 5               # the jump table's JMP ($0326) in front of CHROUT's $F1CA

# (setup printed first, the code measured, the genuine ROM's cycles from $F1CA to the RTS)
CHROUT = {
    "a letter inside a row": (b"\x93HELLO", 0x41, 267),
    "a letter in lower case ($61)": (b"\x93HELLO", 0x61, 269),
    "a shifted letter": (b"\x93HELLO", 0xC1, 249),
    "pi ($FF)": (b"\x93HELLO", 0xFF, 250),
    "a letter with RVS on": (b"\x93\x12", 0x41, 268),
    "a quote": (b"\x93", 0x22, 276),
    "a letter in quote mode": (b"\x93\x22", 0x41, 267),
    "a control code in quote mode": (b"\x93\x22", 0x1C, 256),
    "a letter with an insert pending": (b"\x93AB\x9d\x94", 0x41, 271),
    "a letter at column 39: the row links": (b"\x93" + b"X" * 39, 0x41, 344),
    "a letter at column 79: the next line": (b"\x93" + b"X" * 79, 0x41, 402),
    "RETURN": (b"\x93HELLO", 0x0D, 220),
    "shifted RETURN": (b"\x93HELLO", 0x8D, 234),
    "RETURN on row 24: one scroll pass": (b"\x93" + b"\x0d" * 24, 0x0D, 31681),
    "RETURN under a two-row line: two passes": (b"\x93" + b"L" * 60 + b"\x0d" * 23, 0x0D, 63037),
    "CLR": (b"\x93", 0x93, 37684),
    "HOME": (b"\x93HELLO", 0x13, 438),
    "RVS on": (b"\x93", 0x12, 343),
    "RVS off": (b"\x93", 0x92, 351),
    "red": (b"\x93", 0x1C, 320),
    "yellow": (b"\x93", 0x9E, 271),
    "lower case": (b"\x93", 0x0E, 338),
    "upper case": (b"\x93", 0x8E, 346),
    "case switch locked": (b"\x93", 0x08, 348),
    "case switch unlocked": (b"\x93", 0x09, 350),
    "cursor right": (b"\x93HELLO", 0x1D, 179),
    "cursor left inside a row": (b"\x93HELLO", 0x9D, 184),
    "cursor left at column 0": (b"\x93HELLO\x0d", 0x9D, 256),
    "cursor down": (b"\x93HELLO\x13", 0x11, 279),
    "cursor up": (b"\x93HELLO\x0d\x0d", 0x91, 235),
    "DEL at the home position": (b"\x93", 0x14, 129),
    "DEL at column 0 of a line's second row": (b"\x93" + b"A" * 60 + b"\x13\x11", 0x14, 1721),
    "DEL inside a two-row line": (b"\x93" + b"A" * 60 + b"\x13\x1d\x1d", 0x14, 3167),
    "INST inside a two-row line": (b"\x93" + b"A" * 60 + b"\x13\x1d\x1d", 0x94, 3112),
    "a letter with two inserts pending in a two-row line": (b"\x93" + b"A" * 60 + b"\x13\x1d\x1d\x94\x94", 0x41, 275),
    "a control code in insert mode: its reverse glyph": (b"\x93" + b"A" * 60 + b"\x13\x1d\x1d\x94\x94A", 0x1C, 249),
    "a shifted control code in quote mode": (b"\x93\x22", 0x93, 258),
    "cursor up from a line's second row": (b"\x93" + b"A" * 60 + b"\x13\x11", 0x91, 147),
    "cursor left from column 40 to 39": (b"\x93" + b"A" * 60 + b"\x13\x11", 0x9D, 182),
    "a letter at column 39 on row 23": (b"\x93" + b"\x0d" * 23 + b"C" * 39, 0x44, 353),
    "RETURN on row 24 under a two-row line: one pass": (b"\x93" + b"\x0d" * 24 + b"C" * 79, 0x0D, 31680),
    "CLR with linked lines": (b"\x93" + b"A" * 60 + b"\x0d" + b"B" * 50, 0x93, 37684),
    "DEL in a row of 40": (b"\x93ABCDEFG\x9d\x9d\x9d", 0x14, 1571),
    "INST in a row of 40": (b"\x93ABCDEFG\x9d\x9d\x9d", 0x94, 1516),
}


def _machine(core):
    # The genuine figures are the ROM paths' own cycles: a VIC that takes no bus cycles
    # (C64(vic_dma=False)) keeps the bad lines out of them.
    machine = C64(sid_seed=1, cpu_class=core, vic_dma=False)
    machine.run(2_000_000)
    machine.poke(0xDC0D, 0x7F)           # no timer interrupt in the middle of a call
    return machine


def _charged(machine, address, **registers):
    """The cycles a call of `address` charges, the passes of a scroll (the machine's stall) included."""
    before, stall = machine.cycles, machine.stall_cycles
    machine.call(address, **registers)
    return machine.cycles - before + machine.stall_cycles - stall


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
@pytest.mark.parametrize("case", list(CHROUT), ids=list(CHROUT))
def test_chrout_charges_the_genuine_roms_cycles(case, core):
    setup, code, genuine = CHROUT[case]
    machine = _machine(core)
    for byte in setup:
        machine.call(0xFFD2, a=byte)
    assert _charged(machine, 0xFFD2, a=code) - JMP_INDIRECT == genuine


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
def test_chrin_from_the_screen_charges_the_genuine_roms_cycles(core):
    machine = _machine(core)
    for byte in b'\x93A"b\x12C\x92 ':
        machine.call(0xFFD2, a=byte)
    machine.poke(0x99, 3)                                        # DFLTN: the screen
    machine.cpu.p &= ~1
    machine.call(0xFFF0, x=0, y=0)                               # PLOT (C clear) to the home position
    machine.poke(0xD4, 0)                                        # QTSW: out of the quote printed
    # Each character's bits take the ROM's LOP5 its own way; a quote toggles quote mode.
    assert [_charged(machine, 0xF157) for _ in range(7)] == [127, 135, 128, 128, 127, 129, 126]


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
def test_the_other_routines_charge_the_genuine_roms_cycles(core):
    machine = _machine(core)
    ram = machine.mem.ram
    assert _charged(machine, 0xF13E) == 19                       # GETIN, buffer empty
    ram[0x277], ram[0x278], ram[0xC6] = 0x41, 0x42, 2
    assert _charged(machine, 0xF13E) == 71                       # GETIN, two keys waiting
    assert _charged(machine, 0xF13E) == 54                       # GETIN, one
    ram[0x91] = 0xFF
    assert _charged(machine, 0xF6ED) == 14                       # STOP, not down
    ram[0x91] = 0x7F
    assert _charged(machine, 0xF6ED) == 62                       # STOP, down
    ram[0xA2] = 5
    assert _charged(machine, 0xF69B) == 54                       # UDTIM
    ram[0xA2] = 0xFF
    assert _charged(machine, 0xF69B) == 61                       # UDTIM, the low byte carries
    assert _charged(machine, 0xF6DD) == 30                       # RDTIM
    assert _charged(machine, 0xF6E4, a=1, x=2, y=3) == 19        # SETTIM
    machine.cpu.p |= 1
    assert _charged(machine, 0xE50A) == 15                       # PLOT, read (C set)
    machine.cpu.p &= ~1
    assert _charged(machine, 0xE50A, x=5, y=10) == 110           # PLOT, set
    assert _charged(machine, 0xE505) == 10                       # SCREEN
    assert _charged(machine, 0xFE07) == 23                       # READST
    assert _charged(machine, 0xF333) == 28                       # CLRCHN
    assert _charged(machine, 0xE500) == 10                       # IOBASE
    assert _charged(machine, 0xEA87) == 59                       # SCNKEY, no key down


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
def test_udtim_and_scnkey_with_keys_down_charge_the_genuine_roms_cycles(core):
    machine = _machine(core)
    ram = machine.mem.ram
    keyboard = machine.kernal.keyboard
    ram[0xA2] = 5
    keyboard.hold(63, 9)                                         # RUN/STOP down
    assert _charged(machine, 0xF69B) == 77 and ram[0x91] == 0x7F
    ram[0x91] = 0xFF
    keyboard.hold(15, 9)                                         # and SHIFT: no STOP, $91 left alone
    assert _charged(machine, 0xF69B) == 75 and ram[0x91] == 0xFF
    keyboard.held.clear()
    ram[0xA0], ram[0xA1], ram[0xA2] = 0x4F, 0x1A, 0x00           # 24 hours: the clock rolls over
    assert _charged(machine, 0xF69B) == 62 and ram[0xA0:0xA3] == [0, 0, 0]
    keyboard.press(0x41)                                         # A: found new, then held
    assert [_charged(machine, 0xEA87) for _ in range(2)] == [1463, 1446]


def _interrupts(machine, count):
    """The cycles of `count` 60 Hz interrupts taken one after the other (sequence to RTI)."""
    cpu = machine.cpu
    cycles = []
    for _ in range(count):
        cpu.pc, cpu.p = 0xC000, 0x20
        before = machine.cycles
        machine.kernal.default_irq(cpu)
        cycles.append(machine.cycles - before)
    return cycles


# The interrupt with a key down, jiffy by jiffy (a typed key is held three jiffies): the genuine
# ROM's SCNKEY reads the whole matrix, finds the key new, then held (the repeat keys counting
# their delay down); measured on the genuine ROMs, the cursor off.
KEYS_DOWN = {
    "A": (0x41, [1623, 1606, 1606]),
    "shifted A": (0xC1, [1653, 1636, 1636]),
    "CRSR right (a repeat key)": (0x1D, [1623, 1617, 1617]),
    "space (a repeat key)": (0x20, [1623, 1613, 1613]),
    "RUN/STOP": (0x03, [1650, 1633, 1633]),
}


@pytest.mark.parametrize("case", list(KEYS_DOWN), ids=list(KEYS_DOWN))
def test_the_interrupt_with_a_key_down_takes_the_genuine_roms_cycles(case):
    key, genuine = KEYS_DOWN[case]
    machine = _machine(FastCPU)
    machine.poke(0xCC, 1)                                        # BLNSW: the cursor does not blink
    machine.kernal.keyboard.press(key)
    assert _interrupts(machine, 3) + _interrupts(machine, 1) == genuine + [219]


def test_the_interrupt_with_ctrl_held_or_the_buffer_full_takes_the_genuine_roms_cycles():
    machine = _machine(FastCPU)
    machine.poke(0xCC, 1)
    keyboard = machine.kernal.keyboard
    keyboard.hold_ctrl(2)
    assert _interrupts(machine, 2) == [1622, 1622]               # CTRL alone: no key to put
    machine.poke(0xC6, 10)                                       # the buffer full: the key is not put
    keyboard.press(0x41)
    assert _interrupts(machine, 1) == [1614]


def test_the_interrupts_cursor_blink_and_cassette_switch_take_the_genuine_roms_cycles():
    machine = _machine(FastCPU)
    machine.poke(0xCC, 0)                                        # the cursor blinks
    machine.poke(0xCD, 5)
    assert _interrupts(machine, 1) == [226]                      # its countdown
    machine.poke(0xCD, 1)
    machine.poke(0xCF, 0)
    assert _interrupts(machine, 1) == [332]                      # the cursor turned on
    machine.poke(0xCD, 1)
    assert _interrupts(machine, 1) == [281]                      # and off
    machine.poke(0xCC, 1)
    machine.poke(0x00, 0x3F)                                     # the sense line driven low: a datasette key down
    machine.poke(0x01, 0x27)
    assert _interrupts(machine, 1) == [217] and machine.peek(0x01) & 0x20 == 0   # the motor turned on
    machine.poke(0xC0, 1)                                        # CAS1: the tape routines run the motor
    assert _interrupts(machine, 1) == [210]


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
def test_the_60_hz_interrupt_takes_the_genuine_roms_219_cycles(core):
    """No key down, the cursor off: the interrupt sequence, $FF48's entry, the handler at $EA31
    (161 cycles) and the $EA81 exit -- taken in one call (Kernal.default_irq) or stepped."""
    machine = _machine(core)
    machine.poke(0xCC, 1)                                        # BLNSW: the cursor does not blink
    cpu = machine.cpu
    cpu.pc, cpu.p = 0xC000, 0x20
    before = machine.cycles
    machine.kernal.default_irq(cpu)
    assert machine.cycles - before == 219 and cpu.pc == 0xC000
    cpu.irq(force=True)                                          # the same, instruction by instruction
    before = machine.cycles
    while cpu.pc != 0xC000:
        cpu.step()
    assert machine.cycles - before == 219 - 7                    # (irq() charged the sequence's 7)


# CHRIN from the keyboard with the keys of a line in the buffer (the screen editor's RETURN):
# (printed first, the keys, the genuine ROM's cycles of each call from $F157 to the RTS).  The
# first call takes the keys (LP2 moving the buffer down), echoes them, finds the line's end
# (CLP5 back over the spaces), and returns its first character; each next call one more.
CHRIN_KEYBOARD = {
    "HELLO typed": (b"", b"HELLO\r", [2682, 125, 125, 125, 125, 147]),
    "a quote toggles quote mode": (b"", b'"A"\r', [1919, 125, 133, 147]),
    "after a prompt": (b"? ", b"12\r", [1495, 124, 147]),
    "RETURN alone after a prompt": (b"? ", b"\r", [779]),
    "the cursor moved up two lines": (b"\r\rLINE", b"\x91\x91X\r", [1821, 124, 124, 124, 125, 147]),
    "a line wrapping on row 24: a scroll": (b"\r" * 24 + b"B" * 36, b"12345678\r",
                                           [35665, 124, 124, 124, 124, 124, 124, 124, 147]),
}


@pytest.mark.parametrize("core", list(CORES.values()), ids=list(CORES))
@pytest.mark.parametrize("case", list(CHRIN_KEYBOARD), ids=list(CHRIN_KEYBOARD))
def test_chrin_from_the_keyboard_charges_the_genuine_roms_cycles(case, core):
    printed, keys, genuine = CHRIN_KEYBOARD[case]
    machine = _machine(core)
    machine.kernal.editor.cancel_input()                         # (the boot's READY. left CHRIN waiting)
    for byte in b"\x93" + printed:
        machine.call(0xFFD2, a=byte)
    machine.poke(0x99, 0)                                        # DFLTN: the keyboard
    machine.poke(0xCC, 1)                                        # the cursor off
    machine.poke(0xCF, 0)
    for offset, key in enumerate(keys):
        machine.poke(0x277 + offset, key)
    machine.poke(0xC6, len(keys))
    assert [_charged(machine, 0xF157) for _ in genuine] == genuine
    assert machine.cpu.a == 0x0D
