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
