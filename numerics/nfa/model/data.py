"""Data generators for the nfa experiments.

Every generator takes an explicit ``torch.Generator`` or ``numpy.random.Generator``; nothing
touches global RNG state. Nothing is downloaded:

* :func:`siren_sample_set` -- Sec. 4.1 (L188): samples of a random SIREN field (Table 3 init).
* :func:`sinusoid_regression` -- Sec. 4.2 (L209) / Table 6 "theoretical comparison" (L871):
  ``f(x) = sum_{k=1}^{50} c_k sin(omega_k^T x)``, N = 100, noise sigma = 0.01.
* :func:`poisson_solutions` -- App. G (L817-831): ``-Lap u = f`` on the unit square, zero
  Dirichlet boundary, ``f`` a sum of Gaussian bumps, 5-point finite differences on a 28 x 28
  grid, conjugate gradients (``scipy.sparse.linalg.cg``).
* :func:`digits_images` -- **stand-in for MNIST** (App. F): the 8 x 8 handwritten digits that
  ship inside scikit-learn (``sklearn.datasets.load_digits``, no download), intensities in
  [0, 1], optionally resampled (bilinear) to 28 x 28. Results on them are labelled stand-in.
* :func:`pixel_coords` -- Table 4 (L845) pixel-centre mapping ``x = -1 + 2 (i + 0.5) / 27``
  (Reading A, as printed) or ``/ 28`` (Reading B, centred in [-1, 1]); for an ``n``-pixel side
  the denominators are ``n - 1`` and ``n``.
* :func:`rerasterise` -- protocol P2: the image of ``g . I`` (``I(g^{-1} p)``, bilinear, zero
  outside = cropping) sampled on the same pixel grid.
"""

from __future__ import annotations

import math

import numpy as np
import torch
from torch import Tensor

from .siren import Siren


# ------------------------------------------------------------------------------------------
# Sec. 4.1: SIREN fields
# ------------------------------------------------------------------------------------------
def siren_sample_set(
    batch: int,
    n: int,
    d: int,
    *,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
    hidden: int = 64,
    num_layers: int = 3,
) -> tuple[Tensor, Tensor]:
    """``batch`` sample sets ``{(x_i, y_i)}``, ``x ~ U[-1, 1]^d``, ``y = f(x)`` with ``f`` a random
    SIREN (Table 3 init, omega_0 = 30), one field per set, rescaled to unit RMS over its samples
    (our choice: the Table 3 init gives fields of amplitude ~1e-3; the scale is irrelevant to the
    symmetry, only to absolute error levels). Returns ``x`` (batch, n, d), ``y`` (batch, n)."""
    x = 2 * torch.rand(batch, n, d, generator=generator, dtype=torch.float64,
        device=generator.device) - 1
    ys = []
    for b in range(batch):
        f = Siren(d, hidden, num_layers, 1, generator=generator, dtype=torch.float64)
        with torch.no_grad():
            yb = f(x[b])[..., 0]
        ys.append(yb / yb.pow(2).mean().sqrt())
    return x.to(dtype), torch.stack(ys).to(dtype)


# ------------------------------------------------------------------------------------------
# Sec. 4.2: sinusoidal regression for the attention-gradient experiment
# ------------------------------------------------------------------------------------------
def sinusoid_regression(
    seeds: int,
    *,
    n: int = 100,
    k: int = 50,
    d: int = 2,
    omega_scale: float = 3.0,
    noise: float = 0.01,
    generator: torch.Generator,
    dtype: torch.dtype = torch.float64,
) -> tuple[Tensor, Tensor]:
    """Design matrices and residuals for ``seeds`` independent draws (L209, Table 6 L871).

    ``x ~ U[-1, 1]^d``, ``omega_k ~ N(0, omega_scale^2 I)``, ``Phi_ik = sin(omega_k^T x_i)`` (no
    phases, L209), target ``y = Phi c* + noise * eps`` with ``c* ~ N(0, 1)``, evaluated at the
    initial coefficients ``c = 0`` so that ``r = y`` (our choices: the paper gives none of these
    distributions). Returns ``Phi`` (seeds, n, k) and ``r`` (seeds, n).
    """
    x = 2 * torch.rand(seeds, n, d, generator=generator, dtype=dtype, device=generator.device) - 1
    omega = omega_scale * torch.randn(seeds, k, d, generator=generator, dtype=dtype,
        device=generator.device)
    Phi = torch.sin(x @ omega.transpose(-1, -2))
    c_star = torch.randn(seeds, k, generator=generator, dtype=dtype, device=generator.device)
    r = (Phi @ c_star.unsqueeze(-1)).squeeze(-1) + noise * torch.randn(
        seeds, n, generator=generator, dtype=dtype, device=generator.device)
    return Phi, r


# ------------------------------------------------------------------------------------------
# App. G: Poisson solutions
# ------------------------------------------------------------------------------------------
def poisson_solutions(
    count: int, *, n: int = 28, bumps: int = 3, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Solve ``-Lap u = f`` on (0, 1)^2, ``u = 0`` on the boundary, on an ``n x n`` interior grid.

    ``f`` is a sum of ``bumps`` Gaussian bumps (centres U[0.2, 0.8]^2, widths U[0.05, 0.15],
    amplitudes U[0.5, 1.5] with random sign); 5-point Laplacian with ``h = 1/(n+1)``, solved
    by conjugate gradients to relative residual 1e-10 (App. G, L829). Returns ``u`` (count, n, n)
    and the relative residuals ``||A u - f|| / ||f||`` (count,).
    """
    import scipy.sparse as sp
    from scipy.sparse.linalg import cg

    h = 1.0 / (n + 1)
    main = 2.0 * np.ones(n)
    off = -np.ones(n - 1)
    T = sp.diags([off, main, off], [-1, 0, 1])
    eye = sp.identity(n)
    A = ((sp.kron(eye, T) + sp.kron(T, eye)) / h**2).tocsr()
    g = (np.arange(n) + 1) * h
    X, Y = np.meshgrid(g, g, indexing="ij")
    us, res = [], []
    for _ in range(count):
        f = np.zeros_like(X)
        for _b in range(bumps):
            cx, cy = rng.uniform(0.2, 0.8, size=2)
            w = rng.uniform(0.05, 0.15)
            amp = rng.uniform(0.5, 1.5) * rng.choice([-1.0, 1.0])
            f += amp * np.exp(-((X - cx) ** 2 + (Y - cy) ** 2) / (2 * w**2))
        rhs = f.ravel()
        try:
            u, info = cg(A, rhs, rtol=1e-10, maxiter=10 * n * n)
        except TypeError:  # scipy < 1.12
            u, info = cg(A, rhs, tol=1e-10, maxiter=10 * n * n)
        if info != 0:
            raise RuntimeError(f"CG did not converge (info={info})")
        us.append(u.reshape(n, n))
        res.append(np.linalg.norm(A @ u - rhs) / np.linalg.norm(rhs))
    return np.stack(us), np.asarray(res)


# ------------------------------------------------------------------------------------------
# App. F: MNIST stand-in (scikit-learn digits)
# ------------------------------------------------------------------------------------------
def digits_images(
    count: int, *, side: int = 8, rng: np.random.Generator, exclude: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random 8 x 8 digits from ``sklearn.datasets.load_digits`` (bundled, no download),
    intensities / 16 in [0, 1]; resampled bilinearly to ``side x side`` when ``side != 8``.
    ``exclude``: dataset indices not to draw (a held-out split; see :func:`digits_indices`).

    STAND-IN for MNIST (App. F uses 28 x 28 MNIST, which is not available offline).
    Returns images (count, side, side) and their labels.
    """
    from sklearn.datasets import load_digits

    ds = load_digits()
    idx = digits_indices(count, rng=rng, total=len(ds.images), exclude=exclude)
    imgs = ds.images[idx] / 16.0
    if side != 8:
        from scipy.ndimage import zoom

        imgs = np.stack([np.clip(zoom(im, side / 8.0, order=1), 0.0, 1.0) for im in imgs])
    return imgs, ds.target[idx]


def digits_indices(
    count: int, *, rng: np.random.Generator, total: int = 1797, exclude: np.ndarray | None = None
) -> np.ndarray:
    """The dataset indices :func:`digits_images` draws with ``rng`` (same stream, same result)."""
    if exclude is None or len(exclude) == 0:
        return rng.choice(total, size=count, replace=False)
    pool = np.setdiff1d(np.arange(total), np.asarray(exclude))
    return pool[rng.choice(len(pool), size=count, replace=False)]


def pixel_coords(side: int, reading: str = "A") -> np.ndarray:
    """Pixel-centre coordinates of Table 4 (L843), shape (side*side, 2), ``(row, col)`` order.

    Reading A (as printed, for side 28): ``-1 + 2 (i + 0.5) / 27`` -> [-0.963, 1.037];
    Reading B: ``-1 + 2 (i + 0.5) / 28`` -> [-0.964, 0.964] (symmetric). For another side ``n``
    the denominators are ``n - 1`` (A) and ``n`` (B).
    """
    den = {"A": side - 1, "B": side}[reading]
    t = -1.0 + 2.0 * (np.arange(side) + 0.5) / den
    X, Y = np.meshgrid(t, t, indexing="ij")
    return np.stack([X.ravel(), Y.ravel()], -1)


def rerasterise(img: np.ndarray, a: float, b: np.ndarray, reading: str = "A") -> np.ndarray:
    """Protocol P2: ``I'(p) = I(g^{-1} p) = I((p - b)/a)`` on the same pixel grid, bilinear,
    zero outside the image (cropping). ``img`` (side, side); returns (side, side)."""
    from scipy.ndimage import map_coordinates

    side = img.shape[0]
    den = {"A": side - 1, "B": side}[reading]
    p = pixel_coords(side, reading)
    q = (p - np.asarray(b)[None, :]) / a
    idx = (q + 1.0) * den / 2.0 - 0.5  # invert x = -1 + 2 (i + 0.5) / den
    out = map_coordinates(img, [idx[:, 0], idx[:, 1]], order=1, mode="constant", cval=0.0)
    return out.reshape(side, side)


def sphere_grid(n_theta: int = 30, n_phi: int = 30, dtype: torch.dtype = torch.float64) -> Tensor:
    """Points of the unit sphere on the Table 6 (L870) grid ``n_theta x n_phi``, shape (M, 3)."""
    th = torch.linspace(0, math.pi, n_theta, dtype=dtype)
    ph = torch.linspace(0, 2 * math.pi, n_phi, dtype=dtype)
    T, P = torch.meshgrid(th, ph, indexing="ij")
    return torch.stack([T.sin() * P.cos(), T.sin() * P.sin(), T.cos()], -1).reshape(-1, 3)


def square_grid(n: int = 100, half: float = 1.5, dtype: torch.dtype = torch.float64) -> Tensor:
    """The Table 6 (L869) grid ``n x n`` on ``[-half, half]^2``, shape (n*n, 2)."""
    t = torch.linspace(-half, half, n, dtype=dtype)
    X, Y = torch.meshgrid(t, t, indexing="ij")
    return torch.stack([X, Y], -1).reshape(-1, 2)
