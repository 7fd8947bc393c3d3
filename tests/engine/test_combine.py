"""The verdict-combination rule of verify/combine.py, case by case."""

from __future__ import annotations

import pytest

from verify import Evidence, Verdict
from verify.combine import audit, combine

P, C, S, R = Verdict.PROVED, Verdict.CERTIFIED, Verdict.SUPPORTED, Verdict.REFUTED
U, RP, NR = Verdict.UNDECIDED, Verdict.REPRODUCED, Verdict.NOT_REPRODUCED


def ev(verdict, method=None, part="main", reading="A", **kw):
    by_verdict = {P: "symbolic", C: "certificate", RP: "experiment", NR: "experiment"}
    method = method or by_verdict.get(verdict, "numeric")
    if verdict is R:
        kw.setdefault("counterexample", {"x": 1})
    if verdict in (RP, NR):
        kw.setdefault("numbers", {"paper_value": 1.0, "measured": 1.0, "scale": "paper"})
    return Evidence(verdict, f"{verdict.value} piece", method=method, part=part, reading=reading,
                    **kw)


def test_a_part_that_names_itself_is_not_named_twice():
    """The conjunction labels the deciding part's summary with the part's name, once: a summary
    that already leads with it (``"Radial: ..."``, ``"(b) ..."``) keeps its own lead."""
    def named(part, text):
        return Evidence(R, text, method="numeric", part=part, counterexample={"x": 1})

    assert combine([named("Radial", "Radial: lower"), ev(S, part="o")]).summary == "Radial: lower"
    assert combine([named("(b)", "(b) a fixed point"), ev(S, part="o")]).summary == \
        "(b) a fixed point"
    assert combine([named("a", "a row-0 key"), ev(S, part="o")]).summary == "a: a row-0 key"


@pytest.mark.parametrize(
    "pieces, expected",
    [
        ([ev(P), ev(S)], P),  # a proof plus its numeric cross-check is a proof
        ([ev(S), ev(R)], R),  # a confirmed counterexample beats passing inputs
        ([ev(U), ev(S)], S),  # a failed attempt is superseded by positive evidence
        ([ev(RP), ev(NR)], NR),  # every number must reproduce
        ([ev(C), ev(S)], C),
        ([ev(U)], U),
    ],
)
def test_within_a_part_the_strongest_wins(pieces, expected):
    assert combine(pieces).verdict is expected


def test_proof_against_refutation_is_a_conflict():
    c = combine([ev(P), ev(R)])
    assert c.verdict is U and "conflicting evidence" in c.summary


def test_parts_conjoin_weakest_wins():
    c = combine([ev(P, part="law"), ev(S, part="field")])
    assert c.verdict is S and c.summary.startswith("field:")
    assert combine([ev(P, part="a"), ev(U, part="b")]).verdict is U
    assert combine([ev(P, part="a"), ev(R, part="b")]).verdict is R
    assert combine([ev(RP, part="row1"), ev(NR, part="row2")]).verdict is NR


def test_numeric_evidence_cannot_prove():
    piece = audit(Evidence(P, "agrees on 10^6 inputs", method="numeric"))
    assert piece.verdict is U and "PROVED needs symbolic evidence" in piece.audit
    assert combine([Evidence(P, "agrees", method="numeric")]).verdict is U


@pytest.mark.parametrize(
    "piece, problem",
    [
        (Evidence(R, "false", method="numeric"), "needs a counterexample"),
        (Evidence(C, "solver says so", method="numeric"), "re-checked certificate"),
        (Evidence(RP, "matches", method="experiment"), "needs numbers paper_value, measured"),
        (Evidence(RP, "matches", method="numeric", numbers={"paper_value": 1, "measured": 1}),
         "experiment evidence"),
        (Evidence(S, "worst NaN", numbers={"worst": float("nan")}), "NaN"),
    ],
)
def test_audit_demotes_unsupported_verdicts(piece, problem):
    assert problem in audit(piece).audit
    assert combine([piece]).verdict is U


def test_only_the_printed_reading_decides():
    pieces = [ev(P), ev(R, reading="B")]
    assert combine(pieces).verdict is P
    assert combine(pieces, reading="B").verdict is R
    assert combine([ev(R, reading="B")]).verdict is U


XN = {"paper_value": 0.9, "measured": 0.5}


@pytest.mark.parametrize("verdict", [RP, NR])
@pytest.mark.parametrize(
    "numbers, kept, problem",
    [
        ({**XN, "scale": "paper"}, True, None),
        ({**XN, "scale": "stated", "setting": "T=500: the curve is flat past T=300 (Fig. 2)"},
         True, None),
        ({**XN, "scale": "smoke", "setting": "T=100 vs the paper's 2000"}, False,
         "smoke scale (T=100 vs the paper's 2000): the deep profile judges it"),
        ({**XN, "scale": "stated"}, False, "justification in numbers['setting']"),
        ({**XN, "scale": "stated", "setting": "  "}, False, "justification in numbers['setting']"),
        (dict(XN), False, "must state its scale"),
        ({**XN, "scale": "tiny"}, False, "must state its scale"),
    ],
)
def test_experiment_verdicts_need_the_scale_they_ran_at(verdict, numbers, kept, problem):
    piece = Evidence(verdict, "measured", method="experiment", numbers=numbers)
    audited = audit(piece)
    if kept:
        assert audited is piece and combine([piece]).verdict is verdict
    else:
        assert audited.verdict is U and problem in audited.audit
        assert combine([piece]).verdict is U


def test_a_smoke_run_does_not_outvote_nothing():
    """A smoke-scale NOT_REPRODUCED beside a paper-scale REPRODUCED leaves the paper-scale one."""
    smoke = Evidence(NR, "small", method="experiment", part="t",
                     numbers={**XN, "scale": "smoke", "setting": "n=10 vs 1000"})
    assert combine([smoke, ev(RP, part="t")]).verdict is RP


@pytest.mark.parametrize("verdict", [Verdict.REFUTED, Verdict.SUPPORTED])
def test_a_smoke_scale_piece_decides_nothing(verdict):
    ev = Evidence(verdict, "speed-up 1.1x vs the paper's 3x", method="numeric",
                  counterexample={"T": 100}, numbers={"scale": "smoke", "setting": "T=100 vs 2000"})
    out = audit(ev)
    assert out.verdict is Verdict.UNDECIDED and "smoke scale (T=100 vs 2000)" in out.audit
    paper = audit(Evidence(verdict, "x", method="numeric", counterexample={"T": 2000},
                           numbers={"scale": "paper"}))
    assert paper.verdict is verdict


def test_a_general_proof_speaks_for_its_part():
    bounded = Evidence(P, "exact zero at N in {2, 3}", method="symbolic", scope="bounded")
    general = Evidence(P, "exact zero for symbolic N", method="symbolic", scope="general")
    assert combine([bounded, general]).summary == "exact zero for symbolic N"
    assert combine([bounded]).summary == "exact zero at N in {2, 3}"


# -- rule 7: existential readings --------------------------------------------------------------
WITNESS = {"W_B": "O V^*", "n": 2}


def exists(pieces):
    return combine(pieces, quantifier="exists")


@pytest.mark.parametrize(
    "pieces, expected",
    [
        ([ev(P, witness=WITNESS)], P),  # an exact witness proves the existential
        ([ev(C, witness=WITNESS)], C),
        ([ev(S, witness=WITNESS)], S),  # a witness met numerically: SUPPORTED, never PROVED
        ([ev(P, witness=WITNESS), ev(P, part="lemma")], P),  # the proof's lemma conjoins
        ([ev(P, witness=WITNESS), ev(S, part="lemma")], S),
        ([ev(P, witness=WITNESS), ev(U, part="lemma")], U),
    ],
)
def test_an_existential_holds_by_a_witness(pieces, expected):
    assert exists(pieces).verdict is expected


def test_a_witness_met_numerically_never_proves():
    piece = Evidence(P, "agrees at the witness", method="numeric", witness=WITNESS)
    assert exists([piece]).verdict is U


def test_without_a_witness_an_existential_is_undecided():
    c = exists([ev(P), ev(S, part="lemma")])
    assert c.verdict is U and c.summary.startswith("no witness exhibited")
    assert combine([ev(P), ev(S, part="lemma")]).verdict is S  # universal: no witness needed


def test_one_failing_instance_refutes_no_existential():
    failing = ev(R, counterexample={"W_B": "V O^*", "x": 1})
    c = exists([failing])
    assert c.verdict is U
    piece = audit(failing, "exists")
    assert piece.verdict is U and "refutes nothing in an existential" in piece.audit
    assert piece.counterexample == {"W_B": "V O^*", "x": 1}  # kept for the reader
    assert combine([failing]).verdict is R  # the same piece refutes a universal statement
    # beside a witness, the failing instance does not spoil it
    assert exists([failing, ev(P, witness=WITNESS)]).verdict is P


def test_a_proof_that_no_witness_exists_refutes():
    none = ev(R, "certificate", counterexample={"Farkas certificate": [1, 2]}, nonexistence=True)
    assert exists([none]).verdict is R
    assert exists([none, ev(S, witness=WITNESS)]).verdict is R  # a proof beats a search
    c = exists([none, ev(P, witness=WITNESS, part="other")])
    assert c.verdict is U and "conflicting evidence" in c.summary


def test_a_search_that_found_no_witness_proves_no_nonexistence():
    none = Evidence(R, "no witness among 10^4 draws", method="numeric", nonexistence=True,
                    counterexample={"draws": 10_000})
    piece = audit(none, "exists")
    assert piece.verdict is U and "must be symbolic or a certificate" in piece.audit
    assert exists([none]).verdict is U


@pytest.mark.parametrize("witness", [{}, {1: "x"}, ["x"]])
def test_a_witness_must_be_a_keyed_dict(witness):
    piece = audit(ev(P, witness=witness), "exists")
    assert piece.verdict is U and "witness must be a non-empty dict" in piece.audit


def test_an_unknown_quantifier_is_an_error():
    with pytest.raises(ValueError, match="quantifier must be one of"):
        combine([ev(P)], quantifier="some")


def test_an_existential_that_holds_leads_with_its_witness():
    witness = Evidence(P, "holds at W = O V^*", method="symbolic", witness=WITNESS)
    c = exists([ev(P, part="lemma"), witness])
    assert c.verdict is P and c.summary == "witness: holds at W = O V^*"
    weaker = exists([ev(S, part="lemma"), witness])  # the weaker part explains the verdict
    assert weaker.verdict is S and weaker.summary == "lemma: SUPPORTED piece"
