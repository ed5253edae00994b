"""A small .d64 writer for the tests: a 35-track 1541 disk with files laid out as the DOS
lays them out (written from the format's description, independently of kernal/d64.py).

    image = D64Writer(b"TEST DISK", b"T1")
    image.add(b"HELLO", "prg", data)           # data: the file's bytes (load address first)
    raw = image.bytes()

Files take free sectors track by track away from track 18, the directory grows from 18/1
in sectors 18/4, 18/7, ... (eight entries each); the BAM at 18/0 counts what is free.
`scratch(name)`, `unclosed(name)` and the sector helpers make the odd and damaged
disks the tests need.
"""

SECTORS = [0] + [21] * 17 + [19] * 7 + [18] * 6 + [17] * 5     # index: track 1-35
PADDING = 0xA0
TYPE_CODES = {"del": 0, "seq": 1, "prg": 2, "usr": 3, "rel": 4}


def offset(track, sector):
    return (sum(SECTORS[1:track]) + sector) * 256


class D64Writer:
    def __init__(self, name=b"TEST DISK", disk_id=b"T1"):
        self.image = bytearray(sum(SECTORS) * 256)
        self.used = {track: set() for track in range(1, 36)}
        self.name, self.disk_id = name, disk_id
        self.entries = []            # (raw 32-byte entry) in directory order
        self.used[18].update({0, 1})

    def _allocate(self):
        for track in list(range(17, 0, -1)) + list(range(19, 36)):
            for sector in range(SECTORS[track]):
                if sector not in self.used[track]:
                    self.used[track].add(sector)
                    return track, sector
        raise ValueError("disk full")

    def add(self, name, file_type, data, closed=True):
        """Write a file; returns its (track, sector) chain."""
        chunks = [data[i:i + 254] for i in range(0, len(data), 254)] or [b""]
        chain = [self._allocate() for _ in chunks]
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

    def scratch(self, name):
        for entry in self.entries:
            if entry[5:21].rstrip(bytes([PADDING])) == name:
                entry[2] = 0

    def put(self, track, sector, block):
        self.image[offset(track, sector):offset(track, sector) + 256] = bytes(block)

    def get(self, track, sector):
        return bytearray(self.image[offset(track, sector):offset(track, sector) + 256])

    def bytes(self):
        """The image: the directory and BAM written now."""
        directory_sectors = [1]
        while len(directory_sectors) * 8 < len(self.entries):
            sector = directory_sectors[-1] + 3
            directory_sectors.append(sector % 19)
            self.used[18].add(sector % 19)
        for index, sector in enumerate(directory_sectors):
            block = bytearray(256)
            if index + 1 < len(directory_sectors):
                block[0], block[1] = 18, directory_sectors[index + 1]
            else:
                block[0], block[1] = 0, 0xFF
            for slot, entry in enumerate(self.entries[index * 8:index * 8 + 8]):
                block[slot * 32 + 2:slot * 32 + 32] = entry[2:]
            self.put(18, sector, block)
        bam = bytearray(256)
        bam[0], bam[1], bam[2] = 18, 1, 0x41
        for track in range(1, 36):
            free = [s for s in range(SECTORS[track]) if s not in self.used[track]]
            bits = sum(1 << s for s in free)
            bam[4 * track:4 * track + 4] = bytes([len(free), bits & 0xFF, (bits >> 8) & 0xFF, bits >> 16])
        bam[0x90:0xA0] = self.name.ljust(16, bytes([PADDING]))
        bam[0xA0:0xA2] = bytes([PADDING, PADDING])
        bam[0xA2:0xA4] = self.disk_id
        bam[0xA4] = PADDING
        bam[0xA5:0xA7] = b"2A"
        bam[0xA7:0xAB] = bytes([PADDING] * 4)
        self.put(18, 0, bam)
        return bytes(self.image)

    def free_blocks(self):
        return sum(SECTORS[t] - len(self.used[t]) for t in range(1, 36) if t != 18)
