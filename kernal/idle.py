"""Recognising a program that spins waiting for a key, from the IRQ handler.

A program may wait for the keyboard without calling the KERNAL: a short
read-only loop (loads, compares, logic, branches) that reads the key count
NDX ($C6) or the keyboard matrix ($DC00/$DC01), as cc65's cgetc does.
Nothing but an interrupt can change what such a loop sees, so when the
60 Hz IRQ finds the program in one, with no key in the buffer or held down,
the program waits for the keyboard as surely as in GETIN, and the machine
may skip emulated time to the next interrupt or key (kernal.dispatch's
IRQ_DEFAULT routine asks `KeyWaitLoops.at`).
"""

from kernal.locations import CIA1_PRA, CIA1_PRB, INTERRUPT, NDX
from kernal.stack import stacked, stacked_word

LOOP_SAFE = frozenset(("LDA", "LDX", "LDY", "CMP", "CPX", "CPY", "AND", "ORA", "EOR", "BIT", "NOP",
                       "BEQ", "BNE", "BPL", "BMI", "BCC", "BCS", "BVC", "BVS"))
MODE_LENGTH = {"imp": 1, "acc": 1, "imm": 2, "zpg": 2, "zpx": 2, "zpy": 2, "inx": 2, "iny": 2,
               "rel": 2, "abs": 3, "abx": 3, "aby": 3, "ind": 3}
KEY_ADDRESSES = frozenset((NDX, CIA1_PRA, CIA1_PRB))
LONGEST_WAIT_LOOP = 16          # bytes
# Areas that read as one whole: always RAM ($00/$01 too: RAM mirrors the port), or RAM or ROM.
READ_AREAS = ((0x0000, 0xA000, False), (0xA000, 0xC000, True), (0xC000, 0xD000, False),
              (0xE000, 0x10000, True))
REMEMBERED = 4096               # (pc, code bytes) answers kept, forgotten all at once


def interrupted_pc(memory, sp):
    """Where the IRQ will return to, with the stack as $FF48 left it (Y X A P PC); None if masked."""
    if stacked(memory, sp, 4) & INTERRUPT:
        return None
    return stacked_word(memory, sp, 5)


def in_key_wait_loop(mem, pc, disassemble):
    """True if pc is inside a short read-only loop that polls $C6, $DC00 or $DC01.

    `disassemble[opcode]` is (mnemonic, addressing mode) as py65 names them (the CPU's table)."""
    if pc is None or 0xD000 - 2 * LONGEST_WAIT_LOOP <= pc < 0xE000 + LONGEST_WAIT_LOOP:
        return False                # never read I/O registers (reads can have side effects)
    for start in range(max(0, pc - LONGEST_WAIT_LOOP), pc + 1):
        addr, reads_keys, seen_pc = start, False, False
        while addr <= start + LONGEST_WAIT_LOOP:
            seen_pc = seen_pc or addr == pc
            name, mode = disassemble[mem[addr & 0xFFFF]]
            if name not in LOOP_SAFE or mode not in MODE_LENGTH:
                break
            if mode == "zpg":
                reads_keys = reads_keys or mem[(addr + 1) & 0xFFFF] in KEY_ADDRESSES
            elif mode == "abs":
                operand = mem[(addr + 1) & 0xFFFF] | (mem[(addr + 2) & 0xFFFF] << 8)
                reads_keys = reads_keys or operand in KEY_ADDRESSES
            length = MODE_LENGTH[mode]
            if mode == "rel":
                offset = mem[(addr + 1) & 0xFFFF]
                target = (addr + 2 + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
                if target == start:
                    if seen_pc and reads_keys:
                        return True
                    break
            addr += length
    return False


class KeyWaitLoops:
    """in_key_wait_loop on one memory, remembered for the bytes it looks at when they all
    come from one RAM or ROM area: a busy program is interrupted at the same few places."""

    def __init__(self, mem, disassemble):
        self.mem = mem
        self.disassemble = disassemble
        self.ram = getattr(mem, "ram", mem)
        self.answers = {}

    def at(self, pc):
        """True if pc (None: IRQs were masked) is inside a key-wait loop."""
        if pc is None:
            return False
        mem = self.mem
        first, end = pc - LONGEST_WAIT_LOOP, pc + LONGEST_WAIT_LOOP + 3    # bytes it may read
        for low, high, may_be_rom in READ_AREAS:
            if low <= first and end <= high:
                source = mem.rom if may_be_rom and mem.rom_visible(first) else self.ram
                break
        else:
            return in_key_wait_loop(mem, pc, self.disassemble)      # straddles areas, or near I/O
        window = source[first:end]
        if NDX not in window and CIA1_PRA >> 8 not in window:
            return False        # (no operand there can be $C6, $DC00 or $DC01: most interrupts)
        key = (pc, bytes(window))
        found = self.answers.get(key)
        if found is None:
            if len(self.answers) >= REMEMBERED:
                self.answers.clear()
            found = self.answers[key] = in_key_wait_loop(mem, pc, self.disassemble)
        return found
