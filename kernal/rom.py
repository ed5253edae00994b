"""Our own stub image of the C64 ROM areas (no Commodore ROM is used).

The image holds: the KERNAL jump table $FF81-$FFF3 as the real one is laid
out (JMP target / JMP (vector)), the hardware vectors $FFFA-$FFFF, the BASIC
ROM's start vectors and name at $A000-$A00B, the few
short code paths a program can observe (IRQ entry $FF48, IRQ/NMI exits,
LOAD/SAVE preambles), a TRAP opcode at every routine implemented in Python,
and a filler everywhere else.  The filler is the trap opcode too, so a jump
into a part of the ROM we do not implement stops with a clear message.
"""

from kernal import entries
from kernal.locations import CBINV, CINV, EAL, ILOAD, ISAVE, MEMUSS, NMINV, STACK, STAL

# $02 is one of the 6510's JAM opcodes: a real CPU would lock up on it, so no
# working program executes it on purpose.  The CPU treats it as a trap when it
# is fetched from ROM at a known routine address, and as a jam elsewhere.
TRAP_OPCODE = 0x02
FILLER = TRAP_OPCODE

ROM_RANGES = ((0xA000, 0xC000), (0xD000, 0xE000), (0xE000, 0x10000))

_JMP_ABS, _JMP_IND = 0x4C, 0x6C
_STX_ZP, _STY_ZP, _STA_ZP, _LDA_ZP_X, _LDA_ABS_X, _TAX = 0x86, 0x84, 0x85, 0xB5, 0xBD, 0xAA


def _word(addr):
    return (addr & 0xFF, addr >> 8)


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
            _put(image, table_addr, (_JMP_ABS, *_word(target)))
        else:
            _put(image, table_addr, (_JMP_IND, *_word(vector)))
    # LOAD: STX $C3 / STY $C4 / JMP ($0330)   (the real preamble at $F49E)
    _put(image, entries.address_of("LOAD"), (_STX_ZP, MEMUSS, _STY_ZP, MEMUSS + 1, _JMP_IND, *_word(ILOAD)))
    # SAVE: STX $AE / STY $AF / TAX / LDA $00,X / STA $C1 / LDA $01,X / STA $C2 / JMP ($0332)
    _put(image, entries.address_of("SAVE"), (_STX_ZP, EAL, _STY_ZP, EAL + 1, _TAX, _LDA_ZP_X, 0x00,
                                             _STA_ZP, STAL, _LDA_ZP_X, 0x01, _STA_ZP, STAL + 1,
                                             _JMP_IND, *_word(ISAVE)))
    # IRQ/BRK entry: save registers, tell BRK from IRQ by the B flag on the stack.
    # PHA / TXA / PHA / TYA / PHA / TSX / LDA $0104,X / AND #$10 / BEQ +3 / JMP ($0316) / JMP ($0314)
    _put(image, entries.IRQ_ENTRY, (0x48, 0x8A, 0x48, 0x98, 0x48, 0xBA, _LDA_ABS_X, *_word(STACK + 4),
                                    0x29, 0x10, 0xF0, 0x03, _JMP_IND, *_word(CBINV),
                                    _JMP_IND, *_word(CINV)))
    tail = (0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40)     # PLA TAY PLA TAX PLA RTI
    _put(image, entries.IRQ_EXIT, tail)
    _put(image, entries.NMI_EXIT, tail)
    _put(image, entries.NMI_ENTRY, (0x78, _JMP_IND, *_word(NMINV)))   # SEI / JMP ($0318)
    for offset, (_, _, default) in enumerate(entries.RAM_VECTORS):      # RESTOR's table
        _put(image, entries.RAM_VECTOR_TABLE + 2 * offset, _word(default))
    for vector, target in entries.HARDWARE_VECTORS.items():
        _put(image, vector, _word(target))
    _put(image, 0xFFF6, b"RRBY")
    _put(image, entries.BASIC_ROM_HEADER, [byte for vector in entries.BASIC_ROM_VECTORS for byte in _word(vector)]
         + list(b"CBMBASIC"))
    return image
