"""What a newcomer met in ryg3 (issue 36), tried as a player meets it: keys typed into
the real .prg, the screen read back.  The thinking rows never outlive their position,
a key that is no square says so, the rules draw the pieces as the board does, and the
end of a game speaks to whoever won against whom, in both languages.
"""

import pytest

from asm.tools.oracle import square_name
from tests.games.test_ryg3_ui import CAT_GLYPH, MOUSE_GLYPH, ROW_MSG, ROW_PV, ROW_THINK, Game

CONGRATULATIONS = {"ryg3": "ENHORABUENA", "ryg3en": "CONGRATULATIONS"}
SIDE_KEYS = {"ryg3": ("R", "G"), "ryg3en": ("M", "C")}


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_undo_and_redo_empty_the_thinking_rows_of_the_position_left(version):
    game = Game(version=version, level="L0300")
    game.keys("D2{return}")                  # the cats think and answer
    assert game.row(ROW_THINK).strip() and game.row(ROW_PV).strip()
    game.keys("U")
    assert game.row(ROW_THINK).strip() == game.row(ROW_PV).strip() == ""
    game.keys("D2{return}")
    assert game.row(ROW_PV).strip()
    game.keys("U")
    game.keys("R")                           # forward again: no think, nothing stale either
    assert len(game.moves()) == 2
    assert game.row(ROW_THINK).strip() == game.row(ROW_PV).strip() == ""


@pytest.mark.parametrize("version, words", [("ryg3", "NI CASILLA (A1-H8) NI TECLA DE ABAJO"),
                                            ("ryg3en", "NOT A SQUARE (A1-H8) NOR A KEY BELOW")])
def test_a_square_off_the_board_is_told_it_is_not_a_square(version, words):
    game = Game(version=version)
    game.keys("Z9")
    assert game.row(ROW_MSG).strip() == words
    assert game.moves() == []
    game.keys("D2{return}")                  # and the game goes on
    assert game.moves()[0] == (1, "E1-D2")


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_the_rules_draw_the_pieces_as_the_board_draws_them(version):
    game = Game(version=version)
    board_mouse = game.m.screen_codes()[9][15]              # E1: the mouse, reversed, white
    board_cat = game.m.screen_codes()[2][6]                 # B8: a cat, reversed, orange
    cat_colour = game.m.colour_codes()[2][6] & 15
    assert board_mouse == MOUSE_GLYPH | 0x80 and board_cat == CAT_GLYPH | 0x80
    game.keys("?")
    codes, colours = game.m.screen_codes(), game.m.colour_codes()
    found = {}
    for r in range(25):
        for c in range(40):
            if codes[r][c] in (board_mouse, board_cat):
                found[codes[r][c]] = colours[r][c] & 15
    assert found.get(board_mouse) == 1, found                   # white, as on the board
    assert found.get(board_cat) == cat_colour, found


def play_perfect_cats(game, oracle):
    """The player's cats play the oracle's best moves until the game ends; returns the
    result as game_result says it (1 the mouse won, 2 the cats)."""
    for _ in range(40):
        result = game.m.call(game.labels["game_result"])[0]
        if result:
            return result
        mouse, cats = game.peek("mouse_sq"), frozenset(game.peek("cat_sq", i) for i in range(4))
        start, to = oracle.best_cat_moves(mouse, cats)[0]
        game.keys(square_name(start) + square_name(to) + "{return}")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_the_players_cats_winning_are_congratulated(version, oracle):
    game = Game(version=version, level="L1")
    game.keys("S")                           # the player takes the cats; the computer's mouse moves
    mouse, cats = game.peek("mouse_sq"), frozenset(game.peek("cat_sq", i) for i in range(4))
    assert oracle.score(mouse, cats, False) < 0          # the cats win from here (the mouse's view)
    assert play_perfect_cats(game, oracle) == 2
    won = {"ryg3": "HAN GANADO LOS GATOS!! ENHORABUENA!!",
           "ryg3en": "THE CATS HAVE WON!! CONGRATULATIONS!!"}[version]
    beaten = {"ryg3": "HAS GANADO AL NIVEL 1!!", "ryg3en": "YOU HAVE BEATEN LEVEL 1!!"}[version]
    assert game.row(ROW_MSG).strip() == won
    assert game.row(ROW_PV).strip() == beaten
    assert "OH...." not in game.text()


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_the_computers_mouse_winning_gives_the_player_the_plain_result(version):
    mouse_key, cats_key = SIDE_KEYS[version]
    game = Game(version=version, level="L1")
    game.keys("S")                           # the player has the cats
    game.keys("TC7{return}A3C3E3G3{return}" + cats_key)     # the mouse one step from rank 8
    game.keys("A3B2{return}")                # the computer's mouse steps up and wins
    assert game.m.call(game.labels["game_result"])[0] == 1
    plain = {"ryg3": "HA GANADO EL RATON.", "ryg3en": "THE MOUSE HAS WON."}[version]
    assert game.row(ROW_MSG).strip() == plain
    assert CONGRATULATIONS[version] not in game.text()
    assert game.row(ROW_PV).strip() == ""                  # no level beaten


@pytest.mark.parametrize("version", ["ryg3", "ryg3en"])
def test_the_players_mouse_losing_gets_the_plain_result(version):
    mouse_key, cats_key = SIDE_KEYS[version]
    game = Game(version=version, level="L9")
    game.keys("TD2{return}A3C3E1E3{return}" + cats_key)     # the cats trap the mouse in 3
    game.keys("D2C1{return}")
    assert game.m.call(game.labels["game_result"])[0] == 2
    plain = {"ryg3": "HAN GANADO LOS GATOS.", "ryg3en": "THE CATS HAVE WON."}[version]
    assert game.row(ROW_MSG).strip() == plain
    assert CONGRATULATIONS[version] not in game.text() and "OH...." not in game.text()


def test_a_front_end_sets_the_starting_level_before_the_program_runs():
    from c64.fastcpu import FastCPU
    from c64.machine import C64, StopReason
    from tests.tools.ryg3_harness import ASM_DIR, read_map
    for level, shown in ((1, "LEVEL 1: DEPTH 1 2 SEC"), (0, "LEVEL 8: DEPTH 8 10 SEC"),
                         (200, "LEVEL 8: DEPTH 8 10 SEC")):
        machine = C64(sid_seed=7, cpu_class=FastCPU)
        labels = read_map(ASM_DIR / "ryg3en.map")
        program = machine.load_prg(str(ASM_DIR / "ryg3en.prg"))
        machine.poke(labels["start_level"], level)
        machine.start(program.start)
        assert machine.run(max_cycles=300_000_000) is StopReason.IDLE
        assert machine.screen_lines()[14].strip() == shown


def test_a_new_game_an_edit_and_a_load_leave_no_thinking_of_the_position_before(tmp_path):
    game = Game(version="ryg3en", disk=tmp_path, level="L0300")
    game.keys("W{return}")                   # the start, saved
    for keys in ("D2{return}NY", "TD2{return}A3C3E1E3{return}M", "OA"):
        game.keys("P")                       # a hint: a think, its value shown
        assert game.row(ROW_PV).strip(), keys
        game.keys(keys)
        assert "HINT:" not in game.text() and game.moves() == [], keys
        assert game.row(ROW_THINK).strip() == game.row(ROW_PV).strip() == "", keys
