"""What every part of the BASIC interpreter shares: tokens, the stack model, exceptions.

The token values are BASIC V2's (END $80 .. GO $CB, pi $FF); the cycles each part of the
ROM spends are in kernal.basic.cycles.
"""

from kernal import entries
from kernal.basic import mbf
from kernal.errors import ERR_BREAK, ERR_ILLEGAL_DEVICE, ERR_TOO_MANY_FILES, ERROR_NAMES
from kernal.locations import BASIC_MEMSIZ, FACEXP, USRPOK

MEMSIZ = BASIC_MEMSIZ
USRADD = USRPOK + 1
NEWSTT = entries.address_of("BASIC_NEWSTT")
BASIC_READY = entries.address_of("BASIC_READY")       # $A474: READY. and direct mode
FN_FAC = FACEXP

SLICE = 20000                   # C64 cycles per visit of the NEWSTT trap at most (it stops at the next interrupt due)
STALL_COST = 12000              # a statement that costs more (more than most of a jiffy) lets its time pass with interrupts (C64.stall)
# The 6502 stack as the ROM uses it.  A running program's NEWSTT has SP at $FA (STKINI), a
# direct line's at $FB.  FOR pushes 18 bytes; GOSUB 5 on top of JSR GONE3's return address,
# which RETURN's RTS uses: 7.  GETSTK ($A3FB) wants SP >= 2*A+62: FOR asks A=9 with SP two
# below its statement's level, GOSUB A=3 with SP four below, and FRMEVL A=1 for each
# expression and each operand an operator waits on (STACK_FLOOR).  What each part of an
# expression holds on the stack (measured against the ROM's GETSTK calls) is below.
STACK_TOP = 0xFA
FOR_BYTES, GOSUB_BYTES = 18, 7
FOR_LOWEST, GOSUB_LOWEST = 2 * 9 + 62 + 2, 2 * 3 + 62 + 4    # SP at the statement, at least
STACK_FLOOR = 2 * 1 + 62        # SP at FRMEVL's GETSTK, at least
SP_LET = 9                      # FRMEVL of LET (and most statements) below the statement's SP
SP_PRINT = 7                    # of PRINT and IF
SP_BYTE_ARGS = 11               # of POKE, WAIT, ON and FOR's start value (GETBYT, FRMNUM)
SP_OPERAND = 12                 # an operator's left operand and precedence, pushed (also NOT, unary -)
SP_PAREN = 5                    # ( through EVAL and PARCHK
SP_CONCAT = 2                   # + of strings: CAT reads its right operand with EVAL
SP_FUNCTION = 8                 # a function's argument (SIN, ASC, CHR$, ...)
SP_STRING_ARG = 6               # each argument of LEFT$, RIGHT$, MID$ (the string pushed first)
SP_SUBSCRIPT = 14               # an array's first subscript, 2 more for each further one
SP_TARGET_SUBSCRIPT = 7         # an assigned array element's subscript, below its statement's FRMEVL
SP_FN_ARG, SP_FN_BODY = 9, 16   # FN's argument, then its definition's expression

# The C64 cycles charged for what the ROM spends: kernal.basic.cycles.

T_END, T_FOR, T_NEXT, T_DATA, T_INPUTN, T_INPUT, T_DIM, T_READ, T_LET, T_GOTO = range(0x80, 0x8A)
T_RUN, T_IF, T_RESTORE, T_GOSUB, T_RETURN, T_REM, T_STOP, T_ON, T_WAIT, T_LOAD = range(0x8A, 0x94)
T_SAVE, T_VERIFY, T_DEF, T_POKE, T_PRINTN, T_PRINT, T_CONT, T_LIST, T_CLR, T_CMD = range(0x94, 0x9E)
T_SYS, T_OPEN, T_CLOSE, T_GET, T_NEW, T_TAB, T_TO, T_FN, T_SPC, T_THEN = range(0x9E, 0xA8)
T_NOT, T_STEP, T_PLUS, T_MINUS, T_MUL, T_DIV, T_POW, T_AND, T_OR, T_GT, T_EQ, T_LT = range(0xA8, 0xB4)
T_SGN, T_INT, T_ABS, T_USR, T_FRE, T_POS, T_SQR, T_RND, T_LOG, T_EXP, T_COS, T_SIN = range(0xB4, 0xC0)
T_TAN, T_ATN, T_PEEK, T_LEN, T_STR, T_VAL, T_ASC, T_CHR, T_LEFT, T_RIGHT, T_MID, T_GO = range(0xC0, 0xCC)
PI_TOKEN = 0xFF
PI = mbf.const((0x82, 0x49, 0x0F, 0xDA, 0xA1))   # the ROM's pi ($AEA8): one unit below the nearest, 3.14159265
TRUE = mbf.from_int(-1)
FALSE = mbf.ZERO


# BASIC's errors by number, as machine code raises them (LDX #n / JMP ($0300)): 1-9 are the
# KERNAL's error numbers with its names (kernal.errors), 10-30 BASIC's own, BREAK last.
BASIC_ERRORS = ((None,) + tuple(ERROR_NAMES[number] for number in range(ERR_TOO_MANY_FILES, ERR_ILLEGAL_DEVICE + 1))
                + ("NEXT WITHOUT FOR", "SYNTAX", "RETURN WITHOUT GOSUB", "OUT OF DATA", "ILLEGAL QUANTITY",
                   "OVERFLOW", "OUT OF MEMORY", "UNDEF'D STATEMENT", "BAD SUBSCRIPT", "REDIM'D ARRAY",
                   "DIVISION BY ZERO", "ILLEGAL DIRECT", "TYPE MISMATCH", "STRING TOO LONG", "FILE DATA",
                   "FORMULA TOO COMPLEX", "CAN'T CONTINUE", "UNDEF'D FUNCTION", "VERIFY", "LOAD",
                   ERROR_NAMES[ERR_BREAK]))


class BasicError(Exception):
    """A BASIC error: the name printed between ? and ERROR."""


def kernal_error(error, otherwise):
    """The BasicError a KERNAL routine's failure (a kernal.errors.KernalError) is, by its
    number's name (`?FILE NOT OPEN  ERROR`); `otherwise` for a number without one."""
    return BasicError(ERROR_NAMES.get(error.number, otherwise))


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


class Hung(Exception):
    """The ROM would loop for ever here (FNDLIN on a chain of links that comes back on
    itself, CHRGET or DATAN round all of memory): time passes, the interrupts run, and only
    RUN/STOP+RESTORE or a reset gets out, as on a C64."""


class Str(bytes):
    """A string value that still sits in C64 memory at `addr` (a literal or a variable's);
    `temp`: it holds one of the ROM's three temporary descriptors (Expressions.new_temp)."""
    addr = None
    temp = False


def literal(data, addr):
    s = Str(data)
    s.addr = addr
    return s


def is_letter(c):
    return 0x41 <= c <= 0x5A


def is_digit(c):
    return 0x30 <= c <= 0x39

