"""Choosing the torch device, and making float arithmetic on it honest.

On CUDA, TF32 is switched off so that float32 means IEEE float32: the numeric engine's
tolerances are multiples of float32's eps (verify.numeric.falsify.default_tol), which TF32's
10-bit mantissa would silently exceed.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

from .errors import UsageError


def resolve_device(device: str | None) -> str:
    """``None`` means CUDA when available, else CPU; ``"cuda"`` without a GPU is an error.

    A torch built without CUDA answers ``"cpu"`` without being imported (a run's parent
    process then never pays for importing torch: its claims import it in their workers)."""
    if device is None:
        if "torch" not in sys.modules and not _torch_has_gpu_build():
            return "cpu"
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


def _torch_has_gpu_build() -> bool:
    """Whether the installed torch may see a GPU: False only when it is absent or its
    ``torch/version.py`` (read, not imported) names no CUDA, ROCm or XPU build."""
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    try:
        tree = ast.parse((Path(next(iter(spec.submodule_search_locations))) / "version.py")
                         .read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, StopIteration):
        return True  # cannot tell: ask torch itself
    builds = {"cuda", "hip", "rocm", "xpu"}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id in builds:
            if not (isinstance(value, ast.Constant) and value.value is None):
                return True
    return False


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
    """Make ``device`` current for a claim (a no-op on CPU, and for a bare ``"cuda"``, which
    means the current GPU: ``torch.cuda.set_device`` wants an index)."""
    if device.startswith("cuda"):
        import torch

        index = torch.device(device).index
        if index is not None:
            torch.cuda.set_device(index)
