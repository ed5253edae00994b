"""Labels and source lines: what the monitor knows about the program it looks at.

A LabelTable holds names for addresses from Ophis label maps (`.map`, as
asm/build.py writes them: ``$ADDR | name | file:line``) and VICE label
files (``al C:c000 .name``), and a source map from the `.lines` files
asm/build.py writes next to each .map (``$ADDR | path:line`` per assembled
instruction).  The bundled versions' files are found by comparing the bytes
the machine loaded with each asm/*.prg (`for_program`).

Names and addresses
* Ophis scopes make local labels (``_loop``) that repeat from routine to
  routine.  A local is stored under its own name and, qualified, under the
  global label before it in the map: ``think._scan``.  A bare local that is
  not unique is an error in an expression (the message lists the choices).
* The map also holds constants (``.alias R_LEVEL 3``).  An alias written in
  upper case in its source line is a value, not an address: usable in
  expressions, never shown as an operand.  When several names share an
  address, the one shown is a code or data label first, then a variable
  (``.space``), then a lower-case alias (``.alias chrout $FFD2``), and among
  equals the first in the map.  The later bytes of a ``.space`` variable are
  named from it (``boards_made+1``).
"""

import bisect
import os
import re

from asm import build as asm_build
from asm import versions
from c64.host import files as hostfiles

ASM_DIR = asm_build.ASM_DIR
TEXT_LIMIT = 16 * 1024 * 1024     # bytes read at most of a label file, a .lines map or a source

# How sure we are that a name stands for an address (lower sorts first).
LABEL, VARIABLE, ALIAS, CONSTANT = range(4)

_VICE_LINE = re.compile(r"^\s*al\s+(?:[cC]:)?\$?([0-9a-fA-F]{1,4})\s+\.?(\S+)\s*$")
_MAP_LINE = re.compile(r"^\$([0-9A-Fa-f]{1,4})\s*\|\s*(\S+)\s*\|\s*(\S+):(\d+)\s*$")
_LINES_LINE = re.compile(r"^\$([0-9A-Fa-f]{1,4})\s*\|\s*(\S+):(\d+)\s*$")


class LabelError(Exception):
    """A label file that cannot be read, or a name that is not known; the message says which."""


class Label:
    __slots__ = ("name", "address", "kind", "source", "scope")

    def __init__(self, name, address, kind, source=None, scope=None):
        self.name, self.address, self.kind = name, address, kind
        self.source = source            # "file:line" where it was defined, if known
        self.scope = scope              # the global label a local belongs to

    @property
    def qualified(self):
        return "%s.%s" % (self.scope, self.name) if self.scope else self.name


class LabelTable:
    """Names <-> addresses, and address -> source line."""

    def __init__(self):
        self.labels = []            # every Label, in the order loaded
        self._by_name = {}          # name (and scope.name) -> [Label]
        self._shown = {}            # address -> the Label shown for it
        self._code = []             # sorted addresses of code/data labels and variables
        self._code_labels = {}      # address -> the global Label there (for label+offset)
        self.lines = {}             # instruction address -> (path, line)
        self.sources = []           # what was loaded, for shl's heading
        self._source_texts = {}
        self._files = {}            # file name as a .map writes it -> path (from .lines)
        self._inside = {}           # address -> (variable Label, offset) for a .space's later bytes

    def __len__(self):
        return len(self.labels)

    # -- loading ---------------------------------------------------------------------------
    def add(self, name, address, kind=LABEL, source=None, scope=None):
        label = Label(name, address & 0xFFFF, kind, source, scope)
        self.labels.append(label)
        self._by_name.setdefault(name, []).append(label)
        if scope:
            self._by_name.setdefault(label.qualified, []).append(label)
        if kind != CONSTANT:
            shown = self._shown.get(label.address)
            if shown is None or kind < shown.kind:
                self._shown[label.address] = label
            if kind in (LABEL, VARIABLE) and not scope:
                if label.address not in self._code_labels:
                    bisect.insort(self._code, label.address)
                    self._code_labels[label.address] = label
        return label

    def clear(self):
        self.__init__()

    def load(self, path):
        """Load an Ophis .map or a VICE label file (told apart by their lines); returns the count."""
        try:
            text = read_text(path)
        except OSError as error:
            raise LabelError("cannot read %s: %s" % (path, error.strerror or error)) from None
        rows = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(";")]
        if rows and all(_MAP_LINE.match(line) for line in rows):
            lines_path = os.path.splitext(path)[0] + ".lines"
            if os.path.isfile(lines_path):
                self.load_lines(lines_path)
            count = self._load_ophis(rows, os.path.dirname(os.path.abspath(path)))
        elif rows and all(_VICE_LINE.match(line) for line in rows):
            count = self._load_vice(rows)
        else:
            bad = next((line for line in rows if not (_MAP_LINE.match(line) or _VICE_LINE.match(line))),
                       "")
            raise LabelError("%s is neither an Ophis .map nor a VICE label file (line %r)"
                             % (path, bad[:40]) if rows else "%s holds no labels" % path)
        self.sources.append(path)
        return count

    def _load_vice(self, rows):
        for line in rows:
            address, name = _VICE_LINE.match(line).groups()
            self.add(name, int(address, 16), LABEL)
        return len(rows)

    def _load_ophis(self, rows, folder):
        scope = None
        for line in rows:
            address, name, source, number = _MAP_LINE.match(line).groups()
            address = int(address, 16)
            if name == "*":
                continue                      # Ophis' anonymous labels (+ / -)
            kind, size = self._kind(folder, source, int(number), name)
            if name.startswith("_"):
                self.add(name, address, kind, "%s:%s" % (source, number), scope)
            else:
                if kind in (LABEL, VARIABLE):
                    scope = name
                label = self.add(name, address, kind, "%s:%s" % (source, number))
                for offset in range(1, min(size, 256)):
                    self._inside.setdefault((address + offset) & 0xFFFF, (label, offset))
        return len(rows)

    def _kind(self, folder, source, number, name):
        """(LABEL, VARIABLE, ALIAS or CONSTANT, size), from the line that defined the name;
        the size is a .space's byte count when it is a plain number, else 1."""
        text = self._source_line(folder, source, number)
        if text is None:
            return LABEL, 1
        words = text.split(";")[0].split()
        if len(words) >= 2 and words[0].lower() == ".alias":
            return (CONSTANT if words[1] != words[1].lower() else ALIAS), 1
        if words and words[0].lower() == ".space":
            size = words[2] if len(words) > 2 else "1"
            return VARIABLE, int(size) if size.isdigit() else 1
        return LABEL, 1

    def _source_line(self, folder, source, number):
        path = self._files.get(source) or self._find_source(folder, source)
        lines = self._read_source(path)
        if lines is None or not 0 < number <= len(lines):
            return None
        return lines[number - 1]

    @staticmethod
    def _find_source(folder, short):
        """The map names files without their folder: look in the map's folder and below."""
        for candidate in (os.path.join(folder, short),) + tuple(
                os.path.join(folder, sub, short) for sub in sorted(os.listdir(folder))
                if os.path.isdir(os.path.join(folder, sub))):
            if os.path.isfile(candidate):
                return candidate
        return None

    def _read_source(self, path):
        if path is None:
            return None
        if path not in self._source_texts:
            try:
                self._source_texts[path] = read_text(path).splitlines()
            except OSError:
                self._source_texts[path] = None
        return self._source_texts[path]

    def load_lines(self, path):
        """Load a .lines source map (paths relative to its folder)."""
        folder = os.path.dirname(os.path.abspath(path))
        try:
            text = read_text(path)
        except OSError as error:
            raise LabelError("cannot read %s: %s" % (path, error.strerror or error)) from None
        for line in text.splitlines():
            if line.startswith("file "):
                source = os.path.join(folder, line[5:].strip())
                self._files[os.path.basename(source)] = source
                continue
            match = _LINES_LINE.match(line)
            if match:
                address, source, number = match.groups()
                self.lines[int(address, 16)] = (os.path.join(folder, source), int(number))

    # -- names -> addresses ------------------------------------------------------------------
    def address_of(self, name):
        """The address of a label (case-insensitive); LabelError if unknown or ambiguous."""
        found = self._by_name.get(name) or self._by_name.get(name.lower())
        if not found:
            raise LabelError("unknown label '%s'" % name)
        addresses = sorted({label.address for label in found})
        if len(addresses) > 1:
            choices = ", ".join(label.qualified for label in found[:4])
            raise LabelError("label '%s' is ambiguous (%s%s)"
                             % (name, choices, ", ..." if len(found) > 4 else ""))
        return addresses[0]

    def __contains__(self, name):
        return name in self._by_name or name.lower() in self._by_name

    # -- addresses -> names ------------------------------------------------------------------
    def label_at(self, address):
        """The Label shown for exactly this address (never a constant), or None."""
        return self._shown.get(address)

    def name_at(self, address, near=None):
        """The name shown for exactly this address, or None.

        `near`: the address of the code being shown; a local label of the same routine
        is written bare (``_scan``), another routine's qualified (``think._scan``)."""
        label = self._shown.get(address)
        if label is None:
            inside = self._inside.get(address)
            return None if inside is None else "%s+%d" % (inside[0].name, inside[1])
        if label.scope and (near is None or self.routine_at(near) is None
                            or self.routine_at(near).name != label.scope):
            return label.qualified
        return label.name

    def routine_at(self, address):
        """The global code/data label at or before address (None below the first)."""
        index = bisect.bisect_right(self._code, address) - 1
        if index < 0:
            return None
        return self._code_labels[self._code[index]]

    def describe(self, address, limit=0x1000):
        """'think', 'think+$0c' or 'think._scan' for an address, '' when no label is near."""
        exact = self._shown.get(address)
        if exact is not None and exact.kind in (LABEL, VARIABLE):
            return self.name_at(address, address)
        routine = self.routine_at(address)
        if routine is None or address - routine.address > limit:
            return "" if exact is None else exact.qualified
        if address == routine.address:
            return routine.name
        return "%s+$%02x" % (routine.name, address - routine.address)

    def line_at(self, address):
        """(path, line number) of the instruction at address, or None."""
        return self.lines.get(address)

    def where(self, address):
        """'think+$02 (classic/think.oph:16)' for a stop line; '' when nothing is known."""
        name = self.describe(address)
        line = self.line_at(address)
        if line is None:
            return name
        text = "%s:%d" % (self.short_path(line[0]), line[1])
        return "%s (%s)" % (name, text) if name else text

    @staticmethod
    def short_path(path):
        relative = os.path.relpath(path, ASM_DIR)
        return path if relative.startswith("..") else relative.replace(os.sep, "/")

    def source_lines(self, path):
        return self._read_source(path)


def read_text(path):
    """A label file's, a .lines map's or a source's text: a regular file of at most
    TEXT_LIMIT bytes (c64.host.files), bytes that are not UTF-8 replaced."""
    return hostfiles.read_bytes(path, TEXT_LIMIT).decode("utf-8", errors="replace")


def bundled_map_for(data, load_address):
    """The asm/<name>.map of the bundled version whose .prg holds these bytes, or None."""
    for version in versions.VERSIONS:
        path = version.path
        try:
            raw = hostfiles.read_bytes(path, 0x10000 + 2)      # (a .prg: at most 64K and its address)
        except OSError:
            continue
        if raw[2:] == bytes(data) and raw[0] | raw[1] << 8 == load_address:
            map_path = os.path.splitext(path)[0] + ".map"
            if os.path.isfile(map_path):
                return map_path
    return None


def for_program(program):
    """A LabelTable with the bundled labels and lines of `program` (a c64.loader.Program), if any."""
    table = LabelTable()
    if program is not None:
        map_path = bundled_map_for(program.data, program.load_address)
        if map_path is not None:
            table.load(map_path)
    return table
