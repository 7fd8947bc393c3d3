"""The exceptions :mod:`verify` raises, one class per kind of mistake.

Modelled on hypothesis's ``errors.py``: every error the tool raises on purpose derives
from :class:`VerifyError`, and each subclass names one kind of problem, so callers can
catch exactly what they mean to. Messages quote the offending input (the claim id, the
file, the value) so that a user can find and fix it without a traceback.
"""

from __future__ import annotations


class VerifyError(Exception):
    """Base class of every error raised on purpose by :mod:`verify`."""


class ClaimDefinitionError(VerifyError, ValueError):
    """A claim was registered wrongly: a missing or malformed field, a bad kind.

    Raised at import time, naming the claim id and the file that registered it.
    """


class DuplicateClaimError(ClaimDefinitionError):
    """Two checks were registered under the same claim id."""


class UnknownClaimError(VerifyError, KeyError):
    """A claim id (or a glob) matched no registered claim."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the plain message.
        return str(self.args[0]) if self.args else "unknown claim"


class DiscoveryError(VerifyError, ImportError):
    """A module holding claims could not be imported."""


class UsageError(VerifyError, ValueError):
    """Bad arguments to the runner or the CLI (unknown profile, device, glob...)."""


class EvidenceError(VerifyError, TypeError):
    """A check returned something that is not evidence, or malformed evidence."""


class ResultsFileError(VerifyError, ValueError):
    """A results (JSON-lines) file could not be read back, or written."""


class ResultsFileInUseError(ResultsFileError):
    """Another run holds the results file (its lock names the process)."""


class ReportError(VerifyError, RuntimeError):
    """The LaTeX report could not be written or compiled."""
