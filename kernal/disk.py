"""Disk drive 8 on a host folder, with the behaviour of a 1541 as a C64 program sees it.

What the drive sees
    Only regular, non-hidden files whose name ends in .prg, .seq, .usr or
    .rel (any case) exist on the "disk"; everything else in the folder is
    invisible, so a C64 program can never read, overwrite or scratch the
    host's other files (the default folder is the current directory).  The
    C64 name of `Ryg23.prg` is RYG23 (the stem, letters shown upper case),
    its type PRG.  Names are matched without regard to case, and a LOAD
    name may also be the whole host name (`LOAD"RYG23.PRG",8`).  A file
    whose stem a C64 could not have written (over 16 characters, say) is
    listed under a made-up 16-character name that loads it
    (kernal.disknames: `a-very-long-file-name.prg` is A-VERY-LONG#xxxx).

Names (as the 1541 parses them)
    `0:NAME` / `:NAME`  drive prefix, ignored;  `@0:NAME` / `@:NAME` on a
    write replaces an existing file;  `NAME,S,W` etc.: type (P S U L) and
    mode (R W A) after commas;  `*` matches the rest of the name (what
    follows it is ignored, as on the 1541) and `?` one character.  A new
    file is created as `<name in lower case>.<type>`.  PETSCII letters
    ($41-$5A, $61-$7A, $C1-$DA) map to letters, $20-$3F and @ [ ] ^ _ to
    the same ASCII characters, shifted space $A0 to a space.  A name that
    would leave the folder (`/`, `\\`, `..`, a leading `.`, a drive letter,
    NUL, a symlink pointing outside) or holds a byte with no host
    equivalent is refused: error channel `33,SYNTAX ERROR`, LOAD fails
    with FILE NOT FOUND, and `last_message` says why in plain words.
    `LOAD"*"` gets the last file loaded again, or the first file after
    power-on or an `I` command, as on the 1541.

Channels (secondary address)
    0 = read as for LOAD, 1 = write as for SAVE (type PRG), 2-14 data
    channels (default mode read, default type for a write SEQ), 15 =
    command/error channel: reading it returns `00, OK,00,00` + RETURN style
    status (`73,CBM DOS V2.6 1541,00,00` after power-on), writing sends a
    command executed at RETURN or when the C64 stops talking to the drive
    (CLRCHN/UNLISTEN): `I` initialise, `S0:name[,name]` scratch (wildcards),
    `R0:new=old` rename, `C0:new=old` copy, `UJ`/`UI` reset, `V` validate.
    `N` (format) is refused: the host folder is never wiped.  Closing
    channel 15 closes every channel, as the 1541 does.

Status (ST $90, the KERNAL's serial status) and errors
    Reading the last byte of a file sets ST bit 6 ($40, EOI); reading past
    the end returns $0D with ST $42 (EOI + time-out), as does reading a file
    that could not be opened.  As on the real drive, OPEN itself never fails
    for a missing file (the error is on channel 15: `62,FILE NOT FOUND`).
    LOAD of a missing file raises KernalError(4) with ST = $42.  SAVE over an
    existing file without `@` does not write; like on the real C64 the
    KERNAL call succeeds and the error channel says `63,FILE EXISTS`.  A host
    failure (read-only folder, disk full, any OSError) is NOT silent: SAVE
    raises KernalError(5) (the KERNAL has no better number; a real drive
    would only report it on channel 15), the error channel gets
    `26,WRITE PROTECT ON` / `72,DISK FULL` / `25,WRITE ERROR`, and
    `last_message` carries the host's reason.  Writes go to a temporary file
    (`.ryg64-*.tmp`, flushed to the disk with fsync) that is renamed over the
    target, so a failed write never leaves a half-written file; a new file
    gets the mode the umask gives, a replaced one keeps its own.  Temporary
    files left by a write that was killed are removed when the drive is
    attached, once they are ten minutes old.

The disk's size
    Blocks are counted as on a 1541: 254 data bytes a block, 664 blocks
    free on an empty disk, and every file on the disk (those already in the
    folder too) takes its blocks.  A write that does not fit is not made:
    `72,DISK FULL` as a host's full disk, so a program writing in a loop
    cannot fill the host's disk.
"""

import errno
import os
import stat
import tempfile
import time

from kernal.disknames import NAME_LIMIT, c64_names
from kernal.errors import KernalError

from kernal.locations import ST_EOI, ST_READ_TIMEOUT, STATUS

DISK_BLOCKS = 664               # a freshly formatted 1541 disk
BLOCK_DATA = 254                # data bytes per 1541 block
MAX_FILE = DISK_BLOCKS * BLOCK_DATA
DIRECTORY_ENTRIES = 144         # what fits in a 1541's directory track

TEMP_PREFIX, TEMP_SUFFIX = ".ryg64-", ".tmp"   # a write in progress: hidden, never on the disk
STALE_SECONDS = 600

TYPES = ("prg", "seq", "usr", "rel")
TYPE_LETTERS = {"P": "prg", "S": "seq", "U": "usr", "L": "rel"}

MESSAGES = {
    0: " OK", 1: " FILES SCRATCHED", 25: "WRITE ERROR", 26: "WRITE PROTECT ON",
    30: "SYNTAX ERROR", 31: "SYNTAX ERROR", 32: "SYNTAX ERROR", 33: "SYNTAX ERROR",
    34: "SYNTAX ERROR", 60: "WRITE FILE OPEN", 61: "FILE NOT OPEN", 62: "FILE NOT FOUND",
    63: "FILE EXISTS", 64: "FILE TYPE MISMATCH", 70: "NO CHANNEL", 72: "DISK FULL",
    73: "CBM DOS V2.6 1541", 74: "DRIVE NOT READY",
}
DOS_OK, DOS_SCRATCHED, DOS_NAME_ERROR, DOS_COMMAND_ERROR = 0, 1, 33, 31
DOS_NOT_FOUND, DOS_EXISTS, DOS_NOT_OPEN, DOS_RESET = 62, 63, 61, 73


class BadName(ValueError):
    """A file name the drive refuses (would leave the folder, or cannot be a host name)."""


# -- PETSCII name <-> host text -----------------------------------------------------------
def petscii_to_text(name):
    """PETSCII name bytes -> host text (letters upper case); raises BadName for bytes with no equivalent."""
    out = []
    for byte in name:
        if 0x41 <= byte <= 0x5A or 0x61 <= byte <= 0x7A or 0xC1 <= byte <= 0xDA:
            out.append(chr(0x41 + ((byte & 0x1F) - 1)))
        elif byte == 0xA0:
            out.append(" ")
        elif 0x20 <= byte <= 0x40 or byte in (0x5B, 0x5D, 0x5E, 0x5F):
            out.append(chr(byte))
        else:
            raise BadName("the name holds PETSCII $%02X, which has no host file-name character" % byte)
    return "".join(out)


def text_to_petscii(text):
    """Host text -> PETSCII for the directory listing (letters unshifted; other characters as '?')."""
    out = bytearray()
    for ch in text:
        code = ord(ch)
        if "a" <= ch <= "z" or "A" <= ch <= "Z":
            out.append(ord(ch.upper()))
        elif 0x20 <= code <= 0x40 or ch in "[]^_":
            out.append(code)
        else:
            out.append(ord("?"))
    return bytes(out)


def matches(pattern, name):
    """1541 pattern match: '?' = any one character, '*' = any rest (anything after it is ignored)."""
    pattern, name = pattern.upper(), name.upper()
    for i, ch in enumerate(pattern):
        if ch == "*":
            return True
        if i >= len(name) or (ch != "?" and ch != name[i]):
            return False
    return len(pattern) == len(name)


def parse_name(name):
    """Split a 1541 file name into (text, replace, type, mode).

    `@0:NAME,S,W` -> ("NAME", True, "seq", "W").  type/mode are None when not given."""
    if b"\x00" in name:
        raise BadName("the name holds a NUL byte")
    text = petscii_to_text(name)
    replace = False
    if ":" in text:
        prefix, _, text = text.partition(":")
        if prefix.startswith("@"):
            replace, prefix = True, prefix[1:]
        if prefix not in ("", "0"):
            raise BadName("drive %r: this drive has only drive 0" % prefix)
    parts = text.split(",")
    text, file_type, mode = parts[0], None, None
    for part in parts[1:]:
        letter = part[:1].upper()
        if letter in TYPE_LETTERS and file_type is None:
            file_type = TYPE_LETTERS[letter]
        elif letter in ("R", "W", "A", "M"):
            mode = letter
        elif part:
            raise BadName("%r is neither a file type (P S U L) nor a mode (R W A)" % part)
    return text, replace, file_type, mode


def check_new_name(text):
    """BadName unless `text` can name a new file on a Commodore disk."""
    if not text or text.startswith("$") or "*" in text or "?" in text or any(c in text for c in '",=:'):
        raise BadName("%r cannot be the name of a new file" % text)   # "$..." would hide behind the directory
    if len(text) > NAME_LIMIT:
        raise BadName("%r is longer than the 16 characters a 1541 name can have" % text)


def replace_file(path, data):
    """Write `data` as the file at `path` atomically: a temporary file beside it (flushed to
    the disk) renamed over it; a failed write leaves the old file whole.  A replaced file
    keeps its mode, a new one gets what open() would give."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    handle, temp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())                      # on the disk before it replaces the old file
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def remove_stale_temporaries(folder):
    """Remove the temporary files of writes that never finished (the host killed mid-write)
    from `folder`: ours by their name, regular files, untouched for STALE_SECONDS (a write
    takes milliseconds; a younger one may be another session's write in progress)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    for name in names:
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            continue
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                os.unlink(path)
        except OSError:
            continue


class Entry:
    """One file on the disk: its C64 name (text), type and host file name."""

    closed, locked = True, False      # (a disk image's file may be neither: listed *PRG, PRG<)

    def __init__(self, host_name, name, file_type, size, shown=None):
        self.host_name, self.name, self.type, self.size = host_name, name, file_type, size
        self.shown = shown            # the name as the listing shows it (PETSCII), if not from `name`

    @property
    def blocks(self):
        return blocks_for(self.size)


def blocks_for(size):
    """Blocks a file of `size` bytes takes on a 1541 (254 data bytes a block, at least one)."""
    return max(1, (size + BLOCK_DATA - 1) // BLOCK_DATA)


class _Channel:
    """An open data channel: bytes to read, or bytes collected for writing."""

    def __init__(self, mode, data=b"", target=None, file_type="prg", entry=None, dead=False):
        self.mode = mode              # "R" read, "W" write
        self.data = bytearray(data)
        self.pos = 0
        self.target = target          # host file name to write at close
        self.type = file_type
        self.entry = entry            # the existing file a write replaces / appends to
        self.dead = dead              # opening failed: reads time out, writes are dropped
        self.overflow = False


def _umask():
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class HostDisk:
    """Drive 8 on the host folder `folder` (see the module docstring for the rules)."""

    max_file = MAX_FILE               # the largest file a channel reads or writes: a whole disk
    directory_entries = DIRECTORY_ENTRIES      # the most LOAD"$" lists

    def __init__(self, folder):
        self.folder = os.path.realpath(os.path.abspath(folder))
        self._remove_stale_temporaries()
        self.mem = None
        self.status = 0               # ST bits of the last operation (also ORed into $90 when connected)
        self.channels = {}
        self.command = bytearray()
        self.last_message = ""
        self.last_loaded = None       # host name of the last file LOADed (what LOAD"*" gets again)
        self._error_pos = 0
        self._set_error(DOS_RESET)

    def connect(self, mem):
        """Called by the KERNAL's device table: gives the drive the ST byte ($90) to update."""
        self.mem = mem

    # -- status ---------------------------------------------------------------------------
    def _set_error(self, code, track=0, sector=0, message=""):
        self.error = (code, track, sector)
        self._error_pos = 0                 # the next read of channel 15 starts the new message
        self.last_message = message or ("" if code in (DOS_OK, DOS_RESET) else MESSAGES.get(code, ""))

    def error_text(self):
        """The error channel's message, as the drive sends it (without the final RETURN)."""
        code, track, sector = self.error
        return "%02d,%s,%02d,%02d" % (code, MESSAGES.get(code, "UNKNOWN"), track, sector)

    def pending_error(self):
        """error_text() while the drive has an error to report (its LED blinks: codes 20 and
        up but the power-on message), else None."""
        code = self.error[0]
        return self.error_text() if code >= 20 and code != DOS_RESET else None

    def _st(self, bits, replace=False):
        self.status = bits if replace else (self.status | bits)
        if self.mem is not None:
            self.mem[STATUS] = bits if replace else (self.mem[STATUS] | bits)

    def _host_failure(self, error, action):
        code = {errno.EACCES: 26, errno.EROFS: 26, errno.EPERM: 26,
                errno.ENOSPC: 72, getattr(errno, "EDQUOT", errno.ENOSPC): 72}.get(error.errno, 25)
        reason = error.strerror or str(error)
        self._set_error(code, message="cannot %s in %s: %s" % (action, self.folder, reason))
        return code

    # -- the folder ----------------------------------------------------------------------------
    def _inside(self, host_name):
        """Full path of host_name in the folder; BadName if it would be anywhere else."""
        if (not host_name or host_name in (".", "..") or host_name.startswith(".") or ".." in host_name
                or "\x00" in host_name or "/" in host_name or "\\" in host_name
                or os.path.isabs(host_name) or os.path.splitdrive(host_name)[0]):
            raise BadName("%r would leave the disk folder" % host_name)
        path = os.path.join(self.folder, host_name)
        real = os.path.realpath(path)
        folder = os.path.normcase(self.folder)          # Windows: paths compare without case
        try:
            common = os.path.commonpath([os.path.normcase(real), folder])
        except ValueError:                              # Windows: another drive
            common = None
        if common != folder or os.path.normcase(os.path.dirname(real)) != folder:
            raise BadName("%r leads outside the disk folder" % host_name)
        return path

    def entries(self):
        """The files on the disk in directory order (host names sorted without regard to case)."""
        try:
            names = os.listdir(self.folder)
        except OSError as error:
            raise KernalError(5, "cannot read the disk folder %s: %s"
                              % (self.folder, error.strerror or error)) from None
        found = []
        for host_name in sorted(names, key=lambda n: (n.lower(), n)):
            stem, dot, ext = host_name.rpartition(".")
            if not dot or ext.lower() not in TYPES or not stem or host_name.startswith("."):
                continue
            try:
                path = self._inside(host_name)
                if not os.path.isfile(path):
                    continue
                size = os.path.getsize(path)
            except (BadName, OSError):
                continue                     # symlinks out, vanished files: not on this disk
            found.append(Entry(host_name, stem, ext.lower(), size))
        names = c64_names([(entry.host_name, entry.name, entry.type) for entry in found])
        for entry in found:
            entry.name = names[entry.host_name]
        return found

    def listed_entries(self):
        """What LOAD"$" lists: the files (a disk image's closed DEL entries too)."""
        return self.entries()

    def find(self, pattern, file_type=None):
        """First entry whose C64 name (or whole host name) matches the pattern, or None."""
        for entry in self.entries():
            if file_type is not None and entry.type != file_type:
                continue
            if matches(pattern, entry.name) or matches(pattern, entry.host_name):
                return entry
        return None

    def _read(self, entry, limit):
        """At most `limit` bytes of an entry's file, opened non-blocking and read only if it is
        still a regular file (it may have been swapped for a FIFO or a device since it was listed)."""
        path = self._inside(entry.host_name)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.ENOENT, "%s is no longer a regular file" % entry.host_name)
            return handle.read(limit)

    def _remove_stale_temporaries(self):
        remove_stale_temporaries(self.folder)

    def free_blocks(self, replacing=None):
        """Blocks free on the disk: 664 less those of every file on it (but `replacing`'s)."""
        used = sum(entry.blocks for entry in self.entries() if entry.host_name != replacing)
        return max(0, DISK_BLOCKS - used)

    def _write(self, host_name, data):
        """Write data to host_name atomically (temporary file, then rename).

        Every file the drive writes comes through here, so here the disk's size is kept:
        a file that does not fit in the blocks left (a replaced file's own blocks count
        as free) is not written; OSError ENOSPC, which the callers report as 72,DISK FULL."""
        path = self._inside(host_name)
        if os.path.lexists(path) and not os.path.isfile(path):     # a FIFO, a device, a folder: not ours
            raise OSError(errno.EEXIST, "%s is there and is not a regular file" % host_name)
        needed, free = blocks_for(len(data)), self.free_blocks(replacing=host_name)
        if needed > free:
            raise OSError(errno.ENOSPC, "disk full: %d blocks needed, %d of %d free"
                          % (needed, free, DISK_BLOCKS))
        replace_file(path, data)

    def _new_host_name(self, text, file_type):
        check_new_name(text)
        host_name = "%s.%s" % (text.lower(), file_type)
        self._inside(host_name)
        return host_name

    # -- LOAD and SAVE -----------------------------------------------------------------------------
    def _ready(self):
        """True if the drive has its disk (a disk image's drive may not: ImageDisk); else
        False, with the drive's error set."""
        return True

    def load(self, name):
        """The whole file (with its 2-byte load address) for LOAD; `$` gives the directory."""
        self.status = 0
        if not self._ready():
            self._st(ST_EOI | ST_READ_TIMEOUT, replace=True)
            raise KernalError(4, self.last_message)
        try:
            if bytes(name[:1]) == b"$":
                data = self.directory(petscii_to_text(bytes(name[1:])))
                self._set_error(DOS_OK)
                return data
            text, _, file_type, _ = parse_name(bytes(name))
            entry = None
            if text == "*" and self.last_loaded is not None:     # the 1541 reloads the last file
                entry = self.find(self.last_loaded)
            entry = entry or self.find(text, file_type)
            if entry is None:
                self._set_error(DOS_NOT_FOUND, message="no file matching %r in %s" % (text, self.folder))
            else:
                data = self._read(entry, 0x10000 + 2)
                self.last_loaded = entry.host_name
                self._set_error(DOS_OK)
                return data
        except BadName as error:
            self._set_error(DOS_NAME_ERROR, message="refused file name: %s" % error)
        except OSError as error:
            self._host_failure(error, "read")
        self._st(ST_EOI | ST_READ_TIMEOUT, replace=True)
        raise KernalError(4, self.last_message)

    def save(self, name, data):
        """SAVE: write the file (data includes the load address)."""
        self.status = 0
        if not self._ready():
            raise KernalError(5, self.last_message)
        try:
            text, replace, file_type, _ = parse_name(bytes(name))
            if self.write_file(text, replace, file_type or "prg", bytes(data)):
                return
        except BadName as error:
            self._set_error(DOS_NAME_ERROR, message="refused file name: %s" % error)
            return                             # a real drive just blinks; the KERNAL reports nothing
        raise KernalError(5, self.last_message)

    def write_file(self, text, replace, file_type, data):
        """Create or replace a file; False after a host failure (error channel and last_message set)."""
        existing = self.find(text) if text and "*" not in text and "?" not in text else None
        if existing is not None and not replace:
            self._set_error(DOS_EXISTS, message="%s already exists (save with @0: to replace it)"
                            % existing.host_name)
            return True
        host_name = existing.host_name if existing is not None else self._new_host_name(text, file_type)
        try:
            self._write(host_name, data)
        except OSError as error:
            self._host_failure(error, "write %s" % host_name)
            return False
        self._set_error(DOS_OK)
        return True

    # -- the directory ----------------------------------------------------------------------------------
    def disk_header(self):
        """The directory's header: the disk name (PETSCII, at most 16 characters) and its id
        and DOS type; the folder's name here."""
        title = os.path.basename(self.folder) or self.folder
        return text_to_petscii(title.upper()[:NAME_LIMIT]), b"64 2A"

    def blocks_free_after(self, used):
        """BLOCKS FREE. when the files on the disk take `used` blocks."""
        return max(0, DISK_BLOCKS - used)

    def directory(self, pattern=""):
        """The directory as the BASIC program a 1541 sends for LOAD"$",8 (load address $0801)."""
        if pattern.startswith("0"):
            pattern = pattern[1:]
        if pattern.startswith(":"):
            pattern = pattern[1:]
        name, id_and_type = self.disk_header()
        lines = [(0, b"\x12\"" + name.ljust(NAME_LIMIT) + b"\" " + id_and_type)]
        used = 0
        listed = 0
        for entry in self.listed_entries():
            used += entry.blocks
            if pattern and not matches(pattern, entry.name) or listed >= self.directory_entries:
                continue
            listed += 1
            blocks = min(entry.blocks, 9999)
            name = entry.shown or text_to_petscii(entry.name.upper()[:NAME_LIMIT])
            text = b" " * (3 - min(len(str(blocks)) - 1, 2))
            text += (b"\"" + name + b"\"").ljust(NAME_LIMIT + 2) + (b" " if entry.closed else b"*")
            text += entry.type.upper().encode() + (b"<" if entry.locked else b" ")
            lines.append((blocks, text.ljust(27)))
        lines.append((self.blocks_free_after(used), b"BLOCKS FREE.".ljust(25)))
        out = bytearray(b"\x01\x08")
        address = 0x0801
        for number, text in lines:
            address += 4 + len(text) + 1
            out += bytes((address & 0xFF, address >> 8, number & 0xFF, number >> 8)) + text + b"\x00"
        out += b"\x00\x00"
        return bytes(out)

    # -- channels: OPEN / CLOSE / CHRIN / CHROUT ---------------------------------------------------------
    def open(self, secondary, name):
        secondary &= 0x0F
        name = bytes(name)
        self.status = 0
        if secondary == 15:
            self.command = bytearray(name)
            if name:
                self._run_command()
            return
        self._close_channel(secondary)
        if not name:
            return                             # the KERNAL sends no OPEN to the drive without a name
        if not self._ready():
            self.channels[secondary] = _Channel("R", dead=True)
            return
        try:
            self.channels[secondary] = self._open_channel(secondary, name)
        except BadName as error:
            self._set_error(DOS_NAME_ERROR, message="refused file name: %s" % error)
            self.channels[secondary] = _Channel("R", dead=True)

    def _open_channel(self, secondary, name):
        if name[:1] == b"$":
            try:
                data = self.directory(petscii_to_text(name[1:]))
            except OSError as error:
                self._host_failure(error, "read the directory")
                return _Channel("R", dead=True)
            self._set_error(DOS_OK)
            return _Channel("R", data)
        text, replace, file_type, mode = parse_name(name)
        if mode is None:
            mode = "W" if secondary == 1 else "R"
        if mode == "M":
            mode = "R"
        if mode == "R":
            entry = self.find(text, file_type if secondary != 0 else None)
            if entry is None:
                self._set_error(DOS_NOT_FOUND, message="no file matching %r in %s" % (text, self.folder))
                return _Channel("R", dead=True)
            try:
                data = self._read(entry, self.max_file)
            except OSError as error:
                self._host_failure(error, "read %s" % entry.host_name)
                return _Channel("R", dead=True)
            self._set_error(DOS_OK)
            return _Channel("R", data, entry=entry)
        if file_type is None:
            file_type = "prg" if secondary in (0, 1) else "seq"
        if mode == "A":
            entry = self.find(text, file_type)
            if entry is None:
                self._set_error(DOS_NOT_FOUND, message="no file %r to append to" % text)
                return _Channel("W", dead=True)
            try:
                data = self._read(entry, self.max_file)
            except OSError as error:
                self._host_failure(error, "read %s" % entry.host_name)
                return _Channel("W", dead=True)
            self._set_error(DOS_OK)
            return _Channel("W", data, target=entry.host_name, file_type=file_type, entry=entry)
        existing = self.find(text) if "*" not in text and "?" not in text else None
        if existing is not None and not replace:
            self._set_error(DOS_EXISTS, message="%s already exists (use @0: to replace it)" % existing.host_name)
            return _Channel("W", dead=True)
        target = existing.host_name if existing is not None else self._new_host_name(text, file_type)
        if not os.access(self.folder, os.W_OK):
            self._host_failure(OSError(errno.EACCES, "folder is not writable"), "write %s" % target)
            return _Channel("W", dead=True)
        self._set_error(DOS_OK)
        return _Channel("W", target=target, file_type=file_type)

    def close(self, secondary):
        secondary &= 0x0F
        if secondary == 15:
            self.unlisten(15)
            for number in list(self.channels):
                self._close_channel(number)
            return
        self._close_channel(secondary)

    def _close_channel(self, secondary):
        channel = self.channels.pop(secondary, None)
        if channel is None or channel.mode != "W" or channel.dead or channel.overflow:
            return                                  # (a file larger than the disk: 72, nothing written)
        try:
            self._write(channel.target, bytes(channel.data))
        except (OSError, BadName) as error:
            if isinstance(error, OSError):
                self._host_failure(error, "write %s" % channel.target)
            else:
                self._set_error(DOS_NAME_ERROR, message="refused file name: %s" % error)

    def chrin(self, secondary):
        """Next byte of a channel; sets ST $40 on the last byte, $42 (and returns $0D) past the end."""
        secondary &= 0x0F
        if secondary == 15:
            message = self.error_text().encode("ascii") + b"\r"
            byte = message[min(self._error_pos, len(message) - 1)]
            self._error_pos += 1
            if self._error_pos >= len(message):
                self._error_pos = 0
                self.error = (DOS_OK, 0, 0)     # read once, the drive's error is cleared
                self._st(ST_EOI)
            return byte
        channel = self.channels.get(secondary)
        if channel is None or channel.mode != "R" or channel.dead or channel.pos >= len(channel.data):
            if channel is None:
                self._set_error(DOS_NOT_OPEN)
            self._st(ST_EOI | ST_READ_TIMEOUT)
            return 0x0D
        byte = channel.data[channel.pos]
        channel.pos += 1
        if channel.pos >= len(channel.data):
            self._st(ST_EOI)
        return byte

    def chrout(self, secondary, byte):
        secondary &= 0x0F
        if secondary == 15:
            if len(self.command) < 256:
                self.command.append(byte)
            if byte == 0x0D:
                self._run_command()
            return
        channel = self.channels.get(secondary)
        if channel is None:
            self._set_error(DOS_NOT_OPEN)
            return
        if channel.mode != "W" or channel.dead:
            return
        if len(channel.data) >= self.max_file:
            if not channel.overflow:
                channel.overflow = True
                self._set_error(72, message="file %s is larger than the disk" % channel.target)
            return
        channel.data.append(byte)

    def unlisten(self, secondary):
        """The C64 stopped sending to the drive: a command without RETURN runs now."""
        if (secondary & 0x0F) == 15 and self.command:
            self._run_command()

    # -- the command channel -------------------------------------------------------------------------------
    def _run_command(self):
        raw = bytes(self.command).rstrip(b"\r")
        self.command = bytearray()
        if not raw or not self._ready():
            return
        try:
            self._command(petscii_to_text(raw) if b"\x00" not in raw else "\x00")
        except BadName as error:
            self._set_error(DOS_NAME_ERROR, message="refused file name: %s" % error)
        except KernalError as error:
            self._set_error(74, message=str(error.message))

    def _command(self, text):
        letter = text[:1].upper()
        _, colon, argument = text.partition(":")
        if letter == "I" or letter == "V":
            self.last_loaded = None
            self._set_error(DOS_OK)
        elif text.upper().startswith("U") and text[1:2].upper() in ("J", "I", ":", ";"):
            for number in list(self.channels):
                self._close_channel(number)
            self._set_error(DOS_RESET)
        elif letter == "S" and colon:
            self._scratch(argument)
        elif letter == "R" and colon and "=" in argument:
            new, _, old = argument.partition("=")
            self._rename(new, old.partition(":")[2] if ":" in old else old)
        elif letter == "C" and colon and "=" in argument:
            new, _, old = argument.partition("=")
            self._copy(new, old.partition(":")[2] if ":" in old else old)
        elif letter == "N":
            self._set_error(DOS_COMMAND_ERROR, message="formatting (N) is not supported: "
                            "the host folder is never wiped")
        else:
            self._set_error(DOS_COMMAND_ERROR, message="unknown drive command %r" % text)

    def _scratch(self, argument):
        count = 0
        for pattern in argument.split(","):
            pattern = pattern.partition(":")[2] if ":" in pattern else pattern
            for entry in self.entries():
                if matches(pattern, entry.name) or matches(pattern, entry.host_name):
                    try:
                        os.unlink(self._inside(entry.host_name))
                    except OSError as error:
                        self._host_failure(error, "delete %s" % entry.host_name)
                        return
                    count += 1
        self._set_error(DOS_SCRATCHED, min(count, 99))

    def _rename(self, new, old):
        entry = self.find(old) if "*" not in old and "?" not in old else None
        if entry is None:
            self._set_error(DOS_NOT_FOUND, message="no file %r to rename" % old)
            return
        if self.find(new) is not None:
            self._set_error(DOS_EXISTS, message="%r already exists" % new)
            return
        try:
            self._rename_entry(entry, new)
        except OSError as error:
            self._host_failure(error, "rename %s" % entry.host_name)
            return
        self._set_error(DOS_OK)

    def _rename_entry(self, entry, new):
        """Give `entry` the name `new` (checked as free); OSError or BadName if it cannot be."""
        target = self._new_host_name(new, entry.type)
        os.rename(self._inside(entry.host_name), self._inside(target))

    def _copy(self, new, old):
        entry = self.find(old) if "*" not in old and "?" not in old else None
        if entry is None:
            self._set_error(DOS_NOT_FOUND, message="no file %r to copy" % old)
            return
        if self.find(new) is not None:
            self._set_error(DOS_EXISTS, message="%r already exists" % new)
            return
        try:
            data = self._read(entry, self.max_file)
        except OSError as error:
            self._host_failure(error, "read %s" % entry.host_name)
            return
        self.write_file(new, False, entry.type, data)
