"""App. C.2: the naive baseline with relative-position biases (eqs. (5)-(7))."""

from __future__ import annotations

import itertools

import torch

import verify
from proofs.sih import PAPER
from verify import Evidence
from verify.symbolic import prove_cases


@verify.claim(
    "sih.naive.rpe_construction", paper=PAPER, where="App. C L753-826; eqs. (5)-(7)",
    kind="property", expect="UNDECIDED",
    statement=r"D=(2k+2)V;\ 2k\text{ RPE heads};\ \langle\tilde{\mathcal N},\tilde{\mathcal N}'"
              r"\rangle=k\iff\text{agree, else}\le k-1;\ \text{bias table }O(T\cdot L);"
              r"\ \text{scales poorly in }k,V",
)
def naive_rpe_construction(ctx):
    """(ii) Hamming identity <N, N'> = #agreements of the one-hot encodings: exhaustive over
    V <= 3, k <= 4 (PROVED on that domain). (iii) counting: in 1D (T1) each head's target sits
    at sequence offset L+1-delta or that +-L (wrap): <= 2 values per head, so the table the
    construction needs is O(k), while a table over all relative positions has ~T L entries;
    which is meant is not stated. (iv) D_naive = (2k+2)V vs D(h=|U|) = 2(|U|+1)V + 2d + 2
    tabulated; 'scales poorly' is interpretive. UNDECIDED overall."""
    cases, n = [], 0
    for V in (2, 3):
        for k in range(1, 5):
            confs = torch.tensor(list(itertools.product(range(V), repeat=k)))
            oh = torch.nn.functional.one_hot(confs, V).flatten(1)
            agree = (confs[:, None, :] == confs[None, :, :]).sum(-1)
            cases.append((f"V={V}, k={k}: pairs with <N, N'> != #agreements",
                          int((oh @ oh.T != agree).sum()), 0))
            n += agree.numel()
    ev_h = prove_cases(cases, part="hamming",
                       generality="V <= 3, k <= 4 (all pairs); for symbolic V, k the inner "
                                  "product is a sum of Kronecker deltas, not proved here",
                       summary=f"<N, N'> = #agreements on {n} pairs")
    offsets = {}
    for L in (6, 10):
        for T in (3, 5):
            vals = {(dl, t * (L + 1) + i - ((t - 1) * (L + 1) + (i + dl) % L))
                    for t in range(1, T) for i in range(L) for dl in (-1, 0, 1)}
            offsets[f"L={L},T={T}"] = len(vals)
    dims = {f"k={k},V={V}": {"D_naive": (2 * k + 2) * V,
                             "D_h=|U|(ECA-like |U|=k+1)": 2 * (k + 2) * V + 4}
            for k in (3, 5, 9) for V in (2, 3)}
    return [ev_h, Evidence.informal(
        "(iii)/(iv): counting depends on what the table indexes; distinct (head, offset) pairs "
        f"the construction needs: {offsets}; dimension table {dims}", part="counting",
        numbers={"offsets": offsets, "dims": dims})]
