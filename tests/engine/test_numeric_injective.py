"""verify.numeric.check_injective: exhaustive collisions on finite domains, sampled collisions
and gaps on continuous ones."""

from __future__ import annotations

import torch
from hypothesis import strategies as st

from verify import Verdict
from verify.combine import audit
from verify.numeric import check_injective, randn

P = 10007  # prime: n -> 7919 n mod P is a bijection of Z_P


def modmul(n: torch.Tensor) -> torch.Tensor:
    return (n * 7919) % P


def modmul_rare_collision(n: torch.Tensor) -> torch.Tensor:
    """Injective except that 4321 is sent where 17 goes."""
    return modmul(torch.where(n == 4321, torch.full_like(n, 17), n))


def test_finite_injective_is_supported_exhaustively():
    ev = check_injective(modmul, torch.arange(5000), device="cpu")
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert ev.numbers["domain_size"] == 5000 and ev.numbers["collisions"] == 0
    assert ev.numbers["min_gap"] >= 1  # integer outputs: exact


def test_finite_rare_collision_is_found():
    ev = check_injective(modmul_rare_collision, torch.arange(5000), device="cpu")
    assert ev.verdict is Verdict.REFUTED
    assert ev.counterexample["indices"] == [17, 4321]
    assert ev.counterexample["inputs"] == [17, 4321]
    assert audit(ev) is ev


def test_finite_sequence_domain_and_duplicates_are_not_collisions():
    words = ["ab", "ba", "ab", "abc"]
    assert check_injective(lambda w: w[::-1], words, batched=False).verdict is Verdict.SUPPORTED
    ev = check_injective(len, ["ab", "ba", "abc"], batched=False)
    assert ev.verdict is Verdict.REFUTED and ev.counterexample["inputs"] == ["ab", "ba"]


def test_finite_float32_rounding_collision_is_judged_in_float64():
    xs = torch.tensor([1.0, 1.0 + 2**-20, 2.0], dtype=torch.float32)
    ev = check_injective(lambda x: x + 1e3, xs, device="cpu")  # float32 merges the first two
    assert ev.numbers["collisions_in_output_dtype"] == 1
    assert ev.verdict is Verdict.SUPPORTED, ev.summary


def test_finite_rounding_level_gap_is_undecided():
    xs = torch.tensor([1.0, 1.0 + 2**-50, 3.0], dtype=torch.float64)
    ev = check_injective(lambda x: x, xs, device="cpu")
    assert ev.verdict is Verdict.UNDECIDED and "rounding" in ev.summary


def gaussian(generator, batch, dtype, device, s):
    return s * randn(batch, 2, generator=generator, dtype=dtype, device=device)


def corner_collapse(x: torch.Tensor) -> torch.Tensor:
    """The identity, except that the corner x0 > 2.5, x1 > 2.5 collapses to one point."""
    corner = (x[:, 0] > 2.5) & (x[:, 1] > 2.5)
    return torch.where(corner[:, None], torch.full_like(x, 2.5), x)


def test_sampled_corner_collision_is_found():
    ev = check_injective(
        corner_collapse, gaussian, params={"s": st.floats(0.5, 4.0)}, budget=30, batch=256,
        device="cpu",
    )
    assert ev.verdict is Verdict.REFUTED, ev.summary
    x, y = ev.counterexample["inputs"]["x"], ev.counterexample["inputs"]["partner"]
    assert x != y and min(x + y) > 2.5
    assert audit(ev) is ev


def test_sampled_injective_reports_gaps():
    def radial_exp(x):
        return x * torch.exp(x.norm(dim=1, keepdim=True))

    ev = check_injective(
        radial_exp, gaussian, params={"s": st.floats(0.5, 4.0)}, budget=10, batch=256, device="cpu"
    )
    assert ev.verdict is Verdict.SUPPORTED, ev.summary
    assert 0 < ev.numbers["min_ratio"] and 0 < ev.numbers["min_gap"]
    assert len(ev.numbers["min_gap_pair"]["x"]) == 2
