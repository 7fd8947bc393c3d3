"""A finding in the report (verify.report.view.findings_view) says its evidence once."""

from __future__ import annotations

from verify import Evidence, Verdict
from verify.report.view import findings_view
from verify.results import ClaimResult


def _refuted(summary: str, witness_summary: str) -> ClaimResult:
    witness = Evidence(Verdict.REFUTED, witness_summary, method="numeric", part="(a)",
                       counterexample={"x": 1})
    return ClaimResult(id="p.c", paper="p", verdict=Verdict.REFUTED, summary=summary,
                       evidence=[witness], severity="false", where="Theorem 1, L3")


def test_a_counterexample_already_in_the_summary_is_not_printed_again():
    (f,) = findings_view([_refuted("(a): x = 1 breaks it", "x = 1 breaks it")])
    assert f["counterexample_summary"] is None


def test_a_counterexample_the_summary_does_not_say_is_printed():
    (f,) = findings_view([_refuted("(a) and (b) both fail", "x = 1 breaks (a)")])
    assert f["counterexample_summary"] is not None and "breaks" in f["counterexample_summary"]
