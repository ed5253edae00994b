"""Changing a disk image as its drive's DOS would: files written, replaced, scratched and
renamed, the BAM (block availability map) kept in step.

Where each format keeps a track's free count and bitmap (a bit set: the sector is free,
sector s in byte s // 8, bit s % 8):

* .d64 and a .d71's first side: the BAM sector 18/0, four bytes a track from offset 4
  (the count, then three bitmap bytes).  Tracks 36-40 of a 40-track .d64 are where DOS
  extensions disagree: nothing is written there.
* a .d71's second side (tracks 36-70): the counts in 18/0 at $DD-$FF, the bitmaps in
  53/0, three bytes a track.
* .d81: 40/1 for tracks 1-40, 40/2 for 41-80, six bytes a track from offset $10 (the
  count, then five bitmap bytes).

New files take sectors as the drives do: the track nearest the directory track first,
going out on both sides, and in a track every tenth sector on a 1541/1571 disk (the
interleave that lets its DOS read on while the C64 takes the last sector), the next one
on a 1581.  The directory grows on its own track (1541/1571: three sectors on; 144
entries on a 1541 or 1571, 296 on a 1581).  A file that does not fit, or a directory
that is full, changes nothing (DiskFull).  The BAM is not trusted for what is in use:
before a sector is handed out, the sectors that are really taken are worked out from the
disk itself -- the header and BAM, the directory's chain, and what every entry of the
directory owns (a file's chain, DEL and unclosed files' too, a REL file's side sectors,
a 1581 partition's range) -- and none of them is taken, whatever the BAM says; nor is a
sector the image's error bytes mark bad.  The N command formats (an empty directory,
every sector free but the system's), V validates (files never closed removed, the BAM
made anew from what the entries own).
"""

from kernal.disk_formats import SHIFTED_SPACE, DiskImage

TYPE_CODES = {"seq": 1, "prg": 2, "usr": 3, "rel": 4}
CLOSED = 0x80


class DiskFull(Exception):
    """The file does not fit: the message says how many blocks it needed and had."""


class ImageEditor:
    """Edits a DiskImage's bytes in place (`image.data` becomes a bytearray); the caller
    saves `image.data` and calls image.reread() once a change is made."""

    def __init__(self, image):
        self.image = image
        self.format = image.format
        if not isinstance(image.data, bytearray):
            image.data = bytearray(image.data)
        self.data = image.data
        self.directory_track = self.format.directory[0]
        self.interleave = 1 if self.format.kind == "d81" else 10

    # -- sectors and the BAM ---------------------------------------------------------------
    def _at(self, track, sector):
        return self.format.offsets[track] + sector * 256

    def _bam_entry(self, track):
        """(offset of the free count, offset of the bitmap's first byte, bitmap bytes)."""
        kind = self.format.kind
        if kind == "d81":
            base = self._at(40, 1 if track <= 40 else 2) + 0x10 + 6 * ((track - 1) % 40)
            return base, base + 1, 5
        if track <= 35:
            base = self._at(18, 0) + 4 * track
            return base, base + 1, 3
        return self._at(18, 0) + 0xDD + track - 36, self._at(53, 0) + 3 * (track - 36), 3

    def _writable_tracks(self):
        last = 35 if self.format.kind == "d64" else self.format.tracks
        return [t for t in range(1, last + 1) if t not in self.format.system_tracks]

    def is_free(self, track, sector):
        _, bits, _ = self._bam_entry(track)
        return bool(self.data[bits + sector // 8] & (1 << (sector % 8)))

    def _mark(self, track, sector, free):
        """Set a sector's bit (free or used) and recount its track's free sectors."""
        count, bits, _ = self._bam_entry(track)
        mask = 1 << (sector % 8)
        if free:
            self.data[bits + sector // 8] |= mask
        else:
            self.data[bits + sector // 8] &= ~mask & 0xFF
        self.data[count] = sum(self.data[bits + s // 8] >> (s % 8) & 1
                               for s in range(self.format.sectors_in(track)))

    def free_sectors(self):
        return sum(1 for track in self._writable_tracks()
                   for sector in range(self.format.sectors_in(track)) if self.is_free(track, sector))

    def _allocation_order(self):
        home = self.directory_track
        tracks = self._writable_tracks()
        return sorted(tracks, key=lambda t: (abs(t - home) if t <= 35 or self.format.kind == "d81"
                                             else 35 + abs(t - 53), t > home))

    def _system_sectors(self):
        """The header and BAM sectors, which no file or directory sector may take."""
        system = {self.format.header}
        if self.format.kind == "d81":
            system |= {(40, 1), (40, 2)}
        elif self.format.kind == "d71":
            system.add((53, 0))
        return system

    def _reserved(self, skip=None):
        """Every sector that must not be handed out, whatever the BAM says: the header and
        BAM, the directory's chain, every sector a directory entry owns (but `skip`'s, a
        DirectoryEntry being replaced) and the sectors the image's error bytes mark bad."""
        skip_slot = self._slot_of(skip) if skip is not None else None
        reserved = self._system_sectors() | set(self._follow(*self.format.directory))
        for slot, sectors in self._owners().items():
            if slot != skip_slot:
                reserved |= sectors
        return reserved | self._bad_sectors()

    def _bad_sectors(self):
        return {(track, sector) for track in range(1, self.format.tracks + 1)
                for sector in range(self.format.sectors_in(track)) if self.image.read_error(track, sector)}

    def _owners(self):
        """{slot: the sectors its entry owns} for every entry of the directory in use:
        files listed or not (DEL, unclosed, odd types), a file's chain, a REL file's side
        sectors too, a 1581 partition its range."""
        slots, _ = self._directory_slots()
        return {slot: self._entry_sectors(slot) for slot in slots if self.data[slot]}

    def _entry_sectors(self, slot):
        """The sectors the entry at `slot` (the offset of its byte 2, the type) owns."""
        kind, track, sector = self.data[slot], self.data[slot + 1], self.data[slot + 2]
        if kind & 7 == 5 and self.format.kind == "d81":
            return self._partition(track, sector, self.data[slot + 28] | self.data[slot + 29] << 8)
        owned = set(self._follow(track, sector))
        if kind & 7 == 4:                          # REL: the side sectors at +21/+22
            side = self._follow(self.data[slot + 19], self.data[slot + 20])
            owned.update(side)
            if side and self.format.kind == "d81" and self.data[self._at(*side[0]) + 2] == 0xFE:
                at = self._at(*side[0])            # a super side sector: its groups from byte 3
                for group in range(126):
                    if not self.data[at + 3 + 2 * group]:
                        break
                    owned.update(self._follow(self.data[at + 3 + 2 * group], self.data[at + 4 + 2 * group]))
        return owned

    def _partition(self, track, sector, blocks):
        """A 1581 partition's sectors: `blocks` of them from (track, sector), in disk order."""
        if not 1 <= track <= self.format.tracks or sector >= self.format.sectors_in(track):
            return set()
        first = self.format.offsets[track] // 256 + sector
        last = min(first + blocks, self.format.sectors)
        return {(1 + index // 40, index % 40) for index in range(first, last)}

    def _allocate(self, count, skip=None):
        """`count` free sectors in the order the DOS would take them (nothing marked yet).
        A sector the BAM says is free but the directory or a file uses is passed over: a
        wrong BAM (a disk not validated) would have the DOS write over it; we do not."""
        chosen = []
        taken = self._reserved(skip)
        for track in self._allocation_order():
            sectors = self.format.sectors_in(track)
            sector = 0
            while len(chosen) < count:
                for step in range(sectors):
                    candidate = (sector + step) % sectors
                    if (track, candidate) not in taken and self.is_free(track, candidate):
                        break
                else:
                    break                                   # the track is full: the next one
                chosen.append((track, candidate))
                taken.add((track, candidate))
                sector = (candidate + self.interleave) % sectors
            if len(chosen) == count:
                return chosen
        raise DiskFull("%d blocks needed, %d free" % (count, self.free_sectors()))

    # -- files -------------------------------------------------------------------------------
    def write_file(self, name, file_type, data, replacing=None):
        """Write a file's bytes under `name` (PETSCII); `replacing`: the DirectoryEntry it
        replaces (its blocks count as free, its directory slot is reused).  DiskFull when it
        does not fit: nothing changed then."""
        chunks = [data[i:i + 254] for i in range(0, len(data), 254)] or [b""]
        old_chain = self._freed_by(replacing) if replacing is not None else []
        for track, sector in old_chain:
            self._mark(track, sector, True)
        try:
            chain = self._allocate(len(chunks), skip=replacing)
            slot = self._slot_of(replacing) if replacing is not None else self._free_slot()
        except DiskFull:
            for track, sector in old_chain:
                self._mark(track, sector, False)
            raise
        for index, (chunk, (track, sector)) in enumerate(zip(chunks, chain)):
            block = bytearray(256)
            block[0:2] = bytes(chain[index + 1]) if index + 1 < len(chain) else bytes([0, len(chunk) + 1])
            block[2:2 + len(chunk)] = chunk
            self.data[self._at(track, sector):self._at(track, sector) + 256] = block
            self._mark(track, sector, False)
        entry = bytearray(30)                               # bytes 2-31 of the 32-byte entry
        entry[0] = TYPE_CODES[file_type] | CLOSED
        entry[1], entry[2] = chain[0]
        entry[3:19] = bytes(name[:16]).ljust(16, bytes([SHIFTED_SPACE]))
        entry[28], entry[29] = len(chain) & 0xFF, len(chain) >> 8
        self.data[slot:slot + 30] = entry

    def scratch(self, entry):
        for track, sector in self._freed_by(entry):
            self._mark(track, sector, True)
        self.data[self._slot_of(entry)] = 0

    def _freed_by(self, entry):
        """The sectors that scratching `entry` frees: those it owns that nothing else does
        (a chain crossed with another file's, or the directory's, stays used)."""
        return sorted(self._entry_sectors(self._slot_of(entry)) - self._reserved(skip=entry))

    def rename(self, entry, name):
        slot = self._slot_of(entry)
        self.data[slot + 3:slot + 19] = bytes(name[:16]).ljust(16, bytes([SHIFTED_SPACE]))

    def _follow(self, track, sector):
        """The sectors of a chain from (track, sector), to its end or the first link that
        leaves the disk or comes back."""
        out, seen = [], set()
        while track and (track, sector) not in seen and 1 <= track <= self.format.tracks \
                and sector < self.format.sectors_in(track):
            seen.add((track, sector))
            out.append((track, sector))
            at = self._at(track, sector)
            track, sector = self.data[at], self.data[at + 1]
        return out

    # -- the directory -----------------------------------------------------------------------
    def _directory_slots(self):
        """(offset of byte 2 of each 32-byte entry, in order), and the last directory sector."""
        sectors = self._follow(*self.format.directory)
        slots = [self._at(*where) + 32 * index + 2 for where in sectors for index in range(8)]
        return slots, sectors[-1]

    def _slot_of(self, entry):
        for slot in self._directory_slots()[0]:
            if (self.data[slot] & 7) == TYPE_CODES.get(entry.type) and \
                    (self.data[slot + 1], self.data[slot + 2]) == (entry.track, entry.sector):
                return slot
        raise KeyError("the entry is not in the directory")

    def _free_slot(self):
        slots, (track, sector) = self._directory_slots()
        for slot in slots:
            if self.data[slot] == 0:
                return slot
        home = self.directory_track
        sectors = self.format.sectors_in(home)
        step = 1 if self.format.kind == "d81" else 3
        taken = self._reserved()                   # (the BAM may call the directory's own sectors free)
        for offset in range(sectors):
            candidate = (sector + step + offset) % sectors
            if (home, candidate) not in taken and self.is_free(home, candidate):
                break
        else:
            raise DiskFull("the directory is full")
        self._mark(home, candidate, False)
        at = self._at(home, candidate)
        self.data[at:at + 256] = bytes([0, 0xFF]) + bytes(254)
        previous = self._at(track, sector)
        self.data[previous:previous + 2] = bytes([home, candidate])
        return at + 2

    def validate(self):
        """The DOS's V command: files never closed are removed and the BAM is made anew
        from what the directory's entries own (chains, DEL files' too, REL side sectors,
        1581 partitions) and the directory's chain (all else free)."""
        for entry in self.image.entries:
            if not entry.closed:
                self.data[self._slot_of(entry)] = 0
        self.image.reread()
        kept = self._reserved() - self._bad_sectors()
        for track in self._writable_tracks() + [self.directory_track]:
            for sector in range(self.format.sectors_in(track)):
                self._mark(track, sector, (track, sector) not in kept)

    # -- formatting ----------------------------------------------------------------------------
    def format_disk(self, name, disk_id=None):
        """The DOS's N command: an empty disk named `name` (PETSCII).  With an id (two
        bytes) every sector is cleared, as a full format writes each track; without one
        (a quick format) the directory and BAM are made new and the disk keeps its id."""
        if disk_id is None:
            disk_id = self.image.id.ljust(2, b"0")
        else:
            self.data[:self.format.size] = bytes(self.format.size)
            if len(self.data) > self.format.size:  # (error bytes: every sector written anew reads)
                self.data[self.format.size:] = bytes([1]) * (len(self.data) - self.format.size)
        name = bytes(name[:16]).ljust(16, bytes([SHIFTED_SPACE]))
        if self.format.kind == "d81":
            self._new_1581_header(name, disk_id)
        else:
            self._new_1541_bam(name, disk_id)
        for track in self._writable_tracks():
            for sector in range(self.format.sectors_in(track)):
                self._mark(track, sector, True)
        directory = self._at(*self.format.directory)
        self.data[directory:directory + 256] = bytes([0, 0xFF]) + bytes(254)

    def _new_1541_bam(self, name, disk_id):
        bam = bytearray(256)
        bam[0:4] = bytes([18, 1, 0x41, 0x80 if self.format.kind == "d71" else 0])
        bam[0x90:0xA0] = name
        bam[0xA0:0xAB] = bytes([SHIFTED_SPACE] * 2) + disk_id[:2] + bytes([SHIFTED_SPACE]) + b"2A" + \
            bytes([SHIFTED_SPACE] * 4)
        self.data[self._at(18, 0):self._at(18, 0) + 256] = bam
        if self.format.kind == "d71":
            self.data[self._at(53, 0):self._at(53, 0) + 256] = bytes(256)
        for sector in range(self.format.sectors_in(18)):
            self._mark(18, sector, sector > 1)

    def _new_1581_header(self, name, disk_id):
        header = bytearray(256)
        header[0:4] = bytes([40, 3, 0x44, 0])
        header[4:0x14] = name
        header[0x14:0x1D] = bytes([SHIFTED_SPACE] * 2) + disk_id[:2] + bytes([SHIFTED_SPACE]) + b"3D" + \
            bytes([SHIFTED_SPACE] * 2)
        self.data[self._at(40, 0):self._at(40, 0) + 256] = header
        for sector, link in ((1, (40, 2)), (2, (0, 0xFF))):
            bam = bytes(link) + bytes([0x44, 0xBB]) + disk_id[:2] + bytes([0xC0, 0]) + bytes(248)
            self.data[self._at(40, sector):self._at(40, sector) + 256] = bam
        for sector in range(40):
            self._mark(40, sector, sector > 3)


def blank_image(disk_format, name, disk_id):
    """The bytes of an empty, formatted image of `disk_format` (kernal.disk_formats.D64,
    D71, D81); name and disk_id in PETSCII."""
    image = DiskImage(bytes(disk_format.size))
    ImageEditor(image).format_disk(name, disk_id)
    return bytes(image.data)
