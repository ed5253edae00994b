"""The KERNAL as traps: one table from ROM address to the Python routine behind it.

The CPU calls `Kernal.trap(addr)` when it fetches the trap opcode from ROM
at a routine's address.  Each routine reads and writes the registers with
the real KERNAL's conventions and then returns as an RTS would, unless it
must wait for a key (the trap is then re-entered later) or it jumps
elsewhere itself (IRQ exit, BASIC).  The `k_<name>` methods are the register
side of each routine (what it takes and returns in A/X/Y and the flags); the
work is done by the subsystems in their own modules: editor (screen, with
its one-step print paths in editor_fastpath), keyboard, clock, channels
(files, LOAD/SAVE, the serial bus), disk, basic, and idle (a program
spinning on the keyboard).  The RAM locations are declared in
kernal.locations, the entry points in kernal.entries.
"""

from types import MappingProxyType

from kernal import entries
from kernal.basic_entries import BasicEntries
from kernal.channels import Channels, WAIT
from kernal.clock import JiffyClock
from kernal.disk_time import transfer_cycles
from kernal.editor import SCREEN_CODE, ScreenEditor
from kernal.editor_cycles import NBSOUT_SCREEN
from kernal.editor_fastpath import chrout_cycles, direct_chrout, inline_chrout
from kernal.errors import CPUStop, EndlessLoop, KernalError, error_text
from kernal.idle import KeyWaitLoops, interrupted_pc
from kernal.keyboard import SCAN_NO_KEY, Keyboard
from kernal.locations import (BLNCT, BLNON, BLNSW, CAS1, R6510, TIME, BASIC_START, BASIC_TOP, BREAK, BUF, CARRY, CINV, DFLTN, DFLTO, EAL, FA,
                              FNADR, FNLEN, HIBASE, INTERRUPT, KEYBOARD, LA, MEMSIZ, MEMSTR, MEMUSS,
                              MSGFLG, NEGATIVE, PALNTS, PNTR, RAM_VECTORS_LENGTH, SA, SCREEN,
                              SCREEN_RAM, STACK, STAL, STATUS, STKEY, TAPE1, TBLX, TBUFFR, TIMOUT,
                              UNUSED, VERCK, ZERO)
from kernal.stack import rts_target, stacked, stacked_word

# The cycles a routine's trap charges before it runs (rough, for the routines not yet measured);
# the screen editor's routines charge what the ROM's editor spends on the path taken
# (kernal.editor_cycles) on top, and those with 0 here charge exactly that.
_COST = {"CHROUT": 0, "PRINT_TO_SCREEN": 0, "CHRIN": 0, "GETIN": 0, "PLOT": 0,
         "CLEAR_SCREEN": 0, "HOME": 0, "SET_LINE_POINTERS": 0, "SET_COLOUR_POINTER": 0, "SCROLL": 0,
         "IRQ_DEFAULT": 0, "SCNKEY": 0, "STOP": 0, "UDTIM": 0, "MEMTOP": 0, "MEMBOT": 0, "CALL_RETURN": 0,
         # The fixed paths, JMP-table target to RTS, as measured on the genuine ROMs KERNAL
         # 901227-03 / BASIC 901226-01 (CLRCHN with the keyboard and screen as its devices).
         "RDTIM": 30, "SETTIM": 19, "SCREEN": 10, "IOBASE": 10, "READST": 23, "SETLFS": 15,
         "SETNAM": 15, "SETMSG": 18, "SETTMO": 10, "CLRCHN": 28,
         # BASIC's entries for machine code (kernal.basic.vectors): the statement, the
         # expression or the line they go on with charges the ROM's time itself.
         "BASIC_NGONE": 0, "BASIC_NGONE1": 0, "BASIC_GONE_RETURN": 0, "BASIC_NEVAL": 0,
         "BASIC_NEVAL_READ": 0, "BASIC_NQPLOP": 0, "BASIC_PLOOP": 0, "BASIC_PLOOP1": 0,
         "BASIC_PRIT4": 0, "FRMNUM": 0, "FRMEVL": 0, "GETBYT": 0, "COMBYT": 0}
# GETIN from the keyboard (NGETIN, LP2): 19 cycles with the buffer empty; with n keys in it,
# 37 + 17 n (LP1 moves the buffer down a key at a time).
GETIN_EMPTY, GETIN_KEY, GETIN_PER_KEY = 19, 37, 17
GETIN_DEVICE_COST = 40              # another device: an estimate
CHRIN_DEVICE_COST = 60              # CHRIN from another device: an estimate
# STOP (NSTOP): LDA STKEY / CMP #$7F / BNE / RTS; with the key down PHP / JSR CLRCHN / STA NDX / PLP
STOP_UP, STOP_DOWN = 14, 62
# UDTIM: the clock's INCs and the STOP key row read twice (no key bouncing), 54 cycles; 7 more
# when the low byte carries, 11 when the middle one does too.
UDTIM_CYCLES = 54
# CHROUT to another device than the screen (the serial bus, RS-232, tape): an estimate.
CHROUT_DEVICE_COST = 120
_DEFAULT_COST = 30
# An IRQ's cycles: the CPU's interrupt sequence; the IRQ entry's code ($FF48) from PHA to the
# JMP ($0314) that reaches IRQ_DEFAULT, no page crossed (PHA 3, TXA 2, PHA 3, TYA 2, PHA 3,
# TSX 2, LDA abs,X 4, AND 2, BEQ taken 3, JMP () 5); the exit at $EA81 (PLA TAY PLA TAX PLA RTI).
INTERRUPT_CYCLES = 7
ENTRY_CYCLES = 29
EXIT_CYCLES = 22
# The IRQ handler's body (KEY, $EA31) up to the $EA81 exit, as measured on the genuine ROMs
# KERNAL 901227-03 / BASIC 901226-01: JSR UDTIM, the blink test, the cassette switch's tests,
# JSR SCNKEY finding no key down, LDA $DC0D -- 161 cycles, 219 with the entry and exit.
IRQ_BODY = 161
# More: UDTIM's INC TIME+1 (and TIME) when a byte carries; the cursor blinking (its countdown;
# the jiffy it turns the cursor on or off); UDTIM's RUN/STOP test and SCNKEY's scan of the whole
# matrix when a key is down (kernal.clock, kernal.keyboard).
CLOCK_CARRY, CLOCK_CARRY_TWICE = 7, 11
BLINK_COUNT, BLINK_ON, BLINK_OFF = 7, 113, 62
# The cassette switch (KEY4): with no datasette key down (the sense line, $01 bit 4, high) the ROM
# clears CAS1 and writes $01 with the motor bit set (off); with a key down it turns the motor on
# (2 fewer cycles), or, CAS1 set by the tape routines, leaves it (9 fewer).  SCNKEY's cycles with
# a key down are the keyboard's (kernal.keyboard); SCAN_NO_KEY for a direct call.
CASSETTE_SENSE, CASSETTE_MOTOR = 0x10, 0x20
CASSETTE_KEY_DOWN, CASSETTE_KEY_MOTOR_RUNNING = -2, -9
_IRQ_DEFAULT = entries.address_of("IRQ_DEFAULT")
_NEWSTT = entries.address_of("BASIC_NEWSTT")
_SCROLL = entries.address_of("SCROLL")
_NO_ROUTINE = (None, None, 0)
_BASIC_ROM_END = 0xE4D3     # BASIC's code goes on in the KERNAL ROM from $E000 up to here


def _never():
    """CHROUT's direct version when there is none: the general trap always runs."""
    return False


def _returns_to(cpu):
    """The address a pending RTS would go to, i.e. the caller's JSR + 3."""
    return stacked_word(cpu.memory, cpu.sp, 1) + 1


def _irq_exit(cpu):
    """PLA TAY PLA TAX PLA RTI (the $EA81 tail), with its 22 cycles."""
    stack = cpu.memory
    sp = cpu.sp
    cpu.y = stacked(stack, sp, 1)
    cpu.x = stacked(stack, sp, 2)
    cpu.a = stacked(stack, sp, 3)
    cpu.p = stacked(stack, sp, 4) | BREAK | UNUSED
    cpu.pc = stacked_word(stack, sp, 5)
    cpu.sp = (sp + 6) & 0xFF
    cpu.processorCycles += EXIT_CYCLES


class Kernal(BasicEntries):
    """All KERNAL routines, and the trap dispatcher: ROM address -> routine.

    What the KERNAL uses of the machine it is given (c64.machine.C64 is one):
      machine.mem       the memory (c64.memory's public interface; a plain 64 KB array
                        will do for most routines)
      machine.cpu       registers a x y p sp pc, processorCycles, stop(), disassemble
                        (opcode -> (mnemonic, mode)); a translating CPU also offers
                        with_registers and set_fast_trap (see direct_chrout), and
                        code_loaded(start, end), told of every program LOADed
      machine.vic.reset(), machine.cia1.acknowledge(), machine.cia2.acknowledge(),
      machine.reset_chips(), machine.pal
      machine.transcript  a list the screen output is appended to, or None
      machine.wait_for_key(), note_empty_poll(), warm_start(), basic_warm_start(), reset(),
      call_returned(), program_returned()   the run loop's events
      machine.stall(cycles)   optional: time spent in a ROM delay loop, interrupts running
    """

    def __init__(self, machine):
        self.machine = machine
        mem = self.mem = machine.mem
        self.keyboard = Keyboard(mem)
        self.clock = JiffyClock(mem, self.keyboard)
        self.editor = ScreenEditor(mem)
        self.editor.delay = getattr(machine, "stall", None)
        self.channels = Channels(mem, self.editor, self.keyboard)
        self.channels.code_loaded = getattr(machine.cpu, "code_loaded", None)
        self._page1 = getattr(mem, "ram", mem)      # the stack page is always RAM
        self.key_wait_loops = KeyWaitLoops(mem, machine.cpu.disassemble)
        self.names = entries.trap_addresses()
        self._own = {}
        for addr, name in self.names.items():
            routine = getattr(self, "k_" + name.lower(), None)
            self._own[addr] = (name, routine, _COST.get(name, _DEFAULT_COST))
        self._routines = dict(self._own)
        self.basic = None        # set by the machine (kernal.basic.Basic)
        self._endless = 0        # the cycles of a pass of a ROM loop the CPU spins in for good (k_scroll)
        # CHROUT to the screen of a character the editor prints in one step, as one trap-sized
        # piece of Python when the CPU's registers are closure cells (c64.fastcpu.FastCPU),
        # which the CPU's translated blocks call straight (kernal.editor_fastpath).
        self._chrout_addr = entries.address_of("CHROUT")
        self._chrout_own = self._own[self._chrout_addr]
        self._direct_chrout = None
        self._chrout_direct = _never        # what trap() tries first for CHROUT: never None
        cpu = machine.cpu
        self._own_direct_chrout = None
        if hasattr(cpu, "with_registers") and hasattr(mem, "code_map"):
            cycles = chrout_cycles(self._own[self._chrout_addr][2])
            self._own_direct_chrout = cpu.with_registers(
                direct_chrout(), ram=mem.ram, machine=machine, cycles=cycles,
                screen_codes=SCREEN_CODE, code_map=mem.code_map, mem=mem,
                write_io=mem.page_writes_io, io=None, colour_ram=None)
            # The same as source for the blocks to hold inline (one object, so that handing
            # it again changes nothing).
            self._inline_chrout = lambda returns_to, write_kind: inline_chrout(
                returns_to, write_kind, cycles, SCREEN_CODE)
            self.direct_chrout = self._own_direct_chrout

    # -- the routine table ------------------------------------------------------------
    @property
    def routines(self):
        """ROM address -> (name, routine, cost in cycles) of every routine the traps run
        (read only: replace_routine and restore_routine change it)."""
        return MappingProxyType(self._routines)

    def replace_routine(self, addr, routine, cost=None):
        """Run `routine(cpu)` for the trap at ROM address `addr` (None: not implemented, the
        trap stops the machine naming it); cost in cycles, by default the old one.
        Returns the entry it replaces.  A replaced CHROUT is called by the fast core's blocks
        too (its direct version is withdrawn until restore_routine)."""
        old = self._routines.get(addr, (self.names.get(addr), None, _DEFAULT_COST))
        self._routines[addr] = (old[0], routine, old[2] if cost is None else cost)
        self._hand_direct_chrout()
        return old

    def restore_routine(self, addr):
        """Put the KERNAL's own routine back at `addr`."""
        self._routines[addr] = self._own[addr]
        self._hand_direct_chrout()

    @property
    def direct_chrout(self):
        """CHROUT's direct version (kernal.editor_fastpath.direct_chrout on the CPU's registers),
        or None: a function of no arguments that does the whole trap for its common case and
        returns True, or returns False having changed nothing.  The CPU's blocks call it in
        place of the trap while CHROUT's routine is the KERNAL's own; setting it (None: no
        direct version) hands it to the CPU."""
        return self._direct_chrout

    @direct_chrout.setter
    def direct_chrout(self, function):
        self._direct_chrout = function
        self._chrout_direct = _never if function is None else function
        self._hand_direct_chrout()

    def _hand_direct_chrout(self):
        direct = self._direct_chrout
        if self._routines.get(self._chrout_addr) is not self._chrout_own:
            direct = None
        set_fast_trap = getattr(self.machine.cpu, "set_fast_trap", None)
        if set_fast_trap is None:
            return
        if direct is not None and direct is self._own_direct_chrout:
            # The KERNAL's own: the blocks may hold it inline (kernal.editor_fastpath).
            set_fast_trap(self._chrout_addr, direct, self._inline_chrout, self.machine)
        else:
            set_fast_trap(self._chrout_addr, direct)

    # -- the dispatcher -------------------------------------------------------------
    def trap(self, addr):
        entry = self._routines.get(addr, _NO_ROUTINE)
        if entry is self._chrout_own and self._chrout_direct():
            return
        cpu = self.machine.cpu
        name, routine, cost = entry
        if routine is None:
            caller = (_returns_to(cpu) - 3) & 0xFFFF
            if name is None:
                where = ("BASIC is Python here: machine code enters it only at the addresses "
                         "docs/c64.md lists" if 0xA000 <= addr < 0xC000 or 0xE000 <= addr < _BASIC_ROM_END
                         else "this C64 has only our stub ROM")
                raise CPUStop("CPU JAM at $%04X: no routine at this ROM address (%s)" % (addr, where), addr)
            raise CPUStop("KERNAL routine %s ($%04X) is not implemented (called from $%04X)"
                          % (name, addr, caller), addr)
        cpu.processorCycles += cost
        editor = self.editor
        editor.spent = 0
        try:
            result = routine(cpu)
        except EndlessLoop as loop:
            # The ROM would loop here for good: the CPU stays in it (k_scroll), time passing.
            cpu.processorCycles += editor.spent
            editor.spent = 0
            self._endless = loop.pass_cycles
            cpu.pc = _SCROLL
            return
        except KernalError as error:
            # Routines that report errors in C/A catch them themselves; one that escapes
            # (e.g. BASIC printing to a device that is not there) ends the program.
            caller = (_returns_to(cpu) - 3) & 0xFFFF
            raise CPUStop("KERNAL error %d (%s) in %s ($%04X), called from $%04X"
                          % (error.number, error_text(error.number), name, addr, caller),
                          addr) from None
        if editor.spent:
            cpu.processorCycles += editor.spent    # the screen editor's ROM path (kernal.editor_cycles)
            editor.spent = 0
        if result is None:
            self._rts(cpu)
        elif result is WAIT:
            cpu.pc = addr                 # come back here when a key has arrived
            self.machine.wait_for_key()
        # any other result: the routine has set pc itself

    def _rts(self, cpu):
        stack = self._page1
        sp = cpu.sp
        cpu.pc = rts_target(stack, sp)
        cpu.sp = (sp + 2) & 0xFF

    @staticmethod
    def _carry(cpu, on):
        cpu.p = (cpu.p | CARRY) if on else (cpu.p & ~CARRY)

    @staticmethod
    def _nz(cpu, value):
        cpu.p &= ~(ZERO | NEGATIVE)
        cpu.p |= (value & NEGATIVE) | (0 if value else ZERO)

    def _error(self, cpu, number):
        cpu.a = number
        self._carry(cpu, True)

    # -- initialisation ------------------------------------------------------------
    def k_cint(self, cpu):
        self._endless = 0
        self.machine.vic.reset()
        self.mem[PALNTS] = 1 if self.machine.pal else 0
        self.channels.reset()
        self.editor.cint()

    def k_ioinit(self, cpu):
        self.machine.reset_chips()

    def k_ramtas(self, cpu):
        code_map = getattr(self.mem, "code_map", None)
        # The ROM's loop: STA $0002,Y / STA $0200,Y / STA $0300,Y for Y = 0-255.
        for addr in list(range(0x0002, 0x0102)) + list(range(BUF, SCREEN_RAM)):
            self.mem.ram[addr] = 0
            if code_map is not None and code_map[addr]:
                self.mem.code_written(addr)     # translated code there is gone (c64.fastcpu)
        self.mem[TAPE1], self.mem[TAPE1 + 1] = TBUFFR & 0xFF, TBUFFR >> 8
        bottom = BASIC_START - 1                 # $0800: BASIC wants a 0 byte before its program
        self.mem[MEMSTR], self.mem[MEMSTR + 1] = bottom & 0xFF, bottom >> 8
        self.mem[MEMSIZ], self.mem[MEMSIZ + 1] = BASIC_TOP & 0xFF, BASIC_TOP >> 8
        self.mem[HIBASE] = SCREEN_RAM >> 8
        # The memory test's pointer (tmp0, $C1/$C2) stops at the first page that is not RAM.
        self.mem[STAL], self.mem[STAL + 1] = 0, BASIC_TOP >> 8

    def k_restor(self, cpu):
        for _, vector, default in entries.RAM_VECTORS:
            self.mem[vector], self.mem[vector + 1] = default & 0xFF, default >> 8
        table = entries.RAM_VECTOR_TABLE         # RESTOR is VECTOR from the ROM's table:
        self.mem[MEMUSS], self.mem[MEMUSS + 1] = table & 0xFF, table >> 8     # tmp2 points at it

    def k_vector(self, cpu):
        table = cpu.x | (cpu.y << 8)
        self.mem[MEMUSS], self.mem[MEMUSS + 1] = cpu.x, cpu.y       # (tmp2, $C3/$C4, as the ROM)
        for i in range(RAM_VECTORS_LENGTH):
            if cpu.p & CARRY:
                self.mem[(table + i) & 0xFFFF] = self.mem[CINV + i]
            else:
                self.mem[CINV + i] = self.mem[(table + i) & 0xFFFF]

    def k_setmsg(self, cpu):
        self.mem[MSGFLG] = cpu.a
        cpu.a = self.mem[STATUS]
        self._nz(cpu, cpu.a)          # ends in READST's ORA STATUS

    def k_memtop(self, cpu):
        self._pointer(cpu, MEMSIZ)

    def k_membot(self, cpu):
        self._pointer(cpu, MEMSTR)

    def _pointer(self, cpu, addr):
        # BCC set / LDX / LDY, set: STX / STY / RTS (24 reading, 17 setting)
        cpu.processorCycles += 24 if cpu.p & CARRY else 17
        if cpu.p & CARRY:
            cpu.x, cpu.y = self.mem[addr], self.mem[addr + 1]
        else:
            self.mem[addr], self.mem[addr + 1] = cpu.x, cpu.y

    def k_settmo(self, cpu):
        self.mem[TIMOUT] = cpu.a

    def k_readst(self, cpu):
        cpu.a = self.mem[STATUS]
        self._nz(cpu, cpu.a)

    def k_setlfs(self, cpu):
        self.mem[LA], self.mem[FA], self.mem[SA] = cpu.a, cpu.x, cpu.y

    def k_setnam(self, cpu):
        self.mem[FNLEN], self.mem[FNADR], self.mem[FNADR + 1] = cpu.a, cpu.x, cpu.y

    # -- screen and keyboard ----------------------------------------------------------
    def k_screen(self, cpu):
        cpu.x, cpu.y = 40, 25
        self._nz(cpu, cpu.y)

    def k_plot(self, cpu):
        # BCS read / STX TBLX / STY PNTR / JSR STUPT / read: LDX TBLX / LDY PNTR / RTS.
        # On the second row of a linked line STUPT makes the column count from the line's
        # first row (+40), and the set path returns that column in Y.
        if not cpu.p & CARRY:
            # BCS / STX TBLX / STY PNTR / JSR STUPT, LDX TBLX / LDY PNTR / RTS
            self.editor.spent += 2 + 3 + 3 + 6 + 12
            self.editor.set_cursor(cpu.x, cpu.y)
        else:
            self.editor.spent += 3 + 12
        cpu.x, cpu.y = self.editor.get_cursor()
        self._nz(cpu, cpu.y)

    def k_iobase(self, cpu):
        cpu.x, cpu.y = 0x00, 0xDC
        self._nz(cpu, cpu.y)

    def k_scnkey(self, cpu):
        cpu.processorCycles += SCAN_NO_KEY + self.keyboard.scan()

    def k_scroll(self, cpu):
        """$E8EA (SCROL): the screen up by a logical line, X = the new row $D6; or, with the CPU
        left in the ROM's endless scroll (EndlessLoop), one more pass of it."""
        if self._endless:
            cpu.processorCycles += self._endless
            cpu.pc = _SCROLL
            return True
        cpu.x = self.editor.scroll_up()
        self._nz(cpu, cpu.x)
        return None

    def k_clear_screen(self, cpu):
        self.editor.clear()

    def k_home(self, cpu):
        self.editor.set_cursor(0, 0)

    def k_set_line_pointers(self, cpu):
        self.editor.set_cursor(self.mem[TBLX], self.mem[PNTR])

    def k_set_colour_pointer(self, cpu):
        self.editor.set_colour_pointer()

    def k_print_to_screen(self, cpu):
        self.editor.chrout(cpu.a)
        self.editor.spent -= NBSOUT_SCREEN       # entered at PRT ($E716), past NBSOUT
        self._carry(cpu, False)

    def k_key_from_buffer(self, cpu):
        count = self.keyboard.count()
        key = self.keyboard.take()
        cpu.a = cpu.y = key if key is not None else 0
        cpu.x = count
        self._nz(cpu, cpu.a)
        self._carry(cpu, False)
        cpu.p &= ~INTERRUPT

    # -- channels ------------------------------------------------------------------------
    def _channel_call(self, cpu, action):
        try:
            action()
        except KernalError as error:
            self._error(cpu, error.number)
        else:
            self._carry(cpu, False)

    def k_open(self, cpu):
        self._channel_call(cpu, self.channels.open)

    def k_close(self, cpu):
        self._channel_call(cpu, lambda: self.channels.close(cpu.a))

    def k_chkin(self, cpu):
        self._channel_call(cpu, lambda: self.channels.chkin(cpu.x))

    def k_chkout(self, cpu):
        self._channel_call(cpu, lambda: self.channels.chkout(cpu.x))

    def k_clrchn(self, cpu):
        self.channels.clrchn()
        cpu.a, cpu.x = 0, 3           # LDX #3 ... LDA #0 / STA DFLTN
        self._nz(cpu, 0)

    def k_clall(self, cpu):
        self.channels.clall()
        cpu.a, cpu.x = 0, 3           # falls into CLRCHN
        self._nz(cpu, 0)

    def chrout(self, byte):
        """CHROUT for the KERNAL's Python callers (BASIC's messages and PRINT): what
        JSR $FFD2 does, the transcript included.  Raises KernalError as channels.chrout.
        Returns the C64 cycles the ROM's CHROUT takes from $F1CA to its RTS (a scroll's
        passes aside: they pass as the machine's stall), for the caller to charge."""
        if self.mem.ram[DFLTO] == SCREEN:
            transcript = self.machine.transcript
            if transcript is not None:
                transcript.append(byte)
            editor = self.editor
            before = editor.spent
            editor.chrout(byte)
            spent = editor.spent - before
            editor.spent = before
            return spent
        self.channels.chrout(byte)
        return CHROUT_DEVICE_COST

    def k_chrout(self, cpu):
        a = cpu.a
        if self.mem.ram[DFLTO] == SCREEN:
            transcript = self.machine.transcript
            if transcript is not None:
                transcript.append(a)              # the transcript records the screen only
            self.editor.chrout(a)
            # The screen path ends PLA (A back) / CLC / CLI / RTS.
            cpu.p = (cpu.p & ~(CARRY | ZERO | NEGATIVE | INTERRUPT)) | (a & NEGATIVE) | (0 if a else ZERO)
            return
        cpu.processorCycles += CHROUT_DEVICE_COST
        try:
            self.channels.chrout(a)
        except KernalError as error:
            self._error(cpu, error.number)
            return
        self._carry(cpu, False)

    def k_chrin(self, cpu):
        editor_path = self.mem[DFLTN] in (KEYBOARD, SCREEN)
        try:
            byte = self.channels.chrin()
        except KernalError as error:
            self._error(cpu, error.number)
            return None
        if byte is WAIT:
            return WAIT
        # NBASIN to LOOP5: the keyboard's LDA PNTR / STA LSTP / LDA TBLX / STA LSXP (20), the
        # screen's STA CRSW / LDA LNMX / STA INDX (22); the screen editor charges the rest.
        device = self.mem[DFLTN]
        cpu.processorCycles += 20 if device == KEYBOARD else 22 if device == SCREEN else CHRIN_DEVICE_COST
        cpu.a = byte
        if editor_path and byte != 0xFF:
            # Keyboard/screen path: LDA DATA / CMP #$DE / BNE + / LDA #$FF / +: CLC / RTS
            cpu.p &= ~(ZERO | NEGATIVE)
            cpu.p |= (byte - 0xDE) & NEGATIVE
        else:
            self._nz(cpu, byte)
        self._carry(cpu, False)

    def k_getin(self, cpu):
        count = self.keyboard.count()
        if self.mem[DFLTN] == KEYBOARD:
            cpu.processorCycles += GETIN_KEY + GETIN_PER_KEY * min(count, 10) if count else GETIN_EMPTY
        else:
            cpu.processorCycles += GETIN_DEVICE_COST
        try:
            byte = self.channels.getin()
        except KernalError as error:
            self._error(cpu, error.number)
            return
        if byte is WAIT:
            byte = 0
        cpu.a = byte
        self._nz(cpu, byte)
        self._carry(cpu, False)
        if self.mem[DFLTN] == KEYBOARD:
            if byte:
                cpu.x, cpu.y = count, byte
                cpu.p &= ~INTERRUPT
            else:
                self.machine.note_empty_poll()

    def k_stop(self, cpu):
        # LDA STKEY / CMP #$7F / BNE out / PHP / JSR CLRCHN / STA NDX / PLP / out: RTS
        stkey = self.mem[STKEY]
        cpu.processorCycles += STOP_DOWN if stkey == 0x7F else STOP_UP
        cpu.a = stkey
        cpu.p &= ~(CARRY | ZERO | NEGATIVE)
        cpu.p |= (CARRY if stkey >= 0x7F else 0) | (ZERO if stkey == 0x7F else 0) \
            | ((stkey - 0x7F) & NEGATIVE)
        if stkey == 0x7F:
            self.channels.clrchn()
            self.keyboard.flush()
            cpu.a, cpu.x = 0, 3           # CLRCHN's registers; PLP keeps CMP's flags

    # -- the serial bus (LISTEN/SECOND/CIOUT/UNLSN, TALK/TKSA/ACPTR/UNTLK) -------------------
    def k_listen(self, cpu):
        self.channels.listen(cpu.a)
        self._carry(cpu, False)

    def k_talk(self, cpu):
        self.channels.talk(cpu.a)
        self._carry(cpu, False)

    def k_second(self, cpu):
        self.channels.second(cpu.a)

    def k_tksa(self, cpu):
        self.channels.tksa(cpu.a)

    def k_ciout(self, cpu):
        self.channels.ciout(cpu.a)
        self._carry(cpu, False)

    def k_unlsn(self, cpu):
        self.channels.unlisten()

    def k_acptr(self, cpu):
        cpu.a = self.channels.acptr()
        self._nz(cpu, cpu.a)
        self._carry(cpu, False)

    def k_untlk(self, cpu):
        self.channels.untalk()

    # -- clock -----------------------------------------------------------------------------
    def k_udtim(self, cpu):
        mem = self.mem
        cpu.processorCycles += UDTIM_CYCLES + (0 if mem[TIME + 2] != 0xFF else
                                               CLOCK_CARRY_TWICE if mem[TIME + 1] == 0xFF else CLOCK_CARRY)
        cpu.processorCycles += self.clock.udtim()

    def k_rdtim(self, cpu):
        jiffies = self.clock.read()
        cpu.a, cpu.x, cpu.y = jiffies & 0xFF, (jiffies >> 8) & 0xFF, jiffies >> 16
        self._nz(cpu, cpu.y)              # LDY TIME is the last load
        cpu.p &= ~INTERRUPT               # falls into SETTIM, which ends with CLI

    def k_settim(self, cpu):
        self.clock.set((cpu.y << 16) | (cpu.x << 8) | cpu.a)
        cpu.p &= ~INTERRUPT               # SEI ... CLI

    # -- files ------------------------------------------------------------------------------
    def k_iload(self, cpu):
        m = self.mem
        verify = cpu.a != 0
        m[VERCK] = cpu.a
        address = m[MEMUSS] | (m[MEMUSS + 1] << 8)
        try:
            end = self.channels.load(self.channels.file_name(), m[FA], m[SA], address, verify)
        except KernalError as error:
            self._error(cpu, error.number)
            return
        cpu.x, cpu.y = end & 0xFF, end >> 8
        self._carry(cpu, False)
        self._disk_time()

    def k_isave(self, cpu):
        m = self.mem
        start = m[STAL] | (m[STAL + 1] << 8)
        end = m[EAL] | (m[EAL + 1] << 8)
        try:
            self.channels.save(self.channels.file_name(), m[FA], start, end)
        except KernalError as error:
            self._error(cpu, error.number)
            return
        self._carry(cpu, False)
        self._disk_time()

    def _disk_time(self):
        """The LOAD's or SAVE's time on a 1541 (kernal.disk_time) passes before the program
        goes on, the interrupts taken meanwhile."""
        stall = getattr(self.machine, "stall", None)
        if stall is not None and self.channels.bytes_moved:
            stall(transfer_cycles(self.channels.bytes_moved, self.machine.pal))

    # -- interrupts -----------------------------------------------------------------------------
    def k_irq_default(self, cpu):
        mem = self.mem
        carries = mem[TIME + 2] == 0xFF
        cycles = IRQ_BODY + (0 if not carries else CLOCK_CARRY_TWICE if mem[TIME + 1] == 0xFF else CLOCK_CARRY)
        cycles += self.clock.udtim()
        if not mem[BLNSW]:
            phase = mem[BLNON]
            cycles += BLINK_COUNT if mem[BLNCT] != 1 else BLINK_OFF if phase & 1 else BLINK_ON
            self.editor.blink()
            self.editor.spent = 0
        cycles += self._cassette_switch()
        cpu.processorCycles += cycles + self.keyboard.scan()
        self.machine.cia1.acknowledge()
        if (self.keyboard.count() == 0 and not self.keyboard.held and not self.keyboard.arriving
                and self.key_wait_loops.at(interrupted_pc(self._page1, cpu.sp))):
            # The program spins on the key count $C6 or the matrix (kernal.idle) with no key
            # in the buffer or held down: it waits for the keyboard as surely as in GETIN.
            # Leave the IRQ (the $EA81 tail, done here) and tell the machine, which then
            # types the next scripted key or lets time pass to the next interrupt.
            _irq_exit(cpu)
            self.machine.wait_for_key()
            return True
        cpu.pc = entries.IRQ_EXIT
        return True

    def _cassette_switch(self):
        """KEY4 .. KL24: the cassette sense line ($01 bit 4) read and the motor bit (5) written
        as the ROM writes it; returns the cycles against the usual path (no key down: 0)."""
        ram = self._page1
        port = ram[R6510]                  # (RAM's $01 holds what the port reads)
        if port & CASSETTE_SENSE:
            if ram[CAS1]:
                ram[CAS1] = 0
            motor_off = port | CASSETTE_MOTOR
            if getattr(self.mem, "port", motor_off) != motor_off:   # (the latch: most jiffies it holds this)
                self.mem[R6510] = motor_off
            return 0
        if ram[CAS1]:
            return CASSETTE_KEY_MOTOR_RUNNING
        self.mem[R6510] = port & ~CASSETTE_MOTOR & 0xFF
        return CASSETTE_KEY_DOWN

    def default_irq(self, cpu):
        """An IRQ taken, with the KERNAL ROM in and the vector at $0314 left at IRQ_DEFAULT:
        what the CPU's interrupt sequence, the IRQ entry ($FF48), the handler and the $EA81
        exit do, in one call -- the same cycles, stack bytes and handler work, and the
        registers the exit pulls back -- for the machine's run loop (C64.run), which knows
        when nothing can tell the difference."""
        sp, pc, p = cpu.sp, cpu.pc, cpu.p
        mem = self.mem
        # PC and P (B clear) as the CPU pushes them, then PHA TXA PHA TYA PHA.
        for offset, value in enumerate((pc >> 8, pc & 0xFF, (p & ~BREAK) | UNUSED, cpu.a, cpu.x, cpu.y)):
            mem[STACK + ((sp - offset) & 0xFF)] = value
        cpu.sp = inside = (sp - 6) & 0xFF
        cpu.pc = _IRQ_DEFAULT + 1
        # TSX / LDA $0104,X crosses a page when X >= $FC.
        cpu.processorCycles += INTERRUPT_CYCLES + ENTRY_CYCLES + (inside >= 0xFC)
        self.trap(_IRQ_DEFAULT)
        if cpu.pc == entries.IRQ_EXIT:
            # PLA TAY PLA TAX PLA RTI: the registers as they were, B and bit 5 set.
            cpu.pc, cpu.sp = pc, sp
            if p & (BREAK | UNUSED) != BREAK | UNUSED:
                cpu.p = p | BREAK | UNUSED
            cpu.processorCycles += EXIT_CYCLES
        # (else the handler left the interrupt itself: a program waiting for a key)

    def k_brk_default(self, cpu):
        # Stack: Y X A (pushed by $FF48), then P and the return address BRK pushed.
        sp = cpu.sp
        at = stacked_word(self.mem, sp, 5) - 2
        raise CPUStop("BRK at $%04X: the program hit a BRK instruction (empty BRK vector)"
                      % (at & 0xFFFF), at & 0xFFFF)

    def k_nmi_default(self, cpu):
        self.machine.cia2.acknowledge()      # the ROM's NMI handler reads $DD0D ($FE4C)
        if self.keyboard.stop_down():
            self.machine.warm_start()
            return True
        cpu.p = stacked(self.mem, cpu.sp, 1) | BREAK | UNUSED     # RTI
        cpu.pc = stacked_word(self.mem, cpu.sp, 2)
        cpu.sp = (cpu.sp + 3) & 0xFF
        return True

    def k_reset(self, cpu):
        self.machine.reset()
        return True

    def k_call_return(self, cpu):
        # $FF00 is not a C64 routine: Machine.call() pushed it as its routine's return address.
        self.machine.call_returned()
        return True
