"""Claims ``nfa.info.*``: the paper's informal statements, recorded and never dropped.

Each is UNDECIDED with the reason it is not checkable as printed (no metric, model class,
test or definition is named), and says where the related checkable claims are.
"""

from __future__ import annotations

import verify
from verify import Evidence

PAPER = "nfa"


@verify.claim(
    "nfa.info.vit_fixed_pe_ood_scales",
    paper=PAPER,
    where="L150",
    statement=r"\text{vision Transformers using fixed positional encodings will fail on "
    r"out-of-distribution scales}",
    kind="informal",
    expect="UNDECIDED",
)
def vit_fixed_pe_ood_scales(ctx: verify.Context) -> Evidence:
    """Stated informally as a consequence of Lemma 2, which concerns linear operators into a
    fixed sinusoidal span; ViTs are nonlinear and "fail" is not defined."""
    return Evidence.informal(
        "not a checkable statement: 'vision Transformers ... will fail on out-of-distribution "
        "scales' names no metric, model class or scale range, and Lemma 2, from which L150 draws "
        "it, concerns only linear operators into a fixed sinusoidal span"
    )


@verify.claim(
    "nfa.info.emerge_not_training",
    paper=PAPER,
    where="Intro bullets L17-19",
    statement=r"\text{These properties emerge from the mathematical structure of attention, "
    r"not from training}",
    kind="informal",
    expect="UNDECIDED",
)
def emerge_not_training(ctx: verify.Context) -> Evidence:
    """Recorded: in Thm 3/6 the construction supplies the keys phi(x_i), the values r_i (a
    forward evaluation of f) and the selector queries e_k (L414, L464-469); attention only
    forms sum_i alpha_ki V_i. In Thm 4 every step uses the normalisation pre-processing, not
    attention (see nfa.eq.thm1_normalization's audit and nfa.eq.iff_necessity)."""
    return Evidence.informal(
        "not a checkable statement: 'emerge from the mathematical structure of attention, not "
        "from training' attributes a cause and names no test that could tell; recorded: keys, "
        "values (residuals) and selector queries are supplied by the construction, and "
        "equivariance comes from the normalisation step, not from attention "
        "(nfa.eq.iff_necessity)"
    )


@verify.claim(
    "nfa.info.attention_geometric_prior",
    paper=PAPER,
    where="L7, L15, L21, L228",
    statement=r"\text{attention mechanisms implicitly encode geometric priors suited for "
    r"continuous function learning}",
    kind="informal",
    expect="UNDECIDED",
)
def attention_geometric_prior(ctx: verify.Context) -> Evidence:
    """No operational definition of "geometric prior"; L228's "inherently equivariant" holds
    only under A1-A3 (Thm 1), and the unnormalised relative-PE operator is not equivariant
    (nfa.eq.relative_pe_translation, nfa.eq.thm1_contfreq)."""
    return Evidence.informal(
        "not a checkable statement: 'geometric prior' is undefined; 'inherently equivariant' "
        "(L228) holds only under the normalisation of Thm 1, not for attention as such"
    )


@verify.claim(
    "nfa.info.p_values",
    paper=PAPER,
    where="L33",
    statement=r"\text{(10 seeds, all } p<0.001)",
    kind="informal",
    expect="UNDECIDED",
)
def p_values(ctx: verify.Context) -> Evidence:
    """The paper names no test, null hypothesis or statistic for these p-values."""
    return Evidence.informal(
        "not checkable: no test, null hypothesis or statistic is named for 'p < 0.001', so no "
        "p-value can be recomputed"
    )
