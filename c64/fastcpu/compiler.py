"""Turning a block's Python source into a function on the CPU's closure cells.

Every block of one CPU shares the cells named in CELL_NAMES (registers, flags, the
memory arrays, the dispatch table); compile_block compiles a block body once per text.
Decimal-mode ADC/SBC call py65's own arithmetic (adcd/sbcd).
"""

import types


# Closure cells shared by the blocks of one CPU (kx: what the trap routines' direct versions
# held inline share, FastCPU.set_fast_trap).
CELL_NAMES = ("a", "x", "y", "sp", "pc", "cyc", "fn", "fz", "fc", "fv", "fp",
              "lim", "tbl", "ram", "rom", "mem", "cm", "inv", "cpu", "dv", "trap", "ftr", "rk", "ao", "iw",
              "kx")


# The cells that hold the registers and flags (FastCPU.with_registers).
REGISTER_CELLS = CELL_NAMES[:11]


# What a trap routine's direct version may share with the blocks (set_fast_trap): the
# registers, and rk, where the RTS goes if the calling block knows it (else -1).
DIRECT_CELLS = REGISTER_CELLS + ("rk",)


# -- decimal mode, exactly as py65 computes it ----------------------------------------------
def _adc_decimal(a, data, carry):
    """py65's decimal ADC: returns (a, fn, fz, fc, fv)."""
    halfcarry = decimalcarry = adjust0 = adjust1 = 0
    nibble0 = (data & 0xF) + (a & 0xF) + carry
    if nibble0 > 9:
        adjust0 = 6
        halfcarry = 1
    nibble1 = ((data >> 4) & 0xF) + ((a >> 4) & 0xF) + halfcarry
    if nibble1 > 9:
        adjust1 = 6
        decimalcarry = 1
    nibble0 &= 0xF
    nibble1 &= 0xF
    aluresult = (nibble1 << 4) + nibble0
    nibble0 = (nibble0 + adjust0) & 0xF
    nibble1 = (nibble1 + adjust1) & 0xF
    overflow = 0x80 if (~(a ^ data) & (a ^ aluresult)) & 0x80 else 0
    return (nibble1 << 4) + nibble0, aluresult, aluresult, decimalcarry, overflow


def _sbc_decimal(a, data, carry):
    """py65's decimal SBC: returns (a, fn, fz, fc, fv)."""
    halfcarry = 1
    adjust0 = adjust1 = 0
    nibble0 = (a & 0xF) + (~data & 0xF) + carry
    if nibble0 <= 0xF:
        halfcarry = 0
        adjust0 = 10
    nibble1 = ((a >> 4) & 0xF) + ((~data >> 4) & 0xF) + halfcarry
    if nibble1 <= 0xF:
        adjust1 = 10 << 4
    aluresult = a + (~data & 0xFF) + carry
    decimalcarry = 1 if aluresult > 0xFF else 0
    aluresult &= 0xFF
    nibble0 = (aluresult + adjust0) & 0xF
    nibble1 = ((aluresult + adjust1) >> 4) & 0xF
    overflow = 0x80 if ((a ^ data) & (a ^ aluresult)) & 0x80 else 0
    return (nibble1 << 4) + nibble0, aluresult, aluresult, decimalcarry, overflow


BLOCK_GLOBALS = {"adcd": _adc_decimal, "sbcd": _sbc_decimal, "__builtins__": __builtins__}


_CODE_CACHE = {}


def compile_block(body, nonlocals, params=""):
    """Compile a block body into a code object with free variables from CELL_NAMES (cached
    by text); `params`: the function's parameters (the run loops')."""
    key = (body, nonlocals, params)
    code = _CODE_CACHE.get(key)
    if code is None:
        head = "def _outer():\n    %s = None\n    def blk(%s):\n" % (" = ".join(CELL_NAMES), params)
        if nonlocals:
            head += "        nonlocal %s\n" % ", ".join(nonlocals)
        source = head + body + "    return blk\n"
        module = compile(source, "<6502 block>", "exec")
        outer = next(c for c in module.co_consts if isinstance(c, types.CodeType))
        code = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
        if len(_CODE_CACHE) > 50000:      # a program that keeps writing new code: start afresh
            _CODE_CACHE.clear()
        _CODE_CACHE[key] = code
    return code


def forget_compiled():
    """Empty compile_block's cache (shared by every CPU in the process), so that the next
    block is compiled as in a fresh process (tests/bench/bench_kinds.py times runs so)."""
    _CODE_CACHE.clear()


LOOP_CODE = compile_block("        while cyc < lim:\n            tbl[pc]()\n", ())


# The blocks that end before `end` (a cycle an exact run stops at: FastCPU._run_to), run
# one after another with lim at what lets that block's loop go round once more; it ends
# at the first that could pass `end`, or where no block is (a miss, a trap, a stop).
EXACT_LOOP_CODE = compile_block(
    "        while True:\n"
    "            f = tbl[pc]\n"
    "            s = getattr(f, 'span', None)\n"
    "            if s is None or cyc + s >= end:\n"
    "                return\n"
    "            lim = end - s\n"
    "            f()\n"
    "            if lim < 0:\n"
    "                return\n", ("lim",), "end")


# run()'s loop while an IRQ waits for the I flag (FastCPU._run_masked): it ends where a
# block left before an instruction that may clear I (iw 2) or a trap cleared it.
MASKED_LOOP_CODE = compile_block(
    "        while cyc < lim and iw == 1 and fp & 4:\n            tbl[pc]()\n", ())
