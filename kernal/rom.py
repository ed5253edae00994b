"""Our own stub image of the C64 ROM areas (no Commodore ROM is used).

The image holds: the KERNAL jump table $FF81-$FFF3 as the real one is laid
out (JMP target / JMP (vector)), the hardware vectors $FFFA-$FFFF, the few
short code paths a program can observe (IRQ entry $FF48, IRQ/NMI exits,
LOAD/SAVE preambles), a TRAP opcode at every routine implemented in Python,
and a filler everywhere else.  The filler is the trap opcode too, so a jump
into a part of the ROM we do not implement stops with a clear message.
"""

from kernal import entries

# $02 is one of the 6510's JAM opcodes: a real CPU would lock up on it, so no
# working program executes it on purpose.  The CPU treats it as a trap when it
# is fetched from ROM at a known routine address, and as a jam elsewhere.
TRAP_OPCODE = 0x02
FILLER = TRAP_OPCODE

ROM_RANGES = ((0xA000, 0xC000), (0xD000, 0xE000), (0xE000, 0x10000))

_JMP_ABS, _JMP_IND = 0x4C, 0x6C


def _put(image, addr, data):
    image[addr:addr + len(data)] = bytes(data)


def build_rom():
    """Return a 64 KB bytearray with the stub ROM contents at $A000-$FFFF."""
    image = bytearray(0x10000)
    for start, end in ROM_RANGES:
        image[start:end] = bytes([FILLER]) * (end - start)
    # Traps first: the real code written below (LOAD/SAVE preambles at their jump-table
    # targets $F49E/$F5DD) must not be overwritten by a trap opcode.
    for addr in entries.trap_addresses():
        image[addr] = TRAP_OPCODE
    for name, table_addr, target, vector in entries.JUMP_TABLE:
        if vector is None:
            _put(image, table_addr, (_JMP_ABS, target & 0xFF, target >> 8))
        else:
            _put(image, table_addr, (_JMP_IND, vector & 0xFF, vector >> 8))
    # LOAD: STX $C3 / STY $C4 / JMP ($0330)   (the real preamble at $F49E)
    _put(image, 0xF49E, (0x86, 0xC3, 0x84, 0xC4, _JMP_IND, 0x30, 0x03))
    # SAVE: STX $AE / STY $AF / TAX / LDA $00,X / STA $C1 / LDA $01,X / STA $C2 / JMP ($0332)
    _put(image, 0xF5DD, (0x86, 0xAE, 0x84, 0xAF, 0xAA, 0xB5, 0x00, 0x85, 0xC1,
                         0xB5, 0x01, 0x85, 0xC2, _JMP_IND, 0x32, 0x03))
    # IRQ/BRK entry: save registers, tell BRK from IRQ by the B flag on the stack.
    _put(image, entries.IRQ_ENTRY, (0x48, 0x8A, 0x48, 0x98, 0x48, 0xBA, 0xBD, 0x04, 0x01,
                                    0x29, 0x10, 0xF0, 0x03, _JMP_IND, 0x16, 0x03,
                                    _JMP_IND, 0x14, 0x03))
    tail = (0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40)     # PLA TAY PLA TAX PLA RTI
    _put(image, entries.IRQ_EXIT, tail)
    _put(image, entries.NMI_EXIT, tail)
    _put(image, entries.NMI_ENTRY, (0x78, _JMP_IND, 0x18, 0x03))   # SEI / JMP ($0318)
    for vector, target in entries.HARDWARE_VECTORS.items():
        _put(image, vector, (target & 0xFF, target >> 8))
    _put(image, 0xFFF6, b"RRBY")
    return image
