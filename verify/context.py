"""What a check receives: the seed, the profile, the device and its time budget.

Every random choice of a check flows from ``ctx.seed``, which is derived from the run's
seed and the claim id: running one claim alone (``verify run --claim ID --seed S``) gives
the same evidence as running it inside the full suite with seed ``S``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

PROFILES: dict[str, dict[str, float]] = {
    # per-claim time budget in seconds (a claim may set its own with @claim(timeout=...))
    "quick": {"timeout": 60.0},
    "deep": {"timeout": 1800.0},
    # `verify fuzz`: the deep budget, spent searching longer for counterexamples
    "fuzz": {"timeout": 1800.0},
}


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    h = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "big") >> 1


def claim_seed(run_seed: int, claim_id: str) -> int:
    """The seed of claim ``claim_id`` in a run seeded ``run_seed`` (:attr:`Context.seed`): a
    check that must reproduce another claim's runs derives that claim's seed here."""
    return derive_seed(run_seed, claim_id) % (2**31)


@dataclass
class Context:
    """The environment one claim's checks run in.

    Two seeds, for two jobs:

    - ``seed`` (derived from ``run_seed`` and ``claim_id``) seeds every random choice that
      belongs to this claim alone; an engine called with ``seed=None`` uses it
      (:func:`engine_seed`), as ``device=None`` uses ``device``;
    - ``run_seed`` is the run-wide seed: what several claims must share is seeded from it
      (a paper's trained models, memoised once per run seed and reused by every claim that
      reads them, :mod:`verify.memo`), never from one claim's ``seed``.

    Attributes:
        claim_id: the claim being checked.
        run_seed: the seed given to the run (``--seed``); seeds what claims share.
        seed: this claim's seed, derived from ``run_seed`` and ``claim_id``.
        profile: ``"quick"`` (CI, small sizes), ``"deep"`` (full sweeps, reproductions)
            or ``"fuzz"`` (deep, with larger search budgets).
        device: ``"cpu"`` or ``"cuda"``.
        budget_s: the time budget of this claim in seconds.
        source: where ``verify run`` finds this claim when it is not in a default source:
            a claims file (``path/to/claims.py``) or ``--module pkg.mod``; ``""`` otherwise.
        examples: ``verify fuzz --examples N``: every falsifier search of the claim runs
            ``N`` examples in all (its own budget otherwise), split over the shards.
        shards, shard: ``verify fuzz`` runs the claim ``shards`` times, this run being
            number ``shard``; each search then takes its share of the examples, with a seed
            derived from its own and the shard (:meth:`search_share`), and the runner merges
            the shards' evidence (:mod:`verify.shards`).
    """

    claim_id: str
    run_seed: int = 0
    profile: str = "quick"
    device: str = "cpu"
    budget_s: float = 60.0
    started: float = field(default_factory=time.monotonic)
    source: str = ""
    examples: int | None = None
    shards: int = 1
    shard: int = 0

    @property
    def seed(self) -> int:
        return claim_seed(self.run_seed, self.claim_id)

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    def pick(self, quick: T, deep: T, fuzz: T | None = None) -> T:
        """The value for this profile: ``ctx.pick(quick=50, deep=2000)``."""
        if self.profile == "quick":
            return quick
        if self.profile == "fuzz" and fuzz is not None:
            return fuzz
        return deep

    def subseed(self, *names: Any) -> int:
        """A seed for one named random stream of this claim (``ctx.subseed("weights")``)."""
        return derive_seed(self.seed, *names) % (2**31)

    def torch_generator(self, *names: Any, device: str | None = None):
        """A ``torch.Generator`` on ``device`` (default: the run's) seeded from this claim."""
        import torch

        g = torch.Generator(device=device or self.device)
        g.manual_seed(self.subseed(*names))
        return g

    def numpy_rng(self, *names: Any):
        """A ``numpy.random.Generator`` seeded from this claim."""
        import numpy as np

        return np.random.default_rng(self.subseed(*names))

    def time_left(self) -> float:
        """Seconds left of this claim's budget (checks may scale their search to it)."""
        return self.budget_s - (time.monotonic() - self.started)

    def search_share(self, budget: int, seed: int) -> tuple[int, int]:
        """The examples and the seed of one falsifier search asked for ``budget`` examples
        with ``seed``: unchanged in a plain run; under ``verify fuzz --examples N`` the
        search runs ``N``; with ``shards`` > 1 this shard runs its share (at least one) with
        a seed derived from ``seed`` and the shard, so the shards search different inputs
        and together run the whole budget."""
        if budget <= 0:  # no search was asked for
            return budget, seed
        total = budget if self.examples is None else self.examples
        if self.shards <= 1:
            return total, seed
        share = total // self.shards + (1 if self.shard < total % self.shards else 0)
        return max(1, share), derive_seed(seed, "shard", self.shard, self.shards) % (2**31)

    def rerun_command(self) -> str:
        """The command that re-runs this claim with the same seed and profile."""
        source = f"{self.source} " if self.source else ""
        if self.profile == "fuzz":  # `verify run` has no fuzz profile: `verify fuzz` is it
            split = (f" --examples {self.examples}" if self.examples is not None else "") + (
                f" --shards {self.shards}" if self.shards > 1 else "")
            return (f"verify fuzz {source}--claim {self.claim_id} --seed {self.run_seed}"
                    + split)
        return (f"verify run {source}--claim {self.claim_id} --seed {self.run_seed} "
                f"--profile {self.profile}")


#: The context of the claim whose checks run in this process now (set by
#: :func:`verify.execute.execute`), for engines that are not handed it (the falsifier).
_active: Context | None = None


@contextmanager
def activate(ctx: Context) -> Iterator[Context]:
    """Make ``ctx`` the active context while the claim's checks run."""
    global _active
    before, _active = _active, ctx
    try:
        yield ctx
    finally:
        _active = before


def active_device() -> str | None:
    """The device of the claim whose checks run in this process now (None outside a claim):
    the numeric engines run there when a check names no device, so that ``--device cpu``
    means the CPU for every search of the claim, on a machine with a GPU too."""
    return None if _active is None else _active.device


def active_seed() -> int | None:
    """The seed of the claim whose checks run in this process now (None outside a claim)."""
    return None if _active is None else _active.seed


def engine_seed(seed: int | None) -> int:
    """The seed an engine searches with: ``seed`` when given; for ``None``, the active
    claim's seed (:attr:`Context.seed`), as ``device=None`` follows the claim's device; and
    0 outside a claim, so a call from a script or a test stays reproducible."""
    if seed is not None:
        return int(seed)
    claim = active_seed()
    return 0 if claim is None else claim


def search_share(budget: int, seed: int) -> tuple[int, int]:
    """:meth:`Context.search_share` of the active context (unchanged outside a claim)."""
    return (budget, seed) if _active is None else _active.search_share(budget, seed)
