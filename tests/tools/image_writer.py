"""A small disk image writer for the tests: a .d64 (35-track 1541), .d71 (1571, both sides)
or .d81 (1581) with files laid out as the drives' DOS lays them out (written from the
formats' description, independently of kernal/disk_formats.py).

    image = ImageWriter(b"TEST DISK", b"T1")              # kind="d71", "d81" for the others
    image.add(b"HELLO", "prg", data)           # data: the file's bytes (load address first)
    raw = image.bytes()

Files take free sectors track by track away from the directory track; the directory
grows from its first sector (18/1 then 18/4, 18/7, ..., 18/16, 18/2, ...; on a .d81 40/3,
40/4, ...),
eight entries a sector; the BAM counts what is free.  `scratch(name)`, the `closed`
flag of `add`, a chain of one's choice (`add(..., chain=[(17, 0), (18, 7)])`), DEL and
REL files (`add_rel`), 1581 partitions (`add_partition`), a BAM that lies (`lie_free`)
and the sector helpers make the odd and damaged disks the tests need.
"""

PADDING = 0xA0
TYPE_CODES = {"del": 0, "seq": 1, "prg": 2, "usr": 3, "rel": 4}
SIDE = [0] + [21] * 17 + [19] * 7 + [18] * 6 + [17] * 5     # index: track 1-35 of a 1541 side
SECTORS = {"d64": SIDE, "d71": SIDE + SIDE[1:], "d81": [0] + [40] * 80}
DIRECTORY_TRACK = {"d64": 18, "d71": 18, "d81": 40}


def offset(track, sector, kind="d64"):
    return (sum(SECTORS[kind][1:track]) + sector) * 256


class ImageWriter:
    def __init__(self, name=b"TEST DISK", disk_id=b"T1", kind="d64"):
        self.kind = kind
        self.sectors = SECTORS[kind]
        self.tracks = len(self.sectors) - 1
        self.home = DIRECTORY_TRACK[kind]
        self.image = bytearray(sum(self.sectors) * 256)
        self.used = {track: set() for track in range(1, self.tracks + 1)}
        self.name, self.disk_id = name, disk_id
        self.entries = []            # (raw 32-byte entry) in directory order
        self.lies = set()            # (track, sector) the BAM calls free whatever holds them
        if kind == "d81":
            self.used[40].update({0, 1, 2, 3})
        else:
            self.used[18].update({0, 1})
        if kind == "d71":
            self.used[53].update(range(self.sectors[53]))     # the second side's BAM track

    def _allocate(self):
        order = list(range(self.home - 1, 0, -1)) + list(range(self.home + 1, self.tracks + 1))
        for track in order:
            for sector in range(self.sectors[track]):
                if sector not in self.used[track]:
                    self.used[track].add(sector)
                    return track, sector
        raise ValueError("disk full")

    def add(self, name, file_type, data, closed=True, chain=None):
        """Write a file (on the sectors of `chain` if given: one a 254 bytes); returns its
        (track, sector) chain."""
        chunks = [data[i:i + 254] for i in range(0, len(data), 254)] or [b""]
        if chain is None:
            chain = [self._allocate() for _ in chunks]
        else:
            assert len(chain) == len(chunks)
            for track, sector in chain:
                self.used[track].add(sector)
        for index, (chunk, (track, sector)) in enumerate(zip(chunks, chain)):
            block = bytearray(256)
            if index + 1 < len(chain):
                block[0], block[1] = chain[index + 1]
            else:
                block[0], block[1] = 0, len(chunk) + 1
            block[2:2 + len(chunk)] = chunk
            self.put(track, sector, block)
        entry = bytearray(32)
        entry[2] = TYPE_CODES[file_type] | (0x80 if closed else 0)
        entry[3], entry[4] = chain[0]
        entry[5:21] = name.ljust(16, bytes([PADDING]))
        entry[30], entry[31] = len(chain) & 0xFF, len(chain) >> 8
        self.entries.append(entry)
        return chain

    def add_rel(self, name, data, record_length=64):
        """A REL file: its data chain and one side sector (at most 120 data sectors);
        returns (the data chain, the side sector)."""
        chain = self.add(name, "rel", data)
        side = self._allocate()
        block = bytearray(256)
        block[0], block[1] = 0, 15 + 2 * len(chain)
        block[2], block[3] = 0, record_length
        block[4], block[5] = side
        for index, (track, sector) in enumerate(chain):
            block[16 + 2 * index], block[17 + 2 * index] = track, sector
        self.put(*side, block)
        entry = self.entries[-1]
        entry[21], entry[22], entry[23] = side[0], side[1], record_length
        entry[30] += 1
        return chain, side

    def add_partition(self, name, track, sector, blocks):
        """A 1581 partition (type 5): `blocks` sectors in disk order from (track, sector)."""
        start = offset(track, sector, self.kind) // 256
        for index in range(start, start + blocks):
            self.used[1 + index // 40].add(index % 40)
        entry = bytearray(32)
        entry[2], entry[3], entry[4] = 0x85, track, sector
        entry[5:21] = name.ljust(16, bytes([PADDING]))
        entry[30], entry[31] = blocks & 0xFF, blocks >> 8
        self.entries.append(entry)

    def lie_free(self, track, sector):
        """Have the BAM call a sector free whatever holds it."""
        self.lies.add((track, sector))

    def add_damaged(self, name):
        """A 3-block file whose second sector links to sector 30 of track 17 (a 21-sector
        track); returns its chain."""
        chain = self.add(name, "prg", bytes(600))
        block = self.get(*chain[1])
        block[0], block[1] = 17, 30
        self.put(*chain[1], block)
        return chain

    def scratch(self, name):
        for entry in self.entries:
            if entry[5:21].rstrip(bytes([PADDING])) == name:
                entry[2] = 0

    def put(self, track, sector, block):
        start = offset(track, sector, self.kind)
        self.image[start:start + 256] = bytes(block)

    def get(self, track, sector):
        start = offset(track, sector, self.kind)
        return bytearray(self.image[start:start + 256])

    def _directory_sectors(self):
        first = 3 if self.kind == "d81" else 1
        sectors = self.directory = getattr(self, "directory", [first])    # (kept for the next bytes())
        while len(sectors) * 8 < len(self.entries):
            step = 1 if self.kind == "d81" else 3
            following = (sectors[-1] + step) % self.sectors[self.home]
            while following in self.used[self.home]:            # the next free one on
                following = (following + 1) % self.sectors[self.home]
            sectors.append(following)
            self.used[self.home].add(following)
        return sectors

    def bytes(self):
        """The image: the directory and BAM written now."""
        sectors = self._directory_sectors()
        for index, sector in enumerate(sectors):
            block = bytearray(256)
            if index + 1 < len(sectors):
                block[0], block[1] = self.home, sectors[index + 1]
            else:
                block[0], block[1] = 0, 0xFF
            for slot, entry in enumerate(self.entries[index * 8:index * 8 + 8]):
                block[slot * 32 + 2:slot * 32 + 32] = entry[2:]
            self.put(self.home, sector, block)
        if self.kind == "d81":
            self._write_1581_header_and_bam()
        else:
            self._write_1541_bam()
        return bytes(self.image)

    def _free(self, track):
        free = [s for s in range(self.sectors[track]) if s not in self.used[track] or (track, s) in self.lies]
        return len(free), sum(1 << s for s in free)

    def _write_1541_bam(self):
        bam = bytearray(256)
        bam[0], bam[1], bam[2] = 18, 1, 0x41
        for track in range(1, 36):
            count, bits = self._free(track)
            bam[4 * track:4 * track + 4] = bytes([count, bits & 0xFF, (bits >> 8) & 0xFF, bits >> 16])
        bam[0x90:0xA0] = self.name.ljust(16, bytes([PADDING]))
        bam[0xA0:0xA2] = bytes([PADDING, PADDING])
        bam[0xA2:0xA4] = self.disk_id
        bam[0xA4] = PADDING
        bam[0xA5:0xA7] = b"2A"
        bam[0xA7:0xAB] = bytes([PADDING] * 4)
        if self.kind == "d71":
            bam[3] = 0x80                                  # double-sided
            side2 = bytearray(256)
            for track in range(36, 71):
                count, bits = self._free(track)
                bam[0xDD + track - 36] = count
                side2[3 * (track - 36):3 * (track - 36) + 3] = bytes([bits & 0xFF, (bits >> 8) & 0xFF, bits >> 16])
            self.put(53, 0, side2)
        self.put(18, 0, bam)

    def _write_1581_header_and_bam(self):
        header = bytearray(256)
        header[0], header[1], header[2] = 40, 3, ord("D")
        header[4:0x14] = self.name.ljust(16, bytes([PADDING]))
        header[0x14:0x16] = bytes([PADDING, PADDING])
        header[0x16:0x18] = self.disk_id
        header[0x18] = PADDING
        header[0x19:0x1B] = b"3D"
        header[0x1B:0x1D] = bytes([PADDING, PADDING])
        self.put(40, 0, header)
        for half, sector in ((0, 1), (1, 2)):
            bam = bytearray(256)
            bam[0], bam[1] = (40, 2) if half == 0 else (0, 0xFF)
            bam[2], bam[3] = ord("D"), 0xBB
            bam[4:6] = self.disk_id
            bam[6] = 0xC0
            for index in range(40):
                count, bits = self._free(half * 40 + index + 1)
                bam[0x10 + 6 * index:0x16 + 6 * index] = bytes([count]) + bits.to_bytes(5, "little")
            self.put(40, sector, bam)

    def free_blocks(self):
        system = {"d64": (18,), "d71": (18, 53), "d81": (40,)}[self.kind]
        return sum(self.sectors[t] - len(self.used[t]) for t in range(1, self.tracks + 1) if t not in system)



def bam_of(raw, kind):
    """{track: (free count, set of sectors the bitmap says are free)} of an image's BAM, read
    from the layout this writer writes (tracks 1-35 of a .d64)."""
    sectors = SECTORS[kind]

    def sector_at(track, sector):
        start = offset(track, sector, kind)
        return raw[start:start + 256]
    out = {}
    last = 35 if kind == "d64" else len(sectors) - 1
    for track in range(1, last + 1):
        if kind == "d81":
            bam = sector_at(40, 1 if track <= 40 else 2)
            at = 0x10 + 6 * ((track - 1) % 40)
            count, bits = bam[at], int.from_bytes(bam[at + 1:at + 6], "little")
        elif track <= 35:
            bam = sector_at(18, 0)
            count, bits = bam[4 * track], int.from_bytes(bam[4 * track + 1:4 * track + 4], "little")
        else:
            count = sector_at(18, 0)[0xDD + track - 36]
            bits = int.from_bytes(sector_at(53, 0)[3 * (track - 36):3 * (track - 36) + 3], "little")
        out[track] = (count, {s for s in range(sectors[track]) if bits >> s & 1})
    return out


def _sector_reader(raw, kind):
    def sector_at(track, sector):
        start = offset(track, sector, kind)
        return raw[start:start + 256]
    return sector_at


def directory_chain(raw, kind):
    """The directory's sectors, in order."""
    sector_at = _sector_reader(raw, kind)
    chain = []
    track, sector = DIRECTORY_TRACK[kind], 3 if kind == "d81" else 1
    while track:
        assert (track, sector) not in chain
        chain.append((track, sector))
        track, sector = sector_at(track, sector)[0], sector_at(track, sector)[1]
    return chain


def owners(raw, kind, strict=True):
    """[(slot number, raw 32-byte entry, set of the sectors it owns)] for every directory
    entry in use: a file's chain (DEL and unclosed files too), a REL file's side sectors,
    a 1581 partition's range.  `strict`: AssertionError on a chain that leaves the disk or
    comes back; otherwise such a chain ends there."""
    sectors = SECTORS[kind]
    sector_at = _sector_reader(raw, kind)

    def follow(t, s):
        chain = []
        while t:
            ok = 1 <= t < len(sectors) and s < sectors[t] and (t, s) not in chain
            assert ok or not strict, (t, s)
            if not ok:
                break
            chain.append((t, s))
            t, s = sector_at(t, s)[0], sector_at(t, s)[1]
        return set(chain)
    out = []
    for number, (track, sector) in enumerate(directory_chain(raw, kind)):
        block = sector_at(track, sector)
        for slot in range(8):
            entry = block[32 * slot:32 * slot + 32]
            if not entry[2]:
                continue
            if entry[2] & 7 == 5 and kind == "d81":
                first = offset(entry[3], entry[4], kind) // 256
                owned = {(1 + i // 40, i % 40) for i in range(first, first + entry[30] + 256 * entry[31])}
            else:
                owned = follow(entry[3], entry[4])
                if entry[2] & 7 == 4:
                    owned |= follow(entry[21], entry[22])
            out.append((8 * number + slot, bytes(entry), owned))
    return out


def chains_of(raw, kind):
    """Every (track, sector) the directory's chain and its entries use (see owners)."""
    used = set(directory_chain(raw, kind))
    for _, _, owned in owners(raw, kind):
        assert not owned & used
        used |= owned
    return used


SYSTEM_TRACKS = {"d64": {18}, "d71": {18, 53}, "d81": {40}}


def check_bam_in_step(raw, kind):
    """AssertionError unless the BAM marks exactly the sectors the directory and the files
    use (system tracks: none of those they use is free) and each track's count is its
    bitmap's; returns the blocks free the BAM counts."""
    bam = bam_of(raw, kind)
    used = chains_of(raw, kind)
    for track, (count, free) in bam.items():
        assert count == len(free), "track %d: count %d, bitmap %d" % (track, count, len(free))
        if track in SYSTEM_TRACKS[kind]:
            assert not free & {s for t, s in used if t == track}
            continue
        assert free == {s for s in range(SECTORS[kind][track]) if (track, s) not in used}, track
    return sum(count for track, (count, _) in bam.items() if track not in SYSTEM_TRACKS[kind])
