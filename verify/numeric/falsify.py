"""The falsifier: hypothesis searches, torch evaluates a batch, float64 confirms.

One hypothesis example draws the parameters (``params``: sizes, group elements, scales...)
and a torch seed; the property evaluates ``batch`` random inputs made from a
``torch.Generator`` seeded with it, as one tensor operation, and returns their violations
(non-negative, dimensionless, 0 where the property holds). hypothesis ``target()``s the
worst violation of each batch, and when a violation above ``tol`` is confirmed it shrinks the
example to a minimal one. See :func:`falsify` for the exact rules.
"""

from __future__ import annotations

import json
import logging
import math
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import torch
from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import Flaky
from hypothesis.strategies import SearchStrategy

from ..context import derive_seed, engine_seed, search_share
from ..evidence import Evidence
from ..jsonable import to_jsonable
from ..verdict import Verdict
from .devices import dtype_name, eps, prepare_device, recheck_dtype
from .judge import REFUTE_FACTOR, refutation_stands
from .storage import hypothesis_files_outside_cwd

if sys.version_info < (3, 11):  # pragma: no cover - hypothesis depends on the backport there
    from exceptiongroup import BaseExceptionGroup

log = logging.getLogger(__name__)

#: ``tol=None``: ``max(DEFAULT_TOL_EPS * eps(dtype), DEFAULT_TOL_FLOOR)``.
DEFAULT_TOL_EPS = 64
#: sqrt(eps(float64)): the float64 re-check must sit well above float64 rounding noise.
DEFAULT_TOL_FLOOR = math.sqrt(float(torch.finfo(torch.float64).eps))

_MAX_TORCH_SEED = 2**32 - 1
_TARGET_CAP = 1e300

Prop = Callable[..., Any]


def default_tol(dtype: torch.dtype) -> float:
    """The tolerance ``tol=None`` stands for: ``max(64 * eps(dtype), sqrt(eps(float64)))``.

    Violations are relative (dimensionless), so the tolerance is a multiple of eps. Every
    refutation is confirmed in float64 against the *same* tolerance, and float64 has nothing
    more precise to be checked against, so the floor ``sqrt(eps64) ~ 1.5e-8`` keeps honest
    float64 rounding of moderately ill-conditioned computations (a RoPE phase at position
    1e4 loses ~1e4 eps) from being called a counterexample. For float32 this gives
    ``64 * eps32 ~ 7.6e-6``; for float64 ``1.5e-8``. Pass ``tol`` to be stricter.
    """
    return max(DEFAULT_TOL_EPS * eps(dtype), DEFAULT_TOL_FLOOR)


@dataclass
class Finding:
    """One evaluated example that broke the property (as seen in float64)."""

    drawn: dict[str, Any]
    torch_seed: int
    index: int
    violation: float  # in the re-check dtype (float64); NaN for a NaN finding
    violation_dtype: float | None  # at the same index, in the searched dtype (None if NaN there)
    inputs: dict[str, Any] | None = None

    def as_counterexample(self, batch: int, device: str, prop: Any) -> dict[str, Any]:
        ce: dict[str, Any] = {
            "params": to_jsonable(self.drawn),
            "torch_seed": self.torch_seed,
            "batch": batch,
            "batch_index": self.index,
            "violation_float64": self.violation,
            "violation_searched_dtype": self.violation_dtype,
            "device": device,
        }
        snippet = rerun_snippet(prop, self.drawn, self.torch_seed, batch, device, self.index)
        if snippet is not None:
            ce["rerun"] = snippet
        if self.inputs is not None:
            ce["inputs"] = to_jsonable(self.inputs)
        return ce


class _Confirmed(Exception):
    """Raised inside the hypothesis test so that hypothesis shrinks the example."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"violation {finding.violation!r} at {finding.drawn!r}")
        self.finding = finding


class _NaNFound(Exception):
    """The property is NaN in float64 (and nowhere above tol) on this example."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"NaN violation at {finding.drawn!r}")
        self.finding = finding


class _OutOfTime(Exception):
    """Raised for every new example once ``max_seconds`` is spent: stops hypothesis early."""


@dataclass
class _State:
    evaluations: int = 0
    rechecks: int = 0
    cleared: int = 0  # dtype exceedances (or NaNs) that float64 did not confirm
    nan_in_dtype: int = 0
    out_of_time: bool = False
    worst: float = 0.0
    worst_at: dict[str, Any] = field(default_factory=dict)
    per_example: list[float] = field(default_factory=list)  # worst violation of each example


def importable(prop: Any) -> tuple[str, str] | None:
    """``(module, name)`` when ``from module import name`` gives ``prop`` back in a fresh
    interpreter (a module-level function of an importable module), else ``None`` (a closure,
    a lambda, a function of ``__main__`` or of a claims file run as ``verify run FILE``, whose
    module name is private to verify)."""
    module = getattr(prop, "__module__", None)
    qualname = getattr(prop, "__qualname__", None)
    if not module or not qualname or not qualname.isidentifier():
        return None
    from ..sources import FILE_MODULE_PREFIX

    if module == "__main__" or module.startswith(FILE_MODULE_PREFIX):
        return None
    try:
        import importlib

        found = getattr(importlib.import_module(module), qualname, None)
    except Exception:
        return None
    return (module, qualname) if found is prop else None


def rerun_snippet(
    prop: Any, drawn: Mapping[str, Any], torch_seed: int, batch: int, device: str, index: int
) -> str | None:
    """One line of Python, with its imports, that re-evaluates one example in float64 and
    prints the violation found (``python -c "..."``); ``None`` when the property cannot be
    imported by name or a drawn value does not print as Python: the claim's own re-run
    command (``verify run --claim ...``) stands in for it then."""
    where = importable(prop)
    if where is None:
        return None
    import ast

    for v in drawn.values():
        try:
            if ast.literal_eval(repr(v)) != v:
                return None
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None  # a tensor, an object, inf: no faithful literal
    module, name = where
    args = "".join(f", {k}={v!r}" for k, v in drawn.items())
    return (
        f"import torch; from {module} import {name}; "
        f"g = torch.Generator(device={device!r}).manual_seed({torch_seed}); "
        f"v = {name}(generator=g, batch={batch}, dtype=torch.float64, device={device!r}{args}); "
        f"print(float(v[{index}]))"
    )


def _evaluate(
    prop: Prop,
    drawn: Mapping[str, Any],
    torch_seed: int,
    batch: int,
    dtype: torch.dtype,
    device: str,
) -> tuple[torch.Tensor, Mapping[str, Any] | None]:
    """Run ``prop`` on one example; violations as a float64 vector of length ``batch``, left on
    ``device`` (they are reduced there, see :func:`_reduce`)."""
    g = torch.Generator(device=device)
    g.manual_seed(torch_seed)
    with torch.no_grad():
        out = prop(generator=g, batch=batch, dtype=dtype, device=device, **drawn)
    inputs = None
    if isinstance(out, tuple):
        out, inputs = out
    v = torch.as_tensor(out).detach()
    if v.is_complex():
        raise TypeError("falsify: a property must return real violations, got a complex tensor")
    if [d for d in v.shape if d != 1] != ([batch] if batch != 1 else []):
        # (batch,), (batch, 1) or a 0-d tensor for batch=1; never (2, batch // 2): a property
        # that returns violations of another shape has mixed up its axes
        raise ValueError(
            f"falsify: the property returned shape {tuple(v.shape)}; it must return {batch} "
            f"violations for batch={batch}, shape ({batch},)"
        )
    return v.reshape(-1).to(torch.float64), inputs


def _reduce(v: torch.Tensor) -> tuple[float, int, int]:
    """Largest non-NaN violation, its index (the first, as ``numpy.argmax``; (0.0, -1) when all
    are NaN) and the number of NaNs.

    Reduced on ``v``'s device with one transfer of four numbers: on a GPU, copying a batch of
    a million violations to the host and scanning it there costs several times the property
    itself."""
    nan = torch.isnan(v)
    finite = v.masked_fill(nan, -math.inf)
    i = torch.argmax(finite)
    w, index, n_nan, smallest = torch.stack([
        finite[i], i.to(v.dtype), nan.sum().to(v.dtype), v.masked_fill(nan, math.inf).min()
    ]).tolist()
    if smallest < 0:
        raise ValueError(f"falsify: violations must be non-negative, got min {smallest!r}")
    return (w, int(index), int(n_nan)) if w > -math.inf else (0.0, -1, int(n_nan))


def _finite_or_none(x: float) -> float | None:
    """A NaN in the searched dtype is shown as None: the float64 value is the one that counts."""
    x = float(x)
    return None if math.isnan(x) else x


def _inputs_at(inputs: Mapping[str, Any] | None, index: int) -> dict[str, Any] | None:
    if inputs is None:
        return None
    out = {}
    for k, x in inputs.items():
        out[k] = x[index] if hasattr(x, "__getitem__") and not isinstance(x, (str, bytes)) else x
    return out


def falsify(
    prop: Prop,
    params: Mapping[str, SearchStrategy[Any]] | None = None,
    *,
    budget: int = 100,
    batch: int = 1024,
    dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None,
    tol: float | None = None,
    seed: int | None = None,
    max_seconds: float | None = None,
) -> Evidence:
    """Search for an input on which ``prop`` is violated by more than ``tol``.

    Args:
        prop: ``prop(generator=, batch=, dtype=, device=, **drawn)`` evaluates ``batch``
            random inputs made from ``generator`` (use :func:`verify.numeric.randn` /
            :func:`verify.numeric.rand` so float32 and float64 see the same inputs) and
            returns a tensor of ``batch`` non-negative, dimensionless violations (0 where
            the property holds). It may instead return ``(violations, inputs)`` with
            ``inputs`` a dict of batched tensors: the counterexample then shows the input.
        params: names -> hypothesis strategies, drawn once per example and passed to ``prop``.
        budget: number of hypothesis examples (each evaluates a whole batch). Inside a
            claim run by ``verify fuzz --examples N --shards K``, the claim's context sets
            the examples and the seed of this search (:meth:`verify.Context.search_share`).
        batch: random inputs per example.
        dtype: the dtype searched in; findings are re-checked in float64 (complex128).
        device: ``None`` = CUDA when present (TF32 off), else CPU.
        tol: refutation threshold on the violation; ``None`` = :func:`default_tol`.
        seed: seeds hypothesis; the torch seeds are drawn by hypothesis from it. The same
            seed gives the same Evidence (up to ``elapsed_s``). ``None``: the seed of the
            claim being checked (:attr:`verify.Context.seed`), 0 outside a claim.
        max_seconds: optional wall-clock budget (e.g. ``ctx.time_left() / 2``): after it, no
            new example is evaluated (shrinking stops at the best example so far). A run that
            hits it is reproducible only up to where it stopped (``numbers["out_of_time"]``).

    Returns:
        REFUTED (method ``numeric``) when a violation above ``tol`` is confirmed by a float64
        re-evaluation of the same example; hypothesis has shrunk it to a minimal example, and
        the counterexample holds the drawn params, the torch seed, the batch index of the
        worst input, its float64 violation and a re-run snippet. The refutation must stand
        (rule 2 of :mod:`verify.numeric.judge`): a float64 violation below
        ``REFUTE_FACTOR * tol`` (10x) is REFUTED only when a second, independent search
        with :func:`fresh_seed` ``(seed)`` refutes too; otherwise the evidence is UNDECIDED
        ("within the tolerance band", seed-fragile) with both numbers
        (``numbers["fresh_seed_violation"]``, the first example in ``band_example``).

        SUPPORTED otherwise, with the inputs tried, the worst violation seen (also in units of
        eps), tol, dtype and device. A float32 violation that float64 does not confirm is not a
        refutation (it is counted in ``numbers["cleared_by_float64"]``).

        UNDECIDED when the property is NaN in float64 (and exceeds ``tol`` nowhere): a NaN is
        never read as 0, nor as a counterexample; the example is reported so a reader can
        look. A NaN seen only in float32 that float64 resolves to a finite value is judged by
        that value.

    Errors raised by ``prop`` itself propagate (after hypothesis has shrunk them).
    """
    t0 = time.monotonic()
    params = dict(params or {})
    if int(batch) < 1:
        raise ValueError(f"falsify: batch must be >= 1, got {batch!r}")
    if int(budget) < 0:
        raise ValueError(f"falsify: budget must be >= 0, got {budget!r}")
    # `verify fuzz`: the examples and seed of this shard
    budget, seed = search_share(int(budget), engine_seed(seed))
    dev = prepare_device(device)
    tol_ = default_tol(dtype) if tol is None else float(tol)
    if not tol_ >= 0:
        raise ValueError(f"falsify: tol must be >= 0, got {tol!r}")
    spec = _Spec(prop=prop, params=params, budget=int(budget), batch=int(batch), dtype=dtype,
                 dev=dev, tol_=tol_, max_seconds=max_seconds)
    ev = _search(spec, seed=int(seed), t0=t0)
    if ev.verdict is not Verdict.REFUTED or ev.numbers["violation_float64"] >= (
        REFUTE_FACTOR * tol_
    ):
        return ev
    return _stand_or_fall(ev, _search(spec, seed=fresh_seed(seed), t0=time.monotonic()))


def fresh_seed(seed: int) -> int:
    """The seed of the independent search that must re-find a refutation near its threshold
    (rule 2 of :mod:`verify.numeric.judge`): derived from ``seed``, so a run stays
    reproducible, and different from it."""
    return derive_seed(int(seed), "fresh") % (2**31)


def _stand_or_fall(ev: Evidence, second: Evidence) -> Evidence:
    """A float64-confirmed violation in ``(tol, REFUTE_FACTOR * tol)``: REFUTED when the fresh
    search refutes too, otherwise UNDECIDED with both numbers (rule 2 of ``judge``)."""
    tol_ = ev.numbers["tol"]
    w = ev.numbers["violation_float64"]
    w2 = second.numbers.get("violation_float64", second.numbers.get("worst_violation", 0.0))
    refound = second.verdict is Verdict.REFUTED  # the fresh search confirmed one above tol
    standing = refutation_stands(w, tol_, fresh=w2 if refound else -math.inf)
    ev.numbers["fresh_seed"] = second.seed
    ev.numbers["fresh_seed_verdict"] = second.verdict.value
    ev.numbers["fresh_seed_violation"] = w2
    ev.elapsed_s = (ev.elapsed_s or 0.0) + (second.elapsed_s or 0.0)
    if standing.holds:
        ev.summary += f"; {standing.reason}"
        ev.steps.append(f"a fresh search (seed {second.seed}) re-found a violation {w2:.3g}")
        return ev
    return replace(
        ev,
        verdict=Verdict.UNDECIDED,
        counterexample=None,
        summary=(
            f"within the tolerance band: a float64-confirmed violation {w:.3g} > tol "
            f"{tol_:.2g} at seed {ev.seed} (less than {REFUTE_FACTOR:g}x tol), but a fresh "
            f"search (seed {second.seed}) found {second.verdict.value} (worst {w2:.3g}): "
            "seed-fragile, not a standing refutation"
        ),
        numbers={**ev.numbers, "band_example": ev.counterexample},
        rerun=None,
    )


@dataclass(frozen=True)
class _Spec:
    """What one search looks for, and within what: the arguments of :func:`falsify`, checked."""

    prop: Prop
    params: dict[str, SearchStrategy[Any]]
    budget: int
    batch: int
    dtype: torch.dtype
    dev: str
    tol_: float
    max_seconds: float | None


@dataclass
class _Found:
    """What a search step saw: its tallies, and the confirmed finding, the NaN finding or the
    failure that did not replay (at most one of the three)."""

    state: _State
    finding: Finding | None = None
    nan_finding: Finding | None = None
    flaky: BaseException | None = None


def _search(spec: _Spec, *, seed: int, t0: float) -> Evidence:
    """One hypothesis search with ``seed``, judged: the body of :func:`falsify` (rule 2 aside)."""
    if spec.budget == 0:  # nothing was asked for: neither a pass nor a counterexample
        return Evidence(
            Verdict.UNDECIDED,
            "budget=0: no example was evaluated",
            method="numeric",
            dtype=dtype_name(spec.dtype),
            device=spec.dev,
            seed=int(seed),
            numbers={"examples": 0, "budget": 0, "batch": spec.batch, "tol": spec.tol_},
        )
    found = _Searcher(spec, t0).run(seed)
    return _evidence(spec, found, seed=seed, elapsed=time.monotonic() - t0)


class _Searcher:
    """The search step: hypothesis draws examples, each is evaluated as one batch in the
    searched dtype, and an exceedance (or a NaN) is re-evaluated in float64; a confirmed one
    is raised so that hypothesis shrinks it."""

    def __init__(self, spec: _Spec, t0: float) -> None:
        self.spec = spec
        self.hi = recheck_dtype(spec.dtype)
        self.state = _State()
        self.stop_at = None if spec.max_seconds is None else t0 + float(spec.max_seconds)
        self.failures: dict[str, _Confirmed | _NaNFound] = {}

    def check_example(self, drawn: dict[str, Any], torch_seed: int) -> None:
        """Evaluate one example, unless the time is spent: then evaluate nothing new and
        replay the failures already seen (so that shrinking ends on a known example)."""
        if self.stop_at is None:
            return self.evaluate_example(drawn, torch_seed)
        key = json.dumps([to_jsonable(drawn), torch_seed], sort_keys=True)
        if time.monotonic() > self.stop_at:
            self.state.out_of_time = True
            known = self.failures.get(key)
            if known is not None:
                raise type(known)(known.finding)
            raise _OutOfTime  # ends generation; hypothesis "shrinks" it at no cost
        try:
            return self.evaluate_example(drawn, torch_seed)
        except (_Confirmed, _NaNFound) as e:
            self.failures[key] = e
            raise

    def evaluate_example(self, drawn: dict[str, Any], torch_seed: int) -> None:
        """Evaluate one example's batch; raise :class:`_Confirmed` or :class:`_NaNFound` when
        float64 confirms a violation above tol or a NaN."""
        spec, state = self.spec, self.state
        state.evaluations += 1
        v, inputs = _evaluate(spec.prop, drawn, torch_seed, spec.batch, spec.dtype, spec.dev)
        w, i, n_nan = _reduce(v)
        state.per_example.append(w)
        if w > state.worst or not state.worst_at:
            state.worst = w
            state.worst_at = {
                "params": to_jsonable(drawn),
                "torch_seed": torch_seed,
                "batch_index": i,
            }
        target(min(w, _TARGET_CAP), label="worst violation")
        if w <= spec.tol_ and n_nan == 0:
            return
        if n_nan:
            state.nan_in_dtype += 1
        state.rechecks += 1
        v_hi, inputs_hi = (
            (v, inputs) if self.hi == spec.dtype
            else _evaluate(spec.prop, drawn, torch_seed, spec.batch, self.hi, spec.dev)
        )
        w_hi, i_hi, nan_count_hi = _reduce(v_hi)
        if w_hi > spec.tol_:
            raise _Confirmed(Finding(dict(drawn), torch_seed, i_hi, w_hi,
                                     _finite_or_none(v[i_hi]), _inputs_at(inputs_hi, i_hi)))
        if nan_count_hi:
            j = int(torch.isnan(v_hi).nonzero()[0])
            raise _NaNFound(Finding(dict(drawn), torch_seed, j, math.nan,
                                    _finite_or_none(v[j]), _inputs_at(inputs_hi, j)))
        state.cleared += 1

    def run(self, seed: int) -> _Found:
        """Run hypothesis seeded ``seed`` over the examples; what it found."""
        test = given(drawn=st.fixed_dictionaries(self.spec.params),
                     torch_seed=st.integers(0, _MAX_TORCH_SEED))(self.check_example)
        test = settings(
            max_examples=self.spec.budget,
            database=None,
            deadline=None,
            derandomize=False,
            verbosity=Verbosity.quiet,
            phases=[Phase.generate, Phase.target, Phase.shrink],
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=True,
            print_blob=False,
        )(test)
        test = hypothesis_seed(int(seed))(test)
        found = _Found(self.state)
        try:
            with hypothesis_files_outside_cwd():
                test()
        except _Confirmed as e:
            found.finding = e.finding
        except _NaNFound as e:
            found.nan_finding = e.finding
        except Flaky as e:  # a failure that did not replay: not a reproducible counterexample
            found.flaky = e
        except _OutOfTime:
            pass
        except BaseExceptionGroup as group:  # several distinct failures, or hypothesis's Flaky
            leaves = _leaves(group)
            conf = [x for x in leaves if isinstance(x, _Confirmed)]
            nans = [x for x in leaves if isinstance(x, _NaNFound)]
            others = [x for x in leaves if not isinstance(x, (_Confirmed, _NaNFound, _OutOfTime))]
            if conf:
                found.finding = conf[0].finding
            elif nans:
                found.nan_finding = nans[0].finding
            if others and not (conf or nans):
                raise others[0] from group
        return found


def _evidence(spec: _Spec, found: _Found, *, seed: int, elapsed: float) -> Evidence:
    """The evidence step: the verdict a search's findings give (REFUTED on a float64-confirmed
    finding; UNDECIDED on a failure that did not replay, a NaN in float64, or no example;
    SUPPORTED otherwise), with its numbers and the histogram of worst violations."""
    state, dtype, dev, tol_, batch = found.state, spec.dtype, spec.dev, spec.tol_, spec.batch
    hi = recheck_dtype(dtype)
    qualname = (getattr(spec.prop, "__qualname__", None) or getattr(spec.prop, "__name__", None)
                or "prop")
    name = qualname.rpartition("<locals>.")[2]  # check_equivariance.<locals>.f reads f
    eps_ = eps(dtype)
    common: dict[str, Any] = dict(
        method="numeric", dtype=dtype_name(dtype), device=dev, seed=int(seed)
    )
    numbers: dict[str, Any] = {
        "examples": state.evaluations,
        "batch": batch,
        "inputs_tried": state.evaluations * batch,
        "worst_violation": state.worst,
        "worst_in_eps": state.worst / eps_,
        "tol": tol_,
        "tol_in_eps": tol_ / eps_,
        "eps": eps_,
        "dtype": dtype_name(dtype),
        "device": dev,
        "budget": spec.budget,
        "float64_rechecks": state.rechecks,
        "cleared_by_float64": state.cleared,
        "nan_batches_in_dtype": state.nan_in_dtype,
        "worst_example": state.worst_at,
        "out_of_time": state.out_of_time,
    }
    common["figures"] = [
        {
            "kind": "histogram",
            "values": [x / eps_ for x in state.per_example],
            "threshold": tol_ / eps_,
            "xlabel": f"worst violation of each example / eps({dtype_name(dtype)})",
            "title": f"{name}: {state.evaluations} examples x {batch} inputs",
        }
    ]

    finding = found.finding
    if finding is not None:
        ce = finding.as_counterexample(batch, dev, spec.prop)
        numbers["violation_float64"] = finding.violation
        return Evidence(
            Verdict.REFUTED,
            f"violation {finding.violation:.3g} > tol {tol_:.2g} (float64 re-check) at "
            f"params {to_jsonable(finding.drawn)}, torch seed {finding.torch_seed}, "
            f"batch index {finding.index} (hypothesis-shrunk, {state.evaluations} examples)",
            counterexample=ce,
            numbers=numbers,
            rerun=ce.get("rerun"),
            elapsed_s=elapsed,
            steps=[
                f"hypothesis searched {state.evaluations} examples x {batch} inputs in "
                f"{dtype_name(dtype)}",
                f"found a violation above tol = {tol_:.3g}, shrank the example, re-evaluated it "
                f"in {dtype_name(hi)}",
                f"{dtype_name(hi)} violation {finding.violation:.6g} at batch index "
                f"{finding.index}",
            ],
            **common,
        )
    if found.flaky is not None:
        return Evidence(
            Verdict.UNDECIDED,
            f"a violation above tol {tol_:.2g} was seen but did not reproduce on replay "
            f"(non-deterministic property?): {str(found.flaky)[:200]}",
            numbers=numbers,
            elapsed_s=elapsed,
            **common,
        )
    nan_finding = found.nan_finding
    if nan_finding is not None:
        ce = nan_finding.as_counterexample(batch, dev, spec.prop)
        ce.pop("violation_float64")
        numbers["nan_example"] = ce
        return Evidence(
            Verdict.UNDECIDED,
            f"the property is NaN in {dtype_name(hi)} at params {to_jsonable(nan_finding.drawn)}, "
            f"torch seed {nan_finding.torch_seed}, batch index {nan_finding.index}; a NaN is "
            f"neither a pass nor a counterexample (worst finite violation {state.worst:.3g})",
            numbers=numbers,
            rerun=ce.get("rerun"),
            elapsed_s=elapsed,
            **common,
        )
    if state.evaluations == 0:
        return Evidence(Verdict.UNDECIDED, "hypothesis ran no example", numbers=numbers, **common)
    return Evidence(
        Verdict.SUPPORTED,
        f"no violation above tol {tol_:.2g} in {state.evaluations * batch} inputs "
        f"({state.evaluations} examples x {batch}, {dtype_name(dtype)}, {dev}); worst "
        f"{state.worst:.3g} = {state.worst / eps_:.3g} eps"
        + (f" (time budget {spec.max_seconds:g} s reached)" if state.out_of_time else ""),
        numbers=numbers,
        elapsed_s=elapsed,
        generality=f"{state.evaluations * batch} random inputs, {dtype_name(dtype)}",
        **common,
    )


def _leaves(group: BaseException) -> list[BaseException]:
    subs = getattr(group, "exceptions", None)
    if subs is None:
        return [group]
    out: list[BaseException] = []
    for s in subs:
        out.extend(_leaves(s))
    return out
