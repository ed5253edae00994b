"""The statements that move the program: GOTO, GOSUB/RETURN, IF, ON, FOR/NEXT, END, STOP,
CONT, RUN, CLR, NEW, RESTORE, POKE, WAIT, SYS, DEF, DIM, REM, DATA.

Part of the Interpreter (kernal/basic/interpreter.py).
"""

from kernal.basic import cycles, mbf
from kernal import entries
from kernal.basic.definitions import (BasicError, FOR_BYTES, FOR_LOWEST, Finished,
                                      GOSUB_BYTES, GOSUB_LOWEST, SLICE, SP_BYTE_ARGS, SP_LET, SP_PRINT,
                                      SP_SUBSCRIPT, STACK_TOP, Suspend, T_EQ, T_FN, T_FOR, T_GOSUB, T_GOTO, T_STEP,
                                      T_THEN, T_TO, is_digit)
from kernal.basic.mbf import MathError
from kernal.basic.vectors import GONE_RETURN_PUSH
from kernal.locations import CIA1_PRA, CIA1_PRB, FORPNT, MSGFLG, NDX, OLDLIN, OLDTXT, SAREG, TXTPTR, TXTTAB, VARTAB
from kernal.stack import rts_target

WAIT_LOOP_CYCLES = 14           # WAIT's loop: LDA (POKER),Y; EOR; AND; BEQ
WAIT_IO_POLL = 63               # an I/O register (the raster, a timer) looked at once a raster line
WAIT_KEY_ADDRESSES = frozenset((NDX, CIA1_PRA, CIA1_PRB))


class FlowStatements:
    """Control flow and the statements that change memory or the machine."""

    def st_goto(self):
        n = self.line_number_arg()
        if n is None:
            raise BasicError("SYNTAX")
        self.goto_line(n)

    def st_gosub(self):
        self.peek()
        start = self.pos
        self.push_gosub(start)
        n = self.line_number_arg()
        if n is None:
            raise BasicError("SYNTAX")
        # RETURN comes back to TXTPTR at the line number: DATAN passes its digits again
        self.push(("gosub", self.line, start, self.direct), GOSUB_BYTES, GOSUB_LOWEST, self.gosub_image)
        self.goto_line(n)

    def push_gosub(self, text):
        """GOSUB's frame as the ROM pushes it ($A883): the token, CURLIN, TXTPTR (at the line
        number), then what lies below it, JSR GONE3's return address ($A7E9)."""
        line = 0xFF00 if self.direct else self.line
        self.gosub_image = bytes((0x8D, line & 0xFF, line >> 8, text & 0xFF, text >> 8, 0xE9, 0xA7))

    def stack_pointer(self):
        """SP at NEWSTT with the FOR and GOSUB frames pushed."""
        return STACK_TOP + self.direct - self.stack_used

    def push(self, frame, size, lowest, image):
        """A FOR or GOSUB frame: GETSTK ($A3FB) wants SP at the statement `lowest` or more;
        `image`, its bytes, go where the ROM keeps them, so PEEK and machine code see them."""
        sp = self.stack_pointer()
        if sp < lowest:
            raise BasicError("OUT OF MEMORY")
        sp -= size
        self.ram[0x101 + sp:0x101 + sp + size] = image
        self.stack.append((frame, size))
        self.stack_used += size

    def pop_to(self, index):
        while len(self.stack) > index:
            _, size = self.stack.pop()
            self.stack_used -= size

    def st_return(self):
        for i in range(len(self.stack) - 1, -1, -1):
            frame = self.stack[i][0]
            if frame[0] == "junk":
                break                        # (FNDFOR stops at what is not a FOR frame)
            if frame[0] == "gosub":
                self.pop_to(i)
                _, line, pos, direct = frame
                self.line, self.direct = line, direct
                self.text_to(pos)
                self.set_curlin()
                self.skip_statement()
                return
        raise BasicError("RETURN WITHOUT GOSUB")

    def st_if(self):
        self.sp += SP_LET - SP_PRINT
        v = self.expr()
        self.sp -= SP_LET - SP_PRINT
        c = self.peek()
        if c == T_GOTO:
            self.pos += 1
        elif c == T_THEN:
            self.pos += 1
        else:
            raise BasicError("SYNTAX")
        true = bool(v) if isinstance(v, bytes) else v[1] != 0
        if not true:
            # REM's REMN from TXTPTR on: after THEN, SYNCHR's CHRGET has landed on the byte
            # after it; a GOTO token is passed by REMN itself
            if c == T_THEN:
                b = self.peek()
                self.cost += cycles.CHRGET_HIGH if b >= 0x3A else cycles.CHRGET_LOW
            else:
                self.cost += cycles.SKIP_BYTE
            self.skip_line()
            return
        self.cost += cycles.IF_TRUE
        if is_digit(self.peek()) or self.at_end():
            self.cost += cycles.IF_GOTO               # DOCOND's JMP GOTO (or THEN and nothing)
            if not self.at_end():
                self.st_goto()
            return                # THEN: -- GONE3 ($A7E4) takes the colon as an empty statement
        self.statement()

    def st_on(self):
        self.sp += SP_LET - SP_BYTE_ARGS
        n = self.byte_value(self.expr())
        c = self.take()
        if c not in (T_GOTO, T_GOSUB):
            raise BasicError("SYNTAX")
        index = 1
        while True:
            self.peek()
            start = self.pos
            target = self.line_number_arg()
            if target is None:
                raise BasicError("SYNTAX")
            if index == n:
                self.cost += cycles.STATEMENTS[c] - cycles.STATEMENT_ENTRY      # GONE2 runs GOTO or GOSUB from here
                if c == T_GOSUB:
                    self.push_gosub(start)
                # GONE2 runs GOTO or GOSUB from the number: GOTO's REMN passes the rest of the
                # line, and a RETURN's DATAN the rest of the statement from the number on
                if c == T_GOSUB:
                    self.push(("gosub", self.line, start, self.direct), GOSUB_BYTES, GOSUB_LOWEST,
                              self.gosub_image)
                self.goto_line(target)
                return
            if self.peek() != 0x2C:
                return
            self.pos += 1
            self.cost += cycles.ON_PASS
            index += 1

    def st_for(self):
        """FOR ($A742): LET, FNDFOR drops the same variable's loop, GETSTK, then TO and STEP
        are read with the frame being pushed (its text pointer and line first)."""
        n1, n2, kind = self.name()
        if kind != "f" or self.peek() == 0x28:
            raise BasicError("SYNTAX")
        addr = self.var_address(n1, n2)
        self.set_w(FORPNT, addr)
        self.expect(T_EQ)
        self.sp += SP_LET - SP_BYTE_ARGS
        self.store("f", addr, self.numeric(self.expr()))
        for i in range(len(self.stack) - 1, -1, -1):        # FNDFOR: the same variable's loop goes
            frame = self.stack[i][0]
            if frame[0] != "for":
                break
            if frame[1] == addr:
                self.pop_to(i)
                break
            self.cost += cycles.FNDFOR_FRAME
        sp = self.stack_pointer()
        if sp < FOR_LOWEST:
            raise BasicError("OUT OF MEMORY")
        self.expect(T_TO)
        self.sp = sp - SP_BYTE_ARGS                         # the text pointer and line pushed
        limit = mbf.round_fac(self.numeric(self.expr()))
        step = mbf.ONE
        if self.peek() == T_STEP:
            self.pos += 1
            self.sp -= 5                                     # and the limit
            step = mbf.round_fac(self.numeric(self.expr()))
        self.push(("for", addr, step, limit, self.line, self.pos, self.direct), FOR_BYTES, FOR_LOWEST,
                  self.for_image(addr, step, limit))

    def for_image(self, addr, step, limit):
        """FOR's frame as the ROM pushes it: the token, the variable's address, STEP as FAC
        holds it (PUSHF: no sign in the mantissa) and its SGN, the limit as stored, CURLIN
        and the text pointer at the end of the statement (DATAN)."""
        text = self.statement_end()
        self.scan_cost(self.pos, text)
        line = 0xFF00 if self.direct else self.line
        m = step[2] >> 8
        return (bytes((T_FOR, addr & 0xFF, addr >> 8, step[1], m >> 24, (m >> 16) & 0xFF, (m >> 8) & 0xFF, m & 0xFF,
                       mbf.sign(step) & 0xFF))
                + mbf.pack(limit) + bytes((line & 0xFF, line >> 8, text >> 8, text & 0xFF)))

    def st_next(self):
        while True:
            addr = None
            if not self.at_end():
                n1, n2, kind = self.name()
                addr = self.var_address(n1, n2)
            for i in range(len(self.stack) - 1, -1, -1):
                frame = self.stack[i][0]
                if frame[0] != "for":
                    raise BasicError("NEXT WITHOUT FOR")
                if addr is None or frame[1] == addr:
                    break
                self.cost += cycles.FNDFOR_FRAME
            else:
                raise BasicError("NEXT WITHOUT FOR")
            self.pop_to(i + 1)
            self.cost += cycles.NEXT + (cycles.NEXT_BARE if addr is None else 0)
            _, var, step, limit, line, pos, direct = frame
            self.set_w(FORPNT, var)
            try:
                step = mbf.movfm(mbf.pack(mbf.round_fac(step)))      # LDY #1 / JSR MOVFM: the frame's STEP
                value = mbf.add(step, mbf.unpack(self.read(var, 5)))
            except MathError as error:
                raise BasicError(str(error)) from None
            self.store("f", var, value)
            value = mbf.unpack(self.read(var, 5))
            if mbf.compare(value, limit) != mbf.sign(step):
                self.line, self.direct = line, direct
                self.text_to(pos)
                self.set_curlin()
                return
            self.pop_to(i)
            self.cost += cycles.NEXT_DONE
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_dim(self):
        while True:
            n1, n2, kind = self.name()
            if self.peek() == 0x28:
                self.pos += 1
                sizes = [n + 1 for n in self.subscripts(SP_SUBSCRIPT)]
                if self.find_array(n1, n2) is not None:
                    raise BasicError("REDIM'D ARRAY")
                self.make_array(n1, n2, kind, sizes)
            else:
                self.var_address(n1, n2)
            if self.peek() != 0x2C:
                return
            self.pos += 1

    def st_rem(self):
        self.skip_line()

    def st_data(self):
        self.skip_statement()

    def st_end(self):
        self.set_cont(self.pos)
        raise Finished()

    def st_stop(self):
        self.break_at(self.pos)

    def st_cont(self):
        """CONT ($A857): on from OLDTXT, in OLDLIN.  A running program's NEWSTT has set OLDTXT
        to the text before this statement, so there CONT runs itself again, in line OLDLIN,
        until RUN/STOP (BREAK IN OLDLIN), as on a C64."""
        if not self.direct:
            self.line = self.w(OLDLIN)
            self.text_to(self.stmt_pos)
            self.jumped = True
            self.set_curlin()
            return
        if not self.cont_ok:
            raise BasicError("CAN'T CONTINUE")
        self.line = self.w(OLDLIN)
        self.text_to(self.w(OLDTXT))
        self.direct = False
        self.running = True
        self.jumped = True
        self.set_curlin()
        self.ram[MSGFLG] = 0

    def clr(self):
        """CLEARC ($A660): the variables cleared and the files closed (CLALL)."""
        self.clear_variables()
        self.machine.kernal.channels.clall()

    def st_clr(self):
        self.clr()

    def st_new(self):
        """NEW: no program, and CLR's work (the ROM falls into it)."""
        self.basic.new()
        self.clr()
        self.cont_ok = False
        raise Finished()

    def st_run(self):
        n = self.line_number_arg()
        self.cont_ok = False
        self.run_program(n)

    def st_restore(self):
        self.restore_data()

    def st_poke(self):
        self.sp += SP_LET - SP_BYTE_ARGS
        addr = self.address_value(self.expr())
        self.expect(0x2C)
        value = self.byte_value(self.expr())
        self.mem[addr] = value
        if addr < VARTAB + 2 and addr >= TXTTAB:
            self.var_cache_vartab = None

    def st_wait(self):
        """WAIT ($B82D): the ROM loops on the location until (PEEK ^ xor) & mask is not 0.
        The loop's time passes with the interrupts running, and the statement is looked at
        again (its arguments kept, not read anew) when the location may have changed: after
        the next interrupt for RAM, every WAIT_IO_POLL cycles for I/O and the port.  Only a
        WAIT on the keyboard (NDX, the CIA1 ports) is a program waiting for a key (headless
        ends there when its keys are used up)."""
        waiting = self.waiting_on
        self.waiting_on = None
        if waiting is not None and waiting[0] == self.stmt_pos:
            _, addr, mask, xor, end = waiting
            self.cost = WAIT_LOOP_CYCLES
            self.seg = end                      # (its text was charged when it was read)
        else:
            self.sp += SP_LET - SP_BYTE_ARGS
            addr = self.address_value(self.expr())
            self.expect(0x2C)
            mask = self.byte_value(self.expr())
            xor = 0
            if self.peek() == 0x2C:
                self.pos += 1
                xor = self.byte_value(self.expr())
            end = self.pos
            self.charge_text()
        changing = addr < 2 or self.mem.page_sources[addr >> 8] is None
        if changing:
            self.machine.cpu.processorCycles += self.take_cost()    # the register as read then
        if (self.mem[addr] ^ xor) & mask:
            self.pos = end
            return
        self.waiting_on = (self.stmt_pos, addr, mask, xor, end)
        self.pos = self.stmt_pos
        machine = self.machine
        if addr in WAIT_KEY_ADDRESSES:
            machine.wait_for_key()
        elif changing:
            machine.stall(WAIT_IO_POLL)
        else:
            # RAM: only an interrupt's handler can change it
            now = machine.cpu.processorCycles
            due = machine.next_irq_cycle()
            machine.stall(due - now if due is not None and now < due < now + SLICE else SLICE)
        raise Suspend(True)

    def st_sys(self):
        """SYS ($E12A): the code runs below BASIC's frames, as on a C64: JSR GONE3's return
        ($A7E9), then SYS's own ($E146) on the stack, A X Y P from SAREG-SPREG.  Its RTS comes
        back at $E147 (sys_returned); PLA PLA RTS drops SYS's return and lands at $A7EA, on to
        NEWSTT without the registers saved (kernal.basic.vectors)."""
        addr = self.address_value(self.expr())
        self.set_txtptr()                      # (machine code may read on with CHRGET)
        self.in_code = "sys"
        self.machine.start(addr)
        cpu = self.machine.cpu
        cpu.sp = self.stack_pointer()
        cpu.stPushWord(GONE_RETURN_PUSH)
        cpu.stPushWord(entries.SYS_RETURN_PUSH)
        self.ram[MSGFLG] = 0
        raise Suspend(True, keep_pc=True)

    def sys_returned(self, cpu):
        """The SYS'd code did its RTS ($E147): CSYSRZ stores the registers, and its RTS goes
        to GONE3's return, on to NEWSTT at TXTPTR (where the code left it: a SYS whose
        arguments the code did not read is a SYNTAX error there, as on a C64).

        Returns False when there is nothing to go on with (the SYS ends a direct line, or
        the program, the line after it being the end): the machine then stops as a program
        that returned to BASIC, as before the interpreter existed."""
        if self.in_code != "sys":
            return False
        for offset, register in enumerate(("a", "x", "y", "p")):
            self.ram[SAREG + offset] = getattr(cpu, register)
        pos = self.w(TXTPTR)
        if self.ram[pos] == 0 and (self.direct or not self.ram[(pos + 2) & 0xFFFF]):
            self.in_code = None
            self.pos = pos
            self.set_curlin()
            return False                     # END right after: READY. as a returned program
        cpu.pc = rts_target(self.ram, cpu.sp)
        cpu.sp = (cpu.sp + 2) & 0xFF
        return self.newstt_from_code(cpu)

    def st_def(self):
        if self.direct:
            raise BasicError("ILLEGAL DIRECT")
        self.expect(T_FN)
        n1, n2, kind = self.name()
        if kind != "f":
            raise BasicError("SYNTAX")
        self.expect(0x28)
        p1, p2, pkind = self.name()
        if pkind != "f":
            raise BasicError("SYNTAX")
        self.expect(0x29)
        self.expect(T_EQ)
        param = self.var_address(p1, p2)
        fn = self.var_address(n1 | 0x80, n2)
        self.put(fn, bytes((self.pos & 0xFF, self.pos >> 8, param & 0xFF, param >> 8, 0)))
        self.skip_statement()
