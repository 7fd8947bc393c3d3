"""Asserts for ordinary test suites, in the manner of ``numpy.testing`` and ``e3nn.util.test``.

::

    from verify.symbolic import prove_equal
    from verify.testing import assert_equivariant, assert_not_equivariant, assert_proved

    def test_softmax_jacobian():
        assert_proved(prove_equal(lhs, rhs))

    def test_attention_layer_is_permutation_equivariant():
        assert_equivariant(layer, group="permutation", shape=(8, 16))

    def test_a_positional_encoding_breaks_permutation_symmetry():
        assert_not_equivariant(layer_with_positions, group="permutation", shape=(8, 16))

Each assert has its refuting counterpart: :func:`assert_refuted` for :func:`assert_proved`
and :func:`assert_supported` (a false statement stays caught, with its counterexample), and
:func:`assert_not_equivariant` for :func:`assert_equivariant` (a symmetry is broken).

Each assert returns what it was given when the verdict is the expected one, and otherwise
raises :class:`EvidenceAssertionError` (an ``AssertionError``, so pytest reports it as a
failed assert) whose message holds the verdict found, each piece's summary, the
counterexample and the command that re-runs it; the evidence itself is ``err.evidence``.

They take an :class:`~verify.Evidence`, a list of them (judged by the rule of
:mod:`verify.combine`, on reading ``"A"``) or a :class:`~verify.ClaimResult` (its verdict).
A single Evidence is audited first, as a run would: a "PROVED" that is not symbolic, or a
"REFUTED" without a counterexample, does not pass. ``assert ev`` is no substitute: an
Evidence refuses ``bool()`` (TypeError), so a refutation cannot pass a bare assert.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .combine import AS_PRINTED, audit, combine, scope_of
from .evidence import Evidence
from .results import ClaimResult
from .verdict import Verdict

if TYPE_CHECKING:  # torch and hypothesis load only with assert_equivariant
    import torch
    from hypothesis.strategies import SearchStrategy

    from .numeric.groups import Group

Checked = Evidence | Sequence[Evidence] | ClaimResult

__all__ = [
    "EvidenceAssertionError",
    "assert_proved",
    "assert_supported",
    "assert_refuted",
    "assert_equivariant",
    "assert_not_equivariant",
    "describe",
]

#: Longest rendering of one value of a counterexample in a message.
MAX_VALUE_CHARS = 600


class EvidenceAssertionError(AssertionError):
    """A verdict was not the expected one; ``evidence`` is what was checked."""

    def __init__(self, message: str, evidence: Any) -> None:
        super().__init__(message)
        self.evidence = evidence


# -- verdict asserts --------------------------------------------------------------------------
def assert_proved(actual: Checked, *, scope: str | None = None, err_msg: str = "") -> Checked:
    """Assert that ``actual`` is PROVED (and, with ``scope="general"``, proved in the
    generality of the statement rather than at listed instances only)."""
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    verdict, found_scope = _judge(actual)
    if verdict is Verdict.PROVED and (scope is None or found_scope == scope):
        return actual
    want = "PROVED" if scope is None else f"PROVED (scope {scope})"
    got = verdict.value + (f" (scope {found_scope or 'bounded'})"
                           if verdict is Verdict.PROVED else "")
    _fail(f"expected {want}, got {got}", actual, err_msg)


def assert_supported(actual: Checked, *, err_msg: str = "") -> Checked:
    """Assert that ``actual`` is SUPPORTED: numerically true on every input tried. (A PROVED
    or CERTIFIED does not pass: assert what you expect.)"""
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    verdict, _ = _judge(actual)
    if verdict is Verdict.SUPPORTED:
        return actual
    _fail(f"expected SUPPORTED, got {verdict.value}", actual, err_msg)


def assert_refuted(actual: Checked, *, err_msg: str = "") -> Checked:
    """Assert that ``actual`` is REFUTED, with a counterexample (a test that a planted bug,
    or a false statement, is caught)."""
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    verdict, _ = _judge(actual)
    if verdict is Verdict.REFUTED:
        return actual
    _fail(f"expected REFUTED, got {verdict.value}", actual, err_msg)


def _judge(actual: Checked) -> tuple[Verdict, str | None]:
    """``(verdict, scope)`` of what an assert was given, by the run's rules."""
    if isinstance(actual, ClaimResult):
        return actual.verdict, actual.scope
    if isinstance(actual, Evidence):
        ev = audit(actual)
        return ev.verdict, ev.scope if ev.verdict is Verdict.PROVED else None
    pieces = _pieces(actual)
    return combine(pieces, AS_PRINTED).verdict, scope_of(pieces, AS_PRINTED)


def _pieces(actual: Any) -> list[Evidence]:
    if isinstance(actual, ClaimResult):
        return list(actual.evidence)
    if isinstance(actual, Evidence):
        return [actual]
    if isinstance(actual, (str, bytes)) or not isinstance(actual, Sequence):
        raise TypeError("expected an Evidence, a list of Evidence or a ClaimResult, got "
                        f"{type(actual).__name__}")
    pieces = list(actual)
    bad = [type(p).__name__ for p in pieces if not isinstance(p, Evidence)]
    if bad:
        raise TypeError(f"expected a list of Evidence, it holds a {bad[0]}")
    return pieces


def _fail(
    headline: str, actual: Checked, err_msg: str = "", rerun: str | None = None
) -> NoReturn:
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    message = headline + (f"\n{err_msg}" if err_msg else "") + "\n" + describe(actual, rerun)
    raise EvidenceAssertionError(message.rstrip(), actual)


# -- the message ------------------------------------------------------------------------------
def describe(actual: Checked, rerun: str | None = None) -> str:
    """Plain text for a reader: each piece's verdict and summary, the counterexample, and the
    command that re-runs it (``rerun`` overrides the one recorded)."""
    lines: list[str] = []
    if isinstance(actual, ClaimResult):
        lines.append(f"claim {actual.id} ({actual.paper}, {actual.where}): "
                     f"{actual.verdict.value}: {actual.summary}")
        if actual.error:
            lines.append(f"error: {actual.error}")
    pieces = _pieces(actual)
    for k, raw in enumerate(pieces, 1):
        ev = audit(raw)
        where = f"reading {ev.reading}, part {ev.part}, {ev.method}"
        head = f"[{k}] " if len(pieces) > 1 or isinstance(actual, ClaimResult) else ""
        lines.append(f"{head}{ev.verdict.value} ({where}): {ev.summary}")
        if ev.generality:
            lines.append(f"    generality: {ev.generality}")
        if ev.counterexample:
            lines.append("    counterexample:")
            lines.extend(_mapping_lines(ev.counterexample, "      "))
        elif ev.verdict is not Verdict.PROVED and ev.numbers:
            keys = ("worst_violation", "worst_in_eps", "tol", "inputs_tried", "worst_example")
            shown = {k: ev.numbers[k] for k in keys if k in ev.numbers}
            if shown:
                lines.append("    numbers:")
                lines.extend(_mapping_lines(shown, "      "))
    lines.append(f"re-run: {rerun or _rerun(actual, pieces)}")
    if isinstance(actual, ClaimResult) and actual.rerun and actual.rerun not in lines[-1]:
        lines.append(f"re-run the claim: {actual.rerun}")
    return "\n".join(lines)


def _rerun(actual: Checked, pieces: list[Evidence]) -> str:
    for ev in pieces:
        if ev.verdict is Verdict.REFUTED:
            cmd = ev.rerun or (ev.counterexample or {}).get("rerun")
            if cmd:
                return str(cmd)
    if isinstance(actual, ClaimResult) and actual.rerun:
        return actual.rerun
    for ev in pieces:
        if ev.rerun:
            return ev.rerun
    seeds = sorted({ev.seed for ev in pieces if ev.seed is not None})
    if seeds:
        return (f"call the check again with seed={seeds[0]}: the same seed gives the same "
                "Evidence")
    return "call the check again: symbolic checks are deterministic"


def _mapping_lines(d: Mapping[str, Any], indent: str) -> list[str]:
    out: list[str] = []
    for key, value in d.items():
        if key == "rerun":
            continue  # shown once, as the last line
        if isinstance(value, Mapping) and value and len(_value(value)) > 80:
            out.append(f"{indent}{key}:")
            out.extend(_mapping_lines(value, indent + "  "))
            continue
        text = _value(value).replace("\n", "\n" + indent + " " * (len(str(key)) + 2))
        out.append(f"{indent}{key}: {text}")
    return out


def _value(value: Any) -> str:
    """A value as a reader wants it: arrays through numpy's printer (ends elided when
    large), everything else by ``repr``; cut to :data:`MAX_VALUE_CHARS`."""
    text = None
    if isinstance(value, (list, tuple)) and value:
        try:
            import numpy as np

            arr = np.asarray(value)
            if arr.dtype.kind in "biufc":
                text = np.array2string(arr, threshold=64, edgeitems=3, precision=6,
                                       separator=", ", max_line_width=90)
        except (TypeError, ValueError):  # ragged, or not numbers
            text = None
    if text is None:
        text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 3] + "..."


# -- equivariance -----------------------------------------------------------------------------
def assert_equivariant(
    f: Callable[..., Any],
    *,
    group: str | Group | Callable[..., Any] | SearchStrategy[Any],
    shape: Sequence[int],
    axis: int | Sequence[int] | None = None,
    out_axis: int | Sequence[int] | None = None,
    act_in: Callable[[Any, Any], Any] | None = None,
    act_out: Callable[[Any, Any], Any] | str | None = None,
    group_options: Mapping[str, Any] | None = None,
    sample_input: Callable[..., Any] | None = None,
    params: Mapping[str, SearchStrategy[Any]] | None = None,
    pass_params: bool = False,
    scale: float | None = None,
    budget: int = 20,
    batch: int = 64,
    dtype: torch.dtype | None = None,
    device: str | None = None,
    tol: float | None = None,
    seed: int | None = None,
    err_msg: str = "",
) -> Evidence:
    """Assert ``f(g.x) = g.f(x)`` on random inputs of shape ``shape`` and random ``g``.

    ``assert_equivariant(f, group="permutation", shape=(n, d))`` draws ``batch`` inputs of
    shape ``(n, d)`` and one uniform permutation of the ``n`` rows per input, and checks
    that permuting the rows of the input permutes the rows of ``f``'s output, for ``budget``
    batches (hypothesis searches over the torch seeds). ``f`` takes a batch ``(batch, *shape)``.

    Args:
        f: the map (a function or a ``torch.nn.Module``, converted to ``dtype``).
        group: a name of :mod:`verify.numeric.groups` (``"permutation"``, ``"cyclic"``,
            ``"translation"``, ``"so"``, ``"o"``, ``"se"``, ``"scaling"``, ``"unitary"``) or
            a :class:`~verify.numeric.groups.Group`: its size (``n``, or a translation's
            grid ``sizes``) is read from ``shape`` on ``axis``. Or a batched sampler or a
            hypothesis strategy of elements (sizes bound), with ``act_in`` given.
        shape: the shape of one input, without the batch dimension.
        axis: where the group acts on an input, counting the dimensions of ``shape``.
            Defaults: ``0`` for ``permutation`` and ``cyclic`` (the rows; a tuple acts on
            several axes alike), every axis of ``shape`` for ``translation``, ``-1`` (the
            vectors) for ``so``, ``o``, ``se`` and ``unitary``; none for ``scaling``.
        out_axis: where it acts on the output (default: ``axis``).
        act_in: the action on inputs (default: the group's own, on ``axis``).
        act_out: the action on outputs: default the group's own on ``out_axis`` (``act_in``
            for a sampler or strategy); ``"invariant"`` for ``f(g.x) = f(x)``; or a callable
            ``(g, y) -> g.y`` such as ``groups.SCALING.action(degree=2)``.
        group_options: further keywords of the group's sampler (``{"low": 0.5}`` for
            ``scaling``, ``{"translation_scale": 10.0}`` for ``se``).
        sample_input: a sampler of inputs (default: standard normal, complex for
            ``unitary``), ``(generator=, batch=, dtype=, device=, **params)``.
        params, pass_params: drawn parameters, and whether ``f`` receives them (see
            :func:`~verify.numeric.check_equivariance`).
        scale: a floor for the magnitude in the relative violation (when ``f`` may be ~0).
        budget, batch, tol, seed: as for :func:`~verify.numeric.falsify` (the same seed
            gives the same result; ``None``: the claim's seed inside a claim, else 0).
            ``dtype`` defaults to float64 (float32 findings are re-checked in float64
            anyway); ``device`` to that of ``f``'s parameters, else the CPU.
        err_msg: appended to the failure message.

    Returns:
        the SUPPORTED Evidence (worst violation seen, in eps too).

    Raises:
        EvidenceAssertionError: when a violation above ``tol`` is confirmed in float64
            (REFUTED: the message shows the input ``x`` and element ``g`` at the worst batch
            index), or the check is NaN (UNDECIDED).
    """
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    ev, what, call = _equivariance(
        f, group=group, shape=shape, axis=axis, out_axis=out_axis, act_in=act_in,
        act_out=act_out, group_options=group_options, sample_input=sample_input, params=params,
        pass_params=pass_params, scale=scale, budget=budget, batch=batch, dtype=dtype,
        device=device, tol=tol, seed=seed, assert_name="assert_equivariant",
    )
    if ev.verdict is Verdict.SUPPORTED:
        return ev
    headline = ("not equivariant" if ev.verdict is Verdict.REFUTED
                else f"equivariance not established ({ev.verdict.value})")
    _fail(f"{headline}: f(g.x) != g.f(x) for g in {what}, x of shape {tuple(shape)}", ev,
          err_msg, rerun=call)


def assert_not_equivariant(f: Callable[..., Any], *, err_msg: str = "", **options: Any) -> Evidence:
    """Assert that ``f`` is *not* equivariant: some ``g`` and ``x`` give ``f(g.x) != g.f(x)``
    beyond the tolerance, confirmed in float64 (REFUTED). The refuting counterpart of
    :func:`assert_equivariant`, with the same arguments: the natural test that a
    construction meant to break a symmetry (a positional encoding against permutations)
    does break it.

    Returns:
        the REFUTED Evidence; its ``counterexample`` holds the input ``x`` and the element
        ``g`` at the worst batch index, and its ``summary`` the violation, so a test can
        print or check them (``verify.testing.describe(ev)`` renders all of it).

    Raises:
        EvidenceAssertionError: when no violation is confirmed (SUPPORTED: the message gives
            the worst violation seen, in how many inputs, and the call that repeats the
            search; UNDECIDED: why, e.g. a NaN).
    """
    __tracebackhide__ = True  # pytest shows the caller, not this frame
    ev, what, call = _equivariance(f, assert_name="assert_not_equivariant", **options)
    if ev.verdict is Verdict.REFUTED:
        return ev
    headline = ("equivariant on every input tried" if ev.verdict is Verdict.SUPPORTED
                else f"no counterexample established ({ev.verdict.value})")
    _fail(f"expected f(g.x) != g.f(x) for some g in {what}, x of shape "
          f"{tuple(options.get('shape', ()))}; {headline}", ev, err_msg, rerun=call)


def _equivariance(
    f: Callable[..., Any],
    *,
    group: Any,
    shape: Sequence[int],
    axis: Any = None,
    out_axis: Any = None,
    act_in: Any = None,
    act_out: Any = None,
    group_options: Mapping[str, Any] | None = None,
    sample_input: Any = None,
    params: Any = None,
    pass_params: bool = False,
    scale: float | None = None,
    budget: int = 20,
    batch: int = 64,
    dtype: Any = None,
    device: str | None = None,
    tol: float | None = None,
    seed: int | None = None,
    assert_name: str,
) -> tuple[Evidence, str, str]:
    """The equivariance check both asserts run: its Evidence, the group described, and the
    call that repeats it."""
    import torch

    from .context import engine_seed
    from .numeric import check_equivariance
    from .numeric import groups as G

    dtype = torch.float64 if dtype is None else dtype
    device = _device_of(f) if device is None else device
    seed = engine_seed(seed)
    shape = tuple(int(s) for s in shape)
    named = isinstance(group, (str, G.Group))
    if named:
        grp = G.get(group)
        axis = _default_axis(grp, shape) if axis is None else axis
        out_axis = axis if out_axis is None else out_axis
        sizes = {**_sizes(grp, shape, axis), **dict(group_options or {})}
        sample_group: Any = grp.sampler(**sizes)
        act_in = act_in or _bound_action(grp, axis)
        if act_out is None:
            act_out = _bound_action(grp, out_axis)
        what = f"{grp.title} ({grp.name}, {_sizes_text(sizes)})" + _where(axis)
        complex_input = grp.complex
    else:
        if act_in is None:
            raise TypeError("assert_equivariant: a group given as a sampler or a strategy "
                            "needs act_in= (and act_out= unless it is the same action)")
        sample_group = group
        act_out = act_in if act_out is None else act_out
        what = getattr(group, "__name__", type(group).__name__)
        complex_input = False
    if act_out == "invariant":
        act_out, what = _unchanged, what + ", output invariant"
    elif isinstance(act_out, str):
        raise ValueError(f"act_out must be a callable, None or 'invariant', got {act_out!r}")
    if sample_input is None:
        sample_input = _gaussian(shape, complex_input)
    ev = check_equivariance(
        f, act_in, act_out, sample_input, sample_group, params=params, scale=scale,
        pass_params=pass_params, budget=budget, batch=batch, dtype=dtype, device=device,
        tol=tol, seed=seed,
    )
    name = getattr(f, "__qualname__", None) or type(f).__name__
    call = (f"{assert_name}({name}, group={_show(group)}, shape={shape}, "
            f"seed={seed}, budget={budget}, batch={batch}, dtype={dtype}) "
            "(the same seed gives the same result)")
    return ev, what, call


def _device_of(f: Any) -> str:
    import torch

    if isinstance(f, torch.nn.Module):
        for t in list(f.parameters()) + list(f.buffers()):
            return str(t.device)
    return "cpu"


def _default_axis(grp: Group, shape: tuple[int, ...]) -> Any:
    if grp.name in ("permutation", "cyclic"):
        return 0
    if grp.name == "translation":
        return tuple(range(len(shape)))
    if grp.name == "scaling":
        return None
    return -1


def _axes(axis: Any) -> list[int]:
    return [] if axis is None else [axis] if isinstance(axis, int) else list(axis)


def _sizes(grp: Group, shape: tuple[int, ...], axis: Any) -> dict[str, Any]:
    """The sampler's size keywords, read from ``shape`` at ``axis``."""
    axes = _axes(axis)
    for a in axes:
        if not -len(shape) <= a < len(shape):
            raise ValueError(f"assert_equivariant: axis {a} is out of range for shape {shape}")
    if grp.size == "n":
        lengths = {shape[a] for a in axes}
        if len(lengths) != 1:
            raise ValueError(f"assert_equivariant: {grp.title} acts alike on axes {axes} of "
                             f"shape {shape}: they need one size, got {sorted(lengths)}")
        return {"n": lengths.pop()}
    if grp.size == "sizes":
        return {"sizes": tuple(shape[a] for a in axes)}
    return {}


def _bound_action(grp: Group, axis: Any) -> Callable[[Any, Any], Any]:
    import inspect

    params = inspect.signature(grp.actions[grp.default]).parameters
    if axis is None:
        return grp.action()
    key = "axes" if "axes" in params else "axis"
    value = tuple(_axes(axis)) if key == "axes" or not isinstance(axis, int) else axis
    return grp.action(axes=value) if key == "axes" else grp.action(axis=value)


def _where(axis: Any) -> str:
    axes = _axes(axis)
    if not axes:
        return ""
    return f" acting on axis {axes[0]}" if len(axes) == 1 else f" acting on axes {tuple(axes)}"


def _sizes_text(sizes: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sizes.items()) or "default range"


def _show(group: Any) -> str:
    if isinstance(group, str):
        return repr(group)
    return repr(getattr(group, "name", None) or getattr(group, "__name__", None) or group)


def _unchanged(g: Any, y: Any) -> Any:
    return y


def _gaussian(shape: tuple[int, ...], complex_input: bool) -> Callable[..., Any]:
    """A sampler of standard normal inputs of ``shape`` (complex: unit variance)."""
    from .numeric import randn

    def gaussian(*, generator: Any, batch: int, dtype: Any, device: Any) -> Any:
        import torch

        x = randn(batch, *shape, generator=generator, device=device)
        if not complex_input:
            return x.to(dtype)
        y = randn(batch, *shape, generator=generator, device=device)
        z = torch.complex(x, y) / math.sqrt(2.0)
        return z.to(torch.complex64 if dtype == torch.float32 else torch.complex128)

    gaussian.__name__ = gaussian.__qualname__ = f"gaussian{shape}"
    return gaussian
