"""A fast 6510 core: 6502 code translated into cached Python functions (FastCPU).

How it works, and what each module does, is in this folder's README.md:
core (the CPU class), decode (which instructions make a block), codegen,
codegen_memory and codegen_flow (the Python source of a block), compiler
(source -> function on the CPU's cells), invalidation (dropping blocks whose
code changed), memory_view and instructions (what the translator knows).
"""

from c64.fastcpu.compiler import CELL_NAMES, DIRECT_CELLS, REGISTER_CELLS
from c64.fastcpu.core import HOT_COUNT, REWRITE_LIMIT, FastCPU
from c64.fastcpu.decode import MAX_INSNS, MAX_SKIP
from c64.fastcpu.instructions import OPCODES

__all__ = ["FastCPU", "OPCODES", "MAX_INSNS", "MAX_SKIP", "REWRITE_LIMIT", "HOT_COUNT",
           "CELL_NAMES", "REGISTER_CELLS", "DIRECT_CELLS"]
