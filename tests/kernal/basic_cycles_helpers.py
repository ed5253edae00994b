"""Running a BASIC program and reading what the interpreter charged, statement by statement.

The interpreter's own part of a statement's cycles is what is left when the math package's
(mbf.METER) and CHROUT's (what the KERNAL's CHROUT charged) are taken out: the part
kernal/basic/cycles.py models, compared in test_basic_cycles.py with figures measured on the
genuine ROMs the same way (cycles from one statement's GONE to the next's, interrupts off).
"""

from c64.machine import C64, StopReason
from charset.keys import parse_keys
from kernal.basic import crunch, cycles, mbf
from kernal.basic.interpreter import Interpreter

IRQ_OFF = "POKE 56333,127"
TXTTAB_START = 0x0801


def statement_cycles(source, keys=""):
    """[(text address, all cycles, the interpreter's own cycles)] for each statement run
    after line 0 (`POKE 56333,127`, put before `source`: no interrupts), to the next one.
    `keys` (petcat-style text, "12{return}", ten at most) are in the keyboard buffer when the
    program starts, as after typing RUN and them at once: GET and INPUT find them there.  A
    GET loop finding none goes on (the machine's idle test would stop the run there)."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    machine.basic.store_line(0, crunch(IRQ_OFF.encode("latin-1")))
    for line in source.strip().splitlines():
        number, _, text = line.partition(" ")
        machine.basic.store_line(int(number), crunch(text.encode("latin-1")))
    starts = []
    plain, plain_take, plain_out = Interpreter.statement, Interpreter.take_cost, Interpreter.out
    depth = [0]
    other = [0]

    typed = parse_keys(keys)

    def statement(self):
        if typed and self.running:
            for key in typed:                   # the keys after RUN's, in the buffer at its start
                machine.kernal.keyboard.put(key)
            typed.clear()
        if depth[0] == 0:
            starts.append((self.pos, machine.cpu.processorCycles, other[0]))
        depth[0] += 1
        try:
            return plain(self)
        finally:
            depth[0] -= 1

    def take_cost(self):
        other[0] += mbf.METER.cycles
        return plain_take(self)

    def out(self, byte):
        before = self.cost
        plain_out(self, byte)
        other[0] += self.cost - before - cycles.OUTDO        # the KERNAL's CHROUT, from $FFD2

    Interpreter.statement, Interpreter.take_cost, Interpreter.out = statement, take_cost, out
    try:
        machine.type("RUN{return}")
        while True:
            reason = machine.run(100_000_000)
            if reason is StopReason.ERROR:
                raise AssertionError(machine.error)
            if reason is StopReason.IDLE:
                if machine.basic.interp.running:       # GET found the buffer empty: the program goes on
                    machine.waiting = False
                    continue
                break
    finally:
        Interpreter.statement, Interpreter.take_cost, Interpreter.out = plain, plain_take, plain_out
    starts = [start for start in starts if start[0] >= TXTTAB_START][1:]         # not RUN, not the POKE
    return [(pos, t2 - t, (t2 - t) - (o2 - o)) for (pos, t, o), (_, t2, o2) in zip(starts, starts[1:])]


def input_cycles_typed_in_chunks(source, chunks):
    """The C64 cycles charged to the program's INPUT statements when its answers are
    typed in `chunks` (petcat-style), each after the program has waited for a key."""
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    for line in source.strip().splitlines():
        number, _, text = line.partition(" ")
        machine.basic.store_line(int(number), crunch(text.encode("latin-1")))
    spent = [0]
    plain = Interpreter.take_cost

    def take_cost(self):
        cost = plain(self)
        if self.ram[self.stmt_pos] == 0x85 and not self.direct:      # INPUT's token
            spent[0] += cost
        return cost

    Interpreter.take_cost = take_cost
    try:
        machine.type("RUN{return}")
        machine.run(3_000_000)
        for chunk in chunks:
            for key in parse_keys(chunk):
                machine.press(key)
            machine.run(3_000_000)
    finally:
        Interpreter.take_cost = plain
    return spent[0]
