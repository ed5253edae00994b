"""The last move a classic RYG version's boards show, for the status line.

ryg15 to ryg23 print the board after each move -- a line " 01234567", then rows
0-7, `M` the mouse and `C` a cat (`R` and `G` in Spanish), `.` an empty square --
but never the cats' move itself: the player compares two boards, and the earlier
one has scrolled away.  The program stays as it was; LastMove reads the newest
whole board on the screen and, when it differs from the one seen before by one
piece's move (a cat's, the mouse's along with it or not: the board printed after
both), tells that move in the program's own (row,column) notation:
"CATS (00,03)-(01,04)" ("GATOS ..." for a Spanish board).  A board that differs
in more (a new game) forgets the move.
"""

from charset.glyphs import screen_to_text

HEADER = " 01234567"
PIECES = {"M": ("mouse", "MOUSE"), "C": ("cat", "CATS"), "R": ("mouse", "RATON"), "G": ("cat", "GATOS")}
CLASSIC_VERSIONS = ("ryg23", "ryg23en", "ryg19", "ryg19en", "ryg17", "ryg17en", "ryg15", "ryg15en")


def newest_board(lines):
    """(mouse square, frozenset of cat squares, {kind: word}) of the lowest whole board
    on the screen (squares as (row, column)), or None."""
    for top in range(len(lines) - 9, -1, -1):
        if lines[top].rstrip() != HEADER:
            continue
        rows = [lines[top + 1 + r] for r in range(8)]
        if not all(len(row) >= 9 and row[0] == str(r) and all(c in ".MCRG" for c in row[1:9])
                   for r, row in enumerate(rows)):
            continue
        mouse, cats, words = [], [], {}
        for r, row in enumerate(rows):
            for c, letter in enumerate(row[1:9]):
                if letter != ".":
                    kind, word = PIECES[letter]
                    words[kind] = word
                    (mouse if kind == "mouse" else cats).append((r, c))
        if len(mouse) == 1 and len(cats) == 4:
            return mouse[0], frozenset(cats), words
    return None


def square_text(square):
    return "(%02d,%02d)" % square


class LastMove:
    """Fed the screen's lines after each frame; `text` is the last move seen, or None."""

    def __init__(self):
        self.board = None
        self.text = None
        self.screen = None           # the screen codes last read, to read them as text only when they change

    def seen(self, codes, lower):
        """update() for the screen as its codes (25 rows, `lower`: the lower-case set), once
        per change: the front end asks at every frame, and text costs more than a compare."""
        screen = (tuple(codes), lower)
        if screen != self.screen:
            self.screen = screen
            self.update([screen_to_text(row, lower) for row in codes])
        return self.text

    def update(self, lines):
        board = newest_board(lines)
        if board is None or self.board is None or board[:2] == self.board[:2]:
            if board is not None:
                self.board = board
            return self.text
        (mouse_was, cats_were, _), (mouse, cats, words) = self.board, board
        self.board = board
        gone, come = cats_were - cats, cats - cats_were
        mouse_step = mouse == mouse_was or _diagonal(mouse_was, mouse)
        if len(gone) == 1 and len(come) == 1 and mouse_step and _diagonal(*gone, *come, down=True):
            self.text = "%s %s-%s" % (words["cat"], square_text(*gone), square_text(*come))
        elif not gone and not come and mouse_step:
            self.text = "%s %s-%s" % (words["mouse"], square_text(mouse_was), square_text(mouse))
        else:
            self.text = None            # another game, or boards too far apart to tell
        return self.text


def _diagonal(start, end, down=False):
    """One square diagonally (down only: a cat's move, to the next row)."""
    rows, columns = end[0] - start[0], end[1] - start[1]
    return abs(columns) == 1 and (rows == 1 if down else abs(rows) == 1)
