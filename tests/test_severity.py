"""Severity of a refutation follows from the repaired readings' own verdicts (combine rule 6)."""

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


def _result(evidence: list[Evidence], repairs: dict[str, str]):
    reg = Registry()
    readings = {label: f"reading {label}" for label in repairs}
    verify.claim("pp.c", paper="pp", where="l. 1", statement="x", kind="identity",
                 readings=readings, repairs=repairs, registry=reg)(lambda ctx: evidence)
    return execute(reg["pp.c"], Context("pp.c"))


@pytest.mark.parametrize(
    ("evidence", "repairs", "severity", "by"),
    [
        ([_refuted(), _holds("B")], {"B": "erratum"}, "erratum", "B"),
        ([_refuted(), _holds("C")], {"C": "overstated"}, "overstated", "C"),
        ([_refuted(), _refuted("B")], {"B": "erratum"}, "false", None),
        ([_refuted()], {}, "false", None),
        ([_refuted(), _holds("B"), _holds("C")], {"B": "overstated", "C": "erratum"},
         "erratum", "C"),
    ],
)
def test_severity_is_computed_from_the_repairs_verdicts(evidence, repairs, severity, by) -> None:
    r = _result(evidence, repairs)
    assert r.verdict is Verdict.REFUTED
    assert (r.severity, r.repaired_by) == (severity, by)
    assert r.to_dict()["severity"] == severity


def test_no_severity_unless_refuted() -> None:
    r = _result([_holds("A"), _holds("B")], {"B": "erratum"})
    assert r.verdict is Verdict.PROVED and r.severity is None and r.scope == "general"


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
