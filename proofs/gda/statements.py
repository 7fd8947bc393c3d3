"""The numbered statements of paper ``gda``, lines of ``shared/seeds/002_4a3a265d0e488a5f.txt``.

The paper's index for the report's coverage page (:mod:`verify.coverage`). Data, not
sentences: each row is ``(kind, number, first line, last line[, first, last of a
restatement])``, 1-based lines of the seed text; an unnumbered statement has number ``""``.
Found by :func:`verify.coverage.find_statements_text`, spans checked by hand against the
claims' own line ranges; tests/engine/test_coverage.py checks each row against the seed.
"""

SEED = "002_4a3a265d0e488a5f.txt"

STATEMENTS = (
    ("Figure", "1", 274, 274),
    ("Figure", "2", 398, 398),
    ("Figure", "3", 401, 401),
    ("Figure", "4", 404, 404),
    ("Figure", "5", 406, 406),
    ("Table", "1", 421, 421),
    ("Figure", "6", 437, 437),
    ("Figure", "7", 440, 440),
    ("Figure", "8", 445, 445),
    ("Figure", "9", 448, 448),
    ("Definition", "9.1", 483, 493),
    ("Conjecture", "9.2", 533, 537),
    ("Conjecture", "9.3", 539, 545),
)
