"""Reading the 6502 stack page as the KERNAL's routines do (TSX / LDA $0101,X ...).

The stack pointer points at the next free byte, so the byte pushed last is
one above it; `stacked(memory, sp, n)` is what the n-th PLA would pull.
"""

from kernal.locations import STACK


def stacked(memory, sp, n):
    """The byte n places above the stack pointer sp ($0100 + sp + n, wrapping in page 1)."""
    return memory[STACK + ((sp + n) & 0xFF)]


def stacked_word(memory, sp, n):
    """The little-endian word at n and n + 1 above the stack pointer (a pushed address)."""
    return memory[STACK + ((sp + n) & 0xFF)] | (memory[STACK + ((sp + n + 1) & 0xFF)] << 8)


def rts_target(memory, sp):
    """Where an RTS would go now: the pushed return address + 1."""
    return (stacked_word(memory, sp, 1) + 1) & 0xFFFF
