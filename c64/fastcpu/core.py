"""FastCPU: the CPU class (registers as closure cells, run, step, interrupts, traps,
the dispatch table from address to block, and the translation policy).
"""

import operator
import sys
import types

from c64.cpu import CPU, LONGEST_INSTRUCTION
from c64.fastcpu.block_cache import BLOCKS, translation_key
from c64.fastcpu.codegen import BlockBuilder
from c64.fastcpu.compiler import (BLOCK_GLOBALS, CELL_NAMES, DIRECT_CELLS, EXACT_LOOP_CODE, LOOP_CODE,
                                  MASKED_LOOP_CODE, compile_block)
from c64.fastcpu.decode import Decoder, MAX_INSNS
from c64.fastcpu.instructions import BRANCHES
from c64.fastcpu.invalidation import Invalidation
from c64.fastcpu.memory_view import MemoryView
from c64.memory import C64Memory


# A block invalidated this many times by the program's own stores is interpreted from then on.
REWRITE_LIMIT = 6


# A block that a run's limit falls inside this many times gets an exact version (_run_to).
EXACT_AFTER = 4


# Code is compiled the HOT_COUNT-th time it runs (run-once code is only interpreted).
HOT_COUNT = 2


# A rewritten instruction's form (FastCPU._rewritten_at) is compiled the FORM_HOT-th time it runs.
FORM_HOT = 3


def declines():
    """The direct version of a trap routine that has none: the trap handler runs."""
    return False


class FastCPU(Decoder, Invalidation, CPU):
    """CPU with the same observable behaviour, running translated blocks."""

    # Blocks call KERNAL traps they reach through JSR/JMP themselves (False: every trap
    # is its own step, as tests that replay blocks on the reference CPU need).
    inline_traps = True

    def __init__(self, memory, trap_handler=None, pc=0x0000):
        self._cells = {name: types.CellType(0) for name in CELL_NAMES}
        self._closures = {}        # a block's free variable names -> their cells, in order
        for name, cell in (("a", "a"), ("x", "x"), ("y", "y"), ("sp", "sp"), ("pc", "pc"),
                           ("processorCycles", "cyc"), ("fn", "fn"), ("fz", "fz"), ("fc", "fc"),
                           ("fv", "fv"), ("fp", "fp")):
            # (interned: attribute look-ups of a non-interned key miss CPython's fast path)
            self.__dict__[sys.intern("_cell_" + name)] = self._cells[cell]
        self._bound = None
        self.translated_steps = 0      # step() calls that ran translated code (for tests)
        # addr -> the direct version of the trap routine there (set_fast_trap); `_declines`
        # where there is none.  Shared with the blocks (cell ftr).
        self._fast_traps = [declines] * 0x10000
        self._cells["ftr"].cell_contents = self._fast_traps
        # addr -> (source function, cache key) of the direct versions blocks hold inline.
        self._inlines = {}
        self._cells["rk"].cell_contents = -1
        self._cells["ao"].cell_contents = 0
        self._cells["iw"].cell_contents = 0      # 1 while an IRQ waits for I (_run_masked)
        # The most cycles one pass through a translated block can take (Block.span): run()
        # lets blocks run on their own only while none of them can pass its limit.
        self._span_max = LONGEST_INSTRUCTION
        self._limit = 0
        self._interpreting = False    # the shadow is stepping (access_cycle asks it)
        self.last_step = None
        # One bound-method object each, so the tables can be compared with `is`.
        self._miss, self._interpret, self._trap = self._miss, self._interpret, self._trap
        self._break = self._break
        self._breakpoints = frozenset()
        self.breakpoint_hit = False
        # True once code in zero page or on the stack page has been translated: from then
        # on the blocks check stores and pushes there against code_map too (README.md,
        # "Invalidation"); until then they need not, which is what most programs run.
        self.low_code = False
        self._rewritten_bytes = {}   # RAM address -> times translated code rewrote it
        self._volatile = set()       # the addresses rewritten VOLATILE_AFTER times or more
        self._before = {}            # block key -> its bytes when the program's store dropped it
        CPU.__init__(self, memory, trap_handler, pc)
        self._bind(self.memory)

    # -- binding to a memory ---------------------------------------------------------
    def _bind(self, memory):
        """Attach to `memory` (C64Memory or a plain 64 KB list/bytearray); drops all translations."""
        self._bound = memory
        self._c64 = isinstance(memory, C64Memory)
        cells = self._cells
        if self._c64:
            ram = memory.ram
            cm = memory.code_map
            cm[:] = [0] * 0x10000              # (no translation is left to watch)
            if self._code_stored not in memory.code_listeners:
                memory.code_listeners.append(self._code_stored)
            if self._on_bank not in memory.bank_listeners:
                memory.bank_listeners.append(self._on_bank)
            cells["rom"].cell_contents = memory.rom
        else:
            ram = memory
            cm = [0] * 0x10000
            cells["rom"].cell_contents = memory
        self._ram = ram
        self._cm = cm
        cells["ram"].cell_contents = ram
        cells["mem"].cell_contents = memory
        cells["cm"].cell_contents = cm
        cells["inv"].cell_contents = self._code_rewritten
        cells["cpu"].cell_contents = self
        cells["dv"].cell_contents = self._variant
        self._decimal_blocks = {}  # key -> the block compiled for D set
        self._tables = {}
        self._views = {}
        self._decimal_blocks = {}
        self._blocks = {}          # key -> [(start, end, bytes)] of blocks translated from RAM
        self._covers = {}          # address -> keys of RAM blocks holding it
        self._page_blocks = {}     # page -> keys of RAM blocks touching it
        self._page_snap = {}       # page -> (mask of its code bytes, those bytes) as integers
        self._dirty_pages = set()  # pages whose snapshot must be rebuilt
        self._rewrites = {}        # key -> times the program's own stores invalidated it
        self._vectors = {}         # key -> {vector byte: vector address} of the vectors it watches
        self._changing_vectors = set()   # vectors that changed under a block: checked at run time
        self._seen = {}            # key -> visits before it was compiled
        self._first_code = {}      # key -> the RAM bytes there at its first visit (_first_visit)
        self._ended_at_store = {}  # address -> keys of blocks ending with a store there (_note_end)
        self._shadow = CPU(memory)
        self._loop = types.FunctionType(LOOP_CODE, BLOCK_GLOBALS, "run_loop", None,
                                        tuple(cells[n] for n in LOOP_CODE.co_freevars))
        self._masked_loop = types.FunctionType(MASKED_LOOP_CODE, BLOCK_GLOBALS, "masked_loop", None,
                                               tuple(cells[n] for n in MASKED_LOOP_CODE.co_freevars))
        self._exact_loop = types.FunctionType(EXACT_LOOP_CODE, BLOCK_GLOBALS, "exact_loop", None,
                                              tuple(cells[n] for n in EXACT_LOOP_CODE.co_freevars))
        self._on_bank()

    def _config_key(self):
        return self._bound.visible() if self._c64 else ()

    def _on_bank(self):
        key = self._config_key()
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = [self._miss] * 0x10000
            for addr in self._breakpoints:
                table[addr] = self._break
        self._cells["tbl"].cell_contents = table
        self._table = table
        self._key = key

    def _view(self):
        view = self._views.get(self._key)
        if view is None:
            view = self._views[self._key] = MemoryView(self.memory, self._c64)
        return view

    # -- registers: the cells are the registers ------------------------------------------
    def _get_p(self):
        return ((self._cell_fn.cell_contents & 0x80) | ((self._cell_fv.cell_contents & 0x80) >> 1)
                | self._cell_fp.cell_contents | (0 if self._cell_fz.cell_contents else 2)
                | self._cell_fc.cell_contents)

    def _set_p(self, p):
        self._cell_fn.cell_contents = p & 0x80
        self._cell_fz.cell_contents = (p & 2) ^ 2
        self._cell_fc.cell_contents = p & 1
        self._cell_fv.cell_contents = (p & 0x40) << 1
        self._cell_fp.cell_contents = p & 0x3C

    p = property(_get_p, _set_p)

    def _set_trap_handler(self, handler):
        self.__dict__["_trap_handler"] = handler
        self._cells["trap"].cell_contents = handler
        # The direct versions belong to the handler they stand in for.
        self._fast_traps[:] = [declines] * 0x10000
        if self._inlines:
            self._inlines = {}
            if self._bound is not None:
                self._bind(self._bound)        # (blocks holding one inline are gone)

    def set_fast_trap(self, addr, function, inline=None, shared=None):
        """Give the trap routine at `addr` a direct version, called before the trap handler.

        `function()` (no arguments; normally built with with_registers) either does the
        whole trap itself - the routine, its cycles, the RTS, exactly what the handler
        would do - and returns True, or changes nothing and returns False, and the trap
        handler runs as usual.  Translated blocks call it straight, without the handler's
        layers.  A block that pushed the routine's return address itself, with nothing
        touching the stack since, sets the cell rk to the address the RTS goes to before
        the call (-1 otherwise): the function may use it instead of reading the stack, and
        must set rk back to -1 when it reads it.  None removes it.  Setting trap_handler
        removes them all.

        `inline`, given with a function, is the same work as source for the blocks to hold in
        place of the call: inline(returns_to, write_kind) gives the lines (Python, no
        indentation) that either do the whole trap as the function would and set kd to 1,
        or change nothing and leave kd 0 (the block then calls the function, then the trap
        handler).  returns_to is the address the RTS goes to when the block knows it (-1:
        the lines read the stack); write_kind, per page, "io" where stores reach the chips in
        the block's memory configuration.  The lines use the blocks' names (the register
        cells, ram, cm, mem) and kx, which holds `shared` (one object per CPU), and
        temporaries of their own named k*.  Giving or withdrawing one drops every
        translation, as a block that holds it keeps it."""
        self._fast_traps[addr] = declines if function is None else function
        old = self._inlines.get(addr)
        if function is None or inline is None:
            self._inlines.pop(addr, None)
        else:
            if shared is not None:
                self._cells["kx"].cell_contents = shared
            key = "\n".join(inline(-1, ("io",) * 256) + inline(0, ("ram",) * 256))
            self._inlines[addr] = (inline, key)
        if old != self._inlines.get(addr) and self._bound is not None:
            self._bind(self._bound)

    def inline_trap(self, addr):
        """(source function, key) of the direct version blocks hold inline at `addr`, or None."""
        return self._inlines.get(addr)

    def fast_trap(self, addr):
        """The direct version set for the trap routine at `addr`, or None."""
        function = self._fast_traps[addr]
        return None if function is declines else function

    @property
    def fast_trap_return(self):
        """The cell rk (see set_fast_trap): where the RTS of the direct version being called
        goes when the calling block knows it, else -1."""
        return self._cells["rk"].cell_contents

    # -- inspection, for tests and tools ------------------------------------------------------
    def block_at(self, pc):
        """What runs at pc under the current memory configuration: a translated block (a
        function named block_<pc>), or the CPU's own miss/interpret/trap entry."""
        return self._table[pc]

    def runs_untranslated(self, pc):
        """True when the CPU has settled that pc, under the current memory configuration,
        runs outside translated code: a trap (the KERNAL's Python) or code the translator
        declined (py65 steps it).  False for a translated block and for code not yet run
        often enough to be either."""
        return self._table[pc] in (self._trap, self._interpret)

    def decode(self, pc, limit=MAX_INSNS, single=False):
        """The instructions (Insn) the translator makes one block of, starting at pc."""
        return self._decode(pc, limit, single)

    def volatile_bytes(self):
        """The RAM addresses whose bytes the program rewrites (Invalidation.VOLATILE_AFTER):
        read when a block runs, or run on their own, never translated into a block."""
        return frozenset(self._volatile)

    def rewrite_counts(self):
        """Block key -> times the program's own stores invalidated that block's code."""
        return dict(self._rewrites)

    def changing_vectors(self):
        """The indirect-jump vectors that changed under a block (checked at run time since)."""
        return frozenset(self._changing_vectors)

    trap_handler = property(operator.attrgetter("_trap_handler"), _set_trap_handler)

    # -- running ---------------------------------------------------------------------------------
    def run(self, cycle_limit, verify=True, exact=False, irq_waiting=False):
        """Run blocks until processorCycles >= cycle_limit or stop() is called: with `exact`,
        to the first instruction boundary at or after it (last_step as CPU.run has it),
        else to the first block boundary (a slice's end: nothing falls due there).  With
        `irq_waiting`, also back right after an instruction that leaves the I flag clear
        (CPU.run's irq_waiting: _run_masked).

        verify=False skips looking for RAM written, or banking changed, behind the CPU's
        back (README.md, "Invalidation"): for a caller that knows nothing but the CPU and
        stores through the memory object ran since the last run (the machine's later run
        slices)."""
        self.stop_requested = self.breakpoint_hit = False
        if self.memory is not self._bound:
            self._bind(self.memory)
        elif verify:
            if self._c64 and self._key != self._config_key():
                self._on_bank()       # (the banking changed without rebank(); it tells us)
            self._verify()
        self.last_step = None
        if irq_waiting:
            self._run_masked(cycle_limit, exact)
            return
        if not exact:
            self._limit = cycle_limit + (1 << 40)      # (no block need stop short of it)
            self._cells["lim"].cell_contents = cycle_limit
            self._loop()
            return
        self._limit = cycle_limit
        self._cells["lim"].cell_contents = cycle_limit - self._span_max
        self._loop()
        self._run_to(cycle_limit)

    def _run_to(self, limit):
        """The end of run(): up to the first instruction boundary at or after `limit`, exactly
        (an interrupt is taken between the right instructions).  Blocks that end before it
        run as they are, the rest is stepped one instruction at a time."""
        cyc, lim, pc = self._cell_processorCycles, self._cells["lim"], self._cell_pc
        while not self.stop_requested and cyc.cell_contents < limit:
            self.last_step = None
            self._exact_loop(limit)                    # (the blocks that end before it)
            if self.stop_requested or cyc.cell_contents >= limit:
                break
            entry = self._table[pc.cell_contents]
            span = getattr(entry, "span", None)
            if entry is self._break or entry is self._trap or (
                    entry is self._miss and self._is_trap(pc.cell_contents)):
                lim.cell_contents = limit
                self.last_step = None
                entry()
            else:
                if span is not None:
                    # The block's exact version runs up to the instruction that could pass
                    # the limit; the shadow steps from there.
                    exact = getattr(entry, "exact", 0)
                    if exact.__class__ is int and exact >= EXACT_AFTER:
                        exact = entry.exact = self._exact_version(pc.cell_contents)
                    elif exact.__class__ is int:
                        entry.exact = exact + 1           # (stepped until it comes back often)
                        exact = False
                    if exact:
                        lim.cell_contents = limit
                        before = cyc.cell_contents
                        self.last_step = None
                        exact()
                        if cyc.cell_contents != before or self.stop_requested:
                            continue
                self._step_exact(limit)

    def _run_masked(self, limit, exact):
        """run() while an IRQ waits for the I flag: the blocks run as ever, but leave before
        a CLI or a PLP that clears it (the cell iw is 1), and that one is stepped alone,
        last_step noted (the IRQ is taken one instruction later), so that this returns
        right after the instruction that clears I (those two, an RTI, a trap), where py65
        would.  With `exact`, the blocks run up to the last one
        that cannot pass the limit, and the rest is stepped."""
        cells = self._cells
        cyc, lim, pc, fp, iw = self._cell_processorCycles, cells["lim"], self._cell_pc, self._cell_fp, cells["iw"]
        table, miss, trap, brk = self._table, self._miss, self._trap, self._break
        iw.cell_contents = 1
        try:
            while not self.stop_requested and cyc.cell_contents < limit and fp.cell_contents & 0x04:
                now = cyc.cell_contents
                if not exact or now + self._span_max < limit:
                    lim.cell_contents = limit - self._span_max if exact else limit
                    self.last_step = None
                    self._masked_loop()
                    if iw.cell_contents == 1:
                        continue               # (the limit, a stop, a trap that cleared I)
                    iw.cell_contents = 1
                    now = cyc.cell_contents
                entry = table[pc.cell_contents]
                if entry is trap or entry is brk or (entry is miss and self._is_trap(pc.cell_contents)):
                    lim.cell_contents = limit
                    self.last_step = None
                    entry()
                    continue
                # One instruction alone (a miss is counted, and translated when hot, as ever;
                # _limit keeps _miss from running what it made).
                self.last_step = (pc.cell_contents, self.p, now)
                lim.cell_contents = now + 1
                iw.cell_contents = 0
                if entry is miss:
                    saved, self._limit = self._limit, now
                    try:
                        miss()
                    finally:
                        self._limit = saved
                else:
                    self._interpret()
                iw.cell_contents = 1
        finally:
            iw.cell_contents = 0

    def _exact_version(self, pc):
        """The block at pc made again so that it leaves before an instruction that could
        end at or past lim (BlockBuilder's exact), or False if there is none to make."""
        insns = self._decode(pc, MAX_INSNS, single=False, guess=True)
        if not insns:
            return False
        body, nonlocals = BlockBuilder(self, self._view(), insns, False, exact=True).build()
        code = compile_block(body, nonlocals)
        cells = self._cells
        return types.FunctionType(code, BLOCK_GLOBALS, "exact_%04x" % pc, None,
                                  tuple(cells[n] for n in code.co_freevars))

    def _to_shadow(self):
        """The shadow (a plain py65 CPU) given this core's registers, to step instructions
        (access_cycle asks it meanwhile); _from_shadow takes them back."""
        shadow = self._shadow
        shadow.a, shadow.x, shadow.y, shadow.sp = self.a, self.x, self.y, self.sp
        shadow.pc, shadow.p, shadow.processorCycles = self.pc, self.p, self.processorCycles
        self._interpreting = True
        return shadow

    def _from_shadow(self):
        self._interpreting = False
        shadow = self._shadow
        self.a, self.x, self.y, self.sp = shadow.a, shadow.x, shadow.y, shadow.sp
        self.pc, self.p, self.processorCycles = shadow.pc, shadow.p, shadow.processorCycles

    def _step_exact(self, limit):
        """Instructions on the shadow (py65 stepping) up to `limit`, each noted in last_step
        (CPU.run), until a translated block that ends before `limit` (or a trap, a
        breakpoint, a bank switch) is next."""
        shadow = self._to_shadow()
        cycles = self._cell_processorCycles
        table, key = self._table, self._key
        step = CPU.step
        try:
            while True:
                self.last_step = (shadow.pc, shadow.p, shadow.processorCycles)
                step(shadow)
                cycles.cell_contents = shadow.processorCycles     # chips see the time
                if shadow.processorCycles >= limit or self._key is not key or self.stop_requested:
                    break
                entry = table[shadow.pc]
                span = getattr(entry, "span", None)
                if ((span is not None and shadow.processorCycles + span < limit)
                        or entry is self._trap or entry is self._break
                        or (entry is self._miss and self._is_trap(shadow.pc))):
                    break
        finally:
            self._from_shadow()
        if not self._c64:
            self._verify()

    def access_cycle(self, write, addr=None):
        """CPU.access_cycle for this core: a block sets the cell ao to the access's cycle in
        the instruction; the shadow answers for the instructions it steps."""
        if self._interpreting:
            return CPU.access_cycle(self._shadow, write, addr)
        return self._cell_processorCycles.cell_contents + self._cells["ao"].cell_contents, None

    def stop(self):
        self.stop_requested = True
        self._cells["lim"].cell_contents = -1

    # -- breakpoints (c64.monitor) ----------------------------------------------------------
    @property
    def breakpoints(self):
        """The addresses set_breakpoints gave (a frozenset)."""
        return self._breakpoints

    def set_breakpoints(self, addresses):
        """Stop run() before the instruction at any of these addresses (breakpoint_hit is
        then True); no block runs past one (README.md, "Breakpoints").  Drops every
        translation when the set changes."""
        addresses = frozenset(addresses)
        if addresses != self._breakpoints:
            self._breakpoints = addresses
            self._bind(self._bound)

    def _break(self):
        """The table entry at a breakpoint address."""
        self.breakpoint_hit = True
        self.stop()

    # -- interrupts: py65's irq() and nmi(), on the cells -----------------------------------
    @property
    def irq_masked(self):
        """The I flag (nonzero: an IRQ waits), without composing P."""
        return self._cell_fp.cell_contents & 0x04

    def irq(self, force=False):
        if force or not self._cell_fp.cell_contents & 0x04:
            self._interrupt(self.IRQ)

    def nmi(self):
        self._interrupt(self.NMI)

    def _interrupt(self, vector):
        """Push PC and P (B clear, bit 5 set), set I, jump through `vector`, 7 cycles."""
        if self.memory is not self._bound:
            self._bind(self.memory)
        fp = self._cell_fp
        fp.cell_contents &= ~0x10
        pc = self._cell_pc.cell_contents
        sp = self._cell_sp.cell_contents
        ram, cm = self._ram, self._cm
        for value in ((pc >> 8) & 0xFF, pc & 0xFF, self._get_p() | 0x20):
            ram[0x100 + sp] = value              # the stack page is RAM on a C64 too
            if cm[0x100 + sp]:
                self._code_written(0x100 + sp)
            sp = (sp - 1) & 0xFF
        self._cell_sp.cell_contents = sp
        fp.cell_contents |= 0x04
        memory = self._bound
        self._cell_pc.cell_contents = memory[vector] + (memory[vector + 1] << 8)
        self._cell_processorCycles.cell_contents += 7

    def step(self):
        """Execute one instruction (translated on its own, so py65's tests exercise the translator)."""
        if self.memory is not self._bound:
            self._bind(self.memory)
        elif self._c64 and self._key != self._config_key():
            self._on_bank()
        insns = self._decode(self.pc, 1, single=True)
        if not insns:
            return CPU.step(self)
        function = self._function(insns, single=True, decimal=bool(self.p & 8))
        self.translated_steps += 1
        function()
        return self

    def _interpret(self):
        """Instructions through plain py65 stepping: undocumented opcodes, code in odd places,
        code rewritten over and over, and code not run often enough yet to be worth compiling.

        A plain CPU (the shadow) steps them, so interpreting costs what py65 costs; it goes
        on while the next instruction is to be interpreted too.
        """
        shadow = self._to_shadow()
        cycles = self._cell_processorCycles
        lim = self._cells["lim"]
        table, key = self._table, self._key
        interpret, miss, seen = self._interpret, self._miss, self._seen
        step = CPU.step
        waiting = self._cells["iw"].cell_contents     # (an IRQ waits for I: _run_masked)
        sources = self._bound.page_sources if self._c64 else None
        try:
            while True:
                if waiting and _unmasks_late(sources, shadow):
                    self._cells["iw"].cell_contents = 2      # (_run_masked steps it)
                    break
                step(shadow)
                cycles.cell_contents = shadow.processorCycles     # chips see the time
                if shadow.processorCycles >= lim.cell_contents or self._key is not key:
                    break
                if waiting and not shadow.p & 0x04:
                    break                       # (an RTI let the waiting IRQ in)
                pc = shadow.pc
                entry = table[pc]
                if entry is interpret:
                    continue
                if entry is miss and not self._is_trap(pc):        # (a trap needs the real CPU)
                    count = seen.get((key, pc), 0)
                    if count < HOT_COUNT - 1:
                        seen[(key, pc)] = count + 1
                        if not count:
                            self._first_visit((key, pc))
                        continue
                break
        finally:
            self._from_shadow()
        if not self._c64:
            self._verify()       # py65 stores straight into a plain list

    def _code_stored(self, addr):
        """C64Memory's code listener: a store not made by a block's own code check (a KERNAL
        routine, a trap's direct version, the shadow) hit translated code.  A block that
        called the routine must not go on after it with the code it was made from: lim < 0
        makes it leave when the routine returns (the blocks check it after every trap);
        run() then goes on exactly, as after stop()."""
        if self._covers.get(addr) and not self._interpreting:
            self._cells["lim"].cell_contents = -1
        self._code_written(addr)

    def _trap(self):
        """The trap opcode fetched from ROM: what CPU.step does for it, without the decoding."""
        pc = self._cell_pc
        addr = pc.cell_contents
        if self._fast_traps[addr]():
            return
        pc.cell_contents = (addr + 1) & 0xFFFF
        self.trap_handler(addr)
        pc.cell_contents &= 0xFFFF

    def with_registers(self, function, **values):
        """`function` rebuilt to run on this CPU's registers, for KERNAL traps on a hot path.

        `function` is a nested function whose free variables are register and flag names
        (a x y sp pc cyc fn fz fc fv fp, kept as README.md describes; rk, see
        set_fast_trap) and the names given in `values`.  The copy shares the registers' closure cells with the
        translated blocks, so it reads and sets them as they do, as plain variables (with
        `nonlocal` for the ones it sets), without the properties."""
        code = function.__code__
        cells = []
        for name in code.co_freevars:
            if name in values:
                cells.append(types.CellType(values[name]))
            elif name in DIRECT_CELLS:
                cells.append(self._cells[name])
            else:
                raise ValueError("%s: free variable %r is neither a register nor given"
                                 % (function.__name__, name))
        return types.FunctionType(code, function.__globals__, function.__name__,
                                  function.__defaults__, tuple(cells))

    # -- translation -----------------------------------------------------------------------------
    def _miss(self):
        pc = self._cell_pc.cell_contents
        key = (self._key, pc)
        insns = None
        if self._is_trap(pc):
            self._table[pc] = self._trap
            return self._trap()
        if pc in self._volatile and self._view().read_kind[pc >> 8] == "ram":
            function = self._table[pc] = self._rewritten_at(pc)
            return function()
        count = self._seen.get(key, 0)
        written = False
        if count < HOT_COUNT - 1:               # first visits: interpret, compile when it comes back
            if not self._entered_by_rewritten_jsr(pc):
                self._seen[key] = count + 1
                if not count:
                    self._first_visit(key)
                return self._interpret()
            # Code the program has just written and calls (a test program calling the
            # instruction under test): compiled at once, its immediate operands read from
            # RAM, for they are what such a program writes anew on its next pass.
            written = True
        if self._rewrites.get(key, 0) < REWRITE_LIMIT:
            self._count_rewrites(key)
            self._changed_since_first_visit(key)
            insns = self._decode(pc, MAX_INSNS, single=False, guess=True, written=written)
        if insns and not self.low_code and any(insn.addr < 0x200 for insn in insns):
            # The first block from zero page or the stack page: every block is made again,
            # with the checks of stores to those pages that code there needs.
            self.low_code = True
            self._bind(self._bound)
            return self._interpret()
        if insns:
            function = self._function(insns, single=False)
            self._register(key, insns)
            self._note_end(key, insns)
        else:
            function = self._interpret
        self._table[pc] = function
        if insns and self._cell_processorCycles.cell_contents + function.span >= self._limit:
            return self._interpret()              # (it may pass an exact limit: run() steps to it)
        function()

    def _rewritten_at(self, pc):
        """The table entry at an opcode the program keeps rewriting (Invalidation.VOLATILE_AFTER),
        under the current memory configuration: the instruction there runs on its own,
        translated once for each form it takes (its three bytes and the D flag)."""
        ram, fp = self._ram, self._cell_fp
        after, last = (pc + 1) & 0xFFFF, (pc + 2) & 0xFFFF
        forms, visits = {}, {}

        def rewritten():
            form = ram[pc] | (ram[after] << 8) | (ram[last] << 16) | ((fp.cell_contents & 8) << 21)
            function = forms.get(form)
            if function is None:
                function = self._form(pc, form, forms, visits)
                if function is None:
                    return self._interpret()
            function()
        return rewritten

    def _form(self, pc, form, forms, visits):
        """The translation of a rewritten instruction's form from its FORM_HOT-th run (kept in
        `forms`); None before (py65 steps it) and for an undocumented opcode.  A test
        program that writes a new branch at each of hundreds of addresses runs each form a
        few times, and compiling one costs what stepping it 25 times does."""
        count = visits.get(form, 0)
        if count < FORM_HOT - 1:
            if len(visits) > 4096:
                visits.clear()
            visits[form] = count + 1
            return None
        insns = self._decode(pc, 1, single=True)
        if not insns:
            return None
        if len(forms) > 1024:
            forms.clear()
        function = forms[form] = self._function(insns, single=True, decimal=bool(form >> 24))
        return function

    def _variant(self, decimal):
        """Called by a block whose D assumption is wrong: run the other version of it."""
        pc = self._cells["pc"].cell_contents
        if not decimal:
            return self._table[pc]()
        key = (self._key, pc)
        function = self._decimal_blocks.get(key)
        if function is None:
            insns = self._decode(pc, MAX_INSNS, False)
            if not insns:
                return self._interpret()   # (its operand became volatile since: py65 steps it)
            function = self._function(insns, False, decimal=True)
            self._decimal_blocks[key] = function
        return function()

    def _function(self, insns, single, decimal=False):
        view = self._view()
        digest = code = None
        if not single:
            # (A step's one instruction is cheap to translate: not worth a look-up.)
            names = {insn.name for insn in insns}
            watched = [insn.addr for insn in insns if insn.name == "JMP" and self.watches(view, insn)
                       ] if "JMP" in names else []
            inlined = sorted({(insn.addr, self._inlines[insn.addr][1]) for insn in insns
                              if insn.name == "TRAP" and insn.addr in self._inlines}
                             ) if "TRAP" in names else []
            digest = translation_key(view, insns, decimal, self.low_code, watched, inlined)
            code = BLOCKS.get(digest)
        if code is None:
            body, nonlocals = BlockBuilder(self, view, insns, single, decimal).build()
            code = compile_block(body, nonlocals)
            if digest is not None:
                BLOCKS.put(digest, code)
        closure = self._closures.get(code.co_freevars)
        if closure is None:
            closure = self._closures[code.co_freevars] = tuple(self._cells[n] for n in code.co_freevars)
        function = types.FunctionType(code, BLOCK_GLOBALS, "block_%04x" % insns[0].addr, None, closure)
        function.span = span = block_span(insns)
        if span > self._span_max:
            self._span_max = span
            lim = self._cells["lim"]
            if lim.cell_contents >= 0:
                lim.cell_contents = min(lim.cell_contents, self._limit - span)
        return function


# The instructions that can clear the I flag: an IRQ waiting for it is taken after them.
UNMASKING = frozenset(("CLI", "PLP", "RTI"))


def _unmasks_late(sources, cpu):
    """True if the instruction at cpu's pc clears the I flag after the IRQ line was looked
    at: a CLI, or a PLP that pulls it clear (instructions.UNMASKING); code in I/O is not
    looked at (no chip read)."""
    pc = cpu.pc
    if sources is None:
        opcode = cpu.memory[pc]
    else:
        source = sources[pc >> 8]
        if source is None:
            return False
        opcode = source[pc]
    if opcode == 0x58:
        return True
    return opcode == 0x28 and not cpu.memory[0x100 + ((cpu.sp + 1) & 0xFF)] & 0x04


def block_span(insns):
    """The most cycles one pass through these instructions can take (page crossings and
    taken branches included; a KERNAL trap's own time is the routine's)."""
    return sum(insn.cycles + (1 if insn.extra else 0) + (2 if insn.name in BRANCHES else 0)
               for insn in insns)


def _register_property(name):
    slot = "_cell_" + name
    namespace = {}
    exec("def put(self, value):\n    self.%s.cell_contents = value\n" % slot, namespace)
    return property(operator.attrgetter(slot + ".cell_contents"), namespace["put"],
                    doc="the %s register (a closure cell shared with the blocks)" % name)


for _name in ("a", "x", "y", "sp", "pc", "processorCycles"):
    setattr(FastCPU, _name, _register_property(_name))
