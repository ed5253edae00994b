"""The screen editor's scroll with the screen over its own link table (issue 35, item 9).

`POKE 648,0` puts the screen the editor prints to at $0000, so a scroll copies rows over the
link table $D9-$F2; with the links made continuations the ROM's SCROL loop never ends.  The C64
spins there for good; so does this one, as C64 time: the run's cycle limit, the pacing and the
keys for quitting stay alive.
"""

import subprocess
import sys

from c64.machine import C64, StopReason
import signal
import time

HANG = "POKE 648,0:FOR I=217 TO 242:POKE I,32:NEXT{return}"


def test_the_endless_scroll_spends_c64_time_and_gives_the_run_back():
    machine = C64(sid_seed=1)
    machine.run(2_000_000)
    machine.type(HANG)
    start = machine.cycles
    assert machine.run(max_cycles=5_000_000) is StopReason.CYCLES
    assert machine.cycles - start >= 5_000_000
    # Still spinning (the rows copied over page 0-3 take the vectors with them, as on a C64),
    # and every run gives the machine back at its limit.
    assert machine.run(max_cycles=1_000_000) is StopReason.CYCLES
    assert machine.cycles - start >= 6_000_000


def test_headless_stops_at_its_cycle_limit():
    result = subprocess.run([sys.executable, "ryg.py", "--headless", "--basic", "--max-cycles", "5000000",
                             "--keys", HANG], capture_output=True, text=True, timeout=120)
    assert result.returncode == 3
    assert "stopped after 5,000,0" in result.stderr + result.stdout


def test_ctrl_c_ends_a_headless_run_in_the_endless_scroll():
    process = subprocess.Popen([sys.executable, "ryg.py", "--headless", "--basic", "--keys", HANG],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(3)
    process.send_signal(signal.SIGINT)
    try:
        process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode is not None and process.returncode != 0
