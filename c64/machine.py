"""The whole C64: memory, CPU, chips and KERNAL wired together, with a scriptable run loop.

This is the engine both front ends (terminal and headless) and the tests
drive: load a program, queue keys, run until the program waits for the
keyboard (or N cycles pass, or it returns to BASIC, or it fails), read the
screen and memory.

Time is emulated cycles (py65's processorCycles).  The 60 Hz KERNAL IRQ
comes from CIA1 timer A at the cycle it underflows.  A program that waits
for a key, either in CHRIN or by polling GETIN, is recognised as idle: the
run loop then stops (scripted use) or skips emulated time forward to the
next interrupt without executing the wait loop (interactive use), so idle
costs no host CPU.
"""

import enum
import os
from collections import deque

from asm import versions
from charset.bitmaps import character_rom
from charset.keys import CTRL, RESTORE
from c64 import vic as vic_module
from c64.cia import CIA1, CIA2
from c64.cpu import CPUStop
from c64.fastcpu import FastCPU
from c64.io import IO
from c64.listing import read_program
from c64.loader import Program, parse_prg
from c64.memory import C64Memory
from c64.sid import SID
from kernal import entries
from kernal.basic import Basic
from kernal.disk_formats import is_image_name
from kernal.disk import HostDisk
from kernal.disk_image import ImageDisk
from kernal.dispatch import Kernal
from kernal.keyboard import HOLD_JIFFIES, STOP_KEY
from kernal.locations import (BREAK, CHANNL, CINV, INTERRUPT, NMINV, MSG_PROGRAM_MODE, MSGFLG, SAREG, SPREG,
                              STKEY, SXREG, SYREG, UNUSED)
from kernal.rom import build_rom
# Two empty GETIN polls closer than this are a program spinning on the keyboard.
IDLE_POLL_GAP = 5000
# Longest stretch run without looking at interrupts (an IRQ held while the I flag is set
# is looked at again as soon as an instruction clears the flag: CPU.run's irq_waiting).
SLICE = 20000
# While a ROM delay loop's time passes (stall) and an interrupt handler runs, the CPU is
# run in steps this short, so that the delay goes on as soon as the handler's RTI is done.
HANDLER_STEP = 1
# How long one CTRL press holds the key down (the terminal's Ctrl-S, a script's {ctrl}):
# half a second bridges a terminal's auto-repeat delay, so a held Ctrl-S keeps CTRL down.
CTRL_HOLD_JIFFIES = 30
# A typed key not scanned in this long (two of the CIA timer's longest periods) never will
# be: the program's own interrupt handler does not scan the keyboard.
UNSCANNED_CYCLES = 2 * 0x10000
RUN_STOP = 0x03                               # the PETSCII code the RUN/STOP key types
CALL_RETURN = entries.address_of("CALL_RETURN")      # where call() returns to
IRQ_DEFAULT = entries.address_of("IRQ_DEFAULT")      # $EA31: our KERNAL's IRQ, in Python
# Cycles a run must have left (and $01's bits before they fade) for an IRQ to run the
# KERNAL's handler in one call: more than its entry, Python part and exit take.
PLAIN_IRQ_ROOM = 1000
NMI_DEFAULT = entries.address_of("NMI_DEFAULT")
BASIC_READY = entries.address_of("BASIC_READY")      # prints READY. and enters direct mode
TIMER_LATCH = {True: 16421, False: 17045}     # KERNAL's 60 Hz values, PAL / NTSC
CHARACTER_ROM, CHARACTER_ROM_SIZE = 0xD000, 0x1000     # where the CPU sees it, banked in
BRANCH_OPCODES = frozenset((0x10, 0x30, 0x50, 0x70, 0x90, 0xB0, 0xD0, 0xF0))


class StopReason(enum.Enum):
    IDLE = "idle"          # waiting for a key and no scripted keys left
    CYCLES = "cycles"      # the cycle budget is spent
    BASIC = "basic"        # the program returned to BASIC
    ERROR = "error"        # CPU jam, BRK, unimplemented routine...
    CALL_DONE = "call"     # Machine.call() finished
    BREAK = "break"        # the monitor's debugger stopped it (breakpoint, watch, step)


class C64:
    """A ROM-less Commodore 64.

    sid_seed: seed of the SID noise generator (reproducible runs).
    ntsc: 1,022,727 Hz / 60 Hz instead of PAL 985,248 Hz / 50 Hz.
    disk_folder: host folder seen as device 8 (None: current folder).
    cpu_class: the CPU implementation: c64.fastcpu.FastCPU by default, as `python ryg.py`
        runs; c64.cpu.CPU is plain py65 stepping (the reference semantics, ~12x slower).
    transcript: None (the default) keeps nothing of what is printed; anything with an
        append(code) method (a list, c64.headless.TranscriptFile) receives every PETSCII
        code sent to the screen through CHROUT, by the program or by BASIC.  The attribute
        of the same name may be set later.
    """

    def __init__(self, sid_seed=None, ntsc=False, disk_folder=None, cpu_class=FastCPU, transcript=None,
                 vic_dma=True):
        self.pal = not ntsc
        video = vic_module.NTSC if ntsc else vic_module.PAL
        self.clock_hz = video["clock_hz"]
        self.frame_cycles = video["lines"] * video["cycles_per_line"]
        self.rom = build_rom()
        # The character ROM: the pictures the screen is drawn with (charset.bitmaps), where
        # the CPU reads them with $01's CHAREN clear and the VIC in its banks 0 and 2.
        self.rom[CHARACTER_ROM:CHARACTER_ROM + CHARACTER_ROM_SIZE] = character_rom()
        self.vic = vic_module.VIC(self._cycles, video, dma=vic_dma)
        self._bus_time = self.vic.dma.bus_time       # (the chips' clock asks it often)
        self.sid = SID(sid_seed)
        self.mem = C64Memory(self.rom)
        self.cpu = cpu_class(self.mem, trap_handler=self.trap)
        self.cia2 = CIA2(self._cycles, self.clock_hz)
        self.mem.clock = self._cycles                # times the fading of $01's floating bits
        self.kernal = Kernal(self)
        self.cia1 = CIA1(self._cycles, self.kernal.keyboard.matrix, self.clock_hz)
        self.cia1.on_reschedule = self.cpu.stop     # a reprogrammed timer ends the run slice
        self.vic.on_reschedule = self.cpu.stop      # so does a new raster compare line
        self.cia2.on_reschedule = self.cpu.stop     # and a CIA2 timer (its NMIs)
        self._cia2_edges = 0                        # CIA2's interrupt output's edges taken as NMIs
        self._handler_entered = False               # an interrupt was just taken (run loop)
        self.mem.io = IO(self.vic, self.sid, self.cia1, self.cia2, self._bus_access)
        self.basic = self.kernal.basic = Basic(self)
        if disk_folder is not None:
            self.attach_disk(disk_folder)
        self.transcript = transcript
        self.pending_keys = deque()
        self.stall_cycles = 0         # time still to pass in a ROM delay loop (stall)
        self.after_stall = []         # what to do once it has passed
        self.program = None
        self.loaded_name = None       # what BASIC's LOAD last loaded (host name), for the status line
        self.error = None
        self.nmi_pending = False
        self._calling = False         # a call() is running: $FF00 is its return address
        # The monitor's c64.monitor.debugger.Debugger while it needs to see the CPU run
        # (breakpoints, watches, steps, profiler); None: the CPU runs on its own.
        self.debugger = None
        # The KERNAL's own IRQ handler run in one call where nothing can tell (_plain_irq);
        # False: always instruction by instruction (the tests compare the two).
        self.plain_irq_in_one_go = True
        self.boot()

    # -- clock ---------------------------------------------------------------------
    def _cycles(self):
        """The bus's cycle: the chips' clock (the CPU's cycles and those the VIC took)."""
        return self._bus_time(self.cpu.processorCycles)

    @property
    def cycles(self):
        """C64 time: cycles since power on, those the VIC's DMA took from the CPU included."""
        return self.vic.dma.bus_time(self.cpu.processorCycles)

    def _bus_access(self, write, addr):
        """The CPU's access being made (CPU.access_cycle), in bus cycles."""
        at, dummy = self.cpu.access_cycle(write, addr)
        bus_time = self._bus_time
        return bus_time(at), None if dummy is None else bus_time(dummy)

    # -- power on, resets ------------------------------------------------------------
    def boot(self):
        """Cold start: what the KERNAL's RESET does, without the BASIC banner."""
        k, cpu = self.kernal, self.cpu
        self.mem.ddr, self.mem.port = 0x2F, 0x37
        self.mem.rebank()
        k.k_ramtas(cpu)
        k.k_restor(cpu)
        self.reset_chips()
        k.k_cint(cpu)
        self.basic.cold_start()
        # By READY. the jiffy IRQ has sampled the RUN/STOP row into $91 (UDTIM): $FF, no key.
        self.mem[STKEY] = self.kernal.keyboard.matrix(0x7F)
        cpu.sp = 0xFF
        cpu.p = 0x20                           # the RESET routine ends with CLI
        cpu.pc = BASIC_READY                   # prints READY. and waits
        self.waiting = False
        self.stall_cycles = 0
        self.after_stall = []
        self.returned_to_basic = False
        self.call_result = None
        self._empty_polls = 0
        self._last_empty_poll = -IDLE_POLL_GAP
        self._typed_at = 0
        self.error = None

    def reset_chips(self):
        """IOINIT: CIAs, SID, processor port, the 60 Hz timer IRQ."""
        cia1 = self.cia1
        cia1.reset()
        self.cia2.reset()
        self._cia2_edges = 0
        latch = TIMER_LATCH[self.pal]
        cia1.write(0xDC0D, 0x7F)
        cia1.write(0xDC04, latch & 0xFF)
        cia1.write(0xDC05, latch >> 8)
        cia1.write(0xDC0E, 0x11)
        cia1.write(0xDC0D, 0x81)
        self.mem.ddr, self.mem.port = 0x2F, 0xE7
        self.mem.rebank()
        self.kernal.keyboard.reset()

    def reset(self):
        """Hard reset: power-on state, no program running."""
        self.boot()

    def warm_start(self):
        """RUN/STOP+RESTORE or BRK: RESTOR, IOINIT, CINT, then BASIC's warm start."""
        k = self.kernal
        k.k_restor(self.cpu)
        self.reset_chips()
        k.k_cint(self.cpu)
        self.basic_warm_start()

    def basic_warm_start(self):
        """BASIC's warm start ($E37B, where JMP ($A002) goes): the screen and the chips as
        they are, CLRCHN, the stack reset, CLI, then READY."""
        self.kernal.channels.clrchn()          # CLRCHN, and CMD's channel is forgotten
        self.mem[CHANNL] = 0
        self.basic.interp.in_code = None       # no machine code of BASIC's is coming back
        self.cpu.sp = 0xFA
        self.cpu.p &= ~INTERRUPT               # BASIC's warm start does CLI
        self.cpu.pc = BASIC_READY
        self.waiting = False

    # -- programs ----------------------------------------------------------------------
    def attach_disk(self, folder):
        """Make a host folder, or a disk image (a file named *.d64, *.d71 or *.d81, written
        back as it changes; kernal.disk_formats.ImageError if it cannot be read), drive 8."""
        if is_image_name(folder) and not os.path.isdir(folder):
            self.kernal.channels.devices[8] = ImageDisk(folder)
        else:
            self.kernal.channels.devices[8] = HostDisk(folder)

    def load_prg(self, source, sys=None):
        """Put a .prg in memory at its load address; returns the Program.

        source: a path (a .prg, or a BASIC listing as text, .bas or .txt, tokenised as
        c64.listing reads it), a bundled version's name ("ryg23", as `python ryg.py --list`
        shows; found from any folder), the bytes of a .prg, or a Program."""
        if isinstance(source, Program):
            program = source
        elif isinstance(source, (bytes, bytearray)):
            program = parse_prg(source, "program", sys)
        else:
            path = str(source)
            version = None if os.path.exists(path) else versions.find_version(path)
            if version is not None and version.available():
                path = version.path
            program = read_program(path, sys)
        for offset, byte in enumerate(program.data):
            self.mem.ram[program.load_address + offset] = byte
        code_loaded = getattr(self.cpu, "code_loaded", None)        # (new code: FastCPU)
        if code_loaded is not None:
            code_loaded(program.load_address, min(program.load_address + len(program.data), 0x10000))
        if program.load_address == 0x0801:
            self.basic.set_program_end(program.end)
        self.program = program
        return program

    def start(self, address):
        """Start machine code at address as BASIC's SYS does (RTS returns to BASIC); None
        (a BASIC program's Program.start) RUNs the BASIC program in memory instead."""
        if address is None:
            self.start_basic(run=True)
            return
        cpu, mem = self.cpu, self.mem
        cpu.sp = 0xF8
        cpu.stPushWord(entries.address_of("BASIC_GONE_RETURN") - 1)    # JSR GONE3's, then SYS's return
        cpu.stPushWord(entries.SYS_RETURN_PUSH)
        cpu.a, cpu.x, cpu.y = mem[SAREG], mem[SXREG], mem[SYREG]
        cpu.p = (mem[SPREG] | UNUSED) & ~BREAK
        cpu.pc = address
        mem[MSGFLG] = MSG_PROGRAM_MODE        # no KERNAL messages
        self.kernal.editor.cancel_input()      # a CHRIN that was waiting is abandoned
        self.waiting = False
        self.returned_to_basic = False

    def run_program(self, source, sys=None):
        """Load and start as c64.loader's Program says: LOADed and RUN as on a C64 (a
        program at $0801: the banner, READY., RUN typed, then BASIC runs it, SYS and all),
        or machine code entered at its start as SYS enters it (--sys, a file loaded
        elsewhere, a bundled RYG version)."""
        if isinstance(source, Program) and source.start is None and not source.data:
            self.start_basic()
            return source
        program = self.load_prg(source, sys)
        if program.run or program.start is None:
            self.basic.relink()                # BASIC's LOAD rechains the lines (LNKPRG), as on a C64
            self.start_basic(run=True)
        else:
            self.start(program.start)
        return program

    def start_basic(self, run=False):
        """BASIC's cold start: the start banner, then READY.; with run, RUN is typed (the
        program in memory from $0801 runs, as after LOAD and RUN on a C64)."""
        if not run:
            self.basic.new()
        self.basic.banner()
        self.cpu.pc = BASIC_READY
        self.waiting = False
        if run:
            self.pending_keys.extendleft(reversed(b"RUN\r"))

    def program_returned(self):
        """The SYS'd program did its final RTS: stop here; BASIC prints READY. when run again."""
        cpu = self.cpu
        self.returned_to_basic = True
        for offset, register in enumerate(("a", "x", "y", "p")):
            self.mem[SAREG + offset] = getattr(cpu, register)
        cpu.pc = BASIC_READY
        cpu.stop()

    def drive_error(self, device=8):
        """The drive's error as its error channel would send it ("33,SYNTAX ERROR,00,00")
        while it has one to report (a 1541's LED blinks), else None."""
        drive = self.kernal.channels.devices.get(device)
        pending = getattr(drive, "pending_error", None)
        return pending() if pending is not None else None

    # -- keyboard ------------------------------------------------------------------------
    def type(self, text):
        """Queue petcat-style key text ("N{return}"); keys are fed as the program waits."""
        from charset.keys import parse_keys
        self.pending_keys.extend(parse_keys(text))

    def type_keys(self, keys):
        """Queue PETSCII codes (or "restore", "ctrl") to be fed as the program waits;
        a "ctrl" is fed as soon as the keys before it are: it holds CTRL down while the
        program runs (see hold_ctrl)."""
        self.pending_keys.extend(keys)

    def press(self, key):
        """A key pressed now (interactive): PETSCII down in the matrix, in the buffer at the
        next keyboard scan (Keyboard.type_key: False, the key not taken, with no room there),
        "restore", or "ctrl" (CTRL held down for CTRL_HOLD_JIFFIES)."""
        if key == RESTORE:
            self.restore()
            return True
        if key == CTRL:
            self.hold_ctrl()
            return True
        keyboard = self.kernal.keyboard
        accepted = self._type_key(key)
        if accepted:
            self._key_arrived()
            if key == RUN_STOP and self.stall_cycles:
                # A ROM delay loop is under way (a CTRL-slowed scroll): a C64 user holds
                # RUN/STOP through it, and BASIC looks at the key after it.
                jiffy = TIMER_LATCH[self.pal] + 1
                keyboard.hold(STOP_KEY, HOLD_JIFFIES + -(-self.stall_cycles // jiffy))
        return accepted

    def hold_ctrl(self, jiffies=CTRL_HOLD_JIFFIES):
        """CTRL held down for `jiffies` (at least): the screen editor's scroll slows down
        by its delay loop (kernal.editor) and empties the keyboard buffer, as on a C64."""
        self.kernal.keyboard.hold_ctrl(jiffies)

    def stall(self, cycles, then=None):
        """A ROM delay loop inside a KERNAL routine takes `cycles`: they pass before the
        program goes on, with interrupts taken meanwhile (with them masked, at once).
        `then`, if given, is called once they have passed (what the ROM does after its loop)."""
        cpu = self.cpu
        if cpu.p & INTERRUPT:
            cpu.processorCycles += cycles
            if then is not None:
                then()
            return
        self.stall_cycles += cycles
        if then is not None:
            self.after_stall.append(then)
        cpu.stop()

    def restore(self):
        """The RESTORE key: an NMI through ($0318)."""
        self.nmi_pending = True
        self._key_arrived()

    def _type_key(self, key):
        """The key down for the next scan; when it is the first to wait, the time it was typed."""
        keyboard = self.kernal.keyboard
        first = not keyboard.arriving
        accepted = keyboard.type_key(key)
        if accepted and first:
            self._typed_at = self.cpu.processorCycles
        return accepted

    def _key_stuck(self, now):
        """True when the key typed will not be scanned: the I flag set, no interrupt to come
        (the timer's interrupt off), or none scanned it in UNSCANNED_CYCLES (a handler of the
        program's own).  It stays in the matrix, as on a C64: the program is idle."""
        return (self.cpu.irq_masked or self.next_irq_cycle() is None
                or now - self._typed_at > UNSCANNED_CYCLES)

    def _key_arrived(self):
        self.waiting = False
        self._empty_polls = 0

    def wait_for_key(self):
        """Called by CHRIN when the keyboard buffer is empty."""
        self.waiting = True
        self.cpu.stop()

    def note_empty_poll(self):
        """Called by GETIN when it found no key: two close polls mean the program is idle --
        not while a typed key waits for the next scan: the program runs on to it, as on a
        C64 (it may be busy between its polls), unless no scan is to come (_key_stuck)."""
        now = self.cpu.processorCycles
        if self.kernal.keyboard.arriving and not self._key_stuck(now):
            return
        if now - self._last_empty_poll < IDLE_POLL_GAP:
            self._empty_polls += 1
        else:
            self._empty_polls = 1
        self._last_empty_poll = now
        if self._empty_polls >= 2:
            self.waiting = True
            self.cpu.stop()

    def _feed_pending_key(self):
        key = self.pending_keys.popleft()
        if key == RESTORE:
            self.restore()
        elif key == CTRL:
            held = 1                 # {3 ctrl}: CTRL held three times as long
            while self.pending_keys and self.pending_keys[0] == CTRL:
                self.pending_keys.popleft()
                held += 1
            self.hold_ctrl(held * CTRL_HOLD_JIFFIES)
        else:
            self._type_key(key)      # (no room: lost, as a C64's SCNKEY drops it)
            self._key_arrived()      # (a program that only looked idle runs on meanwhile)

    # -- running -------------------------------------------------------------------------
    def trap(self, addr):
        """The CPU's trap handler: run the KERNAL routine at ROM address addr."""
        # Looked up on every trap, so that kernal.trap can be wrapped (tests/bench/bench_cpu.py).
        self.kernal.trap(addr)

    def call_returned(self):
        """The trap at $FF00 (KERNAL routine CALL_RETURN): the routine run by call() did its RTS."""
        if not self._calling:
            raise CPUStop("CPU JAM at $%04X: jumped into the ROM at an address with no routine"
                          % CALL_RETURN, CALL_RETURN)
        cpu = self.cpu
        self.call_result = (cpu.a, cpu.x, cpu.y, cpu.p)
        cpu.stop()

    def run(self, max_cycles=None, stop_when_idle=True):
        """Run until idle with no keys left, max_cycles spent, return to BASIC, or an error.

        With stop_when_idle=False (interactive pacing) an idle program does not
        stop the run: emulated time is skipped forward to the next interrupt.
        """
        cpu, cia1, cia2, mem = self.cpu, self.cia1, self.cia2, self.mem
        # The run loop counts the CPU's cycles (now, limit, targets); the chips see the bus's.
        dma = self.vic.dma
        bus_time = dma.bus_time
        limit = (float("inf") if max_cycles is None
                 else dma.cpu_time(bus_time(cpu.processorCycles) + max_cycles))
        self.returned_to_basic = False
        # The first slice looks for RAM written behind the CPU's back (a loader, a test, the
        # caller poking mem.ram) since the last run; after it only the CPU, the KERNAL and
        # the chips write RAM, through self.mem, which the CPU hears of.
        verify = True
        while True:
            if self.error is not None:
                return StopReason.ERROR
            if self.call_result is not None:
                return StopReason.CALL_DONE
            if self.returned_to_basic:
                return StopReason.BASIC
            now = cpu.processorCycles
            if now >= limit:
                return StopReason.CYCLES
            bus_now = bus_time(now)
            if bus_now >= mem.port_fade_at:
                mem.fade_port(bus_now)          # $01's floating bits, within a slice of when due
            looked, masked, brk = self._interrupt_poll(now)
            entered, self._handler_entered = self._handler_entered, False
            if brk is not None or (entered and (self.nmi_pending or cia2.chip.imr or cia2.chip.changes)):
                # BRK, or an interrupt just taken: the handler's first instruction runs before
                # any interrupt is looked at (only an NMI could come: I is set).  An NMI seen
                # by BRK's 4th cycle takes over the BRK: it goes on at the NMI vector, with B
                # set in the status it pushed.
                if brk is not None and (cia2.chip.imr or cia2.chip.changes):
                    cia2.sync(bus_now)
                    edges = cia2.edges_seen_by(bus_time(brk + 3))
                    if edges != self._cia2_edges:
                        self._cia2_edges = edges
                        cpu.pc = mem[0xFFFA] | (mem[0xFFFB] << 8)
                stopped = self._run_cpu(now + 1, False, True)
                if stopped is not None:
                    return stopped
                continue
            irq_line = cia1.poll(bus_now)           # active now; seen by the last instruction:
            seen = irq_line and cia1.line_seen_at(bus_time(looked))
            if self.vic.poll(bus_now):              # raster interrupt ($D019/$D01A)
                irq_line = seen = True
            edges = self._cia2_edges
            if cia2.chip.imr or cia2.chip.changes:         # (an idle CIA2 signals nothing)
                cia2.sync(bus_now)
                edges = cia2.edges_seen_by(bus_time(looked))
            if edges != self._cia2_edges:
                self._cia2_edges = edges
                self.nmi_pending = True             # NMI is taken on the line's falling edge
            if self.nmi_pending:
                self.nmi_pending = False
                cpu.nmi()
                self.waiting = False
                self._handler_entered = True
                continue
            if seen and not masked:
                self.waiting = False        # the handler must run; a waiting program waits again after it
                if self._plain_irq(now, limit):
                    self._guarded(self.kernal.default_irq, cpu)
                else:
                    cpu.irq(force=True)
                    self._handler_entered = True
                continue
            if (irq_line and not cpu.irq_masked) or cia2.line_edges != edges:
                # Active, but too late for the last instruction to see (or it was CLI): the
                # next one sees it -- in a ROM delay loop (stall), the loop's next cycle.
                if self.stall_cycles and not cpu.irq_masked:
                    self._pass_stall(now + 1)
                    continue
                stopped = self._run_cpu(now + 1, False, True)
                if stopped is not None:
                    return stopped
                continue
            if self.pending_keys and self.pending_keys[0] == CTRL:
                self._feed_pending_key()    # CTRL is held while the program runs, not typed
                continue
            if self.stall_cycles and not cpu.irq_masked:
                # A ROM delay loop (stall): time passes up to the next interrupt, which the
                # next pass takes; its handler runs in HANDLER_STEPs below.
                target = now + self.stall_cycles
                due = self.next_irq_cycle()
                if due is not None and now < due < target:
                    target = due
                if limit < target:
                    target = limit
                self._pass_stall(target)
                continue
            if self.waiting:
                if self.kernal.keyboard.arriving:
                    # A typed key waits in the matrix for the next scan: time passes to the
                    # interrupt (CHRIN's wait; a GETIN poll waits so only for a stuck key).
                    if stop_when_idle and self._key_stuck(now):
                        return StopReason.IDLE
                elif self.pending_keys:
                    self._feed_pending_key()
                    continue
                elif stop_when_idle:
                    return StopReason.IDLE
                # Skip the wait loop: nothing changes until the next interrupt or key.
                due = self.next_irq_cycle(irq_line)
                target = limit if due is None else min(limit, due)
                if target == float("inf"):
                    return StopReason.IDLE
                cpu.processorCycles = max(now, int(target))
                continue
            target = now + (HANDLER_STEP if self.stall_cycles else SLICE)
            due = self.next_irq_cycle(irq_line)
            if due is not None and now < due < target:
                target = due
            if limit < target:
                target = limit
            # (irq_line here: active with I set; the CPU comes back when an instruction clears I)
            stopped = self._run_cpu(target, verify, target == due and self._own_handlers(), irq_line)
            if stopped is not None:
                return stopped
            verify = False

    def _pass_stall(self, target):
        """A ROM delay loop's time passes up to CPU cycle `target`; what follows it is done
        once all of it has."""
        cpu = self.cpu
        self.stall_cycles -= target - cpu.processorCycles
        cpu.processorCycles = target
        if not self.stall_cycles:
            done, self.after_stall = self.after_stall, []
            for then in done:
                then()

    def _plain_irq(self, now, limit):
        """True if the IRQ about to be taken can run the KERNAL's own handler in one call
        (Kernal.default_irq) rather than instruction by instruction, with nothing to tell
        the difference: the vector at $0314 is IRQ_DEFAULT with the KERNAL ROM in, and
        nothing else can happen while it runs -- CIA2, the VIC's raster IRQ and the NMI
        quiet, no delay loop or CTRL key under way, no debugger watching, $01's bits not
        about to fade, and the run's limit well beyond the handler's few hundred cycles.
        (Taking it so costs a tenth of running it: RYG's search takes 60 a second.)"""
        mem, cia2 = self.mem, self.cia2
        if (not self.plain_irq_in_one_go or self.debugger is not None or self.stall_cycles
                or self.nmi_pending or limit - now < PLAIN_IRQ_ROOM
                or mem.port_fade_at - self._cycles() < PLAIN_IRQ_ROOM
                or cia2.chip.imr or cia2.chip.changes or self.vic.regs[0x1A] & 0x0F
                or (self.pending_keys and self.pending_keys[0] == CTRL) or not mem.visible()[3]):
            return False
        ram = mem.ram
        return (ram[CINV] | (ram[CINV + 1] << 8)) == IRQ_DEFAULT

    def _run_cpu(self, target, verify, exact, irq_waiting=False):
        """Run the CPU (through the monitor's debugger when one is attached); returns the
        StopReason when that ends the machine's run (a breakpoint, an error), else None."""
        if self.debugger is None:
            return self._guarded(self.cpu.run, target, verify, exact, irq_waiting)
        return self._guarded(self._debugged_run, target, verify, exact, irq_waiting)

    def _debugged_run(self, *arguments):
        if self.debugger.run(*arguments):
            return StopReason.BREAK
        return None

    def _guarded(self, function, *arguments):
        """function(*arguments) with what goes wrong in the emulated machine made the run's
        error (StopReason.ERROR), not the host's; else its result."""
        cpu = self.cpu
        try:
            return function(*arguments)
        except CPUStop as stop:
            self.error = str(stop)
            return StopReason.ERROR
        except RecursionError:
            self.error = "emulation error at $%04X: recursion too deep" % cpu.pc
            return StopReason.ERROR
        except Exception as error:       # a bug in the emulator: stop the machine, not the host
            self.error = "internal emulator error at $%04X: %s: %s" % (
                cpu.pc & 0xFFFF, type(error).__name__, error)
            return StopReason.ERROR

    def _own_handlers(self):
        """True when an interrupt would reach the program's own code: a RAM vector at
        $FFFE/$FFFA (KERNAL banked out) or $0314/$0318 changed.  Only then is the run
        stopped at the exact instruction where it falls due (CPU.run's exact): our
        KERNAL's handlers are Python, return where they came from, and leave nothing a
        program can tell the instruction by (what differs: a few cycles of when the
        jiffy clock ticks), and exact stops cost the translating core stepping."""
        mem = self.mem
        if not mem.visible()[3]:
            return True
        ram = mem.ram
        return ((ram[CINV] | (ram[CINV + 1] << 8)) != IRQ_DEFAULT
                or (ram[NMINV] | (ram[NMINV + 1] << 8)) != NMI_DEFAULT)

    def _interrupt_poll(self, now):
        """(cycle, I flag, BRK's first cycle or None) the instruction that ended at `now`
        looked at the interrupt lines with: in its next-to-last cycle, one earlier for a
        taken branch that stayed in its page (the 6502 does not look in that branch's last
        cycle); the I flag as it was before CLI, SEI and PLP (they change it after the CPU
        looked)."""
        cpu = self.cpu
        looked, masked, brk = now - 2, cpu.irq_masked, None
        last, cpu.last_step = cpu.last_step, None
        if last is not None:
            pc, p, start = last
            source = self.mem.page_sources[pc >> 8]
            op = source[pc] if source is not None else None
            if op in BRANCH_OPCODES and now - start == 3:
                looked = now - 3
            elif op in (0x58, 0x78, 0x28):              # CLI, SEI, PLP
                masked = p & INTERRUPT
            elif op == 0x00 and now - start == 7:
                brk = start
        return looked, masked, brk

    def next_irq_cycle(self, irq_held=False):
        """The next CPU cycle (processorCycles) at which an interrupt can be taken: CIA1's
        IRQ or CIA2's NMI two cycles after the CPU first sees their line (it looks in an
        instruction's next-to-last cycle), the VIC's raster IRQ at its line; or None.

        irq_held: the IRQ line is active now with the I flag set, so only an NMI can be
        taken before an instruction clears I (CPU.run's irq_waiting comes back there):
        when CIA1 or the VIC would raise the line again does not count.  (A CIA1 timer
        with a latch of 0, the KERNAL's colour stores after `POKE 648,2`, would otherwise
        end a run every 3 cycles.)  Likewise CIA2's NMI line held active: its edge was
        taken, and the next needs an ICR read first, which ends the run slice
        (CIA.release_reschedules)."""
        cpu_time = self.vic.dma.cpu_time
        due = None if irq_held else self.cia1.next_irq_cycle()
        if due is not None:
            due = cpu_time(due) + 2
        if self.cia2.chip.imr and not self.cia2.chip.line:    # (an idle CIA2 signals nothing)
            seen = self.cia2.next_irq_cycle()
            if seen is not None:
                seen = cpu_time(seen) + 2
                if due is None or seen < due:
                    due = seen
        other = None if irq_held else self.vic.next_irq_cycle()
        if other is not None:
            other = cpu_time(other)
            if due is None or other < due:
                due = other
        return due

    def call(self, address, a=0, x=0, y=0, max_cycles=100_000_000):
        """JSR to a routine and run it until its RTS; returns (a, x, y, p).

        Raises RuntimeError if the routine fails, waits for a key or runs out of cycles.
        """
        cpu = self.cpu
        saved_pc = cpu.pc
        cpu.stPushWord(CALL_RETURN - 1)
        cpu.a, cpu.x, cpu.y = a, x, y
        cpu.pc = address
        self.call_result = None
        self.waiting = False
        self._empty_polls = 0         # polls from earlier calls do not make this one idle
        self._calling = True
        try:
            reason = self.run(max_cycles)
        finally:
            self._calling = False
        result, self.call_result = self.call_result, None
        if reason is not StopReason.CALL_DONE:
            detail = self.error or reason.value
            raise RuntimeError("call to $%04X did not return: %s (pc=$%04X)" % (address, detail, cpu.pc))
        cpu.pc = saved_pc
        return result

    # -- reading the machine ----------------------------------------------------------------
    def peek(self, addr):
        return self.mem[addr & 0xFFFF]

    def poke(self, addr, value):
        self.mem[addr & 0xFFFF] = value & 0xFF

    def screen_address(self):
        """Where the VIC reads the screen: CIA2 bank + $D018 screen base."""
        return self.cia2.vic_bank_base() + self.vic.screen_offset()

    def vic_peek(self, address):
        """The byte the VIC reads at `address` ($0000-$3FFF) of its 16 KB bank (CIA2's port A):
        the character ROM at $1000-$1FFF of banks 0 and 2 (the VIC's $1000 and $9000), as on
        a C64, RAM everywhere else."""
        address &= 0x3FFF
        base = self.cia2.vic_bank_base()
        if base & 0x4000 == 0 and 0x1000 <= address < 0x2000:
            return self.rom[CHARACTER_ROM + address - 0x1000]
        return self.mem.ram[base + address]

    def character_data(self):
        """The 2 KB of character pictures the VIC reads for text ($D018 bits 1-3 pick where in
        its bank): 8 bytes per screen code, the character ROM's set 1 or 2 after a reset."""
        base = (self.vic.regs[0x18] & 0x0E) << 10
        return bytes(self.vic_peek(base + offset) for offset in range(0x800))

    def screen_codes(self):
        """25 rows of 40 screen codes, as the VIC sees them (RAM, whatever the banking)."""
        base = self.screen_address()
        ram = self.mem.ram
        return [bytes(ram[base + row * 40: base + row * 40 + 40]) for row in range(25)]

    def colour_codes(self):
        colour_ram = self.mem.io.colour_ram
        return [bytes(colour_ram[row * 40: row * 40 + 40]) for row in range(25)]

    def screen_lines(self):
        """The screen as 25 lines of text (reverse video ignored)."""
        from charset.glyphs import screen_to_text
        lower = self.vic.lower_case()
        return [screen_to_text(row, lower) for row in self.screen_codes()]

    def screen_text(self):
        return "\n".join(self.screen_lines())
