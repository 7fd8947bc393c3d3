"""Float64 fuzzing of ``pegr.T.sinusoidal_rep`` (Table 1 row "Text / T", L31; proved in
``proofs/pegr/T.py``)."""

from __future__ import annotations

import torch
from hypothesis import strategies as st

import verify
from verify.numeric import falsify

from .model.encodings import SinusoidalPE, vaswani_freqs


@verify.evidence_for("pegr.T.sinusoidal_rep")
def T_sinusoidal_fuzz(ctx):
    """Float64 fuzzing (``falsify``) of ``gamma_T(x + t) = rho_T(t) gamma_T(x)`` with random
    frequencies in [1e-4, 1] and Vaswani's, F in 1..16, x, t in [-1e4, 1e4] (T = R) or integers
    (T = Z), tolerance ``1e-12 (1 + |alpha|(|x| + |t|))`` (argument reduction grows with
    ``|alpha x|``)."""
    def prop(generator, batch, dtype, device, F, integer, vaswani):
        al = (vaswani_freqs(F, 2 * F) if vaswani
              else 1e-4 + torch.rand(F, generator=generator, dtype=torch.float64,
                  device=generator.device))
        x = (torch.rand(batch, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1) * 1e4
        t = (torch.rand(batch, generator=generator, dtype=torch.float64,
            device=generator.device) * 2 - 1) * 1e4
        if integer:
            x, t = x.round(), t.round()
        pe = SinusoidalPE(al)
        lhs = pe(x + t)
        rhs = (pe.rho(t) @ pe(x)[..., None])[..., 0]
        scale = 1e-12 * (1 + al.max() * (x.abs() + t.abs()))
        return (lhs - rhs).abs().amax(-1) / scale

    ev = falsify(prop, {"F": st.integers(1, 16), "integer": st.booleans(),
                        "vaswani": st.booleans()},
                 budget=ctx.pick(quick=15, deep=100), batch=256, tol=1.0, seed=ctx.subseed("Tfuzz"))
    return ev.relabel(part="(ii)",
                      prefix="float64 fuzz, T = Z and R (units of the scaled tolerance)")
