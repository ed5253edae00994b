"""The monitor in headless runs: --moncommands FILE, --break, --profile (ryg.main and a real process)."""

import os
import subprocess
import sys

import ryg

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# ryg23 at depth 2: after these mouse moves the opening book has no answer, think runs.
KEYS = "02{return}00{return}00{return}00{return}01{return}01{return}"


def run_with(tmp_path, capsys, commands, *options, keys=KEYS, program="ryg23"):
    path = tmp_path / "cmds.txt"
    path.write_text("\n".join(commands) + "\n")
    status = ryg.main(["--headless", "--moncommands", str(path), "--keys", keys, *options, program])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_issue_example_prints_registers_disassembly_and_backtrace_at_think(tmp_path, capsys):
    status, out, err = run_with(tmp_path, capsys, ["break think", "x", "r", "d pc pc+8", "bt", "x"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    start = lines.index("(C:$0ea4) r")
    assert lines[start - 3] == "#1 (Stop on exec $0EA4)"
    assert lines[start + 2].startswith(".;0EA4 ")
    assert lines[start + 3] == "think (classic/think.oph:15)"
    assert lines[start + 4] == "(C:$0ea4) d pc pc+8"
    assert lines[start + 5:start + 8] == ["think:", ".C:0EA4  A9 00      LDA #$00",
                                          ".C:0EA6  8D AF 03   STA boards_made"]
    bt = lines.index("(C:$0ea4) bt")
    assert lines[bt + 2].startswith("#1 $0F1A  computer_move+$05")
    assert "PENSANDO" in out                     # the program ran on to its next prompt


def test_commands_at_the_start_run_before_the_program(tmp_path, capsys):
    status, out, _ = run_with(tmp_path, capsys, ["r", "d main main"], keys="")
    assert out.splitlines()[:2] == ["(C:$0810) r", "  ADDR A  X  Y  SP 00 01 NV-BDIZC     CYCLES"]
    assert "main (classic/game.oph:11)" in out
    assert ".C:0810  20 80 0F   JSR platform_init" in out
    assert "PROFUNDIDAD" in out                  # at the end of the file the program runs on


def test_every_command_answers_in_a_script_and_bad_ones_give_one_line(tmp_path, capsys):
    commands = ["break think", "x", "m p_node", "i 0400 0427", "bank ram", "bank cpu", "a c000 nop",
                "> c001 ea", "f c002 c003 ea", "t c000 c003 c010", "c c000 c003 c010", "h c000 c0ff ea ea",
                "io dc00", "s %s c000 c003" % (tmp_path / "x.prg"), "l %s c020" % (tmp_path / "x.prg"),
                "ll %s" % os.path.join(REPO, "asm", "ryg23.map"), "shl computer", "src", "screen",
                "help bt", "chis on", "z", "n", "chis 1", "chis off", "watch store tmp", "disable 2",
                "enable 2", "delete 2", "ret", "bt", "prof on", "z", "prof show 3", "prof off", "break",
                "bogus", "m zz", "g pc"]
    status, out, err = run_with(tmp_path, capsys, commands)
    assert status == 0 and "Traceback" not in out + err
    for command in commands:
        assert "(C:$" in out and ") %s\n" % command in out, command
    assert out.count("ERROR -- ") == 2
    assert "ERROR -- unknown command 'bogus' (help lists them)" in out
    assert "$0F15 computer_move" in out
    assert "#1 BREAK: exec $0EA4 (think)  hits 1" in out          # break lists them
    assert "cycles profiled" in out                                # prof show


def test_break_on_the_command_line_and_profile(tmp_path, capsys):
    status, out, _ = run_with(tmp_path, capsys, ["r", "x"], "--break", "think", "--profile")
    assert status == 0
    assert "#1 BREAK: exec $0EA4 (think)" in out
    assert "#1 (Stop on exec $0EA4)" in out
    table = out[out.index("routine "):].splitlines()
    assert table[0].split()[:2] == ["routine", "calls"]
    assert any(row.split()[0] == "think" for row in table[1:])
    assert "cycles profiled" in out


def test_monitor_options_need_headless_and_a_readable_file(tmp_path, capsys):
    assert ryg.main(["--break", "think", "ryg23"]) == 2
    assert "need --headless" in capsys.readouterr().err
    assert ryg.main(["--headless", "--moncommands", str(tmp_path / "none.txt"), "ryg23"]) == 2
    assert "cannot read the monitor commands" in capsys.readouterr().err
    status = ryg.main(["--headless", "--break", "no_such_label", "ryg23"])
    assert status == 0
    assert "ERROR -- unknown label 'no_such_label'" in capsys.readouterr().out


def test_a_real_process_runs_the_issue_example(tmp_path):
    path = tmp_path / "cmds.txt"
    path.write_text("break think\nx\nr\nd pc pc+8\nbt\nx\n")
    proc = subprocess.run([sys.executable, "ryg.py", "--headless", "--moncommands", str(path),
                           "--keys", KEYS, "ryg23"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "think (classic/think.oph:15)" in proc.stdout
