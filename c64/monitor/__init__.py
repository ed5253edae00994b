"""A machine-language monitor that knows the sources (VICE's command syntax).

    labels.py     names <-> addresses (Ophis .map, VICE label files), source lines (.lines)
    expressions.py  addresses and ranges as the user writes them ($c000, +49152, think+3, pc)
    debugger.py   breakpoints, watches, stepping, instruction history, profiler: how the
                  machine runs while the monitor is attached
    commands.py   the commands (r, m, d, a, break, z, ...) and their output
    script.py     --moncommands / --break / --profile for headless runs

The monitor stays out of the CPU's hot path: with nothing set, the machine runs
exactly as without it.
"""

from c64.monitor.commands import Monitor, MonitorError

__all__ = ["Monitor", "MonitorError"]
