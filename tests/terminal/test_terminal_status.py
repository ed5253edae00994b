"""The status line: speed as VICE shows it, program name, WAIT, errors and questions."""

import pytest

from c64.terminal.render import fit_line
from c64.terminal.status import (ALERT, DRIVE_ERROR, NORMAL, STOPPED_KEYS, WARP, StatusInfo, speed_text,
                                 status_parts)


def test_speed_is_a_whole_percentage_of_a_real_c64():
    assert speed_text(100.4, False) == "100%"
    assert speed_text(99.6, False) == "100%"
    assert speed_text(57.2, False) == "57%"


def test_warp_speed_is_shown_with_the_word_warp():
    assert speed_text(1850.3, True) == "WARP 1850%"


def test_an_unknown_speed_shows_dashes():
    assert speed_text(None, False) == "--%"


def test_the_status_line_shows_speed_name_and_wait():
    left, right, style = status_parts(StatusInfo(speed=100, name="ryg23", waiting=True))
    assert left.split() == ["100%", "ryg23", "WAIT"]
    assert "help" in right
    assert style == NORMAL


def test_wait_is_absent_while_the_program_runs():
    left, _, _ = status_parts(StatusInfo(speed=100, name="ryg23", waiting=False))
    assert "WAIT" not in left


def test_warp_changes_the_text_and_the_colour():
    left, _, style = status_parts(StatusInfo(speed=1850, warp=True, name="ryg3"))
    assert left.split()[:3] == ["WARP", "1850%", "ryg3"]
    assert style == WARP


def test_a_stopped_program_shows_the_reason_and_the_way_out():
    left, right, style = status_parts(StatusInfo(speed=100, name="x", error="CPU JAM at $C005 (opcode $02)"))
    assert "CPU JAM at $C005" in left
    assert "F9" in right and "quit" in right
    assert style == ALERT
    line = fit_line(left, right, 48)
    assert len(line) == 48 and "F9 reset" in line


JAM = "CPU JAM at $A4E1: no routine at this ROM address (this C64 has only our stub ROM)"


@pytest.mark.parametrize("room, reason, keys", [
    (200, JAM, STOPPED_KEYS),                               # all of it
    (71, "CPU JAM at $A4E1", STOPPED_KEYS),                 # what it stopped at, every key
    (63, "CPU JAM at $A4E1", "F9 reset PgUp warm start ^Q quit"),   # an 80-column terminal
])
def test_a_long_stop_reason_keeps_what_it_stopped_at_and_the_way_out(room, reason, keys):
    left, right, _ = status_parts(StatusInfo(error=JAM, stopped=True), room)
    assert left == " STOPPED: " + reason and right.strip() == keys
    assert len(left) + len(right) <= room
    assert "$A4E1" in fit_line(left, right, room)


def test_a_question_takes_the_whole_line():
    left, right, style = status_parts(StatusInfo(speed=100, name="x", question="Quit RYG64? (y/n)"))
    assert left.strip() == "Quit RYG64? (y/n)" and right == ""
    assert style == ALERT


def test_a_drive_error_shows_on_the_status_line_as_the_drive_sent_it():
    left, right, style = status_parts(StatusInfo(speed=100, name="ryg3", waiting=True,
                                                 drive="33,SYNTAX ERROR,00,00"))
    assert left.split() == ["100%", "DRIVE", "8:", "33,SYNTAX", "ERROR", "ryg3", "WAIT"]
    assert style == DRIVE_ERROR
    assert "DRIVE 8: 33,SYNTAX ERROR" in fit_line(left, right, 40)      # kept on a 40-column line


def test_without_a_drive_error_the_line_is_as_before():
    assert status_parts(StatusInfo(speed=100, name="ryg3", drive=None)) == status_parts(
        StatusInfo(speed=100, name="ryg3"))


REFUSED = "bad.bas:1: a { without its } at column 10 (a listing's own message, longer than the line)"


@pytest.mark.parametrize("room", [200, 80, 60, 40])
def test_a_program_the_menu_could_not_start_shows_its_message_cut_to_the_line_not_its_start(room):
    left, right, style = status_parts(StatusInfo(speed=100, name="x", error=REFUSED), room)
    assert style == ALERT and len(left) + len(right) <= room and "F9 reset" in right
    if room == 200:
        assert left == " STOPPED: " + REFUSED and right.strip() == "F9 reset F10 menu ^Q quit"
    else:
        assert left.endswith("...") and REFUSED.startswith(left[len(" STOPPED: "):-3])
        assert "a { without" in left or room < 50
