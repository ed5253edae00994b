"""BASIC at the edges of memory and time: pointers that wrap at 64 KB, loops a C64 never
leaves, and every long loop charged and bounded by the run's cycle budget.

A C64's BASIC reads every pointer through 6502 code that wraps at $FFFF; a chain of line
links that comes back on itself keeps FNDLIN looping for ever.  Here no pointer a program
can POKE stops the emulator, a loop the ROM would never leave lets its time pass with the
interrupts running (RUN/STOP+RESTORE gets out, as on a C64), and each Python loop charges
the C64 cycles it stands for, so that --max-cycles, Ctrl-C and the terminal's keys stay
alive (machine.run(budget) comes back when the budget is spent).
"""

import random
import signal
import subprocess
import sys
import time

import pytest

from c64.machine import C64, StopReason
from tests.tools.basic_keys import settle
from tests.tools.processes import signals_as_from_a_shell

RUN_STOP = 0x03
BUDGET = 3_000_000            # C64 cycles per machine.run
HOST_SECONDS = 5.0            # a run of BUDGET cycles must come back within this (a loaded host)


@pytest.fixture
def m(tmp_path):
    machine = C64(sid_seed=1, disk_folder=str(tmp_path))
    settle(machine)
    return machine


def rows(machine):
    text = [row.rstrip() for row in machine.screen_lines()]
    while text and not text[-1]:
        text.pop()
    return text


def typed(machine, *lines):
    settle(machine, "".join(line + "{return}" for line in lines))
    return rows(machine)


def runs_on(machine, keys, budgets=3):
    """Type `keys`; each machine.run(BUDGET) must spend its budget (CYCLES) and come back
    within HOST_SECONDS: the program is still busy and the machine still answers."""
    machine.type(keys)
    for _ in range(budgets):
        start, before = time.monotonic(), machine.cycles
        assert machine.run(BUDGET) is StopReason.CYCLES
        assert time.monotonic() - start < HOST_SECONDS
        assert machine.cycles - before >= BUDGET


def run_stop_restore(machine):
    """RUN/STOP held and RESTORE: the warm start, READY. -- the way out of a hung C64."""
    machine.press(RUN_STOP)
    machine.restore()
    settle(machine)
    return rows(machine)


# -- issue 35, item 8: the pointers near $FFFF of the report ----------------------------------------------
@pytest.mark.parametrize("keys, last", [
    ("POKE 43,255:POKE 44,255{return}GOTO 10{return}", ["GOTO 10", "", "?UNDEF'D STATEMENT  ERROR", "READY."]),
    ("POKE 65,255:POKE 66,255{return}READ A{return}", ["READ A", "", "?OUT OF DATA  ERROR", "READY."]),
])
def test_pointers_near_ffff_end_in_a_basic_error(m, keys, last):
    settle(m, keys)
    assert rows(m)[-4:] == last


@pytest.mark.parametrize("keys", [
    "POKE 43,255:POKE 44,255{return}RUN{return}",
    "10 PRINT 1{return}RUN{return}POKE 61,255:POKE 62,255{return}CONT{return}",
    "POKE 43,254:POKE 44,255{return}LIST{return}RUN{return}",
    "10 A$=\"X\"{return}RUN{return}POKE 47,254:POKE 48,255:POKE 49,255:POKE 50,255{return}PRINT A$;B$;C(1){return}",
])
def test_pointers_near_ffff_run_what_memory_holds_and_come_back(m, keys):
    """RUN from $FFFF runs what RAM holds at $0000 on (a C64 reads its ROM there and says
    ?SYNTAX ERROR; BASIC here reads RAM): READY. again, never an emulator error."""
    settle(m, keys)
    assert rows(m)[-1] == "READY."
    assert len(m.mem.ram) == 0x10000


def test_a_string_across_ffff_goes_on_at_0000(m):
    """The ROM reads a string through (INDEX),Y, which wraps: the bytes after $FFFF are
    the processor port's, $0000 (DDR $2F, '/') and $0001 ($37, '7')."""
    text = typed(m, 'A$="WXYZ":P=PEEK(45)+256*PEEK(46)+3:POKE P,254:POKE P+1,255',
                 "POKE 65534,65:POKE 65535,66:PRINT A$;LEN(A$)")
    assert text[-3:] == ["AB/7 4", "", "READY."]


def test_a_value_stored_across_ffff_goes_on_at_0000(m):
    """C's value at $FFFC: four bytes below $FFFF, the last at $0000 -- the port's DDR, as
    the ROM's STA (zp),Y would store it; the 64 KB stay 64 KB (a list slice would have
    grown them)."""
    typed(m, "POKE 65530,67:POKE 65531,0:POKE 47,255:POKE 48,255:POKE 45,250:POKE 46,255")
    assert typed(m, "C=-3.5:PRINT C")[-3:] == ["-3.5", "", "READY."]
    assert len(m.mem.ram) == 0x10000
    assert m.mem.ram[0xFFFC:0x10000] == [0x82, 0xE0, 0, 0] and m.mem.ddr == 0


# -- loops a C64 never leaves ---------------------------------------------------------------------------
def looped_program(machine):
    """Lines 10 and 20, with 20's link pointing back at 10."""
    typed(machine, "10 PRINT 1", "20 PRINT 2")
    ram = machine.mem.ram
    line20 = ram[0x0801] | (ram[0x0802] << 8)
    ram[line20], ram[line20 + 1] = 0x01, 0x08


def test_a_goto_along_links_that_loop_hangs_as_a_c64_until_run_stop_restore(m):
    looped_program(m)
    runs_on(m, "GOTO 1000{return}")                    # FNDLIN goes round for ever
    assert rows(m)[-1] == "GOTO 1000"
    assert run_stop_restore(m)[-1] == "READY."
    assert typed(m, "PRINT 7")[-3:] == [" 7", "", "READY."]


def test_run_stop_alone_does_not_end_the_hang(m):
    looped_program(m)
    runs_on(m, "GOSUB 900{return}", budgets=1)
    m.press(RUN_STOP)
    assert m.run(BUDGET) is StopReason.CYCLES          # FNDLIN never looks at the STOP key
    assert rows(m)[-1] == "GOSUB 900"


def test_ctrl_c_ends_a_headless_run_hung_in_basic():
    keys = "10 PRINT 1{return}20 PRINT 2{return}POKE 2057,1:POKE 2058,8{return}GOTO 1000{return}"
    proc = subprocess.Popen([sys.executable, "ryg.py", "--headless", "--basic", "--keys", keys],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **signals_as_from_a_shell())
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == "ryg: interrupted\n"
    assert "GOTO 1000" in out


def test_max_cycles_ends_a_headless_run_hung_in_basic():
    keys = "10 PRINT 1{return}20 PRINT 2{return}POKE 2057,1:POKE 2058,8{return}GOTO 1000{return}"
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", "--basic", "--max-cycles", "30000000",
                           "--keys", keys], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3
    assert "stopped after 30,000,000 cycles" in proc.stderr


# -- WAIT: its time passes; only a wait on the keyboard is waiting for a key ------------------------------
@pytest.mark.parametrize("wait", ["WAIT 162,128", "WAIT 53265,128", "WAIT 56333,1"])
def test_wait_ends_when_its_location_changes(wait):
    keys = '10 POKE 162,0:POKE 56333,129:%s:PRINT "OK"{return}RUN{return}' % wait
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", "--basic", "--max-cycles", "30000000",
                           "--keys", keys], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert [row.rstrip() for row in proc.stdout.splitlines() if row.strip()][-2:] == ["OK", "READY."]


def test_wait_for_the_jiffy_clock_takes_its_128_jiffies(m):
    text = typed(m, "10 POKE 162,0:WAIT 162,128:PRINT PEEK(162)", "RUN")
    assert text[-3:] == [" 128", "", "READY."]


def test_wait_on_the_keyboard_waits_for_a_key(m):
    m.type('10 WAIT 198,1:GET A$:PRINT "GOT ";A${return}RUN{return}')
    assert settle(m)                                     # idle: waiting for a key (headless ends here)
    assert rows(m)[-1] == "RUN"
    assert typed(m, "Q")[-3:] == ["GOT Q", "", "READY."]


def test_a_wait_that_never_ends_is_bounded_by_the_budget(m):
    runs_on(m, "WAIT 2,1{return}")                       # RAM nothing changes
    runs_on(m, "", budgets=1)
    m.press(RUN_STOP)
    settle(m)
    assert rows(m)[-2:] == ["BREAK", "READY."]


# -- every long loop is charged and comes back within the budget ---------------------------------------
def test_garbage_collection_is_charged_and_the_machine_answers_meanwhile(m):
    typed(m, "10 DIM A$(1500):FOR I=0 TO 1500:A$(I)=CHR$(65+I/100):NEXT", "20 T=TI:PRINT FRE(0):PRINT TI-T",
          "RUN 10")
    runs_on(m, "GOTO 20{return}", budgets=2)             # its quadratic time passes in budgets
    settle(m)
    seconds = int(rows(m)[-3]) / 60
    assert seconds > 30


def test_a_long_line_search_is_charged_line_by_line(m):
    m.type("".join("%d REM{return}" % n for n in range(1, 400)))
    settle(m)
    near = typed(m, "1000 T=TI:FOR I=1 TO 50:GOSUB 1:NEXT:PRINT TI-T", "1 RETURN", "RUN 1000")[-3]
    far = typed(m, "1 REM", "399 RETURN", "1000 T=TI:FOR I=1 TO 50:GOSUB 399:NEXT:PRINT TI-T", "RUN 1000")[-3]
    assert int(far) > int(near) + 10                    # 400 lines passed 50 times: 600,000 cycles


def test_a_data_search_is_charged_byte_by_byte(m):
    m.type("".join("%d REM XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX{return}" % n for n in range(1, 300)))
    settle(m)
    text = typed(m, "999 DATA 1", "1000 T=TI:FOR I=1 TO 20:RESTORE:READ A:NEXT:PRINT TI-T", "RUN 1000")
    assert int(text[-3]) > 60                            # 13 KB of text searched 20 times


def test_list_of_links_that_loop_ends(m):
    looped_program(m)
    assert typed(m, "LIST")[-4:] == ["", "10 PRINT 1", "20 PRINT 2", "READY."]


def test_a_variable_far_down_the_table_costs_its_search(m):
    lines = ["%d %s" % (10 + n, ":".join("%s%d=1" % (a, b) for b in range(10))) for n, a in enumerate("ABCDEGHJKL")]
    first = typed(m, *lines, "100 T=TI:FOR I=1 TO 300:X=A0:NEXT:PRINT TI-T", "RUN")[-3]
    last = typed(m, "100 T=TI:FOR I=1 TO 300:X=L9:NEXT:PRINT TI-T", "RUN")[-3]
    assert int(last) > int(first) + 30                  # 99 variables passed 600 times: 1.8 M cycles


def test_dims_fill_takes_the_roms_11_cycles_a_byte():
    """Measured on the genuine ROMs: DIM A(6000), 30,005 bytes zeroed, takes 21 jiffies
    (measured with no bad lines: a VIC that takes no bus cycles here too)."""
    m = C64(sid_seed=1, vic_dma=False)
    settle(m)
    assert typed(m, "10 T=TI:DIM A(6000):PRINT TI-T", "RUN")[-3] in (" 20", " 21", " 22")


# -- the net: random pointers in pages 0-3, then statements ----------------------------------------------
PROGRAM = ['10 A=1:B$="XY"+"Z":DIM C(3):DATA 1,"S",3', '20 FOR I=1 TO 2:READ D:GOSUB 40:NEXT', '30 PRINT A;B$:END',
           '40 C(1)=D:RETURN']
STATEMENTS = ["RUN", "GOTO 10", "GOSUB 40", "READ A", "CONT", "LIST", "A=1", 'A$="X":B$=A$+A$', "DIM Z(10)",
              "PRINT FRE(0)", "RETURN", "FOR I=1 TO 2:NEXT", "RESTORE", "CLR", 'PRINT VAL("12")', "NEW",
              "PRINT A;B$;C(1)", "RUN 20", "NEXT", "PRINT FNA(2)", "LIST 10-30", "READ A$", "Q(3)=1"]
POINTERS = (0x2B, 0x2B, 0x2B, 0x2D, 0x2F, 0x2F, 0x31, 0x33, 0x35, 0x37, 0x39, 0x3B, 0x3D, 0x3D, 0x3F, 0x41, 0x41,
            0x47, 0x49)     # TXTTAB, VARTAB .. MEMSIZ, CURLIN, OLDLIN, OLDTXT, DATLIN, DATPTR, VARPNT, FORPNT


@pytest.mark.parametrize("seed", range(60))
def test_random_pointers_never_stop_the_emulator(seed):
    rnd = random.Random(seed)
    m = C64(sid_seed=1)
    settle(m, "".join(line + "{return}" for line in PROGRAM) + "RUN{return}")
    ram = m.mem.ram
    for _ in range(rnd.randint(1, 3)):
        pointer = rnd.choice(POINTERS)
        ram[pointer] = rnd.choice([0x00, 0x01, 0xF9, 0xFA, 0xFC, 0xFE, 0xFF, rnd.randrange(256)])
        ram[pointer + 1] = rnd.choice([0x08, 0xFF, 0xFF, 0xFF, rnd.randrange(256)])
    if rnd.random() < 0.3:
        address = rnd.randrange(0x0400)
        if address > 1:
            ram[address] = rnd.randrange(256)
    m.type("".join(rnd.choice(STATEMENTS) + "{return}" for _ in range(3)))
    for _ in range(10):
        start = time.monotonic()
        reason = m.run(BUDGET)
        assert time.monotonic() - start < HOST_SECONDS
        assert len(ram) == 0x10000 and all(0 <= byte <= 255 for byte in ram[:0x0400])
        if reason is StopReason.ERROR:
            assert m.error.startswith(("CPU JAM", "BRK")), m.error      # what a C64 itself would do
            break
        if reason is not StopReason.CYCLES:
            break
