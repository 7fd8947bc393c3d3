"""Wirtinger derivatives, and the PyTorch convention for complex gradients.

PyTorch documents ("Autograd for Complex Numbers") that for a real loss L of a complex
leaf z it computes the conjugate Wirtinger derivative, scaled so that z.grad is the
steepest-ascent direction dL/dx + i dL/dy. These tests pin that down numerically:
z.grad == 2 dL/dzbar == conj(2 dL/dz), which is what ``torch_grad`` returns.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
import torch

from verify import Verdict
from verify.symbolic import prove_equal, torch_grad, wirtinger, wirtinger_conj

z, w = sp.symbols("z w")


def test_basic_rules() -> None:
    assert sp.expand(wirtinger(z ** 3 * sp.conjugate(z), z) - 3 * z ** 2 * sp.conjugate(z)) == 0
    assert sp.expand(wirtinger_conj(z ** 3 * sp.conjugate(z), z) - z ** 3) == 0
    assert wirtinger_conj(sp.exp(z) * sp.sin(z), z) == 0  # holomorphic
    assert sp.expand(wirtinger(sp.Abs(z) ** 2, z) - sp.conjugate(z)) == 0
    assert sp.expand(wirtinger(sp.re(z), z) - sp.Rational(1, 2)) == 0
    assert sp.expand(wirtinger_conj(sp.im(z), z) - sp.I / 2) == 0


def test_matches_real_partials() -> None:
    """d/dz = (d/dx - i d/dy)/2 on a non-holomorphic function, proved with prove_equal."""
    xx, yy = sp.symbols("xx yy", real=True)
    f = sp.Abs(z) ** 4 + z ** 2 * sp.conjugate(z) + sp.exp(sp.conjugate(z))
    fxy = f.subs(z, xx + sp.I * yy)
    expect = (sp.diff(fxy, xx) - sp.I * sp.diff(fxy, yy)) / 2
    got = wirtinger(f, z).subs(z, xx + sp.I * yy)
    assert prove_equal(got, expect).verdict is Verdict.PROVED
    expect_c = (sp.diff(fxy, xx) + sp.I * sp.diff(fxy, yy)) / 2
    got_c = wirtinger_conj(f, z).subs(z, xx + sp.I * yy)
    assert prove_equal(got_c, expect_c).verdict is Verdict.PROVED


def test_real_symbol_is_rejected() -> None:
    with pytest.raises(ValueError):
        wirtinger(sp.Symbol("r", real=True) ** 2, sp.Symbol("r", real=True))


LOSSES = {
    "abs2": (lambda z_, w_: sp.Abs(z_) ** 2, lambda z_, w_: z_.abs() ** 2),
    "re(z^2 conj w)": (lambda z_, w_: sp.re(z_ ** 2 * sp.conjugate(w_)),
                       lambda z_, w_: (z_ ** 2 * w_.conj()).real),
    "|z-w|^4": (lambda z_, w_: sp.Abs(z_ - w_) ** 4, lambda z_, w_: (z_ - w_).abs() ** 4),
    "log(1+|z|^2)": (lambda z_, w_: sp.log(1 + sp.Abs(z_) ** 2),
                     lambda z_, w_: torch.log(1 + z_.abs() ** 2)),
    "im(z^3)": (lambda z_, w_: sp.im(z_ ** 3), lambda z_, w_: (z_ ** 3).imag),
}


@pytest.mark.parametrize("name", list(LOSSES))
def test_torch_grad_is_twice_conjugate_wirtinger(name: str) -> None:
    sym, tor = LOSSES[name]
    rng = np.random.default_rng(0)
    g_sym = torch_grad(sym(z, w), z)
    g_fn = sp.lambdify((z, w), g_sym, "numpy")
    d_fn = sp.lambdify((z, w), wirtinger(sym(z, w), z), "numpy")
    for _ in range(5):
        zv, wv = complex(*rng.normal(size=2)), complex(*rng.normal(size=2))
        zt = torch.tensor(zv, dtype=torch.complex128, requires_grad=True)
        tor(zt, torch.tensor(wv, dtype=torch.complex128)).backward()
        grad = complex(zt.grad)
        assert abs(grad - complex(g_fn(zv, wv))) <= 1e-12 * max(1.0, abs(grad))
        assert abs(grad - np.conj(2 * complex(d_fn(zv, wv)))) <= 1e-12 * max(1.0, abs(grad))


def test_matrix_layout_matches_torch() -> None:
    """For a matrix of symbols Z, result[i, j] = d L / d Z[i, j]; torch's Z.grad entrywise."""
    Zs = sp.Matrix(2, 2, sp.symbols("z0:4"))
    L = sum(sp.Abs(e) ** 2 for e in Zs) + sp.re((Zs * Zs).trace())
    g = torch_grad(L, Zs)
    assert g.shape == (2, 2)
    rng = np.random.default_rng(1)
    vals = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2))
    Zt = torch.tensor(vals, dtype=torch.complex128, requires_grad=True)
    (Zt.abs().pow(2).sum() + torch.trace(Zt @ Zt).real).backward()
    sub = dict(zip(list(Zs), vals.reshape(-1).tolist(), strict=True))
    for r in range(2):
        for c in range(2):
            assert abs(complex(g[r, c].subs(sub).evalf()) - complex(Zt.grad[r, c])) < 1e-12


def test_matrix_symbol_variable() -> None:
    """d/dZbar tr(Z A Z^H) = Z A, entrywise, with a 2x2 MatrixSymbol as the variable."""
    Z, A = sp.MatrixSymbol("Z", 2, 2), sp.MatrixSymbol("A", 2, 2)
    g = wirtinger_conj(sp.Trace(Z * A * sp.conjugate(Z).T), Z)
    assert prove_equal(g, (Z * A).as_explicit()).verdict is Verdict.PROVED


def test_non_holomorphic_functions_are_refused_not_differentiated_to_zero() -> None:
    # arg(z), conj(sqrt(z)), |sqrt(z)| hide conj(z): differentiated as they stand, d/dzbar
    # would come out as 0
    z = sp.Symbol("z")
    for f in (sp.arg(z), sp.conjugate(sp.sqrt(z)), sp.conjugate(sp.log(z)), sp.sign(z),
              sp.Abs(sp.sqrt(z)), sp.Max(sp.re(z), 0)):
        for fn in (wirtinger, wirtinger_conj):
            with pytest.raises(ValueError, match="not holomorphic|cannot separate"):
                fn(f, z)
    # what can be separated still works
    assert sp.expand(wirtinger_conj(sp.Abs(z) ** 2, z) - z) == 0
    assert wirtinger(sp.exp(sp.conjugate(z)), z) == 0
    assert sp.expand(wirtinger(sp.im(z), z) + sp.I / 2) == 0
