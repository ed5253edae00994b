"""What every part of the BASIC interpreter shares: tokens, the cost model, exceptions.

The token values are BASIC V2's (END $80 .. GO $CB, pi $FF); the costs are estimated
C64 cycles charged to the clock for what the ROM would spend.
"""

from kernal import entries
from kernal.basic import mbf
from kernal.locations import BASIC_MEMSIZ, FACEXP, USRPOK

MEMSIZ = BASIC_MEMSIZ
USRADD = USRPOK + 1
NEWSTT = entries.address_of("BASIC_NEWSTT")
FN_FAC = FACEXP

SLICE = 8000                    # C64 cycles per visit of the NEWSTT trap: under a jiffy (16,421), so no timer interrupt is lost
STACK_BYTES = 200               # room for FOR (18 bytes) and GOSUB (5 bytes) frames
FOR_BYTES, GOSUB_BYTES = 18, 5

# Estimated C64 cycles (what the ROM spends), charged to the clock.
COST_STATEMENT = 400            # NEWSTT, the dispatch, the end-of-statement test
COST_BYTE = 25                  # CHRGET per byte of program text read
COST_ADD, COST_MUL, COST_DIV = 350, 1800, 2500
COST_NEXT = 300                 # FNDFOR's stack search and the loop test
COST_FUNCTION = 12000           # a series function (SIN, LOG, ...)
COST_VARIABLE = 200             # PTRGET
COST_DIGIT = 900                # FIN per digit of a number in the text (MUL10, FLOAT, FADD)
COST_LINE_DIGIT = 60            # LINGET per digit of a line number
COST_LINE_SEARCH = 30           # per line FNDLIN passes
COST_CHAR_OUT = 120             # CHROUT

T_END, T_FOR, T_NEXT, T_DATA, T_INPUTN, T_INPUT, T_DIM, T_READ, T_LET, T_GOTO = range(0x80, 0x8A)
T_RUN, T_IF, T_RESTORE, T_GOSUB, T_RETURN, T_REM, T_STOP, T_ON, T_WAIT, T_LOAD = range(0x8A, 0x94)
T_SAVE, T_VERIFY, T_DEF, T_POKE, T_PRINTN, T_PRINT, T_CONT, T_LIST, T_CLR, T_CMD = range(0x94, 0x9E)
T_SYS, T_OPEN, T_CLOSE, T_GET, T_NEW, T_TAB, T_TO, T_FN, T_SPC, T_THEN = range(0x9E, 0xA8)
T_NOT, T_STEP, T_PLUS, T_MINUS, T_MUL, T_DIV, T_POW, T_AND, T_OR, T_GT, T_EQ, T_LT = range(0xA8, 0xB4)
T_SGN, T_INT, T_ABS, T_USR, T_FRE, T_POS, T_SQR, T_RND, T_LOG, T_EXP, T_COS, T_SIN = range(0xB4, 0xC0)
T_TAN, T_ATN, T_PEEK, T_LEN, T_STR, T_VAL, T_ASC, T_CHR, T_LEFT, T_RIGHT, T_MID, T_GO = range(0xC0, 0xCC)
PI_TOKEN = 0xFF
PI = mbf.const((0x82, 0x49, 0x0F, 0xDA, 0xA2))
TRUE = mbf.from_int(-1)
FALSE = mbf.ZERO

KERNAL_ERRORS = {0: "BREAK", 1: "TOO MANY FILES", 2: "FILE OPEN", 3: "FILE NOT OPEN",
                 4: "FILE NOT FOUND", 5: "DEVICE NOT PRESENT", 6: "NOT INPUT FILE",
                 7: "NOT OUTPUT FILE", 8: "MISSING FILE NAME", 9: "ILLEGAL DEVICE NUMBER"}


class BasicError(Exception):
    """A BASIC error: the name printed between ? and ERROR."""


class Suspend(Exception):
    """Give the machine back: `result` is what the trap returns (WAIT or True)."""

    def __init__(self, result=True, keep_pc=False):
        super().__init__()
        self.result = result
        self.keep_pc = keep_pc


class Finished(Exception):
    """The program (or direct line) is over: END, STOP, BREAK, an error already printed."""

    def __init__(self, message=None):
        super().__init__()
        self.message = message


class Str(bytes):
    """A string value that still sits in C64 memory at `addr` (a literal or a variable's)."""
    addr = None


def literal(data, addr):
    s = Str(data)
    s.addr = addr
    return s


def is_letter(c):
    return 0x41 <= c <= 0x5A


def is_digit(c):
    return 0x30 <= c <= 0x39

