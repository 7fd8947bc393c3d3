"""The numbered statements of paper ``pegr``, lines of ``shared/seeds/001_af70b3406447a469.txt``.

The paper's index for the report's coverage page (:mod:`verify.coverage`). Data, not
sentences: each row is ``(kind, number, first line, last line[, first, last of a
restatement])``, 1-based lines of the seed text; an unnumbered statement has number ``""``.
Found by :func:`verify.coverage.find_statements_text`, spans checked by hand against the
claims' own line ranges; tests/engine/test_coverage.py checks each row against the seed.
"""

SEED = "001_af70b3406447a469.txt"

STATEMENTS = (
    ("Table", "1", 39, 39),
    ("Figure", "1", 87, 87),
    ("Table", "2", 108, 108),
    ("Figure", "2", 112, 112),
    ("Lemma", "A.1", 146, 146),
    ("Figure", "3", 297, 297),
    ("Figure", "4", 305, 305),
)
