"""The errors the KERNAL reports, and the exception that stops the emulated program.

KERNAL routines that fail return with C set and an error number in A; the
numbers and BASIC's names for them are those of the KERNAL's error table
(BASIC prints `?FILE NOT FOUND  ERROR`).  `CPUStop` is raised by the CPU
(a jam) and by the KERNAL (an unimplemented routine, a
BRK, an error no caller catches): it lives here, below both, so that the
machine package and the KERNAL package both import it and neither imports
the other for it.
"""

ERR_BREAK = 0                   # not a KERNAL error number: BASIC's BREAK (STOP pressed)
ERR_TOO_MANY_FILES = 1
ERR_FILE_OPEN = 2
ERR_FILE_NOT_OPEN = 3
ERR_FILE_NOT_FOUND = 4
ERR_DEVICE_NOT_PRESENT = 5
ERR_NOT_INPUT_FILE = 6
ERR_NOT_OUTPUT_FILE = 7
ERR_MISSING_FILE_NAME = 8
ERR_ILLEGAL_DEVICE = 9

# BASIC's names, printed between ? and ERROR.
ERROR_NAMES = {ERR_BREAK: "BREAK", ERR_TOO_MANY_FILES: "TOO MANY FILES", ERR_FILE_OPEN: "FILE OPEN",
               ERR_FILE_NOT_OPEN: "FILE NOT OPEN", ERR_FILE_NOT_FOUND: "FILE NOT FOUND",
               ERR_DEVICE_NOT_PRESENT: "DEVICE NOT PRESENT", ERR_NOT_INPUT_FILE: "NOT INPUT FILE",
               ERR_NOT_OUTPUT_FILE: "NOT OUTPUT FILE", ERR_MISSING_FILE_NAME: "MISSING FILE NAME",
               ERR_ILLEGAL_DEVICE: "ILLEGAL DEVICE NUMBER"}


def error_text(number):
    """The error in words for messages to a user ("file not found"; "STOP pressed" for 0)."""
    if number == ERR_BREAK:
        return "STOP pressed"
    name = ERROR_NAMES.get(number)
    return "error" if name is None else name.lower()


class KernalError(Exception):
    """A KERNAL routine ended with C=1 and an error number in A; `message` explains it to a user."""

    def __init__(self, number, message=""):
        super().__init__(number, message)
        self.number = number
        self.message = message

    def __str__(self):
        return self.message or "KERNAL error %d" % self.number


class CPUStop(Exception):
    """The emulated program cannot go on; the message says why and where."""

    def __init__(self, message, pc=None):
        super().__init__(message)
        self.pc = pc


class EndlessLoop(Exception):
    """A KERNAL routine has entered a loop of the ROM's that never ends (the screen editor's
    scroll with the screen over its own link table): the C64 spins there for good, each pass
    taking `pass_cycles`.  kernal.dispatch leaves the CPU in it, charging the passes as time
    goes on, so that the run's cycle limit, the pacing and the keys for quitting stay alive."""

    def __init__(self, pass_cycles):
        super().__init__(pass_cycles)
        self.pass_cycles = pass_cycles
