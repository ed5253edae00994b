"""CHROUT's direct version (kernal.editor_fastpath.direct_chrout, called by FastCPU's blocks in place
of the trap) must leave the machine exactly as plain py65 stepping through the general trap does."""

import pytest

from c64.cpu import CPU
from c64.fastcpu import FastCPU
from c64.machine import C64
from tests.conftest import assemble, count_direct_chrout

CHROUT = 0xF1CA                 # CHROUT's ROM routine (the trap the blocks reach via $FFD2)

# CIA1's timer interrupt is switched off ($DC0D = $7F; CHROUT's screen path ends with CLI),
# so no interrupt is taken and the two cores must agree on every byte, the stack page
# included.  After each CHROUT the flags are saved at $C600,X.
PRINT_TEXT = """
        .org $C000
        ldx #0
loop:   lda $C500,x
        beq done
        jsr $FFD2
        php
        pla
        sta $C600,x
        inx
        bne loop
done:   rts
"""

CASES = {
    "plain text": b"HELLO WORLD 0123456789 \xc1\xc2\xc3",
    "every printable code": bytes(range(0x20, 0x80)) + bytes(range(0xA0, 0x100)),
    "quote mode": b'AB"\x9d\x12\x13\x14CD"\x9dE\x9d\x9d"\x91\x11"F',
    "insert mode": b"ABCDEF\x9d\x9d\x9d\x94\x94XYZ\x94\x9d\x22Q\x0dINS",
    "column 39 and the linked row": b"X" * 38 + b"YZW" + b"V" * 40 + b"U\x9d\x9dT",
    "reverse": b"\x12REV\x92NORM\x12\xc1\xa0\x92 \x12\x22\x0d\x9dR",
    "cursor left at column 0": b"\x0d\x9dA\x9d\x9d\x0d\x9d\x9d\x9d\x13\x9dB",
    "colours and scrolling": (b"\x1cRED\x1eGREEN\x9fCYAN\x0d" * 14) + b"\x93CLR",
}


def _machine(core, text, prepare=None, one_step=True, counted=True):
    """The machine ready to print `text` from $C000; on the fast core with `counted`, the
    direct CHROUT's calls counted in `used` (one_step) or the direct version off."""
    machine = C64(sid_seed=7, cpu_class=core, transcript=[])
    used = []
    if core is FastCPU and counted:
        if one_step:
            used = count_direct_chrout(machine)
        else:
            machine.kernal.direct_chrout = None
    program = assemble(PRINT_TEXT)
    machine.mem.ram[0xC000:0xC000 + len(program)] = program
    machine.mem.ram[0xC500:0xC500 + len(text) + 1] = text + b"\0"
    machine.kernal.editor.set_cursor(3, 5)
    machine.poke(0xDC0D, 0x7F)
    if prepare:
        prepare(machine)
    return machine, used


def _state(machine, registers):
    cpu = machine.cpu
    return (registers, cpu.sp, cpu.processorCycles, bytes(machine.mem.ram),
            bytes(machine.mem.io.colour_ram), list(machine.transcript))


def _print(core, text, prepare=None, one_step=True):
    machine, used = _machine(core, text, prepare, one_step)
    registers = machine.call(0xC000)
    return _state(machine, registers), used


@pytest.mark.parametrize("text", list(CASES.values()), ids=list(CASES))
def test_printing_through_the_direct_chrout_leaves_the_machine_as_py65_does(text):
    fast, used = _print(FastCPU, text)
    reference, _ = _print(CPU, text)
    assert used, "the blocks did not call CHROUT's direct version"
    assert fast == reference


@pytest.mark.parametrize("text", list(CASES.values()), ids=list(CASES))
def test_the_direct_chrout_gives_what_the_general_trap_gives_on_the_fast_core(text):
    direct, used = _print(FastCPU, text)
    general, _ = _print(FastCPU, text, one_step=False)
    assert direct == general
    if text not in (CASES["plain text"], CASES["every printable code"]):
        assert False in used                       # these cases reach the general path too


def test_both_paths_are_taken_where_they_should_be():
    # Plain letters mid-row: direct.  The quote, a letter at column 39, RETURN: general
    # (a declined character is offered twice: by the block, then by Kernal.trap).
    _, used = _print(FastCPU, b"AB\"C" + b"D" * 40 + b"\x0d")
    assert used[:5] == [True, True, False, False, True]
    assert used[-2:] == [False, False]
    assert used.count(False) == 2 * 3


def _redirect_chrout(machine):
    # ($0326) -> $C400: INC $C3F0 / JMP $F1CA (a program hooking CHROUT, then the ROM routine)
    hook = assemble(".org $C400\n inc $C3F0\n jmp $F1CA\n")
    machine.mem.ram[0xC400:0xC400 + len(hook)] = hook
    machine.poke(0x0326, 0x00)
    machine.poke(0x0327, 0xC4)


def test_a_redirected_chrout_vector_runs_the_hook_and_then_the_direct_path_as_py65_does():
    text = CASES["plain text"] + CASES["reverse"]
    fast, used = _print(FastCPU, text, _redirect_chrout)
    reference, _ = _print(CPU, text, _redirect_chrout)
    assert fast == reference
    assert fast[3][0xC3F0] == len(text) & 0xFF          # the hook ran once per character
    assert used.count(True) > 10


WRITE_FILE = """
        .org $C000
        lda #7
        ldx #<name
        ldy #>name
        jsr $FFBD               ; SETNAM
        lda #3
        ldx #8
        ldy #3
        jsr $FFBA               ; SETLFS
        jsr $FFC0               ; OPEN
        ldx #3
        jsr $FFC9               ; CHKOUT
        ldx #0
loop:   lda $C500,x
        beq done
        jsr $FFD2
        inx
        bne loop
done:   jsr $FFCC               ; CLRCHN
        lda #3
        jsr $FFC3               ; CLOSE
        lda #$41
        jsr $FFD2               ; and one letter on the screen again
        rts
name:   .byte "OUT,S,W"
"""


def _write_file(core, folder):
    machine = C64(sid_seed=7, cpu_class=core, disk_folder=str(folder), transcript=[])
    machine.poke(0xDC0D, 0x7F)
    used = count_direct_chrout(machine) if core is FastCPU else []
    program = assemble(WRITE_FILE)
    machine.mem.ram[0xC000:0xC000 + len(program)] = program
    text = b"TO THE DISK, NOT THE SCREEN"
    machine.mem.ram[0xC500:0xC500 + len(text) + 1] = text + b"\0"
    registers = machine.call(0xC000)
    return _state(machine, registers), (folder / "out.seq").read_bytes(), used


def test_chrout_to_a_file_declines_the_direct_path_and_writes_what_py65_writes(tmp_path):
    (tmp_path / "fast").mkdir()
    (tmp_path / "py65").mkdir()
    fast, written, used = _write_file(FastCPU, tmp_path / "fast")
    reference, reference_written, _ = _write_file(CPU, tmp_path / "py65")
    assert written == reference_written == b"TO THE DISK, NOT THE SCREEN"
    assert fast == reference
    assert used.count(False) >= len(written) and used[-1] is True    # file: general; screen: direct


def test_replacing_chrouts_routine_withdraws_the_direct_version_from_the_cpu():
    machine = C64(cpu_class=FastCPU)
    kernal, cpu = machine.kernal, machine.cpu
    assert cpu.fast_trap(CHROUT) is kernal.direct_chrout is not None
    name, routine, cost = kernal.routines[CHROUT]
    kernal.replace_routine(CHROUT, routine, cost + 1)
    assert cpu.fast_trap(CHROUT) is None
    kernal.restore_routine(CHROUT)
    assert cpu.fast_trap(CHROUT) is kernal.direct_chrout
    kernal.replace_routine(CHROUT, None)
    assert cpu.fast_trap(CHROUT) is None
    kernal.restore_routine(CHROUT)
    kernal.direct_chrout = None
    assert cpu.fast_trap(CHROUT) is None
    with pytest.raises(TypeError):
        kernal.routines[CHROUT] = (name, routine, cost)            # read only: replace_routine


def test_a_replaced_chrout_routine_is_called_by_the_blocks_instead_of_the_direct_version():
    machine, used = _machine(FastCPU, b"HELLO " * 10)
    calls = []
    name, routine, cost = machine.kernal.routines[CHROUT]

    def recording(cpu):
        calls.append(cpu.a)
        return routine(cpu)
    machine.kernal.replace_routine(CHROUT, recording)
    machine.call(0xC000)
    assert bytes(calls) == b"HELLO " * 10
    assert used == []
    assert machine.screen_lines()[3][5:65 - 40] == "HELLO " * 3 + "HE"


def test_setting_the_trap_handler_drops_the_direct_versions():
    machine = C64(cpu_class=FastCPU)
    cpu = machine.cpu
    assert cpu.fast_trap(CHROUT) is not None
    cpu.trap_handler = machine.trap
    assert cpu.fast_trap(CHROUT) is None


def test_blocks_that_know_where_chrout_returns_say_so_and_it_is_forgotten_after_each_call():
    machine, used = _machine(FastCPU, CASES["quote mode"] + CASES["plain text"])
    seen = []
    direct = machine.cpu.fast_trap(CHROUT)

    def watching():
        seen.append(machine.cpu.fast_trap_return)
        return direct()
    machine.cpu.set_fast_trap(CHROUT, watching)
    machine.call(0xC000)
    assert machine.cpu.fast_trap_return == -1
    assert 0xC00A in seen                 # the JSR $FFD2 at $C007 returns to $C00A
    assert all(value in (-1, 0xC00A) for value in seen)


def _inline_blocks(machine):
    """The addresses of the program's translated blocks that hold CHROUT's direct version
    inline (their code uses the cell kx)."""
    found = []
    for addr in range(0xC000, 0xC020):
        code = getattr(machine.cpu.block_at(addr), "__code__", None)
        if code is not None and "kx" in code.co_freevars:
            found.append(addr)
    return found


def _print_inline(core, text, prepare=None):
    machine, _ = _machine(core, text, prepare, counted=False)    # (a wrapped CHROUT is not inlined)
    registers = machine.call(0xC000)
    return _state(machine, registers), machine


@pytest.mark.parametrize("text", list(CASES.values()), ids=list(CASES))
def test_blocks_holding_chrout_inline_leave_the_machine_as_py65_does(text):
    fast, machine = _print_inline(FastCPU, text)
    reference, _ = _print_inline(CPU, text)
    assert machine.cpu.inline_trap(CHROUT) is not None
    assert _inline_blocks(machine), "no block holds CHROUT inline"
    assert fast == reference


def test_chrout_inline_through_a_redirected_vector_and_with_io_banked_out_as_py65_does():
    def banked_out(machine):
        _redirect_chrout(machine)
        machine.poke(0x0001, 0x33)        # character ROM in place of I/O: colour to the RAM under it
    text = CASES["plain text"] + CASES["colours and scrolling"]
    fast, machine = _print_inline(FastCPU, text, banked_out)
    reference, _ = _print_inline(CPU, text, banked_out)
    assert fast == reference


def test_a_wrapped_or_replaced_direct_chrout_is_not_held_inline_and_blocks_holding_it_go():
    machine = C64(cpu_class=FastCPU)
    kernal, cpu = machine.kernal, machine.cpu
    assert cpu.inline_trap(CHROUT) is not None
    own = kernal.direct_chrout
    kernal.direct_chrout = lambda: own()
    assert cpu.inline_trap(CHROUT) is None
    kernal.direct_chrout = own
    assert cpu.inline_trap(CHROUT) is not None
    # Blocks made with it inline are dropped when CHROUT's routine is replaced: the new
    # routine sees every character.
    _, machine = _print_inline(FastCPU, b"HELLO " * 10)
    assert _inline_blocks(machine)
    calls = []
    name, routine, cost = machine.kernal.routines[CHROUT]

    def recording(cpu):
        calls.append(cpu.a)
        return routine(cpu)
    machine.kernal.replace_routine(CHROUT, recording)
    assert machine.cpu.inline_trap(CHROUT) is None
    machine.call(0xC000)
    assert bytes(calls) == b"HELLO " * 10
    assert not _inline_blocks(machine)
