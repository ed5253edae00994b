"""Every monitor command through the Python API, on ryg23 stopped at `think`.

ryg23 at depth 2 with the mouse moves 00 00 00 01 leaves the opening book at its
next reply: the cats' move then goes through computer_move -> think."""

import os

import pytest

from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from c64.monitor import Monitor

ASM = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "asm")
KEYS = "02{return}00{return}00{return}00{return}01{return}01{return}"


def ryg23_at_think(cpu_class=FastCPU):
    machine = C64(sid_seed=1, cpu_class=cpu_class)
    machine.run_program(os.path.join(ASM, "ryg23.prg"))
    machine.type(KEYS)
    monitor = Monitor(machine)
    assert monitor.execute("break think") == "#1 BREAK: exec $0EA4 (think)"
    reason, text = monitor.run(200_000_000)
    assert reason is StopReason.BREAK
    return monitor, text


@pytest.fixture
def mon():
    return ryg23_at_think()[0]


@pytest.fixture(scope="module")
def shared():
    """Read-only commands share one stopped machine."""
    return ryg23_at_think()[0]


def test_a_breakpoint_stops_before_the_instruction_with_its_label_and_source_line():
    monitor, text = ryg23_at_think()
    lines = text.splitlines()
    assert lines[0] == "#1 (Stop on exec $0EA4)"
    assert lines[1].startswith(".C:0EA4  A9 00      LDA #$00")
    assert lines[2] == "think (classic/think.oph:15)"
    assert monitor.machine.cpu.pc == 0x0EA4


def test_r_shows_the_registers_and_sets_them(mon):
    out = mon.execute("r")
    assert out.splitlines()[1].startswith(".;0EA4 ")
    assert out.splitlines()[2] == "think (classic/think.oph:15)"
    out = mon.execute("r a=$10, x = +5, pc=think+2")
    assert (mon.machine.cpu.a, mon.machine.cpu.x, mon.machine.cpu.pc) == (0x10, 5, 0x0EA6)
    assert out.splitlines()[1].startswith(".;0EA6 10 05 ")
    assert mon.execute("r q=1").startswith("ERROR -- bad register assignment")
    assert mon.execute("r a=$100") == "ERROR -- A is one byte, not $0100"


def test_m_shows_hex_and_text_and_bank_chooses_ram_or_what_the_cpu_sees(shared):
    out = shared.execute("m 0 1f").splitlines()
    assert out[0].startswith(">C:0000  2F 37 ") and out[1].startswith(">C:0010 ")
    assert shared.execute("m a000 a003") == ">C:A000  94 E3 7B E3" + " " * 38 + ".-+-"   # BASIC's start vectors
    shared.machine.mem.ram[0xA000] = 0x41
    assert shared.execute("bank ram").startswith("bank: ram")
    assert shared.execute("m a000 a000").startswith(">R:A000  41 ")
    assert shared.execute("bank cpu").startswith("bank: cpu")
    assert shared.execute("bank rom") == "ERROR -- unknown bank 'rom' (cpu or ram)"


def test_i_shows_memory_as_text(shared):
    shared.machine.mem.ram[0xC400:0xC405] = b"HELLO"
    assert shared.execute("i c400 c404") == ">C:C400  HELLO"


def test_d_prints_label_lines_and_symbolic_operands(shared):
    out = shared.execute("d pc pc+8").splitlines()
    assert out[:4] == ["think:", ".C:0EA4  A9 00      LDA #$00", ".C:0EA6  8D AF 03   STA boards_made",
                       ".C:0EA9  8D B0 03   STA boards_made+1"]
    out = shared.execute("d main main+5").splitlines()
    assert out[1] == ".C:0810  20 80 0F   JSR platform_init"
    assert ".C:0815  20 D2 FF   JSR chrout" in out
    assert shared.execute("d think._scan think._scan").splitlines()[0] == "_scan:"
    assert shared.execute("d zzz") == "ERROR -- unknown label 'zzz'"


def test_a_assembles_one_instruction_with_labels(mon):
    assert mon.execute("a c000 jsr print_hex_byte") == ".C:C000  20 DF 0A   JSR print_hex_byte"
    assert mon.execute("a c003 lda #$01") == ".C:C003  A9 01      LDA #$01"
    assert mon.execute("a c005 nop") == ".C:C005  EA         NOP"
    assert mon.execute("a c000 lda #$100") == "ERROR -- cannot assemble 'lda #$100'"


def test_write_fill_transfer_compare_and_hunt(mon):
    assert mon.execute("> c010 01 02 03") == ""
    assert mon.execute(">c013 04") == ""
    assert mon.execute("f c020 c02f aa bb") == ""
    assert bytes(mon.machine.mem.ram[0xC010:0xC014]) == b"\x01\x02\x03\x04"
    assert bytes(mon.machine.mem.ram[0xC020:0xC024]) == b"\xaa\xbb\xaa\xbb"
    assert mon.execute("t c010 c013 c030") == ""
    assert mon.execute("c c010 c013 c030") == "no differences"
    assert mon.execute("c c010 c011 c020") == "$C010 $C020: 01 AA\n$C011 $C021: 02 BB"
    assert mon.execute("h c000 c0ff 02 03").splitlines() == ["C011", "C031"]
    mon.machine.mem.ram[0xC040:0xC043] = b"CAT"
    assert mon.execute('h c000 c0ff "CAT"') == "C040"
    assert mon.execute("f c000") == "ERROR -- fill: f start end byte ..."
    assert mon.execute("> c000 100") == "ERROR -- not a byte: '100'"


def test_a_write_over_translated_code_is_seen_by_the_fast_core(mon):
    """Poke an RTS at the start of think: the call returns at once, nothing is searched."""
    mon.execute("> think 60")
    assert mon.machine.mem.ram[0x0EA4] == 0x60
    mon.execute("delete")
    mon.execute("break computer_move+8")
    boards = mon.machine.mem.ram[0x03AF]
    reason, text = mon.run(100_000_000)
    assert reason is StopReason.BREAK and mon.machine.cpu.pc == 0x0F1D
    assert mon.machine.mem.ram[0x03AF] == boards


def test_io_shows_the_chips_without_disturbing_them(shared):
    flags = shared.machine.cia1.icr_flags
    out = shared.execute("io")
    assert "VIC-II at $D000:" in out and "CIA 1 at $DC00:" in out and "CIA 2 at $DD00:" in out
    assert "processor port: $00=2F $01=37 (BASIC in, KERNAL in, I/O)" in out
    assert shared.machine.cia1.icr_flags == flags
    assert shared.execute("io d020") .startswith("VIC-II at $D000:")
    assert shared.execute("io c000") == "ERROR -- no chip at $C000 (d000, d400, dc00, dd00)"


def test_l_and_s_load_and_save_prg_files(mon, tmp_path):
    path = tmp_path / "think.prg"
    assert mon.execute("s %s think think+7" % path) == "saved %s: $0EA4-$0EAB" % path
    assert path.read_bytes()[:4] == b"\xa4\x0e\xa9\x00"
    assert mon.execute("l %s c100" % path) == "loaded %s: $C100-$C107" % path
    assert bytes(mon.machine.mem.ram[0xC100:0xC108]) == bytes(mon.machine.mem.ram[0x0EA4:0x0EAC])
    assert mon.execute('l "%s"' % path).endswith("$0EA4-$0EAB")
    assert mon.execute("l %s" % (tmp_path / "none.prg")).startswith("ERROR -- cannot read")


def test_ll_loads_vice_labels_and_shl_shows_them(mon, tmp_path):
    path = tmp_path / "mine.lbl"
    path.write_text("al C:c000 .my_routine\n")
    assert mon.execute("ll %s" % path) == "1 labels loaded from %s" % path
    assert mon.execute("shl my_") == "$C000 my_routine"
    assert mon.execute("d my_routine my_routine").splitlines()[0] == "my_routine:"
    assert mon.execute("shl think").splitlines() == ["$0EA4 think", "$0EF1 think._scan", "$0F11 think._found"]
    assert mon.execute("ll %s" % (tmp_path / "none")).startswith("ERROR -- cannot read")


def test_src_prints_the_source_around_pc(shared):
    out = shared.execute("src pc 2").splitlines()
    assert out == ["classic/think.oph:", "     13  think:", "     14  .scope", "=>   15          lda #0",
                   "     16          sta boards_made", "     17          sta boards_made+1"]
    assert shared.execute("src $c000") == "ERROR -- no source line for $C000"


def test_screen_prints_the_c64_screen(shared):
    assert "QUE JUGADA DESEA? 01" in shared.execute("screen").splitlines()


def test_help_lists_every_command_and_one(shared):
    out = shared.execute("help")
    for word in ("r ", "m ", "d ", "a ", "break", "watch", "z ", "bt", "chis", "io", "ll", "shl", "src",
                 "screen", "prof"):
        assert word in out
    assert shared.execute("help z").startswith("z [count]")
    assert shared.execute("help qq") == "ERROR -- unknown command 'qq'"


def test_bad_commands_and_arguments_get_one_line_errors(shared):
    for line in ("foo", "m zz", "m c000 bfff", "d 1 2 3", "break", "z 0", "enable 99", "x 1",
                 "ret 1", "watch store", "break if a ==", "prof", "prof maybe", "s", "t 1 2"):
        out = shared.execute(line)
        assert "\n" not in out and "Traceback" not in out, (line, out)
    assert shared.execute("foo") == "ERROR -- unknown command 'foo' (help lists them)"


def test_z_steps_n_steps_over_a_jsr_and_ret_returns(mon):
    out = mon.execute("z")
    assert out.splitlines()[0].startswith(".C:0EA6  8D AF 03   STA boards_made")
    assert out.splitlines()[1] == "think+$02 (classic/think.oph:16)"
    mon.execute("z 3")
    assert mon.machine.cpu.pc == 0x0EAF
    # step to the first JSR in think, then over it
    while mon.machine.mem[mon.machine.cpu.pc] != 0x20:
        mon.execute("z")
    jsr = mon.machine.cpu.pc
    sp = mon.machine.cpu.sp
    mon.execute("n")
    assert (mon.machine.cpu.pc, mon.machine.cpu.sp) == (jsr + 3, sp)
    out = mon.execute("ret")
    assert out.splitlines()[-1].startswith("computer_move+$08")
    assert mon.execute("chis 2").splitlines()[-1].startswith(".C:0F14  RTS")


def test_bt_lists_the_callers_from_the_stack(shared):
    out = shared.execute("bt").splitlines()
    assert out[0] == "#0 $0EA4  think (classic/think.oph:15)"
    assert out[1].startswith("#1 $0F1A  computer_move+$05 (classic/think.oph:82)  (jsr think;")
    assert out[2].startswith("#2 $08AE  turn_loop+$54 (classic/game.oph:76)  (jsr computer_move;")


def test_watch_store_stops_after_the_store_and_delete_removes_it(mon):
    assert mon.execute("watch store p_child") == "#2 WATCH: store $0004 (p_child)"
    reason, text = mon.run(100_000_000)
    assert reason is StopReason.BREAK
    assert text.splitlines()[0] == "#2 (Stop on store $0004)"
    assert mon.machine.cpu.pc == 0x0EB6                  # after sta p_child at think+$10
    assert mon.execute("delete 2") == ""
    assert mon.execute("break") == "#1 BREAK: exec $0EA4 (think)  hits 1"


def test_watch_load_with_a_condition(mon):
    mon.execute("watch load $03af $03b2 if a != $00")
    reason, text = mon.run(100_000_000)
    assert reason is StopReason.BREAK and "Stop on load $03A" in text
    assert mon.machine.cpu.a != 0


def test_a_conditional_breakpoint_stops_only_when_true(mon):
    mon.execute("delete")
    eval_at = mon.execute("shl search_node").splitlines()[0].split()[0]
    mon.execute("break %s if x == $07" % eval_at)
    reason, _ = mon.run(100_000_000)
    assert reason is not StopReason.BREAK or mon.machine.cpu.x == 7


def test_disable_and_enable(mon):
    mon.execute("disable 1")
    assert mon.execute("break") == "#1 BREAK: exec $0EA4 (think) disabled  hits 1"
    assert mon.machine.debugger is None                 # nothing left to watch for: full speed
    mon.execute("enable")
    assert mon.machine.debugger is not None


def test_g_with_an_address_goes_from_there(mon):
    assert mon.execute("g think._scan") == "" and mon.resume
    assert mon.machine.cpu.pc == 0x0EF1
    assert mon.execute("x") == "" and mon.resume


def test_prof_counts_cycles_per_routine(mon):
    assert mon.execute("prof on").startswith("profiler on")
    mon.execute("delete")
    reason, _ = mon.run(100_000_000)
    assert reason is StopReason.IDLE
    table = mon.execute("prof show 5").splitlines()
    assert table[0].split()[:3] == ["routine", "calls", "inclusive"]
    names = [row.split()[0] for row in table[1:-1]]
    assert "think" in names
    think = [row.split() for row in table[1:-1] if row.split()[0] == "think"][0]
    assert int(think[1]) == 1 and int(think[2]) > int(think[4])     # inclusive > exclusive
    assert mon.execute("prof off") == "profiler off"


def test_a_store_watch_sees_what_the_kernal_writes(mon):
    """CHROUT is Python: the watch on the screen's first byte stops after the trap that changed it."""
    mon.execute("delete")
    mon.machine.mem.ram[0x0400] = 0xEE
    assert mon.execute("watch store $0400").startswith("#2 WATCH: store $0400")
    reason, text = mon.run(200_000_000)
    assert reason is StopReason.BREAK and text.splitlines()[0] == "#2 (Stop on store $0400)"
    assert mon.machine.mem.ram[0x0400] != 0xEE


def test_a_goes_on_assembling_line_after_line_until_an_empty_line(mon):
    assert mon.execute("a c000 lda #$01") == ".C:C000  A9 01      LDA #$01"
    assert mon.assembling == 0xC002
    assert mon.execute("sta $d020") == ".C:C002  8D 20 D0   STA $D020"
    assert mon.execute("ldx") == "ERROR -- cannot assemble 'ldx' (an empty line ends a)"
    assert mon.assembling == 0xC005                  # a bad line leaves the address
    assert mon.execute("rts") == ".C:C005  60         RTS"
    assert mon.execute("") == "" and mon.assembling is None
    assert bytes(mon.machine.mem.ram[0xC000:0xC006]) == bytes((0xA9, 0x01, 0x8D, 0x20, 0xD0, 0x60))
    assert mon.execute("a c100").startswith("assembling at $C100")
    assert mon.execute("nop") == ".C:C100  EA         NOP"
    assert mon.execute("m c100 c100").startswith(">C:C100  EA")      # a command ends it
    assert mon.assembling is None
