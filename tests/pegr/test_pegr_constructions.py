"""Tests of the pegr constructions: encodings, groups, graphs, attention, NTK, INR targets."""

import math

import numpy as np
import torch

from numerics.pegr.attention import PESelfAttention
from numerics.pegr.model import graphs as gr
from numerics.pegr.model.encodings import (
    RoPE,
    SinusoidalPE,
    SO2BesselPE,
    real_sh,
    sphere_points,
    vaswani_freqs,
)
from numerics.pegr.model.groups import commutant_dim, haar_so3, kron_I, rot2, vec_col, vec_row
from numerics.pegr.model.inr import EnsembleMLP, grid, radial_vf, train_ensemble, train_inr
from numerics.pegr.ntk import relu_ntk


def test_vec_and_kron_conventions():
    A, B = torch.randn(3, 3, dtype=torch.float64), torch.randn(3, 3, dtype=torch.float64)
    assert torch.allclose(vec_col(A @ B), kron_I(A, "I(x)A") @ vec_col(B))
    assert torch.allclose(vec_row(A @ B), kron_I(A, "A(x)I") @ vec_row(B))


def test_haar_so3_is_rotation():
    R = haar_so3(10, torch.Generator().manual_seed(0))
    eye = torch.eye(3, dtype=torch.float64).expand(10, 3, 3)
    assert torch.allclose(R @ R.transpose(-1, -2), eye, atol=1e-12)
    assert torch.allclose(torch.linalg.det(R), torch.ones(10, dtype=torch.float64))


def test_sinusoidal_equivariance_and_rope_relative():
    pe = SinusoidalPE(vaswani_freqs(4))
    x = torch.tensor([3.0, -7.0], dtype=torch.float64)
    t = torch.tensor([5.0, 2.0], dtype=torch.float64)
    assert torch.allclose(pe(x + t), (pe.rho(t) @ pe(x)[..., None])[..., 0], atol=1e-12)
    rp = RoPE(8)
    q, k = torch.randn(8, dtype=torch.float64), torch.randn(8, dtype=torch.float64)
    m, n = torch.tensor(4.0), torch.tensor(9.0)
    assert torch.allclose((rp(q, m) * rp(k, n)).sum(), (q * rp(k, n - m)).sum(), atol=1e-12)


def test_so2_bessel_pe_equivariant():
    pe = SO2BesselPE.sample(25.0, 8, 16, torch.Generator().manual_seed(1))
    p = torch.tensor([[0.3, -0.4], [-0.9, 1e-9]], dtype=torch.float64)
    phi = torch.tensor(1.234, dtype=torch.float64)
    lhs = pe(p @ rot2(phi).T)
    rhs = pe(p) @ pe.rho(phi).T
    assert torch.allclose(lhs, rhs, atol=1e-12)


def test_commutant_dims_known_answers():
    R = haar_so3(3, torch.Generator().manual_seed(2)).numpy()
    assert commutant_dim(list(R)) == 1
    assert commutant_dim([np.eye(3)] * 2) == 6
    Rt = [rot2(torch.tensor(a)).numpy() for a in (0.3, 1.1)]
    assert commutant_dim(Rt) == 1 and commutant_dim(Rt, "complex") == 2


def test_real_sh_orthonormal():
    P = sphere_points(20000, np.random.default_rng(0))
    Y = real_sh(2, P)
    G = 4 * math.pi * Y.T @ Y / len(P)
    assert np.abs(G - np.eye(5)).max() < 0.1


def test_graph_action_and_eigenspaces():
    D7 = gr.dihedral(7)
    assert len(set(D7)) == 14
    es = gr.eigenspaces(gr.laplacian(gr.cycle(7)))
    assert [Phi.shape[0] for _, Phi in es] == [1, 2, 2, 2]
    assert len(gr.generate(gr.petersen_generators())) == 120


def test_scalar_attention_equivariant_column_major():
    R = haar_so3(5, torch.Generator().manual_seed(3))
    G = vec_col(R[:4]).T  # (9, 4)
    g = R[4]
    att = PESelfAttention.scalar(9, 0.7, 1.3, -0.4)
    lhs = att(vec_col(g @ R[:4]).T)
    rhs = kron_I(g, "I(x)A") @ att(G)
    assert torch.allclose(lhs, rhs, atol=1e-12)


def test_relu_ntk_rotation_invariant():
    U = torch.randn(5, 6, dtype=torch.float64)
    Q = torch.linalg.qr(torch.randn(6, 6, dtype=torch.float64))[0]
    assert torch.allclose(relu_ntk(U @ Q.T, U @ Q.T), relu_ntk(U, U), atol=1e-10)


def test_targets_and_grid():
    P = grid(8)
    assert P.shape == (64, 2) and not (P.norm(dim=1) == 0).any()
    phi = torch.tensor(0.8, dtype=torch.float64)
    Rm = rot2(phi)
    assert torch.allclose(radial_vf(P @ Rm.T), radial_vf(P) @ Rm.T, atol=1e-12)


def test_ensemble_training_equals_single_runs():
    single, _ = train_inr("Radial", "TxT", {"c": 5.0, "lr": 1e-2}, 3, n=16, steps=5, width=16)
    ens, _ = train_ensemble("Radial", [("TxT", {"c": 5.0, "lr": 1e-2}, 3)], n=16, steps=5, width=16)
    assert abs(single.test - ens[0].test) <= 1e-5 * max(1.0, single.test)
    ensemble = EnsembleMLP(2, 1, [torch.Generator().manual_seed(0)], 8)
    assert isinstance(ensemble(torch.zeros(1, 3, 2)), torch.Tensor)
