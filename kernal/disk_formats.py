"""Commodore disk images: .d64 (1541), .d71 (1571) and .d81 (1581), read sector by sector.

An image holds a disk's 256-byte sectors one after another, track by track, sometimes
followed by one error byte a sector.  What the three formats share: a directory of
32-byte entries, eight a sector, in a chain of sectors -- the file type at +2 (bits
0-2: 0 DEL, 1 SEQ, 2 PRG, 3 USR, 4 REL, 5 a 1581 partition; bit 7 set once the file
is closed, bit 6 locked; 0 a scratched entry), the first track and sector at +3/+4,
the name at +5-+20 padded with shifted spaces ($A0), the size in blocks at +30/+31 --
and files as chains of sectors: bytes 0 and 1 link to the next one, or, with a track
of 0, say how far the last one is used (byte 1 is the index of its last byte); bytes
2-255 are data.  Tracks count from 1, sectors from 0.

* .d64: 35 tracks (or 40): tracks 1-17 have 21 sectors, 18-24 19, 25-30 18, 31-40 17;
  174,848 bytes (175,531 with error bytes; 40 tracks: 196,608 / 197,376).  Track 18:
  sector 0 the BAM (from offset 4 one 4-byte entry a track, its first byte the free
  count), the disk name at $90-$9F, its id at $A2-$A3, the DOS type at $A5-$A6; the
  directory from 18/1.
* .d71: the 1541 layout on both sides, 70 tracks (36-70 as 1-35): 349,696 bytes
  (351,062).  The BAM sector 18/0 also holds the free counts of tracks 36-70 at
  $DD-$FF; track 53, the second side's BAM, is not free space.
* .d81: 80 tracks of 40 sectors: 819,200 bytes (822,400).  Track 40: sector 0 the
  header (name at $04-$13, id $16-$17, DOS type $19-$1A), sectors 1 and 2 the BAM
  (tracks 1-40, then 41-80: from offset $10 six bytes a track, the first the free
  count), the directory from 40/3.  Partitions (type 5) are not files: not listed.
  Closed DEL entries are listed (`DiskImage.listed`), as the drives list them, but are
  no files (`DiskImage.entries`).

An image's error bytes (one a sector, after the last; 1 is no error) name the error
a drive met reading that sector: 2-11 are the DOS's errors 20-29.

The format is told by the file's size, as the drives' images have no signature.
Damage is reported, never followed: a link to a track or sector that is not on the
disk, a chain that comes back on itself, a directory that does, an image whose size
is none of the formats'.
"""

import os
import stat

SHIFTED_SPACE = 0xA0
FILE_TYPES = {1: "seq", 2: "prg", 3: "usr", 4: "rel"}
CLOSED_DEL = 0x80               # a DEL entry's type byte once closed (unclosed, $00, is scratched)


class ImageError(ValueError):
    """A disk image that cannot be read: the message says what is wrong, for a user; damage
    met at a sector carries its track and sector and the drive's error code (66, or the
    20-29 an error byte names)."""

    def __init__(self, message, track=0, sector=0, code=66):
        super().__init__(message)
        self.track, self.sector, self.code = track, sector, code


# an image's error byte a sector -> the drive's error (1, and 0 in some tools: no error)
READ_ERRORS = {byte: byte + 18 for byte in range(2, 12)}


def _sectors_1541(track):
    """Sectors on a track of a 1541 disk."""
    if track <= 17:
        return 21
    if track <= 24:
        return 19
    if track <= 30:
        return 18
    return 17


class DiskFormat:
    """The shape of one kind of image: its tracks, where its header, BAM and directory are."""

    def __init__(self, kind, tracks, sectors_in, header, name_at, id_at, dos_at, directory,
                 system_tracks, directory_entries):
        self.kind, self.tracks, self.sectors_in = kind, tracks, sectors_in
        self.header, self.name_at, self.id_at, self.dos_at = header, name_at, id_at, dos_at
        self.directory, self.system_tracks = directory, system_tracks
        self.directory_entries = directory_entries   # what its directory track holds
        self.offsets = [0, 0]                      # index: track; the byte where it starts
        for track in range(1, tracks + 1):
            self.offsets.append(self.offsets[-1] + sectors_in(track) * 256)
        self.size = self.offsets[-1]
        self.sectors = self.size // 256

    def free_count(self, sector_of, track):
        """The BAM's count of free sectors on a track (sector_of(track, sector): bytes)."""
        if self.kind == "d81":
            bam = sector_of(40, 1 if track <= 40 else 2)
            return bam[0x10 + 6 * ((track - 1) % 40)]
        bam = sector_of(18, 0)
        if track <= 35:
            return bam[4 * track]
        if self.kind == "d71":
            return bam[0xDD + track - 36]
        return 0                                   # (40-track .d64: DOS extensions differ; not counted)


# (directory entries: 18 sectors of track 18 on a 1541 and 1571, 37 of track 40 on a 1581)
D64 = DiskFormat("d64", 35, _sectors_1541, (18, 0), 0x90, 0xA2, 0xA5, (18, 1), (18,), 144)
D64_40 = DiskFormat("d64", 40, _sectors_1541, (18, 0), 0x90, 0xA2, 0xA5, (18, 1), (18,), 144)
D71 = DiskFormat("d71", 70, lambda track: _sectors_1541(track - 35 if track > 35 else track),
                 (18, 0), 0x90, 0xA2, 0xA5, (18, 1), (18, 53), 144)
D81 = DiskFormat("d81", 80, lambda track: 40, (40, 0), 0x04, 0x16, 0x19, (40, 3), (40,), 296)

# size of the file -> (format, has error bytes)
IMAGE_SIZES = {}
for _format in (D64, D64_40, D71, D81):
    IMAGE_SIZES[_format.size] = (_format, False)
    IMAGE_SIZES[_format.size + _format.sectors] = (_format, True)
EXTENSIONS = (".d64", ".d71", ".d81")


class DirectoryEntry:
    """One file of the image: its name (PETSCII bytes, padding removed), type, whether it
    was closed, its first sector and its size in blocks as the directory says."""

    def __init__(self, name, file_type, closed, locked, track, sector, blocks):
        self.name, self.type, self.closed, self.locked = name, file_type, closed, locked
        self.track, self.sector, self.blocks = track, sector, blocks


class DiskImage:
    """A disk image in memory (`data`, the file's bytes; `where` names it in messages)."""

    def __init__(self, data, where="the disk image"):
        self.where = where
        shape = IMAGE_SIZES.get(len(data))
        if shape is None:
            raise _wrong_size(where, len(data))
        self.format, has_errors = shape
        # (the error bytes, one a sector, are kept as they are when the image is written)
        self._error_bytes = self.format.size if has_errors else None
        self.kind, self.tracks = self.format.kind, self.format.tracks
        self.data = bytes(data)
        self.reread()

    def reread(self):
        """Read the header, the free count and the directory from `data` (again, after a change)."""
        header = self.sector(*self.format.header)
        self.name = _unpadded(header[self.format.name_at:self.format.name_at + 16])
        self.id = header[self.format.id_at:self.format.id_at + 2]
        self.dos_type = header[self.format.dos_at:self.format.dos_at + 2]
        self.free_blocks = sum(self.format.free_count(self.sector, track)
                               for track in range(1, self.tracks + 1)
                               if track not in self.format.system_tracks)
        # The first sector of the header or the directory the error bytes mark bad: the
        # drive's read error for it (ImageError), met by whatever reads the directory past
        # it; the entries before it read as ever.
        self.directory_error = self._marked_bad(*self.format.header)
        self.listed = self._read_directory() if self.directory_error is None else []
        self.entries = [entry for entry in self.listed if entry.type != "del"]

    def sector(self, track, sector):
        """The 256 bytes of a sector; ImageError if the disk has no such sector."""
        if not 1 <= track <= self.tracks or not 0 <= sector < self.format.sectors_in(track):
            raise ImageError("%s is damaged: a link points to track %d sector %d, which a %d-track "
                             "disk does not have" % (self.where, track, sector, self.tracks), track, sector)
        start = self.format.offsets[track] + sector * 256
        return bytes(self.data[start:start + 256])

    def read_error(self, track, sector):
        """The drive error (20-29) the image's error byte names for a sector, or 0 (none,
        or an image without error bytes)."""
        if self._error_bytes is None:
            return 0
        return READ_ERRORS.get(self.data[self._error_bytes + self.format.offsets[track] // 256 + sector], 0)

    def _marked_bad(self, track, sector):
        """The ImageError (the drive's read error) for a header or directory sector the
        image's error bytes mark bad, or None."""
        error = self.read_error(track, sector)
        if not error:
            return None
        return ImageError("%s: track %d sector %d of the directory is marked bad (its error byte "
                          "says error %d)" % (self.where, track, sector, error), track, sector, error)

    def _read_directory(self):
        """Every entry a drive lists, in the directory's order: the files, and the closed
        DEL entries ($80: a 1541 lists them as DEL, though no LOAD reaches them)."""
        entries = []
        seen = set()
        track, sector = self.format.directory
        while track:
            if (track, sector) in seen:
                raise ImageError("%s is damaged: its directory chain comes back to track %d sector %d"
                                 % (self.where, track, sector), track, sector)
            seen.add((track, sector))
            block = self.sector(track, sector)
            self.directory_error = self._marked_bad(track, sector)
            if self.directory_error is not None:
                break
            for offset in range(0, 256, 32):
                raw = block[offset:offset + 32]
                kind = raw[2]
                if kind & 7 not in FILE_TYPES and kind & 0x87 != CLOSED_DEL:
                    continue                       # an empty or scratched slot, partitions
                entries.append(DirectoryEntry(
                    name=_unpadded(raw[5:21]), file_type=FILE_TYPES.get(kind & 7, "del"),
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
                                 % (self.where, _show(entry.name), track, sector), track, sector)
            seen.add((track, sector))
            block = self.sector(track, sector)
            error = self.read_error(track, sector)
            if error:
                raise ImageError("%s: track %d sector %d of the file %s is marked bad (its error "
                                 "byte says error %d)" % (self.where, track, sector, _show(entry.name), error),
                                 track, sector, error)
            if block[0] == 0:
                if block[1] < 1:
                    raise ImageError("%s is damaged: the last sector of %s (track %d sector %d) "
                                     "says it holds no byte" % (self.where, _show(entry.name), track, sector),
                                     track, sector)
                out += block[2:block[1] + 1]
                break
            out += block[2:]
            if limit is not None and len(out) >= limit:
                break
            track, sector = block[0], block[1]
        return bytes(out if limit is None else out[:limit])


def _wrong_size(where, size):
    return ImageError("%s is not a disk image: %s bytes, where a .d64 holds 174,848 (35 tracks) "
                      "or 196,608 (40), a .d71 349,696 and a .d81 819,200, or those with an "
                      "error byte a sector after them" % (where, format(size, ",")))


def _unpadded(name):
    return bytes(name).rstrip(bytes([SHIFTED_SPACE]))


def _show(name):
    return '"%s"' % "".join(chr(b) if 0x20 <= b < 0x7F else "?" for b in name)


def read_image(path):
    """The DiskImage of the file at path; ImageError (for a user) if it cannot be one."""
    try:
        # non-blocking, and only a regular file: a FIFO named like an image must not hang us
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as handle:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):
                raise ImageError("%s is not a disk image: not a regular file" % path)
            size = os.fstat(fd).st_size
            if size not in IMAGE_SIZES:
                raise _wrong_size(path, size)           # (its own size: it is not read)
            data = handle.read(max(IMAGE_SIZES) + 1)
    except FileNotFoundError:
        raise ImageError("no such disk image: %s" % path) from None
    except IsADirectoryError:
        raise ImageError("%s is a folder, not a disk image" % path) from None
    except OSError as error:
        raise ImageError("cannot read %s: %s" % (path, error.strerror or error)) from None
    return DiskImage(data, path)


def is_image_name(path):
    """True for a path named like a disk image (.d64, .d71, .d81)."""
    return path.lower().endswith(EXTENSIONS)
