"""A verdict reads with its strength wherever it is shown (verify.headline)."""

from __future__ import annotations

import subprocess
import sys

from verify.headline import counts, headline, label, readings_line
from verify.results import ClaimResult
from verify.verdict import Verdict


def _r(verdict: str, scope=None, severity=None, readings=None) -> ClaimResult:
    return ClaimResult(id="pp.x", paper="pp", verdict=Verdict.parse(verdict), summary="s",
                       scope=scope, severity=severity, readings=readings or {})


def test_a_bounded_proof_and_a_severity_read_differently() -> None:
    assert headline(_r("PROVED", scope="general")) == "PROVED"
    assert headline(_r("PROVED", scope="bounded")) == "PROVED (bounded)"
    assert headline(_r("PROVED")) == "PROVED (bounded)"  # unstated scope is not general
    assert headline(_r("REFUTED", severity="erratum")) == "REFUTED (erratum)"
    assert label(Verdict.SUPPORTED, "general", "false") == "SUPPORTED"


def test_readings_line_puts_every_reading_beside_the_headline() -> None:
    r = _r("REFUTED", severity="erratum", readings={
        "C": {"verdict": "SUPPORTED", "summary": "ok"},
        "B": {"verdict": "PROVED", "summary": "zero", "scope": "general"},
    })
    assert readings_line(r) == "A REFUTED (erratum) · B PROVED · C SUPPORTED"


def test_counts_separate_bounded_and_general_proofs() -> None:
    rs = [_r("PROVED", "general"), _r("PROVED", "bounded"), _r("PROVED", "general"),
          _r("REFUTED", severity="false"), _r("UNDECIDED")]
    assert counts(rs) == [("PROVED", 2), ("PROVED (bounded)", 1), ("REFUTED (false)", 1),
                          ("UNDECIDED", 1)]


def test_show_where_prints_file_and_line_of_each_check() -> None:
    out = subprocess.run([sys.executable, "-m", "verify", "show", "gda.value_grad", "--where"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out and all(":" in loc and loc.split(":")[1].isdigit() for loc in out)
    assert any(loc.startswith("proofs/gda/") for loc in out)


def test_the_report_badge_typesets_its_qualifier_as_latex() -> None:
    from verify.report.view import qualified_badge

    tex = qualified_badge(Verdict.PROVED, "bounded")
    assert tex.endswith(r"\,{\scriptsize\sffamily bounded}") and "textbackslash" not in tex
    assert "erratum" in qualified_badge(Verdict.REFUTED, None, "erratum")
    assert qualified_badge(Verdict.PROVED, "general").endswith("{PROVED}")


def test_an_erratum_headline_reads_with_what_it_fixes_and_counts_apart() -> None:
    r = _r("PROVED", scope="general", readings={"A": {"verdict": "REFUTED", "summary": "x"}})
    r.headline_reading, r.errata = "B", [{"reading": "A", "what": "sign of β⁴"}]
    assert headline(r) == "PROVED (with erratum: sign of β⁴)"
    assert readings_line(r) == "B PROVED (with erratum) · A REFUTED"
    bounded = _r("PROVED", scope="bounded")
    bounded.errata = [{"reading": "A", "what": "a degenerate case"}]
    assert headline(bounded) == "PROVED (bounded, with erratum: a degenerate case)"
    assert counts([r, bounded, _r("REFUTED", severity="false")]) == [
        ("PROVED (bounded, with erratum)", 1), ("PROVED (with erratum)", 1),
        ("REFUTED (false)", 1)]


def test_an_erratum_of_the_proof_reads_and_counts_apart_from_one_of_the_statement() -> None:
    """A wrong choice inside a proof leaves the statement standing: it is no "with erratum"
    (toef.lemma3's W_B); an erratum record without ``of`` is read by its "in the proof:"
    prefix."""
    proof = _r("PROVED", scope="general")
    proof.errata = [{"reading": "P", "what": "in the proof: W_B needs the star moved",
                     "of": "proof"}]
    legacy = _r("PROVED", scope="general")
    legacy.errata = [{"reading": "P", "what": "in the proof: a wrong witness"}]
    both = _r("SUPPORTED")
    both.errata = [{"reading": "A", "what": "degenerate case"}, *legacy.errata]
    assert headline(proof) == "PROVED (erratum in the proof: W_B needs the star moved)"
    assert headline(both) == ("SUPPORTED (with erratum: degenerate case, erratum in the proof: "
                              "a wrong witness)")
    assert counts([proof, legacy, both]) == [("PROVED (erratum in the proof)", 2),
                                             ("SUPPORTED (with erratum, erratum in the proof)", 1)]


def test_a_consistency_check_reads_as_one_not_as_a_theorem() -> None:
    """An arithmetic check of the paper's own numbers (sih.exp.compute: 207 in [165, 265)) is
    no PROVED theorem and a disagreement no false one."""
    ok, bad = _r("PROVED", scope="general"), _r("REFUTED", severity="false")
    ok.kind = bad.kind = "consistency"
    assert headline(ok) == "PROVED (consistency check)"
    assert headline(bad) == "REFUTED (consistency check)"
    assert counts([ok, bad, _r("PROVED", scope="general")]) == [
        ("PROVED", 1), ("PROVED (consistency check)", 1), ("REFUTED (consistency check)", 1)]


def test_undecided_claims_are_counted_by_reason() -> None:
    a, b, c = _r("UNDECIDED"), _r("UNDECIDED"), _r("UNDECIDED")
    a.undecided_reason, b.undecided_reason = "needs_compute", "informal"
    c.undecided_reason = "needs_compute"
    assert headline(a) == "UNDECIDED"  # the reason is counted and shown, not in the verdict
    assert counts([a, b, c]) == [("UNDECIDED (informal)", 1), ("UNDECIDED (needs_compute)", 2)]


def _undecided(evidence, *, kind="property", undecided=None, error=None):
    import verify
    from verify.context import Context
    from verify.evidence import Evidence  # noqa: F401
    from verify.execute import build_result
    from verify.registry import Registry

    reg = Registry()
    verify.claim("pp.u", paper="pp", where="l. 1", statement="x", kind=kind,
                 undecided=undecided, registry=reg)(lambda ctx: evidence)
    return build_result(reg["pp.u"], Context("pp.u"), list(evidence), elapsed=0.0, error=error)


def test_every_undecided_gets_a_reason_derived_from_the_evidence_first() -> None:
    from verify import Evidence

    smoke = Evidence(Verdict.NOT_REPRODUCED, "loss 0.3 vs 0.1", method="experiment",
                     numbers={"paper_value": 0.1, "measured": 0.3, "scale": "smoke"})
    r = _undecided([smoke], kind="experiment", undecided=("open_setting", "widths"))
    assert r.verdict is Verdict.UNDECIDED and r.undecided_reason == "needs_compute"
    assert "--profile deep" in r.undecided_detail and "1800 s" in r.undecided_detail
    timed = _undecided([Evidence.undecided("timeout after 30.0 s: expand")])
    assert timed.undecided_reason == "timeout"
    killed = _undecided([Evidence.undecided("killed")],
                        error="timeout: still running after its budget of 60 s; killed")
    assert killed.undecided_reason == "timeout"
    assert _undecided([Evidence.informal()], kind="informal").undecided_reason == "informal"
    split = _undecided([Evidence.undecided("holds for d = 2, fails for d = 3")],
                       undecided=("open_setting", "the paper leaves d open"))
    assert (split.undecided_reason, split.undecided_detail) == (
        "open_setting", "the paper leaves d open")
    plain = _undecided([Evidence.undecided("conflicting evidence")])
    assert plain.undecided_reason == "inconclusive"
    assert plain.to_dict()["undecided_reason"] == "inconclusive"
    held = _undecided([Evidence(Verdict.SUPPORTED, "ok", method="numeric")])
    assert held.undecided_reason is None and held.to_dict()["undecided_reason"] is None
