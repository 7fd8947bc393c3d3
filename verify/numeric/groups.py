"""Groups to check equivariance under: batched samplers, hypothesis strategies and actions.

Each group below is a :class:`Group` with three faces, for the two ways
:func:`~verify.numeric.check_equivariance` draws group elements and for the action itself:

``sample(generator=, batch=, dtype=, device=, **size)``
    ``batch`` elements from the uniform (Haar) measure, as one tensor whose first dimension
    is the batch, drawn in float64 from ``generator`` and rounded to ``dtype`` (so a float32
    search and its float64 re-check see the same elements). A sampler takes only the size
    keywords it uses (``n=`` for SO(n)); any other keyword is a ``TypeError`` naming the
    sampler and the keyword. ``group.sampler(n=3)`` binds the size, giving a sampler of the
    four standard keywords only.
``strategy(**size)``
    a hypothesis strategy for *one* element, as plain Python data (a list of ints, a nested
    list of floats) so that a counterexample prints and pastes; it shrinks towards the
    identity (angles and shifts to 0, no reflection, the identity permutation).
``act(g, x, ...)``
    the action on a batch-first ``x``; ``g`` is one element (from a strategy, applied to every
    item) or a batch of them (from a sampler, one per item). Axes count the dimensions of one
    *item*, without the batch dimension: ``axis=0`` is the first dimension after the batch,
    ``axis=-1`` the last. Other actions of the group are in ``group.actions``;
    ``group.action(kind, **options)`` binds one to a ``(g, x) -> g.x`` callable.

================ =========== =========================== ======================================
group            size        element                     default action on an item
================ =========== =========================== ======================================
``PERMUTATION``  ``n``       indices ``(n,)``: S_n       ``x[..., g[i], ...]`` along ``axis=0``
``CYCLIC``       ``n``       a shift ``s`` in 0..n-1     ``x[(i - s) mod n]`` along ``axis=0``
                                                         (``torch.roll`` by s)
``TRANSLATION``  ``sizes``   shifts ``(k,)`` of a        rolls ``axes[j]`` by ``t[j]``
                             periodic grid               (default: the first k axes)
``ROTATION``     ``n``       SO(n): ``(n, n)``           ``x -> g x`` on the vectors along
``ORTHOGONAL``               O(n): ``(n, n)``            ``axis=-1``; ``"conjugate"``: g X g^T
``RIGID``        ``n``       SE(n): ``[[R, t], [0, 1]]`` ``R x + t`` on points along
                                                         ``axis=-1``; ``"vector"``: ``R x``
``SCALING``      ``low``,    ``s > 0``, log-uniform on   ``x -> s**degree x`` (``degree=1``)
                 ``high``    ``[low, high]``
``UNITARY``      ``n``       U(n): ``(n, n)`` complex    ``x -> g x`` on ``axis=-1``;
                                                         ``"conjugate"``: g X g^H
================ =========== =========================== ======================================

``get(name)`` returns a group by name (``"permutation"``, ``"cyclic"``, ``"translation"``,
``"so"``, ``"o"``, ``"se"``, ``"scaling"``, ``"unitary"``, and a few aliases such as
``"rotation"``).

Haar measure on O(n), SO(n) and U(n) comes from the QR decomposition of a Gaussian matrix
with the sign (phase) of R's diagonal moved into Q: without that fix, Q depends on the QR
routine's sign convention and is not uniform (Mezzadri, "How to generate random matrices from
the classical compact groups", Notices AMS 54, 2007). SO(n) flips the first column of the
elements with determinant -1, which maps one coset of O(n) onto the other by a fixed right
multiplication, so it keeps the measure uniform.
"""

from __future__ import annotations

import functools
import inspect
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

#: The keywords every sampler takes (``check_equivariance`` always passes them).
STANDARD_KEYWORDS: tuple[str, ...] = ("generator", "batch", "dtype", "device")

Axis = int | Sequence[int]


# -- samplers ---------------------------------------------------------------------------------
def _sampler(title: str) -> Callable[[Callable[..., torch.Tensor]], Callable[..., torch.Tensor]]:
    """Make ``fn`` a sampler of ``title`` that refuses any keyword it does not take, naming
    the sampler, the keyword and the keywords it does take."""

    def decorate(fn: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
        params = inspect.signature(fn).parameters

        @functools.wraps(fn)
        def sampler(**kw: Any) -> torch.Tensor:
            _refuse_unknown(fn.__name__, title, params, kw)
            return fn(**kw)

        return sampler

    return decorate


def _refuse_unknown(
    name: str, title: str, params: Mapping[str, Any], kw: Mapping[str, Any]
) -> None:
    unknown = [k for k in kw if k not in params]
    if unknown:
        sizes = [p for p in params if p not in STANDARD_KEYWORDS]
        takes = ", ".join(sizes) if sizes else "no size keyword"
        raise TypeError(
            f"sampler {name} ({title}) got an unexpected keyword {unknown[0]!r}: it takes "
            f"{takes} besides {', '.join(STANDARD_KEYWORDS)}"
        )


def _device(generator: torch.Generator, device: str | torch.device | None) -> torch.device:
    return torch.device(device) if device is not None else generator.device


def _check_size(name: str, n: Any) -> int:
    try:
        size = operator.index(n)
    except TypeError:
        size = 0
    if isinstance(n, bool) or size < 1:
        raise ValueError(f"{name}: sizes must be integers >= 1, got {n!r}")
    return size


def _complex_of(dtype: torch.dtype) -> torch.dtype:
    """The complex dtype of ``dtype``'s precision (float32 -> complex64)."""
    if dtype.is_complex:
        return dtype
    low = (torch.float32, torch.float16, torch.bfloat16)
    return torch.complex64 if dtype in low else torch.complex128


def _haar_orthogonal(
    generator: torch.Generator, batch: int, n: int, device: torch.device
) -> torch.Tensor:
    """``(batch, n, n)`` Haar-distributed orthogonal matrices in float64."""
    z = torch.randn(batch, n, n, generator=generator, dtype=torch.float64, device=device)
    q, r = torch.linalg.qr(z)
    d = torch.diagonal(r, dim1=-2, dim2=-1)
    sign = torch.where(d < 0, -1.0, 1.0).to(q.dtype)
    return q * sign.unsqueeze(-2)  # column j times sign(R_jj)


@_sampler("S_n, uniform")
def sample_permutation(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int,
) -> torch.Tensor:
    """``(batch, n)`` uniform random permutations of ``0..n-1`` (int64; ``dtype`` unused)."""
    n = _check_size("sample_permutation", n)
    dev = _device(generator, device)
    u = torch.rand(batch, n, generator=generator, dtype=torch.float64, device=dev)
    return torch.argsort(u, dim=1)


@_sampler("C_n, uniform")
def sample_cyclic(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int,
) -> torch.Tensor:
    """``(batch,)`` uniform shifts in ``0..n-1`` (int64; ``dtype`` unused)."""
    n = _check_size("sample_cyclic", n)
    return torch.randint(0, n, (batch,), generator=generator, device=_device(generator, device))


@_sampler("translations of a periodic grid, uniform")
def sample_translation(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, sizes: Sequence[int],
) -> torch.Tensor:
    """``(batch, k)`` uniform shifts of a periodic grid of ``sizes = (n_1, ..., n_k)``
    (shift j in ``0..n_j-1``; int64; ``dtype`` unused)."""
    sizes = [_check_size("sample_translation", s) for s in sizes]
    dev = _device(generator, device)
    cols = [torch.randint(0, s, (batch,), generator=generator, device=dev) for s in sizes]
    return torch.stack(cols, dim=1) if cols else torch.zeros(batch, 0, dtype=torch.long, device=dev)


@_sampler("O(n), Haar")
def sample_o(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int,
) -> torch.Tensor:
    """``(batch, n, n)`` Haar-random orthogonal matrices (both determinants, 1/2 each)."""
    n = _check_size("sample_o", n)
    return _haar_orthogonal(generator, batch, n, _device(generator, device)).to(dtype)


@_sampler("SO(n), Haar")
def sample_so(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int,
) -> torch.Tensor:
    """``(batch, n, n)`` Haar-random rotations (orthogonal, determinant +1)."""
    n = _check_size("sample_so", n)
    q = _haar_orthogonal(generator, batch, n, _device(generator, device))
    det_sign = torch.where(torch.linalg.det(q) < 0, -1.0, 1.0).to(q.dtype)
    q = q.clone()
    q[:, :, 0] = q[:, :, 0] * det_sign.unsqueeze(-1)
    return q.to(dtype)


@_sampler("SE(n): Haar rotation, Gaussian translation")
def sample_se(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int, translation_scale: float = 1.0,
) -> torch.Tensor:
    """``(batch, n+1, n+1)`` rigid motions ``[[R, t], [0, 1]]``: R Haar in SO(n), t normal
    with standard deviation ``translation_scale`` (SE(n) has no finite uniform measure)."""
    n = _check_size("sample_se", n)
    dev = _device(generator, device)
    r = sample_so(generator=generator, batch=batch, dtype=torch.float64, device=dev, n=n)
    t = float(translation_scale) * torch.randn(batch, n, generator=generator, dtype=torch.float64,
                                               device=dev)
    return _homogeneous(r, t).to(dtype)


@_sampler("positive scalings, log-uniform")
def sample_scaling(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, low: float = 0.1, high: float = 10.0,
) -> torch.Tensor:
    """``(batch,)`` scale factors, log-uniform on ``[low, high]`` (``0 < low <= high``)."""
    lo, hi = _scaling_range(low, high)
    dev = _device(generator, device)
    u = torch.rand(batch, generator=generator, dtype=torch.float64, device=dev)
    return torch.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * u).to(dtype)


@_sampler("U(n), Haar")
def sample_unitary(
    *, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
    device: str | torch.device | None = None, n: int,
) -> torch.Tensor:
    """``(batch, n, n)`` Haar-random unitary matrices, complex of ``dtype``'s precision
    (float64 -> complex128)."""
    n = _check_size("sample_unitary", n)
    dev = _device(generator, device)
    re = torch.randn(batch, n, n, generator=generator, dtype=torch.float64, device=dev)
    im = torch.randn(batch, n, n, generator=generator, dtype=torch.float64, device=dev)
    q, r = torch.linalg.qr(torch.complex(re, im) / math.sqrt(2.0))
    d = torch.diagonal(r, dim1=-2, dim2=-1)
    phase = torch.where(d.abs() > 0, d / d.abs(), torch.ones_like(d))
    return (q * phase.unsqueeze(-2)).to(_complex_of(dtype))


def _scaling_range(low: float, high: float) -> tuple[float, float]:
    lo, hi = float(low), float(high)
    if not (0 < lo <= hi < math.inf):
        raise ValueError(f"scaling: need 0 < low <= high < inf, got low={low!r}, high={high!r}")
    return lo, hi


def _homogeneous(r: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """``[[R, t], [0, 1]]`` from ``R (..., n, n)`` and ``t (..., n)``."""
    n = r.shape[-1]
    out = torch.zeros(*r.shape[:-2], n + 1, n + 1, dtype=r.dtype, device=r.device)
    out[..., :n, :n] = r
    out[..., :n, n] = t
    out[..., n, n] = 1
    return out


# -- strategies -------------------------------------------------------------------------------
_ANGLE = st.floats(-math.pi, math.pi, allow_nan=False, allow_infinity=False)


def _skew(n: int, entries: Sequence[float]) -> torch.Tensor:
    a = torch.zeros(n, n, dtype=torch.float64)
    iu = torch.triu_indices(n, n, offset=1)
    a[iu[0], iu[1]] = torch.tensor(list(entries), dtype=torch.float64)
    return a - a.T


def _rotation_angles(n: int) -> SearchStrategy[list[float]]:
    k = n * (n - 1) // 2
    return st.lists(_ANGLE, min_size=k, max_size=k)


def _rotation(n: int, angles: Sequence[float]) -> torch.Tensor:
    """``exp(A - A^T)``, re-orthonormalised: torch's float64 ``matrix_exp`` can be off
    orthogonality by ~1e-11 for small angles; the QR factor with the sign of R's diagonal
    restored is the same rotation, orthogonal to round-off."""
    m = torch.linalg.matrix_exp(_skew(n, angles))
    q, r = torch.linalg.qr(m)
    return q * torch.sign(torch.diagonal(r))


def permutation_strategy(n: int) -> SearchStrategy[list[int]]:
    """One permutation of ``0..n-1`` as a list; shrinks towards the identity."""
    return st.permutations(list(range(_check_size("permutation_strategy", n))))


def cyclic_strategy(n: int) -> SearchStrategy[int]:
    """One shift in ``0..n-1``; shrinks towards 0."""
    return st.integers(0, _check_size("cyclic_strategy", n) - 1)


def translation_strategy(sizes: Sequence[int]) -> SearchStrategy[list[int]]:
    """One shift per grid axis, as a list; shrinks towards no shift."""
    parts = [st.integers(0, _check_size("translation_strategy", s) - 1) for s in sizes]
    return st.tuples(*parts).map(list)


def so_strategy(n: int) -> SearchStrategy[list[list[float]]]:
    """One rotation ``exp(A - A^T)`` (every rotation is one), as a nested list; shrinks
    towards the identity."""
    n = _check_size("so_strategy", n)
    return _rotation_angles(n).map(lambda a: _rotation(n, a).tolist())


def o_strategy(n: int) -> SearchStrategy[list[list[float]]]:
    """One orthogonal matrix: a rotation, times ``diag(-1, 1, ..., 1)`` when a boolean says
    so (the other coset); shrinks towards the identity."""
    n = _check_size("o_strategy", n)

    def build(parts: tuple[list[float], bool]) -> list[list[float]]:
        r = _rotation(n, parts[0])
        if parts[1]:
            r[:, 0] = -r[:, 0]
        return r.tolist()

    return st.tuples(_rotation_angles(n), st.booleans()).map(build)


def se_strategy(n: int, translation_scale: float = 1.0) -> SearchStrategy[list[list[float]]]:
    """One rigid motion ``[[R, t], [0, 1]]`` (t within 4 ``translation_scale`` of 0), as a
    nested list; shrinks towards the identity."""
    n = _check_size("se_strategy", n)
    bound = 4.0 * float(translation_scale)
    shift = st.lists(st.floats(-bound, bound, allow_nan=False), min_size=n, max_size=n)

    def build(parts: tuple[list[float], list[float]]) -> list[list[float]]:
        t = torch.tensor(parts[1], dtype=torch.float64).reshape(n)
        return _homogeneous(_rotation(n, parts[0]), t).tolist()

    return st.tuples(_rotation_angles(n), shift).map(build)


def scaling_strategy(low: float = 0.1, high: float = 10.0) -> SearchStrategy[float]:
    """One scale factor in ``[low, high]``."""
    lo, hi = _scaling_range(low, high)
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def unitary_strategy(n: int) -> SearchStrategy[dict[str, list[list[float]]]]:
    """One unitary ``exp(iH)``, H Hermitian (every unitary is one), as
    ``{"real": [[...]], "imag": [[...]]}`` (how a complex tensor is stored); shrinks towards
    the identity."""
    n = _check_size("unitary_strategy", n)
    k = n * (n - 1) // 2
    parts = st.tuples(st.lists(_ANGLE, min_size=n, max_size=n),
                      st.lists(_ANGLE, min_size=k, max_size=k),
                      st.lists(_ANGLE, min_size=k, max_size=k))

    def build(p: tuple[list[float], list[float], list[float]]) -> dict[str, list[list[float]]]:
        diag, re, im = p
        upper = _skew(n, re).triu()  # the strict upper triangle holds `re`
        symmetric = upper + upper.T + torch.diag(torch.tensor(diag, dtype=torch.float64))
        h = torch.complex(symmetric, _skew(n, im))  # Hermitian: real symmetric + i antisymmetric
        u = torch.linalg.matrix_exp(1j * h)
        return {"real": u.real.tolist(), "imag": u.imag.tolist()}

    return parts.map(build)


# -- actions ----------------------------------------------------------------------------------
def as_element(g: Any, like: torch.Tensor, *, integer: bool = False) -> torch.Tensor:
    """A group element (tensor, nested list, number, or ``{"real", "imag"}``) as a tensor on
    ``like``'s device: int64 for index groups, else ``like``'s dtype (its complex partner when
    the element is complex and ``like`` is real)."""
    if isinstance(g, Mapping) and set(g) == {"real", "imag"}:
        g = torch.complex(torch.as_tensor(g["real"], dtype=torch.float64),
                          torch.as_tensor(g["imag"], dtype=torch.float64))
    t = torch.as_tensor(g, device=like.device)
    if integer:
        return t.long()
    if t.is_complex() and not like.is_complex():
        return t.to(_complex_of(like.dtype))
    return t.to(like.dtype)


def _dim(x: torch.Tensor, axis: int) -> int:
    """The tensor dimension of item axis ``axis`` (batch-first ``x``)."""
    item = x.dim() - 1
    if not -item <= axis < item:
        raise ValueError(f"axis {axis} is out of range for items of shape {tuple(x.shape[1:])}")
    return axis % item + 1


def _axes(axis: Axis) -> list[int]:
    return [axis] if isinstance(axis, int) else list(axis)


def _reindex(x: torch.Tensor, index: torch.Tensor, d: int) -> torch.Tensor:
    """``y[..., i, ...] = x[..., index[i], ...]`` along dim ``d``; ``index`` is ``(n,)`` for
    every item or ``(batch, n)`` per item."""
    if index.dim() == 1:
        return x.index_select(d, index)
    shape = [1] * x.dim()
    shape[0], shape[d] = index.shape[0], index.shape[1]
    return torch.gather(x, d, index.reshape(shape).expand(x.shape))


def act_permutation(g: Any, x: torch.Tensor, *, axis: Axis = 0) -> torch.Tensor:
    """``(g.x)[..., i, ...] = x[..., g[i], ...]`` along ``axis`` (an int, or several axes that
    are permuted alike: ``axis=(0, 1)`` gives ``P X P^T`` for an ``(n, n)`` item)."""
    p = as_element(g, x, integer=True)
    for a in _axes(axis):
        d = _dim(x, a)
        if p.shape[-1] != x.shape[d]:
            raise ValueError(f"a permutation of {p.shape[-1]} cannot act on axis {a} of size "
                             f"{x.shape[d]}")
        x = _reindex(x, p, d)
    return x


def act_cyclic(g: Any, x: torch.Tensor, *, axis: Axis = 0) -> torch.Tensor:
    """``(s.x)[i] = x[(i - s) mod n]`` along ``axis`` (``torch.roll`` by ``s``; several axes
    are shifted alike)."""
    s = as_element(g, x, integer=True)
    for a in _axes(axis):
        d = _dim(x, a)
        n = x.shape[d]
        idx = (torch.arange(n, device=x.device) - s.unsqueeze(-1)) % n
        x = _reindex(x, idx, d)
    return x


def act_translation(g: Any, x: torch.Tensor, *, axes: Sequence[int] | None = None) -> torch.Tensor:
    """Shift a periodic grid: roll item axis ``axes[j]`` by ``t[j]`` (default: the first
    ``k`` axes, for ``k`` shifts)."""
    t = as_element(g, x, integer=True)
    k = t.shape[-1]
    axes = list(range(k)) if axes is None else list(axes)
    if len(axes) != k:
        raise ValueError(f"a translation of {k} shifts needs {k} axes, got axes={axes}")
    for j, a in enumerate(axes):
        x = act_cyclic(t[..., j], x, axis=a)
    return x


def _matvec(m: torch.Tensor, x: torch.Tensor, d: int) -> torch.Tensor:
    """``m`` applied to the vectors along dim ``d``; ``m`` is ``(n, n)`` or ``(batch, n, n)``."""
    n = m.shape[-1]
    if x.shape[d] != n or m.shape[-2] != n:
        raise ValueError(f"a {tuple(m.shape[-2:])} matrix cannot act on dimension {d - 1} of "
                         f"items of shape {tuple(x.shape[1:])}")
    xm = x.movedim(d, -1)
    if m.dim() == 2:
        y = xm @ m.T
    else:
        y = (xm.reshape(xm.shape[0], -1, n) @ m.transpose(-1, -2)).reshape(xm.shape)
    return y.movedim(-1, d)


def _matrix(g: Any, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    m = as_element(g, x)
    if m.is_complex() and not x.is_complex():
        x = x.to(m.dtype)
    return m, x


def act_matrix(g: Any, x: torch.Tensor, *, axis: int = -1) -> torch.Tensor:
    """``x -> g x`` on the vectors along ``axis`` (each length-``n`` fibre of that axis)."""
    m, x = _matrix(g, x)
    return _matvec(m, x, _dim(x, axis))


def conjugate(g: Any, x: torch.Tensor, *, axes: tuple[int, int] = (-2, -1)) -> torch.Tensor:
    """``X -> g X g^H`` on the matrices spanned by ``axes`` (``g X g^T`` for real ``g``)."""
    m, x = _matrix(g, x)
    x = _matvec(m.conj(), x, _dim(x, axes[1]))
    return _matvec(m, x, _dim(x, axes[0]))


def act_rigid(g: Any, x: torch.Tensor, *, axis: int = -1) -> torch.Tensor:
    """``x -> R x + t`` on the points along ``axis``, for ``g = [[R, t], [0, 1]]``."""
    h = as_element(g, x)
    n = h.shape[-1] - 1
    d = _dim(x, axis)
    y = _matvec(h[..., :n, :n], x, d).movedim(d, -1)
    t = h[..., :n, n]
    if t.dim() == 2:
        t = t.reshape(t.shape[0], *([1] * (y.dim() - 2)), n)
    return (y + t).movedim(-1, d)


def act_rigid_vector(g: Any, x: torch.Tensor, *, axis: int = -1) -> torch.Tensor:
    """``x -> R x`` (directions, velocities: translations do not move them)."""
    h = as_element(g, x)
    n = h.shape[-1] - 1
    return _matvec(h[..., :n, :n], x, _dim(x, axis))


def act_scaling(g: Any, x: torch.Tensor, *, degree: float = 1) -> torch.Tensor:
    """``x -> s**degree x`` (``degree=0``: invariance; a homogeneous map of degree k has
    ``f(s x) = s**k f(x)``)."""
    s = as_element(g, x)
    if s.dim() == 1:
        s = s.reshape(-1, *([1] * (x.dim() - 1)))
    return x * s**degree


# -- the groups -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """A group's sampler, strategy and actions (see the module docstring).

    Attributes:
        name: the key of :func:`get` (``"so"``).
        title: how it reads (``"SO(n)"``).
        sample: the batched sampler ``(generator=, batch=, dtype=, device=, **size)``.
        strategy: ``strategy(**size)``, a hypothesis strategy for one element.
        actions: the actions ``(g, x, **options) -> g.x`` by kind; ``default`` names the one
            :meth:`act` uses.
        size: the size keyword of the sampler and strategy (``"n"``, ``"sizes"``), or None.
        complex: whether elements (and the inputs they act on) are complex.
    """

    name: str
    title: str
    sample: Callable[..., torch.Tensor]
    strategy: Callable[..., SearchStrategy[Any]]
    actions: Mapping[str, Callable[..., torch.Tensor]]
    default: str
    size: str | None = "n"
    complex: bool = False
    aliases: tuple[str, ...] = field(default=())

    def act(self, g: Any, x: torch.Tensor, **options: Any) -> torch.Tensor:
        """The default action: ``g.x`` for a batch-first ``x``."""
        return self.actions[self.default](g, x, **options)

    def action(
        self, kind: str | None = None, **options: Any
    ) -> Callable[[Any, torch.Tensor], torch.Tensor]:
        """The action ``kind`` (default: :attr:`default`) with ``options`` bound, as the
        ``(g, x) -> g.x`` callable ``check_equivariance`` takes (``SO.action(axis=0)``,
        ``SCALING.action(degree=2)``, ``SO.action("conjugate")``)."""
        kind = self.default if kind is None else kind
        if kind not in self.actions:
            raise ValueError(f"{self.title} has no action {kind!r}; it has "
                             f"{', '.join(map(repr, self.actions))}")
        fn = self.actions[kind]
        params = inspect.signature(fn).parameters
        for k in options:
            if k not in params or k in ("g", "x"):
                keys = [p for p in params if p not in ("g", "x")]
                raise TypeError(f"action {kind!r} of {self.title} got an unexpected keyword "
                                f"{k!r}; it takes {', '.join(keys) or 'none'}")

        def bound(g: Any, x: torch.Tensor) -> torch.Tensor:
            return fn(g, x, **options)

        return _named(bound, f"{self.name}.{kind}", options)

    def sampler(self, **size: Any) -> Callable[..., torch.Tensor]:
        """:attr:`sample` with its size keywords bound (``SO.sampler(n=3)``): a sampler of the
        standard keywords ``generator, batch, dtype, device`` only."""
        params = inspect.signature(self.sample).parameters
        _refuse_unknown(self.sample.__name__, self.title, params, size)
        sample = self.sample

        def bound(*, generator: torch.Generator, batch: int, dtype: torch.dtype = torch.float64,
                  device: str | torch.device | None = None) -> torch.Tensor:
            return sample(generator=generator, batch=batch, dtype=dtype, device=device, **size)

        return _named(bound, f"{self.name}.sampler", size)


def _named(fn: Callable[..., Any], name: str, options: Mapping[str, Any]) -> Callable[..., Any]:
    """``fn`` under a readable name (``so.sampler(n=3)``), shown in figure titles."""
    args = ", ".join(f"{k}={v!r}" for k, v in options.items())
    fn.__name__ = fn.__qualname__ = f"{name}({args})"
    return fn


PERMUTATION = Group("permutation", "S_n", sample_permutation, permutation_strategy,
                    {"axis": act_permutation}, "axis", aliases=("permutations", "symmetric"))
CYCLIC = Group("cyclic", "C_n", sample_cyclic, cyclic_strategy, {"axis": act_cyclic}, "axis",
               aliases=("shift", "roll"))
TRANSLATION = Group("translation", "Z_n1 x ... x Z_nk", sample_translation, translation_strategy,
                    {"grid": act_translation}, "grid", size="sizes", aliases=("grid",))
ROTATION = Group("so", "SO(n)", sample_so, so_strategy,
                 {"vector": act_matrix, "conjugate": conjugate}, "vector",
                 aliases=("rotation", "rotations"))
ORTHOGONAL = Group("o", "O(n)", sample_o, o_strategy,
                   {"vector": act_matrix, "conjugate": conjugate}, "vector",
                   aliases=("orthogonal",))
RIGID = Group("se", "SE(n)", sample_se, se_strategy,
              {"point": act_rigid, "vector": act_rigid_vector}, "point",
              aliases=("rigid", "euclidean"))
SCALING = Group("scaling", "R_>0", sample_scaling, scaling_strategy, {"scale": act_scaling},
                "scale", size=None, aliases=("scale",))
UNITARY = Group("unitary", "U(n)", sample_unitary, unitary_strategy,
                {"vector": act_matrix, "conjugate": conjugate}, "vector", complex=True,
                aliases=("u",))

#: Every group by name (:func:`get` also knows their aliases).
GROUPS: dict[str, Group] = {
    g.name: g
    for g in (PERMUTATION, CYCLIC, TRANSLATION, ROTATION, ORTHOGONAL, RIGID, SCALING, UNITARY)
}


def get(name: str | Group) -> Group:
    """The group called ``name`` (case-insensitive; aliases such as ``"rotation"`` work)."""
    if isinstance(name, Group):
        return name
    key = str(name).lower()
    for g in GROUPS.values():
        if key == g.name or key in g.aliases:
            return g
    raise ValueError(f"no group named {name!r}; groups: {', '.join(GROUPS)}")
