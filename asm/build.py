"""Assemble every top-level asm/*.oph into asm/<name>.prg, .map and .lines.

Usage:
    python -m asm.build            # (re)build all versions in place
    python -m asm.build --check    # build into a temp dir, compare with the
                                   # committed .prg/.map, exit 1 on difference
    python -m asm.build ryg23      # build only the named versions

Ophis runs in a child process (``sys.executable -c ...`` calling
``Ophis.Main.run_ophis``) because the assembler keeps module-level state
between runs; a child process also works the same on Windows, where the
``ophis`` console script may not be on PATH.  Ophis output is deterministic:
the same sources give the same bytes, and the map file holds only labels,
addresses and short file names.

The .lines file is the source map the monitor (c64.monitor) shows stops and
disassembly with: one line per assembled instruction, ``$ADDR | path:line``,
the path relative to asm/, after a ``file path`` line for every source file
that defined a label (the .map names files without their folder).  Ophis has no such output (its listing, -l, has
the bytes but not the source lines), so the child process wraps Ophis'
Assembler.assemble to note where each instruction came from.
"""

import argparse
import os
import subprocess
import sys
import tempfile

ASM_DIR = os.path.dirname(os.path.abspath(__file__))

# argv: the .lines path, then Ophis' own arguments.
_RUN_OPHIS = """
import os, sys, Ophis.Main, Ophis.Passes
lines_path, args = sys.argv[1], sys.argv[2:]
base = os.getcwd()
noted, files = [], {}
original = Ophis.Passes.Assembler.assemble
original_label = Ophis.Passes.Assembler.visitLabel

def relative(ppt):
    path, _, line = str(ppt).rpartition(":")
    path = os.path.relpath(path, base).replace(os.sep, "/")
    files.setdefault(path, None)
    return path, line

def assemble(self, node, mode, env):
    noted.append((env.getPC(), relative(node.ppt)))
    return original(self, node, mode, env)

def visit_label(self, node, env):
    relative(node.ppt)
    return original_label(self, node, env)

Ophis.Passes.Assembler.assemble = assemble
Ophis.Passes.Assembler.visitLabel = visit_label
status = Ophis.Main.run_ophis(args)
if status == 0:
    with open(lines_path, "w", newline="\\n") as out:
        out.write("; address | source line of each instruction (asm/build.py; DO NOT EDIT)\\n")
        for path in files:
            out.write("file %s\\n" % path)
        for pc, (path, line) in noted:
            out.write("$%04X | %s:%s\\n" % (pc, path, line))
sys.exit(status)
"""


def top_sources(asm_dir=ASM_DIR):
    """Names (without .oph) of the top-level sources, one per program."""
    return sorted(f[:-4] for f in os.listdir(asm_dir)
                  if f.endswith(".oph") and os.path.isfile(os.path.join(asm_dir, f)))


def assemble(name, out_dir, asm_dir=ASM_DIR):
    """Assemble asm_dir/<name>.oph into out_dir/<name>.prg, .map and .lines.

    Returns (prg_path, map_path, lines_path). Raises RuntimeError with Ophis' messages
    when the assembly fails.
    """
    src = os.path.join(asm_dir, name + ".oph")
    prg = os.path.join(out_dir, name + ".prg")
    map_ = os.path.join(out_dir, name + ".map")
    lines = os.path.join(out_dir, name + ".lines")
    proc = subprocess.run(
        [sys.executable, "-c", _RUN_OPHIS, lines, "-q", "-o", prg, "-m", map_, src],
        cwd=asm_dir, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("ophis failed on %s:\n%s%s" % (src, proc.stdout, proc.stderr))
    return prg, map_, lines


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def check(names, asm_dir=ASM_DIR):
    """Assemble into a temp dir; return a list of 'file: reason' differences."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            built = assemble(name, tmp, asm_dir)
            for path in built:
                committed = os.path.join(asm_dir, os.path.basename(path))
                if not os.path.exists(committed):
                    problems.append("%s: missing (not built?)" % os.path.basename(path))
                elif _read(committed) != _read(path):
                    problems.append("%s: differs from a fresh build" % os.path.basename(path))
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare a fresh build with the committed files")
    ap.add_argument("names", nargs="*", help="versions to build (default: all)")
    args = ap.parse_args(argv)
    names = args.names or top_sources()
    if args.check:
        problems = check(names)
        for p in problems:
            print(p)
        print("%d program(s) checked, %d difference(s)" % (len(names), len(problems)))
        return 1 if problems else 0
    for name in names:
        prg = assemble(name, ASM_DIR)[0]
        print("%s: %d bytes" % (os.path.relpath(prg), os.path.getsize(prg)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
