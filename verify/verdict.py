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
    ``ERROR``           no verdict: the claim's own code crashed (below).

    ERROR says nothing about the paper (DESIGN.md: "a crash of a claim's code is ERROR, not a
    verdict"): a check raised, or returned something that is not evidence. It is a bug in the
    claim to fix, shown apart from the verdicts and making ``verify run`` exit 3. Evidence
    never carries it and the combining rule never reaches it; only
    :func:`verify.execute.execute` sets it. A claim that ran out of time or memory, or whose
    process was killed, is UNDECIDED with the reason instead: a limit of the run, not a fault
    of the code.
    """

    PROVED = "PROVED"
    CERTIFIED = "CERTIFIED"
    SUPPORTED = "SUPPORTED"
    REFUTED = "REFUTED"
    REPRODUCED = "REPRODUCED"
    NOT_REPRODUCED = "NOT_REPRODUCED"
    UNDECIDED = "UNDECIDED"
    ERROR = "ERROR"

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
