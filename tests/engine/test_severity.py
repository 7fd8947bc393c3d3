"""What heads a claim and how severe a refutation is follow from the readings' own verdicts
(combine rules 6 and 8)."""

from __future__ import annotations

import pytest

import verify
from verify import Evidence, Verdict
from verify.context import Context
from verify.errors import ClaimDefinitionError
from verify.execute import execute
from verify.registry import Registry


def _refuted(reading: str = "A") -> Evidence:
    return Evidence(Verdict.REFUTED, "fails at x=1", method="symbolic", reading=reading,
                    counterexample={"x": 1})


def _holds(reading: str) -> Evidence:
    return Evidence(Verdict.PROVED, "exact zero", method="symbolic", reading=reading,
                    scope="general")


def _claim(evidence: list[Evidence], repairs: dict | None = None, **kw):
    reg = Registry()
    readings = {label: f"reading {label}" for label in [*(repairs or {}), *"BCD"]}
    verify.claim("pp.c", paper="pp", where="l. 1", statement="x", kind=kw.pop("kind", "identity"),
                 readings=readings, repairs=repairs, registry=reg, **kw)(lambda ctx: evidence)
    return reg["pp.c"]


def _judged(evidence: list[Evidence], repairs: dict | None = None, **kw):
    return execute(_claim(evidence, repairs, **kw), Context("pp.c"))


@pytest.mark.parametrize(
    ("evidence", "repairs", "severity", "by", "clause"),
    [
        ([_refuted(), _holds("C")], {"C": "overstated"}, "overstated", "C", "material hypothesis"),
        ([_refuted(), _refuted("B")], {"B": "erratum"}, "false", None, "no reasonable reading"),
        ([_refuted()], {}, "false", None, "no repair declared"),
        ([_refuted(), _holds("D")], {"D": "other_object"}, "false", "D",
         "changes the mathematical object"),
        ([_refuted(), _refuted("B"), _holds("C")], {"B": "erratum", "C": "overstated"},
         "overstated", "C", "reading C: PROVED"),
    ],
)
def test_a_refuted_headline_names_its_severity_clause(evidence, repairs, severity, by,
                                                      clause) -> None:
    r = _judged(evidence, repairs)
    assert r.verdict is Verdict.REFUTED and r.headline_reading == "A" and not r.errata
    assert (r.severity, r.repaired_by) == (severity, by)
    assert clause in r.severity_clause and r.severity_clause.startswith(severity)
    assert r.to_dict()["severity"] == severity


def test_an_erratum_repair_that_holds_heads_with_erratum() -> None:
    r = _judged([_refuted(), _holds("B")], {"B": ("erratum", "sign of beta^4")})
    assert (r.verdict, r.scope, r.severity) == (Verdict.PROVED, "general", None)
    assert r.headline_reading == "B" and r.repaired_by == "B"
    assert r.errata == [{"reading": "A", "what": "sign of beta^4"}]
    assert r.readings["A"]["verdict"] == "REFUTED"  # the literal reading stays beside it
    assert any(e.reading == "A" and e.counterexample == {"x": 1} for e in r.evidence)
    d = r.to_dict()
    assert d["errata"] == [{"reading": "A", "what": "sign of beta^4"}]
    assert d["headline_reading"] == "B" and "erratum" in d["headline_reason"]


def test_an_erratum_repair_of_an_experiment_that_fails_to_reproduce() -> None:
    nr = Evidence(Verdict.NOT_REPRODUCED, "in bits: 2.6 vs 1.8", method="experiment",
                  numbers={"paper_value": 1.8, "measured": 2.6, "scale": "paper"})
    rp = Evidence(Verdict.REPRODUCED, "in nats: 1.80 vs 1.8", method="experiment", reading="B",
                  numbers={"paper_value": 1.8, "measured": 1.80, "scale": "paper"})
    r = _judged([nr, rp], {"B": ("erratum", "the unit is nats, not bits")})
    assert r.verdict is Verdict.REPRODUCED and r.errata[0]["what"].startswith("the unit")
    plain = _judged([nr, rp.relabel(reading="C")], {"C": "overstated"})
    assert plain.verdict is Verdict.NOT_REPRODUCED and plain.severity is None


def test_a_literal_reading_that_holds_heads_plainly() -> None:
    r = _judged([_holds("A"), _holds("B")], {"B": "erratum"})
    assert r.verdict is Verdict.PROVED and r.severity is None and r.scope == "general"
    assert r.headline_reading == "A" and r.errata == [] and "A" not in r.readings


def test_the_declared_intended_reading_heads_with_its_reason() -> None:
    why = "centring is the standing condition of Sec. 3, L448"
    r = _judged([_refuted(), _holds("B")], headline=("B", why))
    assert r.verdict is Verdict.PROVED and r.headline_reading == "B"
    assert r.headline_reason == why and r.errata == [] and r.severity is None
    assert r.readings["A"]["verdict"] == "REFUTED"
    failing = _judged([_holds("A"), _refuted("B"), _holds("C")], {"C": "overstated"},
                      headline=("B", why))
    assert (failing.verdict, failing.severity, failing.headline_reading) == (
        Verdict.REFUTED, "overstated", "B")
    assert failing.readings["A"]["verdict"] == "PROVED"


def test_a_reading_vacuous_as_printed_never_heads() -> None:
    why = "the display reduces to err >= 0 (typo at L120)"
    r = _judged([_holds("A"), _refuted("B")], headline=("B", "Algorithm 1 is minimax, L118"),
                vacuous=why)
    assert (r.verdict, r.severity, r.headline_reading) == (Verdict.REFUTED, "false", "B")
    assert r.errata == [{"reading": "A", "what": f"vacuous as printed: {why}"}]
    # the erratum is recorded only when the printed reading does hold (vacuously)
    r2 = _judged([_refuted(), _holds("B")], headline=("B", "L118"), vacuous=why)
    assert r2.verdict is Verdict.PROVED and r2.errata == []
    with pytest.raises(ClaimDefinitionError, match="vacuous as printed never heads"):
        _claim([], vacuous=why)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"headline": ("Z", "why")}, "headline names reading 'Z'"),
        ({"headline": ("B", " ")}, "needs the reason"),
        ({"undecided": ("later", "x")}, "undecided must be"),
        ({"repairs": {"B": ("erratum",)}}, "must be a role or"),
    ],
)
def test_headline_declarations_are_checked_at_import(kw, message) -> None:
    with pytest.raises(ClaimDefinitionError, match=message):
        _claim([], **kw)


def test_repairs_must_name_a_declared_reading_and_role() -> None:
    with pytest.raises(ClaimDefinitionError, match=r"repairs names reading 'Z'"):
        verify.claim("pp.d", paper="pp", where="l", statement="x", kind="identity",
                     repairs={"Z": "erratum"}, registry=Registry())(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError, match=r"not one of erratum, overstated"):
        verify.claim("pp.d", paper="pp", where="l", statement="x", kind="identity",
                     readings={"B": "b"}, repairs={"B": "typo"}, registry=Registry())(
            lambda ctx: None)


def test_an_existential_claim_with_only_a_failing_instance_is_not_refuted() -> None:
    reg = Registry()
    verify.claim("pp.x", paper="pp", where="l. 1", statement=r"\exists W: f(W) = 0",
                 kind="existence", quantifier="exists", registry=reg)(
        lambda ctx: [_refuted()])
    r = execute(reg["pp.x"], Context("pp.x"))
    assert r.verdict is Verdict.UNDECIDED and r.severity is None
    assert "refutes nothing in an existential" in (r.evidence[0].audit or "")


def test_an_existential_claim_refuted_by_nonexistence_gets_a_severity() -> None:
    reg = Registry()
    none = Evidence(Verdict.REFUTED, "infeasible: exact Farkas certificate", method="certificate",
                    counterexample={"y": [1, -1]}, nonexistence=True)
    verify.claim("pp.y", paper="pp", where="l. 1", statement=r"\exists W: f(W) = 0",
                 kind="existence", quantifier="exists", readings={"B": "with 6 classes"},
                 repairs={"B": "overstated"}, registry=reg)(
        lambda ctx: [none, Evidence(Verdict.PROVED, "holds at W = 1", method="symbolic",
                                    reading="B", witness={"W": 1})])
    r = execute(reg["pp.y"], Context("pp.y"))
    assert r.verdict is Verdict.REFUTED
    assert (r.severity, r.repaired_by) == ("overstated", "B")
    assert r.readings["B"]["quantifier"] == "exists"


def test_a_refuted_step_of_the_proof_is_an_erratum_beside_the_headline() -> None:
    what = "membership iff a w_k in span{w_l} (L148)"
    r = _judged([_holds("A"), _refuted("C")], proof={"C": what})
    assert r.verdict is Verdict.PROVED and r.headline_reading == "A"
    assert r.errata == [{"reading": "C", "what": f"in the proof: {what}", "of": "proof"}]
    from verify.headline import category, headline
    assert headline(r).endswith(f"(erratum in the proof: {what})")  # the statement stands
    assert category(r) == "PROVED (erratum in the proof)" and "with erratum" not in headline(r)
    assert _judged([_holds("A"), _holds("C")], proof={"C": what}).errata == []
    with pytest.raises(ClaimDefinitionError, match="proof names reading 'Z'"):
        _claim([], proof={"Z": what})
