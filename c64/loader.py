"""Reading .prg files: a 2-byte load address followed by the bytes to load.

A program loaded at $0801 is started as a C64 starts it: LOAD, then RUN -- BASIC
runs its lines, a line such as `10 POKE 53280,0:SYS 2064` reaches the machine
code through its SYS, and after the code's RTS BASIC goes on with the rest of the
line (Program.run).  The bundled RYG versions, whose BASIC is only `10 SYS2064`,
start at their SYS address directly, as they always have.  Any other file starts
at its load address unless the caller names a start address (--sys).
"""

import os
from dataclasses import dataclass

from asm import versions
from c64.host import files as hostfiles
from kernal.disk import text_to_petscii
from kernal.disk_formats import D64, D71, D81, ImageError, is_image_name, read_image
from kernal.disk_image import ImageDisk
from kernal.disk_writing import blank_image
from kernal.locations import BASIC_START

SYS_TOKEN = 0x9E


class UsageError(Exception):
    """Bad input from a user (an address, an option, a file): the message says what, in one line."""


class PrgError(UsageError):
    """A .prg that cannot be loaded; the message says why, for a user."""


@dataclass
class Program:
    name: str
    load_address: int
    data: bytes            # the bytes after the load address
    start: int             # where the machine code begins (its SYS line's address, the load
    #                        address, --sys); None: a BASIC program with no SYS
    run: bool = False      # True: LOAD and RUN, as a C64 (BASIC runs the program from its
    #                        first line; a SYS in it reaches `start`); False: `start` is
    #                        entered directly, as BASIC's SYS enters it, with no BASIC before

    @property
    def end(self):
        """The address after the last byte loaded."""
        return self.load_address + len(self.data)


def find_sys_address(memory_bytes, load_address=BASIC_START, limit=True):
    """Walk a BASIC program's line chain and return the number after its first SYS, or None.

    With limit=False a number above $FFFF is returned too (for error messages)."""
    def byte(addr):
        offset = addr - load_address
        return memory_bytes[offset] if 0 <= offset < len(memory_bytes) else None

    line = load_address
    for _ in range(1000):                       # a chain that loops is not a program
        link_lo, link_hi = byte(line), byte(line + 1)
        if link_lo is None or link_hi is None or (link_lo | link_hi) == 0:
            return None
        addr = line + 4                         # skip the link and the line number
        in_quotes = False
        while True:
            value = byte(addr)
            if value is None or value == 0:
                break
            if value == 0x22:
                in_quotes = not in_quotes
            elif value == SYS_TOKEN and not in_quotes:
                addr += 1
                while byte(addr) in (0x20, 0x28):    # spaces and "("
                    addr += 1
                digits = ""
                while byte(addr) is not None and 0x30 <= byte(addr) <= 0x39:
                    digits += chr(byte(addr))
                    addr += 1
                if not digits:
                    return None
                return int(digits) if int(digits) <= 0xFFFF or not limit else None
            addr += 1
        next_line = link_lo | (link_hi << 8)
        if next_line <= line:
            return None
        line = next_line
    return None


# What the CPU sees instead of RAM after LOAD, in BASIC's banking ($01 = $37).
NOT_RAM = ((0xA000, 0xC000, "the BASIC ROM"), (0xD000, 0xE000, "the I/O chips"),
           (0xE000, 0x10000, "the KERNAL ROM"))


def not_ram_at(address):
    """What a C64 shows the CPU at `address` instead of RAM after LOAD ("the KERNAL ROM"),
    or None where it sees RAM: a program loaded there is not what runs there."""
    for low, high, what in NOT_RAM:
        if low <= address < high:
            return what
    return None


def runnable_start(raw):
    """Where the machine would start a .prg from its header, or None for a data file.

    A program is either loaded at BASIC's start ($0801) -- BASIC RUNs it; the
    address is its SYS line's, or $0801 with no SYS line -- or machine
    code loaded at the start of a page ($xx00) in RAM, where it starts.  Anything
    else -- bytes loaded mid-page such as a saved game (ryg3 saves its game
    record from its own address), or under a ROM or the I/O chips, where the
    CPU reads those instead -- is data: running it would execute whatever
    those bytes happen to be."""
    if len(raw) < 3:
        return None
    load_address = raw[0] | (raw[1] << 8)
    if load_address == BASIC_START:
        found = find_sys_address(bytes(raw[2:]), load_address)
        return BASIC_START if found is None else found
    return load_address if load_address & 0xFF == 0 and not_ram_at(load_address) is None else None


def parse_prg(raw, name="program", sys=None):
    """Check a .prg image and work out where it starts."""
    if len(raw) < 3:
        raise PrgError("%s is not a .prg: %d byte%s, but a .prg needs a 2-byte load address "
                       "and at least one byte of program" % (name, len(raw), "" if len(raw) == 1 else "s"))
    load_address = raw[0] | (raw[1] << 8)
    data = bytes(raw[2:])
    end = load_address + len(data)
    if end > 0x10000:
        raise PrgError("%s does not fit in memory: %d bytes loaded at $%04X would run past $FFFF "
                       "(to $%X)" % (name, len(data), load_address, end - 1))
    if sys is not None:
        if not 0 <= sys <= 0xFFFF:
            raise PrgError("start address %d is outside the 64 KB of the C64" % sys)
        start = sys
    elif load_address == BASIC_START:
        start = find_sys_address(data, load_address)
        outside = find_sys_address(data, load_address, limit=False) if start is None else None
        if outside is not None:
            raise PrgError("%s: its BASIC line says SYS %d, outside the 64 KB of the C64; give the "
                           "machine-code start with --sys ADDR" % (name, outside))
        # start None: a BASIC program without a SYS line
    else:
        start = load_address
    run = sys is None and load_address == BASIC_START
    return Program(name=name, load_address=load_address, data=data, start=start, run=run)


def only_a_sys_line(program):
    """True when the program's BASIC is one line holding nothing but SYS and its number
    (`10 SYS2064`, as every bundled RYG version has): RUN would do nothing but the SYS."""
    data, base = program.data, program.load_address
    if base != BASIC_START or program.start is None or len(data) < 4:
        return False
    link = data[0] | (data[1] << 8)
    end = link - base                           # the next line's link: two zero bytes
    if not 4 < end <= len(data) - 2 or data[end] | data[end + 1]:
        return False
    text = bytes(data[4:end]).rstrip(b"\x00")
    return (text[:1] == bytes([SYS_TOKEN]) and bytes(data[end - 1:end]) == b"\x00"
            and text[1:].strip(b" ").isdigit())


def basic_program():
    """No program: the machine boots to BASIC's start banner and READY."""
    return Program(name="BASIC", load_address=BASIC_START, data=b"", start=None, run=False)


def read_prg(path, sys=None):
    """Read and check a .prg file from the host."""
    name = os.path.basename(path)
    try:
        with os.fdopen(hostfiles.open_regular(path), "rb") as handle:     # no FIFO, device or folder
            raw = handle.read(0x10000 + 3)          # more than any .prg can hold: enough to refuse it
            size = os.fstat(handle.fileno()).st_size
    except FileNotFoundError:
        raise PrgError("no such file: %s" % path) from None
    except IsADirectoryError:
        raise PrgError("%s is a folder, not a .prg file" % path) from None
    except OSError as error:
        raise PrgError("cannot read %s: %s" % (path, error.strerror or error)) from None
    if size > len(raw) and len(raw) >= 2:          # cut short by the read: say the file's own size
        load_address = raw[0] | (raw[1] << 8)
        raise PrgError("%s does not fit in memory: %d bytes loaded at $%04X would run past $FFFF "
                       "(to $%X)" % (name, size - 2, load_address, load_address + size - 3))
    program = parse_prg(raw, name, sys)
    if program.run and versions.bundled_version(name, program.data) and only_a_sys_line(program):
        program.run = False                  # a bundled version starts at its SYS, as it always has
    return program


def read_image_program(path, sys=None):
    """The first PRG file of a disk image (.d64, .d71, .d81), checked as read_prg checks a .prg (what
    VICE's autostart loads: LOAD"*",8,1); a BASIC program is RUN, machine code loaded at
    the start of a page starts there."""
    try:
        disk = ImageDisk(path)
        found = disk.first_program()
    except ImageError as error:
        raise PrgError(str(error)) from None
    except OSError as error:                     # (the image's damage, met reading the file)
        raise PrgError(error.strerror or str(error)) from None
    if found is None:
        raise PrgError("%s holds no PRG file to start" % path)
    entry, raw = found
    return parse_prg(raw, "%s (%s)" % (os.path.basename(path), entry.name), sys)


def is_image_path(path):
    """True for a path named like a disk image (.d64, .d71, .d81)."""
    return is_image_name(path)


def check_image(path):
    """UsageError (PrgError) with the reason if the file at path is not a readable disk image."""
    try:
        read_image(path)
    except ImageError as error:
        raise PrgError(str(error)) from None


def new_disk_image(path):
    """Make an empty formatted disk image at path (.d64, .d71 or .d81 by its name; the disk
    named after the file, id 01); UsageError if the path is taken or cannot be written."""
    disk_format = {".d64": D64, ".d71": D71, ".d81": D81}.get(os.path.splitext(path)[1].lower())
    if disk_format is None:
        raise UsageError("--new-disk %s: name the image .d64, .d71 or .d81" % path)
    title = os.path.splitext(os.path.basename(path))[0].upper()[:16] or "DISK"
    try:
        hostfiles.write_new(path, blank_image(disk_format, text_to_petscii(title), b"01"))
    except FileExistsError:
        raise UsageError("--new-disk %s: there is a file there already (use --disk to open it)" % path) from None
    except OSError as error:
        raise UsageError("--new-disk %s: cannot write it: %s" % (path, error.strerror or error)) from None


def parse_address(text):
    """'2064', '$0810', '0x810' -> int (for --sys and --peek)."""
    text = text.strip()
    try:
        if text.startswith("$"):
            value = int(text[1:], 16)
        elif text.lower().startswith("0x"):
            value = int(text[2:], 16)
        else:
            value = int(text, 10)
    except ValueError:
        raise UsageError("not an address: %r (use decimal, $hex or 0xhex)" % text) from None
    if not 0 <= value <= 0xFFFF:
        raise UsageError("address %s is outside $0000-$FFFF" % text)
    return value
