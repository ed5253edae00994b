"""The RYG versions shipped with RYG64: name, .prg file and a one-line description.

Listed in the order a user should meet them: the strongest first, then the
classic series from the final version back to the first.  Only versions
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
    Version("ryg19", "29-byte boards, whole tree in memory, depth 1-4, opening book"),
    Version("ryg17", "88-byte boards, evaluation v3, BASIC ROM switched out, depth 1-3"),
    Version("ryg15", "first complete game: 88-byte boards, evaluation v1, depth 1-3"),
)

# The version `python ryg.py` starts, in order of preference.
DEFAULT_ORDER = ("ryg3", "ryg23", "ryg19", "ryg17", "ryg15")


def available_versions():
    return [v for v in VERSIONS if v.available()]


def find_version(name):
    for version in VERSIONS:
        if version.name == name.lower():
            return version
    return None


def default_version():
    for name in DEFAULT_ORDER:
        version = find_version(name)
        if version.available():
            return version
    return None
