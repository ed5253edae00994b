"""Whole games of the classic programs through the keyboard: the dialogue
texts, the board printout, input checking, the three ways a game ends (in
the design's order), the messages, and a new game after a key.

The mouse moves are found with the reference model; after every move the
program's current board must be the model's position.
"""

import pytest

from tests.tools import classic_model as M
from tests.tools.classic_games import ENDINGS, Session, find_game

CLASSIC = ["ryg15", "ryg17", "ryg19", "ryg23"]
MAX_DEPTH = {"ryg15": 3, "ryg17": 3, "ryg19": 4, "ryg23": 15}


@pytest.mark.parametrize("name", CLASSIC)
def test_the_program_greets_asks_the_depth_and_prints_the_start_board(name):
    s = Session(name)
    text = s.printed()
    assert text.startswith(name.upper() + " - RATON Y GATOS\n")
    assert text.endswith("PROFUNDIDAD (01-%02X) ? " % MAX_DEPTH[name])
    text = s.keys("01{return}")
    board = "%04X" % s.addr("current_board")
    assert text == ("01\n"
                    "--------------------\n"
                    "DIREC: " + board + "\n"
                    "NIVEL: 00\n"
                    "TURNO: RATON\n"
                    "VALOR: 00\n"
                    "PADRE: 0000\n"
                    "HIJOS: 0000 0000 0000 0000\n"
                    "       0000 0000 0000 0000\n"
                    "\n"
                    " 01234567\n"
                    "0G.G.G.G.\n"
                    "1........\n2........\n3........\n4........\n5........\n6........\n"
                    "7...R....\n"
                    "00> (07,03)-(06,02)\n"
                    "01> (07,03)-(06,04)\n"
                    "QUE JUGADA DESEA? ")


@pytest.mark.parametrize("name", CLASSIC)
def test_the_depth_question_ignores_other_keys_and_repeats_out_of_range(name):
    s = Session(name)
    s.printed()
    text = s.keys("00{return}")
    assert text == "00\nPROFUNDIDAD (01-%02X) ? " % MAX_DEPTH[name]
    too_deep = "%02X" % (MAX_DEPTH[name] + 1)
    assert s.keys(too_deep + "{return}").endswith("PROFUNDIDAD (01-%02X) ? " % MAX_DEPTH[name])
    # G, space and a third digit are ignored, RETURN with one digit waits, DEL corrects
    text = s.keys("G 0{return}9{del}2{del}{del}02{return}")
    assert text.startswith("02\n----")
    assert s.peek(s.addr("depth")) == 2


@pytest.mark.parametrize("name", CLASSIC)
def test_an_illegal_or_impossible_mouse_move_is_asked_again(name):
    s = Session(name)
    s.keys("01{return}")
    assert s.keys("04{return}") == "04\nQUE JUGADA DESEA? "
    assert s.keys("02{return}") == "02\nQUE JUGADA DESEA? "        # off the board at the start
    assert s.current() == M.Pos(59, (0, 2, 4, 6), True, 0)
    text = s.keys("01{return}")
    assert s.current().level == 2 and s.current().mouse == 52
    assert ("PENSANDO: " in text) == (not M.VERSIONS[name].book)


def play_scripted(name, depth, ending):
    version = M.VERSIONS[name]
    dirs = find_game(version, depth, ending)
    result, positions = M.play(version, depth, dirs)
    s = Session(name)
    s.keys("%02X{return}" % depth)
    after = iter(positions[1:])
    text = ""
    for i, d in enumerate(dirs):
        text = s.keys("%02X{return}" % d)
        mouse_pos = next(after)
        if i == len(dirs) - 1 and ending != "mouse_blocked":
            assert s.current() == mouse_pos
            break
        expected = next(after)
        assert s.current() == expected, "move %d of %s" % (i, dirs)
    return s, text


@pytest.mark.parametrize("name", CLASSIC)
@pytest.mark.parametrize("ending", ENDINGS)
def test_a_scripted_game_ends_with_the_right_message_and_a_key_starts_a_new_one(name, ending):
    depth = 2
    s, text = play_scripted(name, depth, ending)
    if ending == "mouse_blocked":
        message = M.CATS_WIN
        assert "PENSANDO: " in text                     # the cats moved last
    else:
        message = M.MOUSE_WINS
        assert "PENSANDO: " not in text                 # the game ended on the mouse's move
    assert text.endswith("\n" + message + "\nPULSA UNA TECLA PARA CONTINUAR...")
    screen = s.m.screen_lines()
    assert any(line.startswith(message) for line in screen)
    text = s.keys("X")
    assert text == "%s - RATON Y GATOS\nPROFUNDIDAD (01-%02X) ? " % (name.upper(), MAX_DEPTH[name])
    assert s.m.screen_lines()[0].startswith(name.upper() + " - RATON Y GATOS")   # screen cleared
    s.keys("01{return}")
    assert s.current() == M.Pos(59, (0, 2, 4, 6), True, 0)


@pytest.mark.parametrize("name", ["ryg19", "ryg23"])
def test_the_opening_book_answers_the_first_four_mouse_moves_without_thinking(name):
    s = Session(name)
    s.keys("04{return}")
    for d, cats in ((0, (9, 2, 4, 6)), (1, (9, 11, 4, 6)), (0, (9, 11, 13, 6)), (1, (9, 11, 13, 15))):
        text = s.keys("%02X{return}" % d)
        assert "PENSANDO" not in text
        assert s.current().cats == cats
    assert "PENSANDO: " in s.keys("00{return}")
    assert s.current().level == 10


def test_ryg19_shows_the_board_being_generated_rewritten_in_place():
    s = Session("ryg19")
    s.keys("02{return}")
    for d in (0, 1, 0, 1):                            # through the opening book
        s.keys("%02X{return}" % d)
    s.m.transcript.clear()
    s.mark = 0
    s.keys("00{return}")
    codes = s.m.transcript
    start = bytes(codes).index(b"PENSANDO: ") + 10
    tail = bytes(codes[start:bytes(codes).index(b"\r", start)])
    # each board: 4 hex digits then 4 cursor-left ($9D)
    assert len(tail) % 8 == 0 and tail[4:8] == b"\x9d" * 4
    first = int(tail[:4].decode(), 16)
    assert first == s.addr("tree_root") + 29        # the root's first child


def test_ryg15_prints_one_dot_per_board():
    s = Session("ryg15")
    s.keys("03{return}")
    text = s.keys("00{return}")
    line = text[text.index("PENSANDO: ") + 10:]
    dots = line[:len(line) - len(line.lstrip("."))]
    pos = M.Pos(50, (0, 2, 4, 6), False, 1)
    assert len(dots) == M.count_boards(pos, 3, M.VERSIONS["ryg15"])
