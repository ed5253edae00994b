"""Where the KERNAL's routines live: the jump table, the RAM vectors and the ROM entry points.

Addresses are those of the C64 KERNAL 901227-03 (its source's `vectors.s`
and the RESTOR table at $FD30; docs/c64.md, "KERNAL entry points").  Our stub ROM puts a
trap opcode at each ROM *target*, so a program that hooks a RAM vector
($0314-$0333) is honoured exactly as on the real machine.
"""

from kernal.locations import (CBINV, CINV, IBASIN, IBSOUT, ICHKIN, ICKOUT, ICLALL, ICLOSE, ICLRCH,
                              IGETIN, ILOAD, IOPEN, ISAVE, ISTOP, NMINV, USRCMD)

# Jump table: (name, jump-table address, ROM target, RAM vector or None).
# With a vector the table entry is JMP (vector) and the vector's default is
# the ROM target; otherwise it is JMP target.
JUMP_TABLE = (
    ("CINT", 0xFF81, 0xFF5B, None),
    ("IOINIT", 0xFF84, 0xFDA3, None),
    ("RAMTAS", 0xFF87, 0xFD50, None),
    ("RESTOR", 0xFF8A, 0xFD15, None),
    ("VECTOR", 0xFF8D, 0xFD1A, None),
    ("SETMSG", 0xFF90, 0xFE18, None),
    ("SECOND", 0xFF93, 0xEDB9, None),
    ("TKSA", 0xFF96, 0xEDC7, None),
    ("MEMTOP", 0xFF99, 0xFE25, None),
    ("MEMBOT", 0xFF9C, 0xFE34, None),
    ("SCNKEY", 0xFF9F, 0xEA87, None),
    ("SETTMO", 0xFFA2, 0xFE21, None),
    ("ACPTR", 0xFFA5, 0xEE13, None),
    ("CIOUT", 0xFFA8, 0xEDDD, None),
    ("UNTLK", 0xFFAB, 0xEDEF, None),
    ("UNLSN", 0xFFAE, 0xEDFE, None),
    ("LISTEN", 0xFFB1, 0xED0C, None),
    ("TALK", 0xFFB4, 0xED09, None),
    ("READST", 0xFFB7, 0xFE07, None),
    ("SETLFS", 0xFFBA, 0xFE00, None),
    ("SETNAM", 0xFFBD, 0xFDF9, None),
    ("OPEN", 0xFFC0, 0xF34A, IOPEN),
    ("CLOSE", 0xFFC3, 0xF291, ICLOSE),
    ("CHKIN", 0xFFC6, 0xF20E, ICHKIN),
    ("CHKOUT", 0xFFC9, 0xF250, ICKOUT),
    ("CLRCHN", 0xFFCC, 0xF333, ICLRCH),
    ("CHRIN", 0xFFCF, 0xF157, IBASIN),
    ("CHROUT", 0xFFD2, 0xF1CA, IBSOUT),
    ("LOAD", 0xFFD5, 0xF49E, None),     # stores X/Y, then JMP ($0330) -> $F4A5
    ("SAVE", 0xFFD8, 0xF5DD, None),     # copies the pointer, then JMP ($0332) -> $F5ED
    ("SETTIM", 0xFFDB, 0xF6E4, None),
    ("RDTIM", 0xFFDE, 0xF6DD, None),
    ("STOP", 0xFFE1, 0xF6ED, ISTOP),
    ("GETIN", 0xFFE4, 0xF13E, IGETIN),
    ("CLALL", 0xFFE7, 0xF32F, ICLALL),
    ("UDTIM", 0xFFEA, 0xF69B, None),
    ("SCREEN", 0xFFED, 0xE505, None),
    ("PLOT", 0xFFF0, 0xE50A, None),
    ("IOBASE", 0xFFF3, 0xE500, None),
)

# ROM routines that are trapped although no jump-table entry leads to them:
# the load/save bodies behind their vectors, the IRQ/BRK/NMI/RESET handlers,
# and the entry points real tool chains call directly (cc65, BASIC programs).
ROM_ENTRIES = (
    ("ILOAD", 0xF4A5),
    ("ISAVE", 0xF5ED),
    ("IRQ_DEFAULT", 0xEA31),      # UDTIM, cursor blink, SCNKEY, then $EA81
    ("BRK_DEFAULT", 0xFE66),
    ("NMI_DEFAULT", 0xFE47),
    ("RESET", 0xFCE2),
    ("CLEAR_SCREEN", 0xE544),     # cc65 CLRSCR
    ("HOME", 0xE566),
    ("SET_LINE_POINTERS", 0xE56C),
    ("KEY_FROM_BUFFER", 0xE5B4),  # cc65 KBDREAD
    ("PRINT_TO_SCREEN", 0xE716),
    ("SCROLL", 0xE8EA),           # SCROL; where a CPU spins in the ROM's endless scroll (kernal.errors.EndlessLoop)
    ("SET_COLOUR_POINTER", 0xEA24),  # cc65 UPDCRAMPTR
    ("BASIC_WARM_START", 0xE37B),
    ("BASIC_READY_ENTRY", 0xE386),
    ("SYS_RETURN", 0xE147),       # a SYS'd program's RTS lands here
    ("BASIC_ERROR", 0xE38B),      # where IERROR ($0300) points: the error numbered in X
    ("BASIC_READY", 0xA474),      # prints READY. and enters direct mode
    ("BASIC_MAIN", 0xA480),       # direct mode: read a line, run the command
    ("BASIC_NEWSTT", 0xA7AE),     # the interpreter: run the next statements
    # Where code hooked into BASIC's vectors goes on, or a SYS'd routine goes back
    # (kernal.basic.vectors):
    ("BASIC_NMAIN", 0xA483),      # IMAIN's default: read a line, run or store it
    ("BASIC_MAIN_LINE", 0xA486),  # MAIN after INLIN: the line in BUF (X/Y = $01FF) run or stored
    ("BASIC_INLIN", 0xA560),      # INLIN: a line through CHRIN into BUF, X/Y = $01FF
    ("BASIC_NCRNCH", 0xA57C),     # ICRNCH's default: tokenise BUF from TXTPTR
    ("BASIC_PRIT4", 0xA6EF),      # LIST: print A AND $7F, on with the byte after LSTPNT's
    ("BASIC_PLOOP", 0xA6F3),      # LIST: print A, on with the byte after Y's
    ("BASIC_PLOOP1", 0xA700),     # LIST: on with the byte after Y's
    ("BASIC_NQPLOP", 0xA71A),     # IQPLOP's default: LIST the byte in A
    ("BASIC_NGONE", 0xA7E4),      # IGONE's default: CHRGET, then the statement
    ("BASIC_NGONE1", 0xA7E7),     # after NGONE's CHRGET: the statement whose first byte is A
    ("BASIC_GONE_RETURN", 0xA7EA),  # where a statement's RTS lands (JSR GONE3): on to NEWSTT
    ("BASIC_NEVAL", 0xAE86),      # IEVAL's default: the operand after TXTPTR into FAC
    ("BASIC_NEVAL_READ", 0xAE8D),  # after NEVAL's CHRGET: the operand whose first byte TXTPTR is on
    # BASIC's routines a wedge calls to read its arguments (kernal.basic.vectors):
    ("FRMNUM", 0xAD8A),           # a numeric expression at TXTPTR into FAC
    ("FRMEVL", 0xAD9E),           # any expression at TXTPTR into FAC (a string: its descriptor)
    ("FRESTR", 0xB6A3),           # FRMEVL's string: A its length, X/Y its address
    ("CHKCOM", 0xAEFD),           # a comma at TXTPTR, else ?SYNTAX ERROR; then CHRGET
    ("GETBYT", 0xB79E),           # FRMNUM, then FAC as a byte in X (0-255)
    ("COMBYT", 0xB7F1),           # CHKCOM, then GETBYT
    ("GETADR", 0xB7F7),           # FAC as an address (0-65535) in LINNUM $14/$15, A/Y = high/low
    ("FLPINT", 0xB1AA),           # FAC -> integer in A/Y: where the vector at $0003 points
    ("GIVAYF", 0xB391),           # integer in A/Y -> FAC: where the vector at $0005 points
    ("STROUT", 0xAB1E),
    ("LINPRT", 0xBDCD),
    ("CALL_RETURN", 0xFF00),      # not a C64 routine: where Machine.call() returns to
)

# Real 6502 code kept in the stub ROM, byte for byte as the KERNAL has it
# (the IRQ path: docs/c64.md, "Interrupts").
IRQ_ENTRY = 0xFF48       # PHA TXA PHA TYA PHA TSX LDA $0104,X AND #$10 BEQ +3 JMP ($0316) JMP ($0314)
IRQ_EXIT = 0xEA81        # PLA TAY PLA TAX PLA RTI
NMI_EXIT = 0xFEBC        # the same tail
NMI_ENTRY = 0xFE43       # SEI JMP ($0318)
SYS_RETURN_PUSH = 0xE146  # what BASIC's SYS pushes (RTS adds one -> $E147)



def address_of(name):
    """The ROM address of the routine `name` (a jump-table name's ROM target, or a ROM entry)."""
    for routine, _, target, _ in JUMP_TABLE:
        if routine == name:
            return target
    return dict(ROM_ENTRIES)[name]


def trap_addresses():
    """Every ROM address that holds a trap, with its routine name."""
    names = {target: name for name, _, target, _ in JUMP_TABLE}
    names.update({addr: name for name, addr in ROM_ENTRIES})
    return names


# The RAM vectors $0314-$0333 in order, with the routine RESTOR points each at ($FD30 table).
RAM_VECTORS = tuple((name, vector, address_of(routine)) for name, vector, routine in (
    ("CINV", CINV, "IRQ_DEFAULT"),
    ("CBINV", CBINV, "BRK_DEFAULT"),
    ("NMINV", NMINV, "NMI_DEFAULT"),
    ("IOPEN", IOPEN, "OPEN"),
    ("ICLOSE", ICLOSE, "CLOSE"),
    ("ICHKIN", ICHKIN, "CHKIN"),
    ("ICKOUT", ICKOUT, "CHKOUT"),
    ("ICLRCH", ICLRCH, "CLRCHN"),
    ("IBASIN", IBASIN, "CHRIN"),
    ("IBSOUT", IBSOUT, "CHROUT"),
    ("ISTOP", ISTOP, "STOP"),
    ("IGETIN", IGETIN, "GETIN"),
    ("ICLALL", ICLALL, "CLALL"),
    ("USRCMD", USRCMD, "BRK_DEFAULT"),
    ("ILOAD", ILOAD, "ILOAD"),
    ("ISAVE", ISAVE, "ISAVE"),
))

# BASIC's vectors $0300-$030B as its INITV sets them: the ROM's addresses, each a trap.
# BASIC (Python) calls through a vector that holds another address, as the ROM would
# (kernal.basic.vectors; docs/c64.md).
BASIC_VECTORS = (0xE38B, 0xA483, 0xA57C, 0xA71A, 0xA7E4, 0xAE86)

RAM_VECTOR_TABLE = 0xFD30   # the defaults RESTOR copies to $0314-$0333, in the stub ROM too

HARDWARE_VECTORS = {0xFFFA: NMI_ENTRY, 0xFFFC: address_of("RESET"), 0xFFFE: IRQ_ENTRY}
# The BASIC ROM's first bytes: its cold and warm start vectors, then "CBMBASIC".  Machine
# code ends with JMP ($A002) to give BASIC back (the warm start: READY., program kept);
# the cold start $E394 is no routine here, so JMP ($A000) stops with the ROM's filler.
BASIC_ROM_HEADER = 0xA000
BASIC_COLD_START = 0xE394
BASIC_ROM_VECTORS = (BASIC_COLD_START, address_of("BASIC_WARM_START"))
