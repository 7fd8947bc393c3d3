"""The numbered statements of paper ``sih``, lines of ``shared/seeds/003_753a5c9ab2003ce4.txt``.

The paper's index for the report's coverage page (:mod:`verify.coverage`). Data, not
sentences: each row is ``(kind, number, first line, last line[, first, last of a
restatement])``, 1-based lines of the seed text; an unnumbered statement has number ``""``.
Found by :func:`verify.coverage.find_statements_text`, spans checked by hand against the
claims' own line ranges; tests/engine/test_coverage.py checks each row against the seed.
"""

SEED = "003_753a5c9ab2003ce4.txt"

STATEMENTS = (
    ("Definition", "3.1", 138, 152),
    ("Definition", "4.1", 235, 243),
    ("Theorem", "4.2", 265, 275),
    ("Figure", "1", 340, 340),
    ("Theorem", "4.3", 343, 353),
    ("Table", "1", 420, 420),
    ("Figure", "2", 460, 460),
    ("Table", "2", 484, 484),
    ("Figure", "3", 512, 512),
    ("Table", "3", 634, 634),
    ("Table", "4", 643, 643),
    ("Table", "5", 652, 652),
    ("Algorithm", "1", 674, 690),
    ("Theorem", "B.1", 692, 698),
    ("Proposition", "B.2", 728, 732),
    ("Definition", "D.1", 845, 860),
    ("Lemma", "D.2", 862, 879),
    ("Claim", "D.3", 934, 934),
    ("Lemma", "D.4", 986, 995),
    ("Theorem", "D.5", 1088, 1099),
    ("Example", "D.6", 1306, 1310),
    ("Remark", "D.7", 1343, 1349),
    ("Lemma", "E.1", 1372, 1378),
    ("Lemma", "E.2", 1395, 1398),
    ("Definition", "E.3", 1415, 1432),
    ("Lemma", "E.4", 1434, 1436),
    ("Remark", "E.5", 1462, 1467),
    ("Lemma", "E.6", 1493, 1500),
    ("Remark", "E.7", 1515, 1520),
    ("Definition", "E.8", 1522, 1555),
    ("Lemma", "E.9", 1557, 1560),
    ("Corollary", "E.10", 1576, 1577),
    ("Theorem", "F.1", 1595, 1614),
    ("Remark", "F.2", 1648, 1655),
    ("Table", "6", 1865, 1865),
)
