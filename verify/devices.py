"""Choosing the torch device, and making float arithmetic on it honest.

On CUDA, TF32 is switched off so that float32 means IEEE float32 (DESIGN.md section 5).
"""

from __future__ import annotations

from .errors import UsageError


def resolve_device(device: str | None) -> str:
    """``None`` means CUDA when available, else CPU; ``"cuda"`` without a GPU is an error."""
    if device is None:
        try:
            import torch

            return "cuda" if torch.cuda.is_available() else "cpu"
        except ImportError:
            return "cpu"
    if device not in ("cpu", "cuda") and not device.startswith("cuda:"):
        raise UsageError(f"--device {device!r}: expected 'cpu' or 'cuda'")
    if device.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise UsageError(f"--device {device!r}: no CUDA device is available here")
    return device


def configure_torch(threads: int | None = None) -> None:
    """Deterministic, full-precision torch settings for a worker (set in its template, so
    every claim forked from it inherits them)."""
    try:
        import torch
    except ImportError:
        return
    if threads:
        torch.set_num_threads(threads)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


def set_device(device: str) -> None:
    """Make ``device`` current for a claim (a no-op on CPU)."""
    if device.startswith("cuda"):
        import torch

        torch.cuda.set_device(torch.device(device))
