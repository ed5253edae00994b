"""The KERNAL as traps: one table from ROM address to the Python routine behind it.

The CPU calls `Kernal.trap(addr)` when it fetches the trap opcode from ROM
at a routine's address.  Each routine reads and writes the registers with
the real KERNAL's conventions and then returns as an RTS would, unless it
must wait for a key (the trap is then re-entered later) or it jumps
elsewhere itself (IRQ exit, BASIC).  The subsystems live in their own
modules: editor (screen), keyboard, clock, channels, disk, basic.

CHROUT's common case (a character the editor prints in one step) runs as one
function over FastCPU's register cells when the CPU is a FastCPU: same effects
as the general path, several times cheaper; programs that print a lot (the
classic RYG versions print every board they generate) spend much of warp here.
"""

from c64.cpu import CPU
from kernal.errors import CPUStop
from c64.io import IO
from kernal import entries
from kernal.channels import Channels, WAIT
from kernal.errors import KernalError, error_text
from kernal.clock import JiffyClock
from kernal.editor import SCREEN_CODE, ScreenEditor
from kernal.keyboard import Keyboard
from kernal.locations import (BREAK, CARRY, CINV, DFLTN, DFLTO, EAL, FA, FNADR, FNLEN, HIBASE,
                              INTERRUPT, KEYBOARD, LA, MEMSIZ, MEMSTR, MEMUSS, MSGFLG, NDX,
                              NEGATIVE, PALNTS, PNT, PNTR, RAM_VECTORS_LENGTH, SA, SCREEN, STAL,
                              STATUS, STKEY, ST_DEVICE_NOT_PRESENT, ST_EOI, ST_VERIFY_ERROR, TAPE1,
                              TBLX, TIMOUT, UNUSED, USER, VERCK, ZERO)
from kernal.stack import rts_target, stacked, stacked_word

# Rough cost in cycles of the real routines, so that C64 time stays realistic.
_COST = {"CHROUT": 120, "PRINT_TO_SCREEN": 110, "CHRIN": 60, "GETIN": 40,
         "PLOT": 60, "IRQ_DEFAULT": 300, "RDTIM": 30, "CALL_RETURN": 0}
_DEFAULT_COST = 30
_NO_ROUTINE = (None, None, 0)


def _never():
    """The direct version of CHROUT on a CPU without register cells: always the general trap."""
    return False


def _returns_to(cpu):
    """The address a pending RTS would go to, i.e. the caller's JSR + 3."""
    return stacked_word(cpu.memory, cpu.sp, 1) + 1


# -- recognising a program that spins waiting for a key -------------------------------------
# A read-only loop (loads, compares, logic, branches) that reads the key count $C6 or the
# keyboard matrix: nothing but an interrupt can change what it sees.
_LOOP_SAFE = frozenset(("LDA", "LDX", "LDY", "CMP", "CPX", "CPY", "AND", "ORA", "EOR", "BIT", "NOP",
                        "BEQ", "BNE", "BPL", "BMI", "BCC", "BCS", "BVC", "BVS"))
_MODE_LENGTH = {"imp": 1, "acc": 1, "imm": 2, "zpg": 2, "zpx": 2, "zpy": 2, "inx": 2, "iny": 2,
                "rel": 2, "abs": 3, "abx": 3, "aby": 3, "ind": 3}
_KEY_ADDRESSES = frozenset((NDX, 0xDC00, 0xDC01))   # NDX, CIA1 port A and B
_LONGEST_WAIT_LOOP = 16         # bytes
# Areas that read as one whole: always RAM ($00/$01 too: RAM mirrors the port), or RAM or ROM.
_READ_AREAS = ((0x0000, 0xA000, False), (0xA000, 0xC000, True), (0xC000, 0xD000, False),
               (0xE000, 0x10000, True))
_WAIT_LOOP_MEMORY = 4096        # remembered (pc, code bytes) answers, forgotten all at once


def _interrupted_pc(cpu):
    """Where the IRQ will return to, with the stack as $FF48 left it (Y X A P PC); None if masked."""
    stack = cpu.memory
    sp = cpu.sp
    if stacked(stack, sp, 4) & INTERRUPT:
        return None
    return stacked_word(stack, sp, 5)


def _in_key_wait_loop(mem, pc):
    """True if pc is inside a short read-only loop that polls $C6, $DC00 or $DC01."""
    if pc is None or 0xD000 - 2 * _LONGEST_WAIT_LOOP <= pc < 0xE000 + _LONGEST_WAIT_LOOP:
        return False                # never read I/O registers (reads can have side effects)
    for start in range(max(0, pc - _LONGEST_WAIT_LOOP), pc + 1):
        addr, reads_keys, seen_pc = start, False, False
        while addr <= start + _LONGEST_WAIT_LOOP:
            seen_pc = seen_pc or addr == pc
            name, mode = CPU.disassemble[mem[addr & 0xFFFF]]
            if name not in _LOOP_SAFE or mode not in _MODE_LENGTH:
                break
            if mode == "zpg":
                reads_keys = reads_keys or mem[(addr + 1) & 0xFFFF] in _KEY_ADDRESSES
            elif mode == "abs":
                operand = mem[(addr + 1) & 0xFFFF] | (mem[(addr + 2) & 0xFFFF] << 8)
                reads_keys = reads_keys or operand in _KEY_ADDRESSES
            length = _MODE_LENGTH[mode]
            if mode == "rel":
                offset = mem[(addr + 1) & 0xFFFF]
                target = (addr + 2 + offset - (0x100 if offset & 0x80 else 0)) & 0xFFFF
                if target == start:
                    if seen_pc and reads_keys:
                        return True
                    break
            addr += length
    return False


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
    cpu.processorCycles += 22


def _chrout_in_line():
    """The whole CHROUT trap (cycles, k_chrout, RTS) for its common case, as a function to be
    rebuilt on the CPU's register cells (FastCPU.with_registers, which also supplies the
    names below) and called by translated blocks in place of the trap (FastCPU.set_fast_trap).

    The function returns False, having changed nothing, unless the output device is the
    screen and the editor prints the character in one step; then its effects are exactly
    those of Kernal.trap running k_chrout for it.  (It is handed to the CPU only while
    CHROUT's entry in Kernal.routines is the KERNAL's own: _RoutineTable.)
    The printing part is ScreenEditor._print_in_line written out here with its constants,
    so that the whole trap is one Python call (tests/kernal/test_chrout_direct.py holds the two to
    the same results)."""
    a = sp = pc = cyc = fn = fz = fc = fp = rk = 0  # placeholders: the CPU's cells replace them
    ram = machine = cost = screen_codes = code_map = mem = write_io = None

    def chrout_in_line():
        nonlocal sp, pc, cyc, fn, fz, fc, fp, rk
        returns_to = rk                 # where the RTS goes, if the calling block knows it
        rk = -1
        if ram[0x9A] != 3:
            return False
        code = a
        screen_code = screen_codes[code]
        if screen_code is None:
            if code != 0x9D:
                return False
            # CRSR-left inside a row: only the column moves (not in quote or insert mode,
            # not at column 0 or 40, where it crosses to another row).
            column = ram[0xD3]                                        # PNTR
            if ram[0xD4] or ram[0xD8] or column == 0 or column == 40:  # QTSW, INSRT
                return False
            ram[0xD7] = code                                          # DATA
            ram[0xD0] = 0                                             # CRSW
            ram[0xD3] = column - 1
        else:
            # A printable character other than the quote, no pending inserts, not at the
            # end of a row: nothing wraps or scrolls.
            if code == 0x22:
                return False
            column = ram[0xD3]
            if ram[0xD8] or column == 39 or column == 79 or ram[0xD5] <= column:   # LNMX
                return False
            line = (ram[0xD2] << 8) | ram[0xD1]                       # PNT
            at = line + column
            if not 2 <= at < 0xD000:
                return False              # a screen over the processor port, I/O or ROM
            if ram[0xC7]:                                             # RVS
                screen_code |= 0x80
            ram[0xD7] = code
            ram[0xD0] = 0
            ram[0xCD] = 2                                             # BLNCT
            ram[0xF3] = line & 0xFF                                   # USER
            ram[0xF4] = ((line >> 8) & 0x03) | 0xD8
            ram[at] = screen_code
            if code_map[at]:
                mem.code_written(at)      # as C64Memory's store does: translated code changed
            # ($F3) + column is $D800 + colour; below $DC00 it is colour RAM when I/O is in.
            colour = (line & 0x3FF) + column
            io = mem.io
            if colour < 0x400 and write_io[0xD8] and type(io) is IO:
                io.colour_ram[colour] = ram[0x0286] & 0x0F            # COLOR; what IO.write does
            else:
                mem[0xD800 + colour] = ram[0x0286] & 0x0F
            ram[0xD3] = column + 1
        transcript = machine.transcript
        if transcript is not None:
            transcript.append(code)
        cyc += cost
        # The screen path's PLA / CLC / CLI: N and Z from A (fn: bit 7, fz: zero means Z).
        fn = fz = code
        fc = 0
        fp &= 0xFB
        if returns_to < 0:                              # RTS
            pc = (((ram[0x100 + ((sp + 2) & 0xFF)] << 8) | ram[0x100 + ((sp + 1) & 0xFF)]) + 1) & 0xFFFF
        else:
            pc = returns_to
        sp = (sp + 2) & 0xFF
        return True
    return chrout_in_line


class _RoutineTable(dict):
    """Kernal.routines: ROM address -> (name, routine, cost), telling its Kernal when it
    changes (tests replace entries), so that CHROUT's direct version, which the CPU calls
    without looking here, is withdrawn once CHROUT's entry is not the KERNAL's own."""

    __slots__ = ("changed",)

    def __init__(self, entries, changed):
        dict.__init__(self, entries)
        self.changed = changed

    def __setitem__(self, addr, entry):
        dict.__setitem__(self, addr, entry)
        self.changed()

    def __delitem__(self, addr):
        dict.__delitem__(self, addr)
        self.changed()

    def _then_changed(name):
        method = getattr(dict, name)

        def changing(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            finally:
                self.changed()
        changing.__name__ = name
        return changing

    pop = _then_changed("pop")
    popitem = _then_changed("popitem")
    clear = _then_changed("clear")
    update = _then_changed("update")
    setdefault = _then_changed("setdefault")
    __ior__ = _then_changed("__ior__")
    del _then_changed


class Kernal:
    """All KERNAL routines; `machine` gives the CPU, memory, chips and event hooks."""

    def __init__(self, machine):
        self.machine = machine
        mem = self.mem = machine.mem
        self.keyboard = Keyboard(mem)
        self.clock = JiffyClock(mem, self.keyboard)
        self.editor = ScreenEditor(mem)
        self.channels = Channels(mem, self.editor, self.keyboard)
        self._page1 = getattr(mem, "ram", mem)      # the stack page is always RAM
        self._wait_loops = {}
        self.names = entries.trap_addresses()
        # CHROUT to the screen of a character the editor prints in one step, as one trap-sized
        # piece of Python when the CPU's registers are closure cells (c64.fastcpu.FastCPU),
        # which the CPU's translated blocks call straight (see the _chrout_in_line property).
        self._chrout_addr = next(addr for addr, name in self.names.items() if name == "CHROUT")
        self._chrout_direct = _never
        routines = {}
        for addr, name in self.names.items():
            routine = getattr(self, "k_" + name.lower(), None)
            routines[addr] = (name, routine, _COST.get(name, _DEFAULT_COST))
        self._chrout_entry = routines[self._chrout_addr]
        self.routines = routines
        self.basic = None        # set by the machine (kernal.basic.Basic)
        cpu = machine.cpu
        memory = self.mem
        if hasattr(cpu, "with_registers") and hasattr(memory, "code_map"):
            self._chrout_in_line = cpu.with_registers(
                _chrout_in_line(), ram=memory.ram, machine=machine, cost=self._chrout_entry[2],
                screen_codes=SCREEN_CODE, code_map=memory.code_map, mem=memory,
                write_io=memory._write_io)
        else:
            self._chrout_in_line = _never

    @property
    def routines(self):
        """ROM address -> (name, routine, cost in cycles) of every routine the traps run."""
        return self._routines

    @routines.setter
    def routines(self, table):
        self._routines = _RoutineTable(table, self._routines_changed)
        self._routines_changed()

    @property
    def _chrout_in_line(self):
        """CHROUT's direct version: a function of no arguments that does the whole trap for
        its common case and returns True, or returns False having changed nothing.
        The CPU's blocks call it in place of the trap (setting it, as tests do, hands the
        new one to the CPU too) while CHROUT's entry in `routines` is the KERNAL's own."""
        return self._chrout_direct

    @_chrout_in_line.setter
    def _chrout_in_line(self, function):
        self._chrout_direct = function
        self._routines_changed()

    def _routines_changed(self):
        direct = self._chrout_direct
        if self._routines.get(self._chrout_addr) is not self._chrout_entry:
            direct = _never
        set_fast_trap = getattr(self.machine.cpu, "set_fast_trap", None)
        if set_fast_trap is not None:
            set_fast_trap(self._chrout_addr, None if direct is _never else direct)

    # -- the dispatcher -------------------------------------------------------------
    def trap(self, addr):
        entry = self._routines.get(addr, _NO_ROUTINE)
        if entry is self._chrout_entry and self._chrout_direct():
            return
        cpu = self.machine.cpu
        name, routine, cost = entry
        if routine is None:
            caller = (_returns_to(cpu) - 3) & 0xFFFF
            if name is None:
                raise CPUStop("CPU JAM at $%04X: no routine at this ROM address "
                              "(this C64 has only our stub ROM)" % addr, addr)
            raise CPUStop("KERNAL routine %s ($%04X) is not implemented (called from $%04X)"
                          % (name, addr, caller), addr)
        cpu.processorCycles += cost
        try:
            result = routine(cpu)
        except KernalError as error:
            # Routines that report errors in C/A catch them themselves; one that escapes
            # (e.g. BASIC printing to a device that is not there) ends the program.
            caller = (_returns_to(cpu) - 3) & 0xFFFF
            raise CPUStop("KERNAL error %d (%s) in %s ($%04X), called from $%04X"
                          % (error.number, error_text(error.number), name, addr, caller),
                          addr) from None
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
        self.machine.vic.reset()
        self.mem[PALNTS] = 1 if self.machine.pal else 0
        self.channels.reset()
        self.editor.cint()

    def k_ioinit(self, cpu):
        self.machine.reset_chips()

    def k_ramtas(self, cpu):
        code_map = getattr(self.mem, "code_map", None)
        for addr in list(range(0x0002, 0x0102)) + list(range(0x0200, 0x0400)):
            self.mem.ram[addr] = 0
            if code_map is not None and code_map[addr]:
                self.mem.code_written(addr)     # translated code there is gone (c64.fastcpu)
        self.mem[TAPE1], self.mem[TAPE1 + 1] = 0x3C, 0x03
        self.mem[MEMSTR], self.mem[MEMSTR + 1] = 0x00, 0x08
        self.mem[MEMSIZ], self.mem[MEMSIZ + 1] = 0x00, 0xA0
        self.mem[HIBASE] = 0x04

    def k_restor(self, cpu):
        for _, vector, default in entries.RAM_VECTORS:
            self.mem[vector], self.mem[vector + 1] = default & 0xFF, default >> 8

    def k_vector(self, cpu):
        table = cpu.x | (cpu.y << 8)
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
            self.editor.set_cursor(cpu.x, cpu.y)
        cpu.x, cpu.y = self.editor.get_cursor()
        self._nz(cpu, cpu.y)

    def k_iobase(self, cpu):
        cpu.x, cpu.y = 0x00, 0xDC
        self._nz(cpu, cpu.y)

    def k_scnkey(self, cpu):
        self.keyboard.scan()

    def k_clear_screen(self, cpu):
        self.editor.clear()

    def k_home(self, cpu):
        self.editor.set_cursor(0, 0)

    def k_set_line_pointers(self, cpu):
        self.editor.set_cursor(self.mem[TBLX], self.mem[PNTR])

    def k_set_colour_pointer(self, cpu):
        self.mem[USER] = self.mem[PNT]
        self.mem[USER + 1] = (self.mem[PNT + 1] & 0x03) | 0xD8

    def k_print_to_screen(self, cpu):
        self.editor.chrout(cpu.a)
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
        JSR $FFD2 does, the transcript included.  Raises KernalError as channels.chrout."""
        if self.mem.ram[DFLTO] == SCREEN:
            transcript = self.machine.transcript
            if transcript is not None:
                transcript.append(byte)
            self.editor.chrout(byte)
        else:
            self.channels.chrout(byte)

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
        self.clock.udtim()

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
            end = self.load_file(self.channels.file_name(), m[FA], m[SA], address, verify)
        except KernalError as error:
            self._error(cpu, error.number)
            return
        cpu.x, cpu.y = end & 0xFF, end >> 8
        self._carry(cpu, False)

    def k_isave(self, cpu):
        m = self.mem
        start = m[STAL] | (m[STAL + 1] << 8)
        end = m[EAL] | (m[EAL + 1] << 8)
        try:
            self.save_file(self.channels.file_name(), m[FA], start, end)
        except KernalError as error:
            self._error(cpu, error.number)
            return
        self._carry(cpu, False)

    def _disk(self, device):
        if device < 4:
            raise KernalError(9)
        disk = self.channels.devices.get(device)
        if disk is None:
            self.mem[STATUS] = ST_DEVICE_NOT_PRESENT
            raise KernalError(5)
        return disk

    def load_file(self, name, device, secondary, address, verify=False):
        """LOAD a file into memory; returns the address after its last byte."""
        if not name:
            raise KernalError(8)
        disk = self._disk(device)
        data = disk.load(name)
        if len(data) < 2:
            raise KernalError(4)
        if secondary != 0:
            address = data[0] | (data[1] << 8)
        body = data[2:]
        self.mem[STATUS] = 0
        for offset, byte in enumerate(body):
            target = address + offset
            if target > 0xFFFF:
                break
            if verify:
                if self.mem[target] != byte:
                    self.mem[STATUS] = ST_VERIFY_ERROR
            else:
                self.mem[target] = byte
        self.mem[STATUS] |= ST_EOI
        end = min(address + len(body), 0x10000)
        self.mem[EAL], self.mem[EAL + 1] = end & 0xFF, (end >> 8) & 0xFF
        return end & 0xFFFF

    def save_file(self, name, device, start, end):
        if not name:
            raise KernalError(8)
        disk = self._disk(device)
        body = bytes(self.mem[a] for a in range(start, max(start, end)))
        disk.save(name, bytes((start & 0xFF, start >> 8)) + body)
        self.mem[STATUS] = 0

    # -- interrupts -----------------------------------------------------------------------------
    def k_irq_default(self, cpu):
        self.clock.udtim()
        self.editor.blink()
        self.keyboard.scan()
        self.machine.cia1.acknowledge()
        if (self.keyboard.count() == 0 and not self.keyboard.held
                and self._in_key_wait_loop(_interrupted_pc(cpu))):
            # The program spins on the key count $C6 or the matrix ($DC01), as cc65's cgetc
            # does, with no key in the buffer or held down: it waits for the keyboard as
            # surely as in GETIN.  Leave the IRQ (the
            # $EA81 tail, done here) and tell the machine, which then types the next
            # scripted key or lets time pass to the next interrupt.
            _irq_exit(cpu)
            self.machine.wait_for_key()
            return True
        cpu.pc = entries.IRQ_EXIT
        return True

    def _in_key_wait_loop(self, pc):
        """_in_key_wait_loop(mem, pc), remembered for the bytes it looks at when they all come
        from one RAM or ROM area: a busy program is interrupted at the same few places."""
        if pc is None:
            return False
        first, end = pc - _LONGEST_WAIT_LOOP, pc + _LONGEST_WAIT_LOOP + 3    # bytes it may read
        for low, high, may_be_rom in _READ_AREAS:
            if low <= first and end <= high:
                source = self.mem.rom if may_be_rom and self.mem.rom_visible(first) else self._page1
                break
        else:
            return _in_key_wait_loop(self.mem, pc)      # straddles areas, or near I/O
        key = (pc, bytes(source[first:end]))
        found = self._wait_loops.get(key)
        if found is None:
            if len(self._wait_loops) >= _WAIT_LOOP_MEMORY:
                self._wait_loops.clear()
            found = self._wait_loops[key] = _in_key_wait_loop(self.mem, pc)
        return found

    def k_brk_default(self, cpu):
        # Stack: Y X A (pushed by $FF48), then P and the return address BRK pushed.
        sp = cpu.sp
        at = stacked_word(self.mem, sp, 5) - 2
        raise CPUStop("BRK at $%04X: the program hit a BRK instruction (empty BRK vector)"
                      % (at & 0xFFFF), at & 0xFFFF)

    def k_nmi_default(self, cpu):
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

    # -- BASIC entry points ---------------------------------------------------------------------------
    def k_sys_return(self, cpu):
        self.machine.program_returned()
        return True

    def k_basic_warm_start(self, cpu):
        self.machine.warm_start()
        return True

    k_basic_ready_entry = k_basic_warm_start

    def k_basic_ready(self, cpu):
        return self.basic.ready(cpu)

    def k_basic_main(self, cpu):
        return self.basic.main_loop(cpu)

    def k_strout(self, cpu):
        addr = cpu.a | (cpu.y << 8)
        for _ in range(256):
            byte = self.mem[addr]
            if byte == 0:
                break
            self.chrout(byte)                  # STROUT prints through CHROUT
            addr = (addr + 1) & 0xFFFF

    def k_linprt(self, cpu):
        for ch in str((cpu.a << 8) | cpu.x).encode():
            self.chrout(ch)
