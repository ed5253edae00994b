"""The monitor in the terminal front end (fake window and clock, a real C64): Ctrl-O opens
it and stops the machine, commands run in the panel, Tab shows the C64 screen, x leaves
at the speed the machine had, a breakpoint hit in warp opens it."""

from c64.terminal.keys import HELP_LINES
from tests.terminal.test_terminal_app import BUSY, make_app, settle, type_keys

CTRL_O = "\x0f"


def typed(app, window, text):
    type_keys(app, window, *text, "\n", seconds=0.05)


def test_ctrl_o_stops_the_machine_and_the_panel_runs_commands():
    app, window, _ = make_app(BUSY)
    settle(app, 0.2)
    type_keys(app, window, CTRL_O, seconds=0.05)
    assert "monitor: help lists the commands" in window.text()
    cycles = app.machine.cycles
    settle(app, 0.5)
    assert app.machine.cycles == cycles                    # stopped while the panel is open
    typed(app, window, "r")
    assert "  ADDR A  X  Y  SP 00 01 NV-BDIZC     CYCLES" in window.text()
    typed(app, window, "m c000 c005")
    assert ">C:C000  EE 20 D0 4C 00 C0" in window.text()
    typed(app, window, "bogus")
    assert "ERROR -- unknown command 'bogus' (help lists them)" in window.text()


def test_the_prompt_shows_the_next_address_while_a_assembles():
    app, window, _ = make_app(BUSY)
    settle(app, 0.2)
    type_keys(app, window, CTRL_O, seconds=0.05)
    typed(app, window, "a c100 lda #$05")
    assert ".C:C100  A9 05      LDA #$05" in window.text()
    assert ".C:c102  _" in window.text()                 # the prompt: where the next one goes
    typed(app, window, "rts")
    assert ".C:c103  _" in window.text()
    typed(app, window, "")
    prompt = [line for line in window.text().splitlines() if line.strip()][-1]
    assert prompt.strip().startswith("(C:$") and prompt.strip().endswith("_")
    assert bytes(app.machine.mem.ram[0xC100:0xC103]) == bytes((0xA9, 0x05, 0x60))


def test_tab_shows_the_c64_screen_and_any_key_comes_back():
    app, window, _ = make_app()
    settle(app, 0.5)
    type_keys(app, window, CTRL_O, seconds=0.05)
    type_keys(app, window, "\t", seconds=0.05)
    assert "HELLO THERE" in window.text() and "monitor:" not in window.text()
    type_keys(app, window, " ", seconds=0.05)
    assert "monitor:" in window.text()


def test_x_leaves_and_the_machine_runs_on_at_its_speed():
    app, window, _ = make_app(BUSY, warp=True, tick=0.002)
    settle(app, 0.05)
    type_keys(app, window, CTRL_O, seconds=0.05)
    typed(app, window, "x")
    assert app.overlay is None and app.warp
    cycles = app.machine.cycles
    settle(app, 0.05)
    assert app.machine.cycles > cycles


def test_a_breakpoint_hit_in_warp_opens_the_monitor_with_the_stop():
    app, window, _ = make_app(BUSY, warp=True, tick=0.002)
    settle(app, 0.05)
    type_keys(app, window, CTRL_O, seconds=0.05)
    typed(app, window, "break c003")
    typed(app, window, "x")
    settle(app, 0.05)
    assert app.overlay is not None and app.machine.cpu.pc == 0xC003
    assert "#1 (Stop on exec $C003)" in window.text()
    assert app.warp                                       # leaving goes back to warp
    typed(app, window, "delete")
    type_keys(app, window, CTRL_O, seconds=0.05)
    assert app.overlay is None
    settle(app, 0.05)
    assert app.overlay is None and app.machine.debugger is None


def test_the_help_panel_names_the_monitor_key():
    assert any(keys == "Ctrl-O" and "monitor" in text for keys, text in HELP_LINES)
