"""BASIC's entry points in the stub ROM, as the KERNAL's dispatcher calls them.

Part of the Kernal (kernal/dispatch.py): the trap at each BASIC address machine code
reaches -- SYS's return, READY., MAIN, NEWSTT, the conversions at $0003/$0005, STROUT and
LINPRT, and the entries of kernal.basic.vectors (where code hooked into BASIC's vectors
goes on, and the routines a wedge calls for its arguments) -- handed to BASIC
(kernal.basic).  Each `k_<name>` method is the routine of the ROM entry of that name
(kernal.entries.ROM_ENTRIES).
"""

from kernal import entries

_NEWSTT = entries.address_of("BASIC_NEWSTT")


class BasicEntries:
    """The BASIC routines of the Kernal's trap table (self.basic is kernal.basic.Basic)."""

    def k_sys_return(self, cpu):
        if self.basic.interp.sys_returned(cpu):
            return True                       # SYS from a running program: on with its next statement
        self.machine.program_returned()
        return True

    def k_flpint(self, cpu):
        self.basic.interp.flpint(cpu)

    def k_givayf(self, cpu):
        self.basic.interp.givayf(cpu)

    def k_basic_error(self, cpu):
        if self.basic.interp.hook_exit_at(cpu, entries.address_of("BASIC_ERROR")):
            return True                       # an error raised by a hook BASIC is running
        return self.basic.error_by_number(cpu)

    def k_basic_warm_start(self, cpu):
        self.machine.basic_warm_start()      # (RESTOR, IOINIT and CINT are RUN/STOP+RESTORE's, before it)
        return True

    def k_basic_ready_entry(self, cpu):
        return self.basic.ready_entry(cpu)

    def k_basic_ready(self, cpu):
        return self.basic.ready_from_code(cpu)

    def k_basic_main(self, cpu):
        return self.basic.main_loop(cpu, through_vector=True)

    def k_basic_newstt(self, cpu):
        # The trap itself is no ROM code: NEWSTT's cycles are charged with each statement
        # (kernal.basic.cycles), so the trap's own charge is given back.
        cpu.processorCycles -= self._routines[_NEWSTT][2]
        interp = self.basic.interp
        if interp.in_code is not None:        # JMP $A7AE from code BASIC started (kernal.basic.vectors)
            return interp.newstt_from_code(cpu)
        return interp.newstt(cpu)

    # Where machine code hooked into BASIC's vectors goes on (kernal.basic.vectors).
    def k_basic_ngone(self, cpu):
        return self.basic.interp.ngone(cpu)

    def k_basic_ngone1(self, cpu):
        return self.basic.interp.ngone1(cpu)

    def k_basic_gone_return(self, cpu):
        return self.basic.interp.gone_return(cpu)

    # BASIC's routines a wedge calls for its arguments (kernal.basic.vectors)
    def k_frmnum(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.frmnum, chrgot=False)

    def k_frmevl(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.frmevl, chrgot=False)

    def k_frestr(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.frestr, reads_text=False)

    def k_chkcom(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.chkcom)

    def k_getbyt(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.getbyt)

    def k_combyt(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.combyt)

    def k_getadr(self, cpu):
        interp = self.basic.interp
        return interp.basic_routine(cpu, interp.getadr, reads_text=False)

    def k_basic_nmain(self, cpu):
        return self.basic.main_loop(cpu)

    def k_basic_main_line(self, cpu):
        return self.basic.main_line(cpu)

    def k_basic_inlin(self, cpu):
        return self.basic.inlin(cpu)

    def k_basic_ncrnch(self, cpu):
        self.basic.interp.ncrnch(cpu, self.basic.crunch)

    def k_basic_neval(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_NEVAL"), "NEVAL")

    def k_basic_neval_read(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_NEVAL_READ"), "EVAL")

    def k_basic_nqplop(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_NQPLOP"), "NQPLOP")

    def k_basic_ploop(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_PLOOP"), "PLOOP")

    def k_basic_ploop1(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_PLOOP1"), "PLOOP1")

    def k_basic_prit4(self, cpu):
        return self.basic.interp.exit_trap(cpu, entries.address_of("BASIC_PRIT4"), "PRIT4")

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
