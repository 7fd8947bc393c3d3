"""Private helpers of the toef claim modules: paper key, thresholds, evidence builders."""

from __future__ import annotations

from typing import Any

import torch

from verify import Evidence, Verdict

PAPER = "toef"
#: pass threshold of identities in complex128 (claims/toef.md, Conventions)
PASS = 1e-10
#: a counterexample needs a relative error at least this large
FAIL = 1e-3
EPS64 = float(torch.finfo(torch.float64).eps)


def judge(err: float, summary: str, *, tol: float = PASS, fail: float = FAIL, counterexample: dict | None = None,
          **kw: Any) -> Evidence:
    """SUPPORTED when ``err <= tol``, REFUTED (with ``counterexample``) when ``err >= fail``, else UNDECIDED."""
    kw.setdefault("method", "numeric")
    kw.setdefault("dtype", "float64")
    numbers = dict(kw.pop("numbers", {}))
    numbers.update({"rel_error": err, "tol": tol, "fail_threshold": fail})
    if err <= tol:
        return Evidence(Verdict.SUPPORTED, f"{summary}: rel. error {err:.2e} <= {tol:g}", numbers=numbers, **kw)
    if err >= fail and counterexample is not None:
        ce = dict(counterexample)
        ce.setdefault("rel_error", err)
        return Evidence(Verdict.REFUTED, f"{summary}: rel. error {err:.3g} >= {fail:g}", numbers=numbers,
                        counterexample=ce, **kw)
    return Evidence(Verdict.UNDECIDED, f"{summary}: rel. error {err:.2e} between thresholds", numbers=numbers, **kw)


def refuted(summary: str, counterexample: dict, **kw: Any) -> Evidence:
    """A REFUTED piece with its counterexample (re-checked by the caller, exactly or in float64)."""
    kw.setdefault("method", "numeric")
    return Evidence(Verdict.REFUTED, summary, counterexample=counterexample, **kw)


def supported(summary: str, **kw: Any) -> Evidence:
    kw.setdefault("method", "numeric")
    return Evidence(Verdict.SUPPORTED, summary, **kw)


def gen(seed: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(int(seed))
    return g


def rate_ev(fit, claimed: float, *, tol: float = 0.3, **kw: Any) -> Evidence:
    """Judge a fitted slope by the claims' convention: SUPPORTED when ``|slope - claimed| <= tol``;
    REFUTED when the whole confidence interval lies more than ``tol`` away (the sweep is the
    counterexample); else the engine's verdict (:meth:`RateFit.evidence`, margin ``tol``)."""
    ev = fit.evidence(claimed, margin=tol, **kw)
    lo, hi = fit.ci
    if abs(fit.slope - claimed) <= tol:
        ev.verdict = Verdict.SUPPORTED
        ev.counterexample = None
        ev.summary = (f"fitted slope {fit.slope:.3f} (CI [{lo:.3f}, {hi:.3f}], n={fit.n}) within {tol} of the "
                      f"claimed {claimed:g}")
    elif lo > claimed + tol or hi < claimed - tol:
        ev.verdict = Verdict.REFUTED
        ev.counterexample = {"x": list(fit.x), "y": list(fit.y), "slope": fit.slope, "ci": [lo, hi],
                             "claimed_slope": claimed}
    return ev
