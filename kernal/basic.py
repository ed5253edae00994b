"""A small BASIC direct mode: what the user meets after a program returns to BASIC.

There is no BASIC ROM, so this is not an interpreter: it prints READY.,
reads a line with the screen editor (full-screen editing, blinking cursor)
and understands the commands a user of a game disk needs: RUN, LOAD, SYS,
NEW, LIST (of a SYS stub).  Anything else answers ?SYNTAX  ERROR, as the
real machine does for a line it cannot parse.
"""

import re

from kernal.channels import KernalError, WAIT

TXTTAB, VARTAB = 0x2B, 0x2D
BASIC_START = 0x0801
BASIC_MAIN = 0xA480
MSGFLG = 0x9D

ERROR_NAMES = {4: "FILE NOT FOUND", 5: "DEVICE NOT PRESENT", 8: "MISSING FILE NAME",
               9: "ILLEGAL DEVICE NUMBER", 0: "BREAK"}

_LOAD = re.compile(r'^LOAD\s*"([^"]*)"?\s*(?:,\s*(\d+)\s*(?:,\s*(\d+))?)?$')
_SYS = re.compile(r"^SYS\s*(\d+)$")


class Basic:
    def __init__(self, machine):
        self.machine = machine
        self.mem = machine.mem
        self.line = bytearray()

    # -- the program in memory -------------------------------------------------------
    def new(self):
        m = self.mem
        m[BASIC_START], m[BASIC_START + 1] = 0, 0
        m[TXTTAB], m[TXTTAB + 1] = BASIC_START & 0xFF, BASIC_START >> 8
        self.set_program_end(BASIC_START + 2)

    def set_program_end(self, end):
        self.mem[VARTAB], self.mem[VARTAB + 1] = end & 0xFF, (end >> 8) & 0xFF

    def _program_bytes(self):
        end = self.mem[VARTAB] | (self.mem[VARTAB + 1] << 8)
        return bytes(self.mem.ram[BASIC_START:max(BASIC_START, end)])

    # -- output --------------------------------------------------------------------------
    def _print(self, text):
        chrout = self.machine.kernal.channels.chrout
        for ch in text:
            chrout(0x0D if ch == "\n" else ord(ch))

    def ready(self, cpu):
        """$A474: print READY. and enter direct mode."""
        self.machine.kernal.channels.clrchn()
        self.mem[MSGFLG] = 0x80
        self._print("\nREADY.\n")
        self.line.clear()
        cpu.pc = BASIC_MAIN
        return True

    def _error(self, cpu, name):
        if self.machine.kernal.editor.get_cursor()[1] != 0:
            self._print("\n")
        self._print("?%s  ERROR" % name)
        return self.ready(cpu)

    # -- direct mode ---------------------------------------------------------------------
    def main_loop(self, cpu):
        """$A480: collect a line through CHRIN; run it at RETURN."""
        channels = self.machine.kernal.channels
        while True:
            byte = channels.chrin()
            if byte is WAIT:
                return WAIT
            if byte == 0x0D:
                break
            self.line.append(byte)
        text = bytes(self.line).decode("latin-1").strip()
        self.line.clear()
        self._print("\n")
        if not text:
            cpu.pc = BASIC_MAIN
            return True
        return self.execute(cpu, text)

    def execute(self, cpu, text):
        command = text.upper() if text.isascii() else text
        if command == "RUN":
            return self._run(cpu)
        if command == "NEW":
            self.new()
            return self.ready(cpu)
        if command == "LIST":
            return self._list(cpu)
        match = _SYS.match(command)
        if match and int(match.group(1)) <= 0xFFFF:
            self.machine.start(int(match.group(1)))
            return True
        match = _LOAD.match(command)
        if match:
            return self._load(cpu, match.group(1), match.group(2), match.group(3))
        return self._error(cpu, "SYNTAX")

    def _run(self, cpu):
        from c64.loader import find_sys_address
        address = find_sys_address(self._program_bytes(), BASIC_START)
        if address is None:
            if self._program_bytes()[:2] in (b"", b"\x00\x00"):
                return self.ready(cpu)          # RUN with no program does nothing
            return self._error(cpu, "SYNTAX")
        self.machine.start(address)
        return True

    def _list(self, cpu):
        from c64.loader import find_sys_address
        data = self._program_bytes()
        address = find_sys_address(data, BASIC_START)
        if address is not None and len(data) >= 4:
            number = data[2] | (data[3] << 8)
            self._print("\n%d SYS%d" % (number, address))
        return self.ready(cpu)

    def _load(self, cpu, name, device, secondary):
        device = int(device) if device else 1
        secondary = int(secondary) if secondary else 0
        if device == 1:
            return self._error(cpu, "DEVICE NOT PRESENT")    # no datasette here
        if not name:
            return self._error(cpu, "MISSING FILE NAME")
        self._print("SEARCHING FOR %s\nLOADING" % name)
        try:
            end = self.machine.kernal.load_file(name.encode("latin-1"), device, secondary, BASIC_START)
        except KernalError as error:
            return self._error(cpu, ERROR_NAMES.get(error.number, "I/O"))
        if secondary == 0:
            self.set_program_end(end)
        return self.ready(cpu)
