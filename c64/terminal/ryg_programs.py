"""What the front end knows of the bundled RYG programs it runs, beyond what they print.

ryg3 (and ryg3en): the level of its ladder, read from its memory when the player
leaves the program and written into its `start_level` byte before the next start,
so that the level stays between runs as the other settings do; and whether a game
is in progress (a move played, the end not reached), so that the version menu asks
before the C64 is reset.  The addresses are the labels of the program's .map
(asm/versions.map_labels), used only while the program running is the bundled
build, byte for byte, and its code is still in memory (not replaced by a LOAD).
"""

from asm.versions import bundled_version, map_labels

RYG3_NAMES = ("ryg3", "ryg3en")
LEVELS = range(1, 10)
CODE_CHECKED = 32              # bytes of the program's code compared with memory


def _ryg3_labels(machine, program):
    """ryg3's labels when `machine` runs the bundled ryg3 or ryg3en (code still there), else None."""
    version = bundled_version(program.name, program.data)
    name = version.name if version is not None else None
    if name not in RYG3_NAMES or getattr(machine, "loaded_name", None) is not None:
        return None
    start = program.load_address
    if any(machine.mem.ram[start + i] != program.data[i] for i in range(min(CODE_CHECKED, len(program.data)))):
        return None
    labels = map_labels(name)
    wanted = ("start_level", "level", "game_pos", "result_said")
    return labels if all(label in labels for label in wanted) else None


def set_start_level(machine, program, level):
    """Before the program runs: the level ryg3 starts at (1-9; anything else leaves its own)."""
    if level not in LEVELS:
        return False
    labels = _ryg3_labels(machine, program)
    if labels is None:
        return False
    machine.poke(labels["start_level"], level)          # (below $A000: RAM, as the CPU writes it)
    return True


def level_played(machine, program):
    """The level of the ladder ryg3 plays at now (1-9), or None (not ryg3, or a level of
    the player's own depth and seconds)."""
    labels = _ryg3_labels(machine, program)
    if labels is None:
        return None
    level = machine.mem.ram[labels["level"]]
    return level if level in LEVELS else None


def game_in_progress(machine, program):
    """True while ryg3 has a game under way: a move played and the end not announced."""
    labels = _ryg3_labels(machine, program)
    if labels is None:
        return None
    ram = machine.mem.ram
    return ram[labels["game_pos"]] != 0 and ram[labels["result_said"]] == 0
