""".d64 disk images: the 1541's disk as a file, read sector by sector.

A .d64 holds the 256-byte sectors of a 1541 disk one after another: tracks 1-17
have 21 sectors, 18-24 19, 25-30 18, 31-35 (and 36-40 on a 40-track image) 17;
35 tracks make 683 sectors, 174,848 bytes (175,531 with the error byte each
sector can carry after them; 40 tracks: 196,608 / 197,376).  Track 18 holds the
directory: sector 0 the BAM (the free-block map, one 4-byte entry a track from
offset 4, its first byte the free count; the disk name at $90-$9F and its id at
$A2-$A3, padded with shifted spaces $A0, the DOS type at $A5-$A6), then a chain
of directory sectors from 18/1, each with eight 32-byte entries: the file type
at +2 (bits 0-2: 0 DEL, 1 SEQ, 2 PRG, 3 USR, 4 REL; bit 7 set once the file is
closed; 0 a scratched entry), the first track and sector at +3/+4, the name at
+5-+20 and the size in blocks at +30/+31.  A file is a chain of sectors: bytes 0
and 1 link to the next one, or, with a track of 0, say how far the last one is
used (byte 1 is the index of its last byte); bytes 2-255 are data.

Damage is reported, never followed: a link to a track or sector that is not on
the disk, a chain that comes back on itself, a directory that does, an image
whose size is none of the four.
"""

IMAGE_SIZES = {174848: (35, False), 175531: (35, True), 196608: (40, False), 197376: (40, True)}
DIRECTORY_TRACK = 18
FILE_TYPES = {0: "del", 1: "seq", 2: "prg", 3: "usr", 4: "rel"}
SHIFTED_SPACE = 0xA0


class ImageError(ValueError):
    """A .d64 that cannot be read: the message says what is wrong, for a user."""


def sectors_in(track):
    """Sectors on a track of a 1541 disk (1-based tracks)."""
    if track <= 17:
        return 21
    if track <= 24:
        return 19
    if track <= 30:
        return 18
    return 17


class DirectoryEntry:
    """One file of the image: its name (PETSCII bytes, padding removed), type, whether it
    was closed, its first sector and its size in blocks as the directory says."""

    def __init__(self, name, file_type, closed, locked, track, sector, blocks):
        self.name, self.type, self.closed, self.locked = name, file_type, closed, locked
        self.track, self.sector, self.blocks = track, sector, blocks


class D64Image:
    """A .d64 image in memory (`data`, the file's bytes; `where` names it in messages)."""

    def __init__(self, data, where="the disk image"):
        self.where = where
        shape = IMAGE_SIZES.get(len(data))
        if shape is None:
            raise ImageError("%s is not a .d64 disk image: %s bytes, where a .d64 holds 174,848 "
                             "(35 tracks) or 196,608 (40), or those with 683/768 error bytes"
                             % (where, format(len(data), ",")))
        self.tracks, _ = shape
        self.data = bytes(data)
        self._offsets = [0, 0]
        for track in range(1, self.tracks + 1):
            self._offsets.append(self._offsets[-1] + sectors_in(track) * 256)
        bam = self.sector(DIRECTORY_TRACK, 0)
        self.name = bam[0x90:0xA0].rstrip(bytes([SHIFTED_SPACE]))
        self.id = bam[0xA2:0xA4]
        self.dos_type = bam[0xA5:0xA7]
        self.free_blocks = sum(bam[4 * track] for track in range(1, min(self.tracks, 35) + 1)
                               if track != DIRECTORY_TRACK)
        self.entries = self._read_directory()

    def sector(self, track, sector):
        """The 256 bytes of a sector; ImageError if the disk has no such sector."""
        if not 1 <= track <= self.tracks or not 0 <= sector < sectors_in(track):
            raise ImageError("%s is damaged: a link points to track %d sector %d, which a %d-track "
                             "disk does not have" % (self.where, track, sector, self.tracks))
        start = self._offsets[track] + sector * 256
        return self.data[start:start + 256]

    def _read_directory(self):
        entries = []
        seen = set()
        track, sector = DIRECTORY_TRACK, 1
        while track:
            if (track, sector) in seen:
                raise ImageError("%s is damaged: its directory chain comes back to track %d sector %d"
                                 % (self.where, track, sector))
            seen.add((track, sector))
            block = self.sector(track, sector)
            for offset in range(0, 256, 32):
                raw = block[offset:offset + 32]
                kind = raw[2]
                if kind & 7 not in (1, 2, 3, 4):
                    continue                       # an empty or scratched slot, DEL files
                entries.append(DirectoryEntry(
                    name=raw[5:21].rstrip(bytes([SHIFTED_SPACE])), file_type=FILE_TYPES[kind & 7],
                    closed=bool(kind & 0x80), locked=bool(kind & 0x40),
                    track=raw[3], sector=raw[4], blocks=raw[30] | (raw[31] << 8)))
            track, sector = block[0], block[1]
        return entries

    def read_file(self, entry, limit=None):
        """The bytes of a file, following its sector chain (at most `limit` bytes)."""
        out = bytearray()
        seen = set()
        track, sector = entry.track, entry.sector
        while True:
            if (track, sector) in seen:
                raise ImageError("%s is damaged: the file %s comes back to track %d sector %d"
                                 % (self.where, _show(entry.name), track, sector))
            seen.add((track, sector))
            block = self.sector(track, sector)
            if block[0] == 0:
                if block[1] < 1:
                    raise ImageError("%s is damaged: the last sector of %s (track %d sector %d) "
                                     "says it holds no byte" % (self.where, _show(entry.name), track, sector))
                out += block[2:block[1] + 1]
                break
            out += block[2:]
            if limit is not None and len(out) >= limit:
                break
            track, sector = block[0], block[1]
        return bytes(out if limit is None else out[:limit])


def _show(name):
    return '"%s"' % "".join(chr(b) if 0x20 <= b < 0x7F else "?" for b in name)


def read_image(path):
    """The D64Image of the file at path; ImageError (for a user) if it cannot be one."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(max(IMAGE_SIZES) + 1)
    except FileNotFoundError:
        raise ImageError("no such disk image: %s" % path) from None
    except IsADirectoryError:
        raise ImageError("%s is a folder, not a disk image" % path) from None
    except OSError as error:
        raise ImageError("cannot read %s: %s" % (path, error.strerror or error)) from None
    return D64Image(data, path)


def is_image_name(path):
    """True for a path named like a .d64 image."""
    return path.lower().endswith(".d64")
