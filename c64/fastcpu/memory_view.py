"""What the translator knows about memory under one configuration (MemoryView).
"""


class MemoryView:
    """What the translator knows about memory under one configuration."""

    def __init__(self, memory, c64):
        """memory: what the CPU reads; c64: True for a C64Memory (banking, I/O), False for a
        plain 64 KB list (all RAM)."""
        self.c64 = c64
        if self.c64:
            ram, rom = memory.ram, memory.rom
            self.read_kind = ["ram" if s is ram else "rom" if s is rom else "io"
                              for s in memory.page_sources]
            self.write_kind = ["io" if w else "ram" for w in memory.page_writes_io]
            self.sources = list(memory.page_sources)
        else:
            self.read_kind = ["ram"] * 256
            self.write_kind = ["ram"] * 256
            self.sources = [memory] * 256
        self.read_top = self._top(self.read_kind)     # reads of 2..read_top-1 are plain RAM
        self.write_top = self._top(self.write_kind)
        # All a block's translation takes from the view (block_cache.translation_key).
        self.signature = (c64, "".join(kind[0] for kind in self.read_kind),
                          "".join(kind[0] for kind in self.write_kind))

    @staticmethod
    def _top(kinds):
        page = 0
        while page < 256 and kinds[page] == "ram":
            page += 1
        return page << 8

    def range_kind(self, kinds, lo, hi):
        """'ram', 'rom' or 'mem' (mixed or I/O) for every address of lo..hi (hi may pass $FFFF)."""
        if self.c64 and hi >= 0x10001:
            return "mem"
        found = set()
        for page in range(lo >> 8, (hi >> 8) + 1):
            found.add(kinds[page & 0xFF])
        if len(found) == 1:
            kind = found.pop()
            return kind if kind in ("ram", "rom") else "mem"
        return "mem"

    def write_range_kind(self, lo, hi):
        """Like range_kind for stores: the processor port $00/$01 needs C64Memory."""
        if self.c64 and lo <= 1:
            return "mem"
        return self.range_kind(self.write_kind, lo, hi)
