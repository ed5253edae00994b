"""What the build needs besides the sources: the generators of asm/ryg3/book.oph and
tables.oph (ryg3_model, the Python model of ryg3's engine), the game's oracle (a solver of
the whole game) and the book's list of positions where the search chooses worse than the
oracle (ryg3_misses).  The tests import them from here."""
