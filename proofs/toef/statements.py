"""The numbered statements of paper ``toef``, lines of ``shared/seeds/004_fbdbd10b1d5d880c.txt``.

The paper's index for the report's coverage page (:mod:`verify.coverage`). Data, not
sentences: each row is ``(kind, number, first line, last line[, first, last of a
restatement])``, 1-based lines of the seed text; an unnumbered statement has number ``""``.
Found by :func:`verify.coverage.find_statements_text`, spans checked by hand against the
claims' own line ranges; tests/engine/test_coverage.py checks each row against the seed.
"""

SEED = "004_fbdbd10b1d5d880c.txt"

STATEMENTS = (
    ("Figure", "1", 26, 26),
    ("Definition", "1", 34, 40),
    ("Lemma", "1", 52, 52, 176, 176),
    ("Lemma", "2", 54, 58, 180, 182),
    ("Definition", "2", 64, 68),
    ("Definition", "3", 70, 70),
    ("Definition", "4", 80, 84),
    ("Lemma", "3", 86, 90, 194, 196),
    ("Axiom", "1", 96, 96),
    ("Axiom", "2", 98, 98),
    ("Axiom", "3", 100, 100),
    ("Axiom", "4", 102, 104),
    ("Lemma", "4", 106, 106, 212, 212),
    ("Theorem", "5", 110, 112, 244, 244),
    ("Lemma", "6", 114, 114, 258, 258),
    ("Lemma", "7", 128, 132, 262, 262),
    ("Lemma", "8", 134, 138, 266, 270),
)
