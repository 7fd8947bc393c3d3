"""The verdicts a claim can end with; what each needs to be reached is verify/combine.py's
audit rule (docs/concepts.md, "Verdicts and what backs each")."""

from __future__ import annotations

from enum import Enum


class Verdict(str, Enum):
    """What the evidence computed in a run says about a claim.

    ``PROVED``          exact symbolic proof, in the stated generality.
    ``CERTIFIED``       existence/optimality backed by a certificate re-checked exactly.
    ``SUPPORTED``       numerically true on every input tried (float64).
    ``REFUTED``         false: a minimal counterexample, re-checked at high precision.
    ``REPRODUCED``      an experiment number of the paper, matched within tolerance.
    ``NOT_REPRODUCED``  an experiment number of the paper, not matched.
    ``UNDECIDED``       none of the above within budget, or not checkable; with a reason.
    """

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    SUPPORTED = "SUPPORTED"
    REFUTED = "REFUTED"
    REPRODUCED = "REPRODUCED"
    NOT_REPRODUCED = "NOT_REPRODUCED"
    UNDECIDED = "UNDECIDED"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: Verdict | str) -> Verdict:
        """Accept a Verdict or its name in any case (``"proved"``, ``"PROVED"``)."""
        if isinstance(value, Verdict):
            return value
        try:
            return cls[str(value).strip().upper()]
        except KeyError:
            names = ", ".join(v.value for v in cls)
            raise ValueError(f"unknown verdict {value!r}; expected one of {names}") from None
