"""The RYG versions shipped with RYG64: name, .prg file and a one-line description.

Listed in the order a user should meet them: the strongest first, then the
classic series from the final version back to the first, each version's
English build (the same sources with English texts) after it.  Only versions
whose .prg has been built are offered.
"""

import os
from dataclasses import dataclass

ASM_DIR = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class Version:
    name: str
    description: str
    ready: bool = True          # False: built for development, not offered to players yet

    @property
    def path(self):
        return os.path.join(ASM_DIR, self.name + ".prg")

    def available(self):
        return self.ready and os.path.isfile(self.path)


VERSIONS = (
    Version("ryg3", "modern engine: alpha-beta, hash tables, opening book from a solver of the game"),
    Version("ryg3en", "ryg3 with English texts"),
    Version("ryg23", "classic final: depth-first tree, depth 1-15, opening book"),
    Version("ryg23en", "ryg23 with English texts"),
    Version("ryg19", "29-byte boards, whole tree in memory, depth 1-4, opening book"),
    Version("ryg19en", "ryg19 with English texts"),
    Version("ryg17", "88-byte boards, evaluation v3, BASIC ROM switched out, depth 1-3"),
    Version("ryg17en", "ryg17 with English texts"),
    Version("ryg15", "first complete game: 88-byte boards, evaluation v1, depth 1-3"),
    Version("ryg15en", "ryg15 with English texts"),
)

# The version `python ryg.py` starts, in order of preference: ryg3 in the
# player's language (Spanish when the host locale says so, else English), then
# the classic versions, each in the player's language first.
DEFAULT_ORDER_SPANISH = ("ryg3", "ryg3en", "ryg23", "ryg23en", "ryg19", "ryg19en",
                         "ryg17", "ryg17en", "ryg15", "ryg15en")
DEFAULT_ORDER_ENGLISH = ("ryg3en", "ryg3", "ryg23en", "ryg23", "ryg19en", "ryg19",
                         "ryg17en", "ryg17", "ryg15en", "ryg15")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")     # the first one set decides, as in POSIX


def locale_wants_spanish(environ=None):
    """True when the host locale for messages is Spanish (es, es_ES.UTF-8, es_AR ...).

    LC_ALL overrides LC_MESSAGES, which overrides LANG; the first one set and
    not empty decides, as the C library does."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            return value.lower().startswith("es")
    return False


def available_versions():
    return [v for v in VERSIONS if v.available()]


def find_version(name):
    for version in VERSIONS:
        if version.name == name.lower():
            return version
    return None


_PRG_BYTES = {}                 # version name -> the bytes of its .prg after the load address


def bundled_version(name, data):
    """The Version a program is, or None: a .prg named as the version's (`ryg3en.prg`, from
    any folder, in any case) holding its very bytes after the load address (`data`).  A
    copy under another name, or a build of one's own, is another program."""
    base = os.path.basename(name).lower()
    version = find_version(base[:-4] if base.endswith(".prg") else base)
    if version is None:
        return None
    if version.name not in _PRG_BYTES:
        try:
            with open(version.path, "rb") as handle:
                _PRG_BYTES[version.name] = handle.read()[2:]
        except OSError:
            _PRG_BYTES[version.name] = None
    return version if _PRG_BYTES[version.name] == bytes(data) else None


def default_version(environ=None):
    """The version `python ryg.py` starts: ryg3 for a Spanish locale, ryg3en otherwise
    (then the classic versions, if ryg3 is not built)."""
    order = DEFAULT_ORDER_SPANISH if locale_wants_spanish(environ) else DEFAULT_ORDER_ENGLISH
    for name in order:
        version = find_version(name)
        if version.available():
            return version
    return None


def map_labels(name):
    """The labels of a bundled version's .map, {name: address}; {} when it is not built."""
    try:
        with open(os.path.join(ASM_DIR, name + ".map")) as handle:
            return dict(_map_line(line) for line in handle if "|" in line)
    except OSError:
        return {}


def saved_game_headers():
    """(load address, file size) of the saved games of the bundled ryg3 builds: their
    game record (label game_record in the .map, RECORD_SIZE bytes) plus the 2-byte load
    address.  A file with such a header is a saved game, not a program."""
    headers = set()
    for name in ("ryg3", "ryg3en"):
        labels = map_labels(name)
        if "game_record" in labels and "game_record_end" in labels:
            headers.add((labels["game_record"], 2 + labels["game_record_end"] - labels["game_record"]))
    return headers


def _map_line(line):
    address, label = line.split("|")[:2]
    try:
        return label.strip(), int(address.strip().lstrip("$"), 16)
    except ValueError:
        return "", 0
