"""The stub ROM as the monitor shows it: the trap at each KERNAL and BASIC routine named.

Our ROM holds no Commodore code (kernal.rom): each routine the KERNAL or BASIC
implements in Python is a trap opcode ($02, a JAM on a real 6510) at the
routine's ROM address, and the rest is the same byte as filler.  Listed as
plain code that is a page of `JAM`s, which looks like a crash; the monitor names
the trap instead ("BASIC_MAIN: BASIC's main loop, in Python") and shows a run of
filler as one line.
"""

from kernal import entries
from kernal.rom import FILLER, TRAP_OPCODE

# What the routines behind the ROM entries (kernal.entries.ROM_ENTRIES) are.
ENTRY_NOTES = {
    "ILOAD": "the KERNAL's LOAD (behind its vector)",
    "ISAVE": "the KERNAL's SAVE (behind its vector)",
    "IRQ_DEFAULT": "the KERNAL's IRQ handler (clock, cursor, keyboard)",
    "BRK_DEFAULT": "the KERNAL's BRK handler",
    "NMI_DEFAULT": "the KERNAL's NMI handler (RESTORE)",
    "RESET": "the KERNAL's reset",
    "CLEAR_SCREEN": "the screen editor's clear screen",
    "HOME": "the screen editor's cursor home",
    "SET_LINE_POINTERS": "the screen editor's line pointers",
    "KEY_FROM_BUFFER": "the screen editor's key from the buffer",
    "PRINT_TO_SCREEN": "the screen editor's print",
    "SET_COLOUR_POINTER": "the screen editor's colour pointer",
    "BASIC_WARM_START": "BASIC's warm start",
    "BASIC_READY_ENTRY": "BASIC's READY (LDX #$80, JMP ($0300))",
    "SYS_RETURN": "BASIC's return from a SYS",
    "BASIC_READY": "BASIC's READY. message",
    "BASIC_MAIN": "BASIC's main loop (reads a line, runs it)",
    "BASIC_NEWSTT": "BASIC's interpreter loop (the next statement)",
    "BASIC_NMAIN": "BASIC's main loop behind IMAIN ($0302)",
    "BASIC_MAIN_LINE": "BASIC's main loop on the line in BUF",
    "BASIC_INLIN": "BASIC's line input into BUF (INLIN)",
    "BASIC_PRIT4": "LIST's print of a keyword's last letter (PRIT4)",
    "BASIC_PLOOP": "LIST's print of a byte (PLOOP)",
    "BASIC_PLOOP1": "LIST's next byte (PLOOP1)",
    "BASIC_NEVAL_READ": "BASIC's operand evaluation after its CHRGET",
    "FRMNUM": "BASIC's FRMNUM (a numeric expression into FAC)",
    "FRMEVL": "BASIC's FRMEVL (an expression into FAC)",
    "FRESTR": "BASIC's FRESTR (FAC's string: length in A, address in X/Y)",
    "CHKCOM": "BASIC's CHKCOM (a comma, or SYNTAX ERROR)",
    "GETBYT": "BASIC's GETBYT (an expression as a byte in X)",
    "COMBYT": "BASIC's COMBYT (a comma, then GETBYT)",
    "GETADR": "BASIC's GETADR (FAC as an address in $14/$15)",
    "BASIC_NCRNCH": "BASIC's tokeniser behind ICRNCH ($0304)",
    "BASIC_NQPLOP": "LIST's token printer behind IQPLOP ($0306)",
    "BASIC_NGONE": "BASIC's statement dispatch behind IGONE ($0308)",
    "BASIC_NGONE1": "BASIC's statement dispatch after its CHRGET",
    "BASIC_GONE_RETURN": "BASIC's return from a statement to NEWSTT",
    "BASIC_NEVAL": "BASIC's operand evaluation behind IEVAL ($030A)",
    "BASIC_ERROR": "BASIC's error message (the error numbered in X)",
    "FLPINT": "BASIC's float to integer (FAC to A/Y)",
    "GIVAYF": "BASIC's integer to float (A/Y to FAC)",
    "STROUT": "BASIC's string print",
    "LINPRT": "BASIC's number print",
    "CALL_RETURN": "RYG64's return point of Machine.call()",
    "SCROLL": "the screen editor's scroll (SCROL), where the ROM's endless scroll spins",
}
_TRAPS = entries.trap_addresses()
_JUMP_TABLE = {name for name, _, _, _ in entries.JUMP_TABLE}


def in_stub_rom(machine, address, bank="cpu"):
    """True when the CPU reads `address` from our ROM image (not RAM or I/O) and the monitor
    looks through the CPU's eyes."""
    return bank != "ram" and machine.mem.rom_visible(address)


def trap_name(machine, address, bank="cpu"):
    """(routine name, what it is) for a trap the CPU would run at `address`, else None."""
    name = _TRAPS.get(address)
    if name is None or not in_stub_rom(machine, address, bank) or machine.mem[address] != TRAP_OPCODE:
        return None
    if name in _JUMP_TABLE:
        return name, "the KERNAL's %s, in Python" % name
    return name, "%s, in Python" % ENTRY_NOTES.get(name, name)


def filler_end(machine, address, bank="cpu"):
    """The last address of the run of stub-ROM filler that starts at `address` (no trap,
    no code in it), or None when `address` is not filler."""
    if address in _TRAPS or not in_stub_rom(machine, address, bank) or machine.mem[address] != FILLER:
        return None
    end = address
    while (end < 0xFFFF and end + 1 not in _TRAPS and machine.mem[end + 1] == FILLER
           and in_stub_rom(machine, end + 1, bank)):
        end += 1
    return end


def where(machine, address, bank="cpu"):
    """A stop line's text for an address in the stub ROM, or ''."""
    trap = trap_name(machine, address, bank)
    if trap is not None:
        return "%s: %s" % trap
    if filler_end(machine, address, bank) is not None:
        return "the stub ROM's filler: no code here (the KERNAL and BASIC are Python)"
    return ""
