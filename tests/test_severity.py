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
