"""The C64 names of the host files on drive 8: every name the directory lists loads its file.

A file keeps its stem, in upper case, as its C64 name when a C64 program could have
given it that name: at most 16 characters, each one a 1541 name can hold and none of
the characters a name cannot (`"` `*` `?` `,` `=` `:`, and `$` first, which asks for
the directory).  Any other file -- a stem over 16 characters, a character with no
PETSCII equivalent, a second file of the same type whose name differs only in case
-- gets a made-up name of 16 characters: the first 11 it can keep (accents dropped:
`canción` keeps CANCION), `#`, and 4 hex digits of a CRC-32 of the whole host name
(the next value when that name is taken).  The same folder gives the same names on
every run; a file's name changes only if a new file takes it first (a clash of the
4 digits, one in 65,536).

Names are unique per file type, as the drive tells `GAME,S` from `GAME,P`: a program
writing a SEQ file next to its PRG of the same name reads it back by that name.
"""

import unicodedata
import zlib

NAME_LIMIT = 16                    # characters of a file name on a C64 disk (a directory entry holds 16)
KEPT = 11                          # characters of the host name a made-up name keeps
MARK = "#"                         # between them and the 4 hex digits
NOT_IN_A_NAME = set('"*?,=:')      # what a 1541 name cannot hold (the parser's separators, wildcards)
PUNCTUATION = set(" !#$%&'()+-./;<>@[]^_")


def name_character(ch):
    """True for a character a C64 name may hold (upper-case letters, digits, punctuation)."""
    return ("A" <= ch <= "Z" or "0" <= ch <= "9" or ch in PUNCTUATION) and ch not in NOT_IN_A_NAME


def plain_name(stem):
    """The stem as a C64 name when a C64 program could have given it, else None."""
    name = stem.upper()
    if not name or len(name) > NAME_LIMIT or name.startswith("$") or not all(map(name_character, name)):
        return None
    return name


def kept_characters(stem):
    """What a made-up name keeps of a stem: its name characters, accents dropped."""
    decomposed = unicodedata.normalize("NFKD", stem.upper())
    kept = "".join(ch for ch in decomposed if name_character(ch)).lstrip("$")
    return kept[:KEPT]


def c64_names(files):
    """{host name: C64 name} for files, a list of (host name, stem, type) in directory order."""
    names, taken = {}, set()
    later = []
    for host_name, stem, file_type in files:
        name = plain_name(stem)
        if name is None or (name, file_type) in taken:
            later.append((host_name, stem, file_type))
        else:
            names[host_name] = name
            taken.add((name, file_type))
    for host_name, stem, file_type in later:
        digits = zlib.crc32(host_name.encode("utf-8", "surrogateescape")) & 0xFFFF
        prefix = kept_characters(stem) + MARK
        while (prefix + "%04X" % digits, file_type) in taken:
            digits = (digits + 1) & 0xFFFF
        names[host_name] = prefix + "%04X" % digits
        taken.add((names[host_name], file_type))
    return names
