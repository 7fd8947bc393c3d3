"""The numbered statements of paper ``nfa``, lines of ``shared/seeds/000_bcf6acf203c661f2.txt``.

The paper's index for the report's coverage page (:mod:`verify.coverage`). Data, not
sentences: each row is ``(kind, number, first line, last line[, first, last of a
restatement])``, 1-based lines of the seed text; an unnumbered statement has number ``""``.
Found by :func:`verify.coverage.find_statements_text`, spans checked by hand against the
claims' own line ranges; tests/engine/test_coverage.py checks each row against the seed.
"""

SEED = "000_bcf6acf203c661f2.txt"

STATEMENTS = (
    ("Theorem", "1", 128, 138),
    ("Lemma", "2", 146, 146),
    ("Theorem", "3", 156, 174),
    ("Figure", "1", 193, 193),
    ("Figure", "2", 196, 196),
    ("Table", "1", 205, 205),
    ("Figure", "3", 216, 216),
    ("Table", "2", 224, 224),
    ("Definition", "", 297, 307),
    ("Theorem", "4", 309, 315),
    ("Figure", "4", 347, 347),
    ("Figure", "5", 350, 350),
    ("Lemma", "5", 354, 366),
    ("Theorem", "6", 376, 400),
    ("Theorem", "7", 496, 508),
    ("Remark", "8", 524, 524),
    ("Theorem", "9", 526, 530),
    ("Corollary", "10", 544, 544),
    ("Theorem", "11", 546, 550),
    ("Theorem", "12", 618, 630),
    ("Theorem", "13", 646, 662),
    ("Theorem", "14", 724, 732),
    ("Remark", "15", 744, 748),
    ("Theorem", "16", 750, 766),
    ("Figure", "6", 811, 811),
    ("Figure", "7", 824, 824),
    ("Figure", "8", 831, 831),
    ("Table", "3", 835, 835),
    ("Table", "4", 841, 841),
    ("Table", "5", 851, 851),
    ("Table", "6", 863, 863),
)
