"""ryg3 as a player meets it: the real .prg run headless, keys typed, the
screen read back.  One test per feature of the game's screen and commands.

To keep the suite fast most tests first set a low level (L, depth 3, no
time limit); the cats answer from the book anyway.
"""

import re

import pytest

from c64.fastcpu import FastCPU
from c64.machine import C64, StopReason
from asm.tools.oracle import parse_square
from tests.tools.ryg3_harness import ASM_DIR, read_map
from tests.tools.ryg3_play import (LIST_ROWS, ROW_INPUT, ROW_KEYS, ROW_LAST, ROW_LEVEL, ROW_MSG,  # noqa: F401
                                   ROW_PLAYERS, ROW_PV, ROW_THINK, ROW_TURN, ScreenReader)

MOUSE_GLYPH = 0xD1 - 0x80      # screen code of PETSCII $D1 (ball), reversed on screen
CAT_GLYPH = 0xD8 - 0x80        # PETSCII $D8 (club)
BUDGET = 300_000_000
PAL_HZ = 985_248
THINKING_ROW = re.compile(r"PROF (\d+) NODOS (\d+) (\d+)\.(\d) SEG +$")
VALUE_ROW = re.compile(r"(?:(?:RATON|GATOS) \+\d+|IGUALADOS)(?:: (?:[A-H][1-8]-[A-H][1-8] )*)?$")
NAMES = {"ryg3": ("RATON", "GATOS", "IGUALADOS"), "ryg3en": ("MOUSE", "CATS", "EVEN")}


def ahead(value, side, version="ryg3"):
    """A search value (side `side`'s view, $80 neutral) as the game shows it:
    the side ahead by name and by how much ("GATOS +35"), or even."""
    mouse, cats, even = NAMES[version]
    amount = value - 0x80 if value >= 0x80 else 0x7F - value
    leader = side if value >= 0x80 else 1 - side
    return f"{(mouse, cats)[leader]} +{amount}" if amount else even


class Game(ScreenReader):
    """The game running in a fresh C64; type keys, read the screen."""

    def __init__(self, version="ryg3", disk=None, level="L0300"):
        self.m = C64(sid_seed=7, disk_folder=str(disk) if disk else None, cpu_class=FastCPU)
        self.labels = read_map(ASM_DIR / f"{version}.map")
        prog = self.m.load_prg(str(ASM_DIR / f"{version}.prg"))
        self.m.start(prog.start)
        assert self.m.run(max_cycles=BUDGET) is StopReason.IDLE
        if level:
            self.keys(level)

    def keys(self, text, budget=BUDGET):
        self.m.type(text)
        reason = self.m.run(max_cycles=budget)
        assert reason in (StopReason.IDLE, StopReason.BASIC), (reason, self.m.error)
        return reason

    def moves(self):
        """The move list column, as [(number, 'E1-D2')]."""
        out = []
        for line in self.lines()[2:2 + LIST_ROWS]:
            parts = line[28:].split()
            if len(parts) == 2:
                out.append((int(parts[0]), parts[1]))
        return out

    def square_code(self, name):
        """Screen code in the middle of a square's three cells."""
        sq = parse_square(name)
        row = 2 + 7 - sq // 8
        col = 2 + 3 * (sq % 8) + 1
        return self.m.screen_codes()[row][col] & 0x7F


@pytest.fixture
def game():
    return Game()


def test_board_has_labels_pieces_and_the_key_list(game):
    lines = game.lines()
    assert "RATON Y GATOS" in lines[0]
    assert [line[0] for line in lines[2:10]] == list("87654321")
    assert lines[10].split() == list("ABCDEFGH")
    for sq in ("B8", "D8", "F8", "H8"):
        assert game.square_code(sq) == CAT_GLYPH
    assert game.square_code("E1") == MOUSE_GLYPH
    assert game.square_code("C8") == 0x20
    keys = " ".join(lines[ROW_KEYS:25])
    for word in ("NUEVA", "DEMO", "PISTA", "DESHACE", "REHACE", "REPASO", "NIVEL", "GRABA", "CARGA", "EDITA"):
        assert word in keys


def test_board_is_coloured_green_and_grey_with_reversed_squares(game):
    codes, colours = game.m.screen_codes(), game.m.colour_codes()
    row8 = 2
    assert codes[row8][2] & 0x80 and codes[row8][5] & 0x80          # reverse video blocks
    assert colours[row8][2] & 15 == 15                               # A8 light square: light grey
    assert colours[row8][5] & 15 == 5                                # B8 dark square: green
    assert colours[row8][6] & 15 == 8                                # the cat on B8: orange


def test_destination_only_moves_the_mouse_and_the_cats_answer(game):
    game.keys("D2{return}")
    assert game.square_code("D2") == MOUSE_GLYPH
    moves = game.moves()
    assert moves[0] == (1, "E1-D2") and moves[1][0] == 2
    assert "ORDENADOR: " + moves[1][1] in game.row(ROW_LAST)


def test_full_move_entry_is_accepted(game):
    game.keys("E1F2{return}")
    assert game.moves()[0] == (1, "E1-F2")


def test_illegal_entry_is_refused_saying_why_and_nothing_changes(game):
    before = game.text()
    for keys, why in (("E1E2", "UNA CASILLA EN DIAGONAL"),      # not a diagonal
                      ("E1G3", "UNA CASILLA EN DIAGONAL"),      # too far
                      ("C3", "NINGUNA PIEZA TUYA PUEDE IR AHI"),
                      ("E2", "SOLO SE JUEGA EN LAS CASILLAS OSCURAS"),
                      ("D8", "ESA CASILLA ESTA OCUPADA"),
                      ("B8A7", "ESA PIEZA NO ES TUYA"),         # a cat, the mouse to move
                      ("C3D2", "NO HAY PIEZA EN ESA CASILLA")):
        game.keys(keys + "{return}")
        assert game.row(ROW_MSG).startswith(why), (keys, game.row(ROW_MSG))
        assert game.moves() == [] and game.square_code("E1") == MOUSE_GLYPH
    assert game.text().splitlines()[:ROW_MSG] == before.splitlines()[:ROW_MSG]


def test_a_cat_going_back_is_told_why():
    game = Game(version="ryg3en")
    game.keys("TE1{return}B8D8F8F4{return}M")          # the mouse to move ...
    game.keys("S")                                       # ... by the computer: the player has the cats
    assert "YOU PLAY: CATS" in game.row(ROW_PLAYERS) and len(game.moves()) == 1
    game.keys("F4G5{return}")
    assert game.row(ROW_MSG).startswith("A CAT CANNOT MOVE BACK"), game.row(ROW_MSG)
    game.keys("F4E1{return}")
    assert game.row(ROW_MSG).startswith("ONE SQUARE DIAGONALLY"), game.row(ROW_MSG)
    assert len(game.moves()) == 1


def test_a_key_that_is_no_command_is_refused_with_a_message(game):
    before = game.lines()
    game.keys("Z")
    assert "NI CASILLA (A1-H8) NI TECLA DE ABAJO" in game.row(ROW_MSG)
    after = game.lines()
    assert after[:ROW_MSG] + after[ROW_MSG + 1:] == before[:ROW_MSG] + before[ROW_MSG + 1:]
    game.keys("D2{return}")          # and the game goes on
    assert game.moves()[0] == (1, "E1-D2")


def test_typing_corrections_with_del(game):
    game.keys("E1{del}{del}F2{return}")
    assert game.moves()[0] == (1, "E1-F2")


def test_undo_and_redo_step_over_the_computers_reply(game):
    game.keys("D2{return}")
    game.keys("C3{return}")
    after = game.moves()
    assert len(after) == 4
    game.keys("U")
    assert game.moves() == after[:2] and game.square_code("D2") == MOUSE_GLYPH
    game.keys("U")
    assert game.moves() == [] and game.square_code("E1") == MOUSE_GLYPH
    game.keys("U")
    assert "NO HAY JUGADA" in game.row(ROW_MSG)
    game.keys("R")
    game.keys("R")
    assert game.moves() == after and game.square_code("C3") == MOUSE_GLYPH


def test_switch_sides_makes_the_computer_play_the_mouse(game):
    game.keys("S")
    assert "JUEGAS CON: GATOS" in game.row(ROW_PLAYERS)
    moves = game.moves()
    assert len(moves) == 1 and moves[0][1].startswith("E1-")
    assert THINKING_ROW.match(game.row(ROW_THINK))
    assert VALUE_ROW.match(game.row(ROW_PV).rstrip() + " ")


def test_thinking_row_is_refreshed_while_an_iteration_runs():
    game = Game(level="L0900")        # depth 9, no time limit: iterations of seconds each
    game.m.type("S")                 # the computer thinks for the mouse (no book)
    seen = []                        # (depth, nodes, tenths of a second, best line)
    for _ in range(100):
        reason = game.m.run(max_cycles=PAL_HZ // 2)
        row = THINKING_ROW.match(game.row(ROW_THINK))
        if row:                      # (not a capture of the row half rewritten)
            depth, nodes, seconds, tenths = map(int, row.groups())
            seen.append((depth, nodes, 10 * seconds + tenths, game.row(ROW_PV)))
        if reason is StopReason.IDLE:
            break
    assert reason is StopReason.IDLE and seen[-1][0] == 9
    # The same depth and best line twice, the nodes and seconds counting on: a refresh
    # inside one iteration.
    inside = [(a, b) for a, b in zip(seen, seen[1:])
              if a[0] == b[0] and a[3] == b[3] and b[1] > a[1] and b[2] > a[2]]
    assert len({a[0] for a, b in inside}) >= 2, seen


def test_value_names_the_side_ahead_and_by_how_much():
    from asm.tools import ryg3_model as M
    for version, cats in (("ryg3", "GATOS"), ("ryg3en", "CATS")):
        game = Game(version=version)             # depth 3
        game.keys("P")                           # a hint for the mouse at the start
        want = M.Model(zobrist=[[[game.peek(p, piece * 64 + sq) for sq in range(64)]
                                 for p in ("zob_lo", "zob_hi", "zob_lock")] for piece in range(2)]).think(3)
        row = game.row(ROW_PV)
        assert want.value < 0x80                 # the cats stand better, the mouse to move
        assert row.startswith(ahead(want.value, M.SIDE_MOUSE, version) + ": "), (row, want.value)
        assert row.startswith(cats + " +")
        # the whole row: who is ahead, by how much in decimal, then the line; no hex anywhere
        assert re.fullmatch(cats + r" \+\d+: (?:[A-H][1-8]-[A-H][1-8] )+ *", row), row


def test_the_side_ahead_is_the_same_from_either_sides_view():
    assert [ahead(v, 0) for v in (0x80, 0x7F, 0x81, 0x7E, 0xDF, 0x20)] == [
        "IGUALADOS", "IGUALADOS", "RATON +1", "GATOS +1", "RATON +95", "GATOS +95"]
    assert all(ahead(v, 0) == ahead(0xFF - v, 1) for v in range(256))


def test_book_move_shows_the_books_result_in_words(oracle):
    from asm.tools.oracle import WIN
    game = Game(level=None)                  # the default level: the cats' book answers
    game.keys("F2{return}")
    assert game.row(ROW_THINK).strip() == "DEL LIBRO DE APERTURAS"
    plies = WIN - abs(oracle.score(parse_square("F2"), {57, 59, 61, 63}, False))
    # counted from the board shown: the cats' book move is played, one move less
    assert game.row(ROW_PV).strip() == f"GANAN LOS GATOS EN {plies - 1} JUGADAS"


def test_search_that_sees_the_end_says_who_wins_in_how_many_moves(oracle):
    from asm.tools.oracle import WIN
    cats = ("B2", "D2", "F2", "H2")
    plies = WIN - oracle.score(parse_square("E5"), {parse_square(c) for c in cats}, True)
    for version, words in (("ryg3", f"GANA EL RATON EN {plies} JUGADAS: "),
                           ("ryg3en", f"MOUSE WINS IN {plies} MOVES: ")):
        game = Game(version=version, level="L0900")
        game.keys("TE5{return}" + "".join(cats) + "{return}" + ("R" if version == "ryg3" else "M"))
        game.keys("P")
        assert game.row(ROW_PV).startswith(words), game.row(ROW_PV)


def test_seconds_read_correctly_past_four_minutes(game):
    # The thinking row as the search refreshes it, start_jiffies set back
    # 9999.9 seconds (599,994 jiffies) and 240.0 seconds on the C64's clock.
    for jiffies, shown in ((599_994, "9999.9 SEG"), (14_400, "240.0 SEG"), (6, "0.1 SEG")):
        now = game.m.call(0xFFDE)
        start = ((now[2] << 16 | now[1] << 8 | now[0]) - jiffies) % (1 << 24)
        for i in range(3):
            game.m.poke(game.labels["start_jiffies"] + i, start >> 8 * i & 0xFF)
        game.m.call(game.labels["show_numbers"], a=7)
        assert game.row(ROW_THINK).rstrip().endswith(" " + shown), (jiffies, game.row(ROW_THINK))


def test_a_key_stops_a_hint_at_the_unlimited_level_and_the_seconds_read_past_9999():
    game = Game(level="L0000")                # no depth limit, no time limit
    game.m.type("P")
    assert game.m.run(max_cycles=3 * PAL_HZ) is StopReason.CYCLES      # still thinking
    assert THINKING_ROW.match(game.row(ROW_THINK)) and game.row(ROW_MSG).strip() == ""
    start = game.labels["start_jiffies"]       # the think began 9990 s earlier
    jiffies = sum(game.m.peek(start + i) << 8 * i for i in range(3)) - 9990 * 60
    for i in range(3):
        game.m.poke(start + i, jiffies >> 8 * i & 0xFF)
    assert game.m.run(max_cycles=PAL_HZ) is StopReason.CYCLES
    row = THINKING_ROW.match(game.row(ROW_THINK))
    assert row and 9993 <= int(row.group(3)) <= 9995, game.row(ROW_THINK)
    game.m.press(0x58)                          # X: not a command
    assert game.m.run(max_cycles=BUDGET) is StopReason.IDLE
    assert game.peek("aborted") == 2            # stopped by the key ...
    assert game.row(ROW_MSG).startswith("PISTA: E1-")   # ... with the best move so far
    assert "TECLA" not in game.text() and game.moves() == []      # the key did nothing else


def test_a_key_stops_the_computers_think_at_the_unlimited_level():
    game = Game(level="L0000")
    game.m.type("S")                            # the computer thinks for the mouse
    assert game.m.run(max_cycles=3 * PAL_HZ) is StopReason.CYCLES
    game.m.press(0x44)                          # D: it would start a move if it leaked
    assert game.m.run(max_cycles=BUDGET) is StopReason.IDLE
    assert game.peek("aborted") == 2
    assert [n for n, _ in game.moves()] == [1] and game.moves()[0][1].startswith("E1-")
    assert game.row(ROW_INPUT).rstrip() == "TU JUGADA?" and game.peek("entry_len") == 0


def test_cats_typed_by_the_player_need_both_squares_when_ambiguous(game):
    game.keys("S")                   # the computer moves the mouse; we are the cats
    game.keys("C7{return}")          # B8 and D8 can both go to C7
    assert "AMBIGUA" in game.row(ROW_MSG)
    game.keys("B8C7{return}")
    assert game.moves()[1] == (2, "B8-C7")


def test_hint_shows_a_move_and_plays_nothing(game):
    game.keys("P")
    assert game.row(ROW_MSG).startswith("PISTA: E1-")
    assert game.moves() == []


def test_demo_plays_both_sides_to_the_end_and_hands_over_the_side_to_move(game):
    game.keys("M", budget=2_000_000_000)
    assert "HAN GANADO LOS GATOS" in game.row(ROW_MSG) and "FIN: GANAN LOS GATOS" in game.row(ROW_LAST)
    assert "JUEGAS CON: RATON" in game.row(ROW_PLAYERS)          # the trapped mouse is to move
    played = game.peek("game_len")
    game.keys("U")                                       # back to the player's last turn,
    assert game.peek("game_pos") == played - 2           # and the demo does not replay it
    assert "JUEGAS CON: RATON" in game.row(ROW_PLAYERS) and "TURNO: RATON" in game.row(ROW_TURN)


def test_any_key_stops_the_demo():
    game = Game(level=None)          # default level: the mouse thinks for seconds
    game.m.type("M")
    game.m.run(max_cycles=8_000_000, stop_when_idle=False)
    game.m.press(0x20)               # a key pressed while it thinks
    game.m.run(max_cycles=BUDGET)
    assert "DEMO" not in game.row(ROW_PLAYERS)
    assert game.peek("human_side") in (0, 1)
    assert game.peek("game_len") < 20


def play_perfect_mouse(game, oracle, rng):
    """The player's mouse plays the oracle's best moves (random ties) until
    the game ends; returns the winner as game_result says it (1 mouse, 2 cats)."""
    from asm.tools.oracle import legal_mouse_moves, square_name
    for _ in range(40):
        result = game.m.call(game.labels["game_result"])[0]
        if result:
            return result
        mouse, cats = game.peek("mouse_sq"), frozenset(game.peek("cat_sq", i) for i in range(4))
        assert game.peek("side") == 0 and legal_mouse_moves(mouse, cats)
        to = rng.choice(oracle.best_mouse_moves(mouse, cats))
        game.keys(square_name(mouse) + square_name(to) + "{return}")
    raise AssertionError("the game did not end")


def test_a_perfect_mouse_beats_level_1_and_is_told_so(oracle):
    import random
    rng = random.Random(1)
    for version, words in (("ryg3", "HAS GANADO AL NIVEL 1!!"), ("ryg3en", "YOU HAVE BEATEN LEVEL 1!!")):
        game = Game(version=version, level="L1")
        results = []
        while 1 not in results:
            assert len(results) < 6, results       # level 1 loses most games to a perfect mouse
            results.append(play_perfect_mouse(game, oracle, rng))
            if results[-1] == 2:
                assert words not in game.text()    # no praise for a lost game
                game.keys("N")
        assert words in game.row(ROW_PV)


def test_level_0_sets_depth_and_seconds(game):
    game.keys("L0512")
    assert "NIVEL: PROF 5 12 SEG" in game.row(ROW_LEVEL)
    assert game.peek("max_depth") == 5 and game.peek("time_limit") == 12
    assert game.peek("use_book") == 1 and game.peek("margin") == 0 and game.peek("level") == 0


def test_the_ladder_of_levels_is_the_models():
    from asm.tools.ryg3_model import LEVELS, DEFAULT_LEVEL
    game = Game(level=None)
    assert game.peek("level") == DEFAULT_LEVEL
    assert "NIVEL 8: PROF 8 10 SEG" in game.row(ROW_LEVEL)
    for n, level in LEVELS.items():
        game.keys(f"L{n}")
        assert f"NIVEL {n}: PROF {level.depth} {level.seconds} SEG" in game.row(ROW_LEVEL)
        assert (game.peek("max_depth"), game.peek("time_limit"), game.peek("use_book"),
                game.peek("margin")) == (level.depth, level.seconds, int(level.book), level.margin)
    game.m.type("L")
    game.m.run(max_cycles=BUDGET)
    assert game.row(ROW_MSG).startswith("NIVEL 1-9 (9=MAESTRO, 0=A MEDIDA)?")


def test_replay_shows_the_game_and_comes_back(game):
    game.keys("D2{return}")
    game.keys("C3{return}")
    before = (game.moves(), game.text())
    game.m.type("V")                 # a move a second: let emulated time pass
    game.m.run(max_cycles=30_000_000, stop_when_idle=False)
    assert game.moves() == before[0]
    assert game.square_code("C3") == MOUSE_GLYPH
    assert game.peek("game_pos") == 4


def test_save_and_load_round_trip(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("D2{return}")
    game.keys("C3{return}")
    played = game.moves()
    game.keys("W{return}")
    assert "PARTIDA GRABADA" in game.row(ROW_MSG)
    assert any(p.name.upper().startswith("RYG3PARTIDA") for p in tmp_path.iterdir())
    game.keys("NS")                  # a new game, confirmed
    assert game.moves() == []
    game.keys("OA")
    assert "PARTIDA CARGADA" in game.row(ROW_MSG)
    assert game.moves() == played and game.square_code("C3") == MOUSE_GLYPH


def test_loading_a_bad_file_changes_nothing(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("D2{return}")
    game.keys("W{return}")
    saved = next(tmp_path.iterdir())
    data = bytearray(saved.read_bytes())
    data[2 + 8] = 0x33            # first move: from a square with no piece
    saved.write_bytes(bytes(data))
    game.keys("NS")                  # a new game, confirmed
    game.keys("OA")
    assert "FICHERO NO VALIDO" in game.row(ROW_MSG)
    assert game.moves() == []


def test_edit_sets_a_position_and_who_moves(game):
    game.keys("TD4{return}B6D6F6H6{return}G")
    assert game.square_code("D4") == MOUSE_GLYPH
    assert game.square_code("B6") == CAT_GLYPH
    assert game.square_code("B8") == 0x20
    assert "TURNO: GATOS" in game.row(ROW_TURN) or len(game.moves()) == 1   # the computer (cats) may answer


def test_edit_refuses_a_bad_entry_saying_why_and_asks_again(game):
    game.keys("D2{return}")
    before = game.moves()
    game.keys("TD4{return}D4D6F6H6{return}")      # a cat on the mouse's square
    assert "DOS PIEZAS EN LA MISMA CASILLA" in game.row(ROW_MSG)
    assert game.row(ROW_INPUT).startswith("EDITAR: GATOS EN?")
    game.keys("B6D6F6{return}")                   # three cats
    assert "FALTAN GATOS" in game.row(ROW_MSG)
    game.keys("B6D6F6G6{return}")                 # G6: a light square
    assert "CASILLA CLARA" in game.row(ROW_MSG)
    game.keys("{return}")                         # RETURN alone: cancel
    assert "EDICION CANCELADA" in game.row(ROW_MSG)
    assert game.moves() == before and game.square_code("D2") == MOUSE_GLYPH
    assert game.square_code("D4") == 0x20 and game.square_code("B8") == CAT_GLYPH
    game.keys("TD{return}")
    assert "ESCRIBE LETRA Y NUMERO" in game.row(ROW_MSG)
    game.keys("E4{return}")
    assert "CASILLA CLARA" in game.row(ROW_MSG)
    game.keys("D8{return}")
    assert "FILA 8" in game.row(ROW_MSG)
    assert game.row(ROW_INPUT).startswith("EDITAR: RATON EN?")
    game.keys("{return}")
    assert game.moves() == before


def test_edit_takes_back_its_complaint_once_the_entry_is_good(game):
    # a refusal's message is about the entry it refused: the next step shows the
    # edit's own line again, not a complaint about squares already accepted
    game.keys("TD{return}")
    assert "ESCRIBE LETRA Y NUMERO" in game.row(ROW_MSG)
    game.keys("D4{return}")
    assert game.row(ROW_INPUT).startswith("EDITAR: GATOS EN?")
    assert "EDITAR POSICION" in game.row(ROW_MSG)
    game.keys("B6D6F6{return}")
    assert "FALTAN GATOS" in game.row(ROW_MSG)
    game.keys("B6D6F6H6{return}")
    assert game.row(ROW_INPUT).startswith("EDITAR: MUEVE")
    assert "EDITAR POSICION" in game.row(ROW_MSG)


def test_edit_shows_the_pieces_on_the_board_as_they_are_typed(game):
    game.keys("T")
    assert all(game.square_code(sq) == 0x20 for sq in ("E1", "B8", "D8", "F8", "H8"))
    game.keys("D")
    assert game.square_code("D4") == 0x20
    game.keys("4")
    assert game.square_code("D4") == MOUSE_GLYPH
    game.keys("{del}")
    assert game.square_code("D4") == 0x20
    game.keys("4{return}B6")
    assert game.square_code("D4") == MOUSE_GLYPH and game.square_code("B6") == CAT_GLYPH
    game.keys("D6F")
    assert game.square_code("D6") == CAT_GLYPH and game.square_code("F6") == 0x20
    game.keys("6H6{return}")
    assert [game.square_code(sq) for sq in ("F6", "H6", "B8")] == [CAT_GLYPH, CAT_GLYPH, 0x20]
    assert game.row(ROW_INPUT).startswith("EDITAR: MUEVE")
    game.keys("R")
    assert "TURNO: RATON" in game.row(ROW_TURN) and game.square_code("D4") == MOUSE_GLYPH


def test_edit_refuses_a_side_that_has_already_lost(game):
    game.keys("TA1{return}B2D8F8H8{return}R")      # the mouse on A1 has no move
    assert "ESE LADO YA HA PERDIDO" in game.row(ROW_MSG)
    game.keys("G")                                  # the cats to move: fine
    assert game.peek("game_start") == 0 and game.peek("game_start", 5) == 1


def finished_game(tmp_path=None):
    """The mouse wins: from C7 (cats to move, on rank 3) it steps to rank 8."""
    game = Game(disk=tmp_path)
    game.keys("TC7{return}A3C3E3G3{return}G")       # the computer (cats) moves first
    assert "ORDENADOR: " in game.row(ROW_LAST) and "-" in game.row(ROW_LAST)
    game.keys("B8{return}")
    return game


def test_after_the_mouses_winning_move_the_result_replaces_the_computers_last_move():
    game = finished_game()
    assert game.row(ROW_LAST).startswith("FIN: GANA EL RATON") and "ORDENADOR" not in game.text()
    assert "HA GANADO EL RATON!! ENHORABUENA!!" in game.row(ROW_MSG)          # said once, in full


def test_every_key_gets_an_answer_after_the_game_ends(tmp_path):
    game = finished_game(tmp_path)
    game.keys("W{return}")
    assert "PARTIDA GRABADA" in game.row(ROW_MSG)
    for keys in ("P", "A7{return}", "B7{return}", "M"):    # hint, moves, demo
        game.m.poke(0x0400 + 40 * 20, 0x20)                  # mark the message row
        game.keys(keys)
        assert "PARTIDA TERMINADA" in game.row(ROW_MSG), keys
        assert game.row(ROW_LAST).startswith("FIN: GANA EL RATON")
    game.keys("OA")
    assert "PARTIDA CARGADA" in game.row(ROW_MSG) and game.row(ROW_LAST).startswith("FIN: GANA EL RATON")
    game.keys("Z")
    assert "NI CASILLA (A1-H8) NI TECLA DE ABAJO" in game.row(ROW_MSG)


def test_quit_returns_to_basic(game):
    assert game.keys("Q") is StopReason.BASIC


def test_english_build_differs_only_in_its_texts():
    game = Game(version="ryg3en", level="L0300")
    assert "MOUSE AND CATS" in game.row(0)
    assert "YOU PLAY: MOUSE" in game.row(ROW_PLAYERS)
    game.keys("E1E2{return}")
    assert "ONE SQUARE DIAGONALLY" in game.row(ROW_MSG)
    es = (ASM_DIR / "ryg3.oph").read_text().replace("strings_es", "X").replace("Spanish", "L")
    en = (ASM_DIR / "ryg3en.oph").read_text().replace("strings_en", "X").replace("English", "L")
    assert es.splitlines()[2:] == en.splitlines()[2:]


# -- saved games by name (W asks, O lists the disk and loads the one picked) -----------------

def test_save_asks_for_a_name_and_load_lists_the_games_to_pick_from(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("D2{return}")
    game.keys("W")
    assert "GRABAR: NOMBRE? (RETURN: RYG3PARTIDA)" in game.row(ROW_MSG)
    game.keys("MI*PAR,TI{del}{del}TIDA-2{return}")      # * and , are no name characters
    assert "PARTIDA GRABADA" in game.row(ROW_MSG)
    assert (tmp_path / "mipartida-2.prg").stat().st_size == 2 + 136
    game.keys("C3{return}")
    game.keys("W{return}")                               # RETURN alone: the default name
    assert (tmp_path / "ryg3partida.prg").exists()
    (tmp_path / "notes.seq").write_bytes(b"not a game")  # not a PRG: not listed
    game.keys("NS")                  # a new game, confirmed
    game.keys("O")
    lines = game.lines()
    assert "PARTIDAS EN EL DISCO" in lines[1]
    assert lines[3].split() == ["A", "MIPARTIDA-2", "1", "BLOQUE"]
    assert lines[4].split() == ["B", "RYG3PARTIDA", "1", "BLOQUE"]
    assert lines[5].strip() == "" and "CUAL?" in lines[ROW_MSG]
    game.keys("A")
    assert "PARTIDA CARGADA" in game.row(ROW_MSG)
    assert [m for _, m in game.moves()][:1] == ["E1-D2"] and len(game.moves()) == 2
    game.keys("OB")
    moves = [m for _, m in game.moves()]
    assert len(moves) == 4 and moves[0] == "E1-D2" and moves[2] == "D2-C3"


def test_load_picks_nothing_on_return_and_the_game_stays(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("D2{return}")
    game.keys("W{return}")
    before = game.moves()
    game.keys("O{return}")
    assert "NO SE HA CARGADO NADA" in game.row(ROW_MSG)
    assert game.moves() == before and game.square_code("D2") == MOUSE_GLYPH


def test_a_name_is_at_most_sixteen_characters(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("WABCDEFGHIJKLMNOPQRS{return}")
    assert (tmp_path / "abcdefghijklmnop.prg").exists()


def test_a_save_the_drive_refuses_shows_what_the_drive_said(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    disk = tmp_path / "disk"
    disk.mkdir()
    (disk / "ryg3partida.prg").symlink_to(outside / "victim.prg")
    game = Game(disk=disk)
    game.keys("W{return}")
    assert "PARTIDA GRABADA" not in game.row(ROW_MSG)
    assert game.row(ROW_MSG).startswith("DISCO: 33,SYNTAX ERROR")
    assert not (outside / "victim.prg").exists()


def test_a_full_disk_is_reported_instead_of_game_saved(tmp_path):
    (tmp_path / "big.prg").write_bytes(bytes(664 * 254))           # all of a 1541's 664 blocks
    game = Game(disk=tmp_path)
    game.keys("W{return}")
    assert game.row(ROW_MSG).startswith("DISCO: 72,DISK FULL,00,00")


def test_english_build_saves_and_lists_by_name(tmp_path):
    game = Game(version="ryg3en", disk=tmp_path)
    game.keys("W")
    assert "SAVE AS? (RETURN: RYG3GAME)" in game.row(ROW_MSG)
    game.keys("MINE{return}")
    assert "GAME SAVED" in game.row(ROW_MSG)
    (tmp_path / "zprogram.prg").write_bytes(bytes(2 + 254 * 3))          # 4 blocks
    game.keys("O")
    assert "GAMES ON THE DISK" in game.row(1) and game.row(3).split() == ["A", "MINE", "1", "BLOCK"]
    assert game.row(4).split() == ["B", "ZPROGRAM", "4", "BLOCKS"]
    game.keys("A")
    assert "GAME LOADED" in game.row(ROW_MSG)


def test_a_game_saves_to_and_loads_from_a_disk_image(tmp_path):
    from kernal.disk_formats import read_image
    from tests.tools.image_writer import ImageWriter
    image = tmp_path / "games.d64"
    disk = ImageWriter(b"MY GAMES", b"MG")
    disk.add(b"ZPROGRAM", "prg", bytes(2 + 254 * 3))
    image.write_bytes(disk.bytes())
    game = Game(version="ryg3en", disk=image)
    game.keys("E1F2{return}")
    game.keys("WMINE{return}")
    assert "GAME SAVED" in game.row(ROW_MSG)
    assert [e.name for e in read_image(str(image)).entries] == [b"ZPROGRAM", b"MINE"]
    again = Game(version="ryg3en", disk=image)                 # another session, the same image
    again.keys("O")
    assert again.row(3).split() == ["A", "ZPROGRAM", "4", "BLOCKS"]     # (the directory's order)
    assert again.row(4).split() == ["B", "MINE", "1", "BLOCK"]
    again.keys("B")
    assert "GAME LOADED" in again.row(ROW_MSG)
    assert again.lines()[:10] == game.lines()[:10]                      # the board as saved


def test_run_stop_gives_up_saving_and_loading(tmp_path):
    game = Game(disk=tmp_path)
    game.keys("W{stop}")
    assert "NO SE HA GRABADO NADA" in game.row(ROW_MSG) and list(tmp_path.iterdir()) == []
    game.keys("WMINE{stop}")
    assert "NO SE HA GRABADO NADA" in game.row(ROW_MSG) and list(tmp_path.iterdir()) == []
    game.keys("W{return}")
    game.keys("O{stop}")
    assert "NO SE HA CARGADO NADA" in game.row(ROW_MSG)


def test_a_hint_at_a_low_level_is_the_best_move_found_not_a_random_one():
    # level 1 plays a random move among those within 64 of the best; its hint does not
    game = Game(level="L1")
    assert game.peek("margin") == 64
    game.keys("E1F2{return}")                             # a position with a real choice
    hints = set()
    for _ in range(12):
        game.keys("P")
        hints.add(game.row(ROW_MSG).strip())
    assert len(hints) == 1 and next(iter(hints)).startswith("PISTA: ")
    assert game.peek("margin") == 64                      # the level's margin is back


def test_new_and_quit_ask_first_while_a_game_is_in_progress():
    for version, yes in (("ryg3", "S"), ("ryg3en", "Y")):
        game = Game(version=version)
        game.keys("N")                                   # nothing played: no question
        assert game.moves() == [] and game.row(ROW_MSG).strip() == ""
        game.keys("D2{return}")
        played = game.moves()
        game.keys("N")
        assert game.row(ROW_MSG).startswith(("DEJAR ESTA PARTIDA", "ABANDON THIS GAME"))
        game.keys("X")                                   # anything but yes: the game stays
        assert game.moves() == played and game.row(ROW_MSG).strip() == ""
        game.keys("Q")
        assert game.row(ROW_MSG).startswith(("SALIR A BASIC?", "QUIT TO BASIC?"))
        game.keys("N")
        assert game.moves() == played
        game.keys("N" + yes)
        assert game.moves() == []
        game.keys("D2{return}")
        game.m.type("Q" + yes)
        assert game.m.run(max_cycles=BUDGET) is StopReason.BASIC


KEY_COLUMNS = (0, 10, 20, 30)       # a key letter starts each entry of the key rows (the last: Q alone)


def is_key_cell(r, c):
    return c in KEY_COLUMNS and (r < 24 or c == 0)


def key_letters(game):
    return "".join(game.row(r)[c] for r in range(ROW_KEYS, 25) for c in KEY_COLUMNS
                   if is_key_cell(r, c) and game.row(r)[c] != " ")


def test_the_key_rows_name_every_command_and_where_q_goes():
    for version, words in (("ryg3", ("H AYUDA", "Q SALIR A BASIC")), ("ryg3en", ("H HELP", "Q QUIT TO BASIC"))):
        game = Game(version=version)
        keys = game.lines()[ROW_KEYS:25]
        for word in words:
            assert any(word in row for row in keys), keys
        assert sorted(key_letters(game)) == sorted("NSMPURVLWOTHQ")


def test_the_key_rows_are_yellow_keys_and_white_words_not_light_blue():
    for version in ("ryg3", "ryg3en"):
        game = Game(version=version)
        for r in range(ROW_KEYS, 25):
            row = game.row(r)
            for c, ch in enumerate(row):
                if ch != " ":
                    colour = game.m.peek(0xD800 + 40 * r + c) & 15
                    assert colour == (7 if is_key_cell(r, c) else 1), (version, r, c, ch, colour)   # yellow, white
        codes = game.m.screen_codes()
        assert not [(r, c) for r in range(25) for c in range(40)
                    if codes[r][c] != 0x20 and game.m.peek(0xD800 + 40 * r + c) & 15 == 14]    # no light blue


def test_h_and_return_or_a_question_mark_show_the_rules_in_the_games_language():
    for version, words in (("ryg3", ("REGLAS DE RYG3", "UNA CASILLA EN DIAGONAL", "FILA 8", "(E1D2)", "1 (PRINCIPIANTE")),
                           ("ryg3en", ("RULES OF RYG3", "ONE SQUARE DIAGONALLY", "ROW 8", "(E1D2)", "1 (BEGINNER"))):
        for keys in ("H{return}", "?"):
            game = Game(version=version)
            before = game.text()
            game.keys(keys)
            text = game.text()
            for word in words:
                assert word in text, (word, text)
            game.keys(" ")                               # any key: back to the game as it was
            assert game.text() == before
    game = Game(version="ryg3en")
    game.keys("H")
    assert game.row(ROW_MSG).startswith("H AND RETURN: THE RULES")
    game.keys("4")                                       # H4: a square after all
    assert game.row(ROW_MSG).strip() == "" and game.row(ROW_INPUT).startswith("YOUR MOVE? H4")


def test_the_rows_of_a_finished_game_say_no_one_is_to_move():
    game = Game(version="ryg3en", level="L9")
    game.keys("TD2{return}A3C3E1E3{return}C")            # the cats trap the mouse in 3
    game.keys("D2C1{return}")
    assert "THE CATS WON" in game.row(ROW_LAST)
    assert "TO MOVE" not in game.text() and "YOUR MOVE" not in game.text()
    assert game.row(ROW_THINK).strip() == game.row(ROW_PV).strip() == ""
