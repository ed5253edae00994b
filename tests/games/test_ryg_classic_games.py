"""Whole games of the classic programs through the keyboard: the dialogue
texts, the board printout, input checking, the three ways a game ends (in
the design's order), the messages, and a new game after a key -- in both
languages (ryg23 and ryg23en ...: the same program, other texts).

The mouse moves are found with the reference model; after every move the
program's current board must be the model's position.
"""

import pytest

from tests.tools import classic_model as M
from tests.tools.classic_games import ENDINGS, SPANISH_WORDS, Session, board_printout, find_game
from tests.tools.classic_runner import LANGUAGES, program_name

CLASSIC = ["ryg15", "ryg17", "ryg19", "ryg23"]
MAX_DEPTH = {"ryg15": 3, "ryg17": 3, "ryg19": 4, "ryg23": 15}
PROGRAMS = [(name, language) for name in CLASSIC for language in LANGUAGES]


@pytest.mark.parametrize("name, language", PROGRAMS)
def test_the_program_greets_asks_the_depth_and_prints_the_start_board(name, language):
    s = Session(program_name(name, language))
    t = s.texts
    text = s.printed()
    assert text.startswith(name.upper() + " - " + t.title + "\n")
    assert text.endswith(t.depth_question(MAX_DEPTH[name]))
    text = s.keys("01{return}")
    assert text == ("01\n"
                    + board_printout(t, s.addr("current_board"), M.start_position())
                    + "00> (07,03)-(06,02)\n"
                    "01> (07,03)-(06,04)\n"
                    + t.ask_move)


def test_the_start_board_reads_as_the_spanish_original_printed_it():
    s = Session("ryg23")
    s.printed()
    assert s.keys("01{return}") == (
        "01\n"
        "--------------------\n"
        "DIREC: %04X\n"
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
        "QUE JUGADA DESEA? " % s.addr("current_board"))


def test_the_english_board_lines_its_values_up_in_one_column():
    s = Session("ryg23en")
    s.printed()
    lines = s.keys("01{return}").splitlines()
    head = lines[2:9]
    assert [line[:10].rstrip() for line in head] == ["ADDRESS:", "PLY:", "TO MOVE:", "VALUE:", "PARENT:",
                                                     "CHILDREN:", ""]
    assert all(line[10] != " " and line[9] == " " for line in head)
    assert lines[11:19:7] == ["0C.C.C.C.", "7...M...."]


@pytest.mark.parametrize("name, language", PROGRAMS)
def test_the_depth_question_ignores_other_keys_and_repeats_out_of_range(name, language):
    s = Session(program_name(name, language))
    question = s.texts.depth_question(MAX_DEPTH[name])
    s.printed()
    text = s.keys("00{return}")
    assert text == "00\n" + question
    too_deep = "%02X" % (MAX_DEPTH[name] + 1)
    assert s.keys(too_deep + "{return}").endswith(question)
    # G, space and a third digit are ignored, RETURN with one digit waits, DEL corrects
    text = s.keys("G 0{return}9{del}2{del}{del}02{return}")
    assert text.startswith("02\n----")
    assert s.peek(s.addr("depth")) == 2


@pytest.mark.parametrize("name, language", PROGRAMS)
def test_an_illegal_or_impossible_mouse_move_is_asked_again(name, language):
    s = Session(program_name(name, language))
    ask = s.texts.ask_move
    s.keys("01{return}")
    assert s.keys("04{return}") == "04\n" + ask
    assert s.keys("02{return}") == "02\n" + ask        # off the board at the start
    assert s.current() == M.Pos(59, (0, 2, 4, 6), True, 0)
    text = s.keys("01{return}")
    assert s.current().level == 2 and s.current().mouse == 52
    assert (s.texts.thinking in text) == (not M.VERSIONS[name].book)


def play_scripted(program, depth, ending):
    s = Session(program)
    version = s.version
    dirs = find_game(version, depth, ending)
    result, positions = M.play(version, depth, dirs)
    s.keys("%02X{return}" % depth)
    after = iter(positions[1:])
    text = game = s.printed()
    for i, d in enumerate(dirs):
        text = s.keys("%02X{return}" % d)            # the last move's text is returned
        game += text
        mouse_pos = next(after)
        if i == len(dirs) - 1 and ending != "mouse_blocked":
            assert s.current() == mouse_pos
            break
        expected = next(after)
        assert s.current() == expected, "move %d of %s" % (i, dirs)
    return s, text, game


@pytest.mark.parametrize("name, language", PROGRAMS)
@pytest.mark.parametrize("ending", ENDINGS)
def test_a_scripted_game_ends_with_the_right_message_and_a_key_starts_a_new_one(name, language, ending):
    depth = 2
    s, text, game = play_scripted(program_name(name, language), depth, ending)
    t = s.texts
    if ending == "mouse_blocked":
        message = t.cats_win
        assert t.thinking in text                       # the cats moved last
    else:
        message = t.mouse_wins
        assert t.thinking not in text                   # the game ended on the mouse's move
    assert text.endswith("\n" + message + "\n" + t.press_key)
    screen = s.m.screen_lines()
    assert any(line.startswith(message) for line in screen)
    assert all(len(line.rstrip()) < 40 for line in screen)          # no text wrapped
    if language == "en":
        assert not [word for word in SPANISH_WORDS if word in game]
    text = s.keys("X")
    assert text == "%s - %s\n%s" % (name.upper(), t.title, t.depth_question(MAX_DEPTH[name]))
    assert s.m.screen_lines()[0].startswith(name.upper() + " - " + t.title)   # screen cleared
    s.keys("01{return}")
    assert s.current() == M.Pos(59, (0, 2, 4, 6), True, 0)


@pytest.mark.parametrize("name, language", [(n, lang) for n in ("ryg19", "ryg23") for lang in LANGUAGES])
def test_the_opening_book_answers_the_first_four_mouse_moves_without_thinking(name, language):
    s = Session(program_name(name, language))
    s.keys("04{return}")
    for d, cats in ((0, (9, 2, 4, 6)), (1, (9, 11, 4, 6)), (0, (9, 11, 13, 6)), (1, (9, 11, 13, 15))):
        text = s.keys("%02X{return}" % d)
        assert s.texts.thinking not in text
        assert s.current().cats == cats
    assert s.texts.thinking in s.keys("00{return}")
    assert s.current().level == 10


@pytest.mark.parametrize("program", ["ryg19", "ryg19en"])
def test_ryg19_shows_the_board_being_generated_rewritten_in_place(program):
    s = Session(program)
    s.keys("02{return}")
    for d in (0, 1, 0, 1):                            # through the opening book
        s.keys("%02X{return}" % d)
    s.m.transcript.clear()
    s.mark = 0
    s.keys("00{return}")
    codes = bytes(s.m.transcript)
    thinking = s.texts.thinking.encode()
    start = codes.index(thinking) + len(thinking)
    tail = codes[start:codes.index(b"\r", start)]
    # each board: 4 hex digits then 4 cursor-left ($9D)
    assert len(tail) % 8 == 0 and tail[4:8] == b"\x9d" * 4
    first = int(tail[:4].decode(), 16)
    assert first == s.addr("tree_root") + 29        # the root's first child


@pytest.mark.parametrize("program", ["ryg15", "ryg15en"])
def test_ryg15_prints_one_dot_per_board(program):
    s = Session(program)
    s.keys("03{return}")
    text = s.keys("00{return}")
    line = text[text.index(s.texts.thinking) + len(s.texts.thinking):]
    dots = line[:len(line) - len(line.lstrip("."))]
    pos = M.Pos(50, (0, 2, 4, 6), False, 1)
    assert len(dots) == M.count_boards(pos, 3, M.VERSIONS["ryg15"])
