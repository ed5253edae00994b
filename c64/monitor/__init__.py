"""A machine-language monitor that knows the sources (VICE's command syntax).

    labels.py               names <-> addresses (Ophis .map, VICE label files), source lines (.lines)
    expressions.py          addresses and ranges as the user writes them ($c000, +49152, think+3, pc)
    debugger.py             breakpoints, watches, stepping, instruction history, profiler: how the
                            machine runs while the monitor is attached
    commands.py             the Monitor: the command line, the command table, help
    arguments.py            MonitorError and the argument parsing the commands share
    memory_commands.py      r, m, i, bank, >, f, t, c, h, io, l, s, screen; peek and poke
    code_commands.py        d, a (disassembly, assembly), ll, shl (labels), src (sources)
    breakpoint_commands.py  break, watch, enable, disable, delete
    stepping_commands.py    z, n, ret, g, x, bt; running the machine and the stop's text
    history_commands.py     chis (instruction history), prof (profiler)
    script.py               --moncommands / --break / --profile for headless runs

The monitor stays out of the CPU's hot path: with nothing set, the machine runs
exactly as without it.
"""

from c64.monitor.commands import Monitor, MonitorError

__all__ = ["Monitor", "MonitorError"]
