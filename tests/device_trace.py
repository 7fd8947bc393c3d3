"""A detector of device-unclean checks that needs no GPU.

A check is *device-clean* when it runs unchanged on whatever device its claim runs on: every
tensor it makes is made on the claim's device (from the claim's generator, or with
``device=`` the claim's device or another tensor's ``.device``), it never meets a tensor the
CPU holds, and NumPy only ever sees tensors brought to the CPU with ``.cpu()`` first. On a CPU
machine a check that pins ``device="cpu"`` or forgets ``device=`` gives the same numbers, so
only a GPU run would show it, as torch's "Expected all tensors to be on the same device".

:class:`DeviceTrace` shows it on the CPU. The claim's device is :data:`CLAIM_DEVICE`, the string
``"cpu"`` marked as the claim's (torch takes it wherever it takes a device), and a
:class:`torch.overrides.TorchFunctionMode` follows every tensor's *virtual* device through the
check: a tensor is on the claim's device (``DEV``) when it is made with ``device=`` the claim's
device (the marker, or the ``.device`` of a ``DEV`` tensor, which the trace answers with the
marker), drawn from a generator made on it, or computed from a ``DEV`` tensor; it is on the host
(``HOST``) when it is made without a device or with ``device="cpu"``, brought there with
``.cpu()``, made from NumPy, or existed before the trace (module constants). The trace records a
finding, with the line of the check's code that did it, where a GPU run would fail:

* an operation takes a ``DEV`` tensor and a ``HOST`` tensor of one or more dimensions (a
  zero-dimensional CPU tensor is a scalar to CUDA, so that mix is allowed);
* ``.numpy()`` (or ``numpy.asarray``) of a ``DEV`` tensor;
* a random tensor drawn from a generator on one device into a tensor on the other.

torch's function transforms (``torch.func.jvp``, ``jacfwd``, ``jacrev``, ``grad``, ``vmap``)
wrap and unwrap their tensors in C++ (:data:`FUNCTORCH_WRAPPERS`), out of the trace's sight;
the trace wraps those calls so that a wrapped or unwrapped tensor keeps the device of the
tensor it wraps, as torch keeps it. ``Module.to`` parses its device into a fresh
``torch.device``; the trace keeps a host device (``.device`` of a host tensor or generator, or
``"cpu"``) on the host there, as it does for the fresh device keys of
``torch._C._group_tensors_by_device_and_dtype`` (``clip_grad_norm_``, the optimisers). A
gradient has its tensor's device: ``.grad`` reads as its tensor's device (autograd fills it in
C++), ``p.grad = None`` leaves ``p`` where it is, and assigning a gradient on the other device
is a finding.

What it cannot see: code that never goes through torch's Python API (C extensions), and a
``torch.device("cpu")`` object, which it takes for a tensor's device (on the claim's device).
A check that draws all its tensors from its own host generators has nothing on the claim's
device: the trace finds nothing there, rightly (a GPU run would not fail), though such a check
runs on the CPU whatever the claim's device.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._pytree import tree_flatten
from torch.utils.weak import WeakIdKeyDictionary

ROOT = Path(__file__).resolve().parents[1]
DEV, HOST = "claim device", "host"


class ClaimDevice(str):
    """``"cpu"`` marked as the claim's device; reads like a ``torch.device`` where code asks."""

    type = "cpu"
    index = None

    def __str__(self) -> str:  # str() keeps the mark (verify's device helpers call it)
        return self


CLAIM_DEVICE = ClaimDevice("cpu")
#: What ``.device`` answers for a host tensor or generator in the trace: a ``device=`` that is
#: this very object names the host; any other ``torch.device`` is taken for the claim's.
HOST_DEVICE = torch.device("cpu")

#: Factories whose result is on ``device=`` (the host when none is given).
FACTORIES = frozenset(
    "zeros ones empty full rand randn randint randperm arange linspace logspace eye tensor "
    "as_tensor scalar_tensor normal complex_ empty_strided sparse_coo_tensor".split())
#: Factories and methods whose result follows their first tensor when no device is given.
LIKE = frozenset(
    "zeros_like ones_like empty_like full_like rand_like randn_like randint_like new_zeros "
    "new_ones new_empty new_full new_tensor".split())
#: functorch's wrappers (C++, invisible to a TorchFunctionMode) per module that calls them: the
#: result is on the device of the tensor wrapped or unwrapped (their first argument).
FUNCTORCH_WRAPPERS = {
    "torch._functorch.eager_transforms": (
        "_wrap_for_grad", "_unwrap_for_grad", "_wrap_functional_tensor",
        "_unwrap_functional_tensor"),
    "torch._functorch.autograd_function": ("_wrap_for_grad", "_unwrap_for_grad"),
    "torch._functorch.vmap": ("_add_batch_dim", "_remove_batch_dim"),
}
RANDOM = frozenset("rand randn randint randperm normal bernoulli multinomial".split())
#: Operations that may take tensors on two devices.
CROSS_DEVICE = frozenset(
    "copy_ to cpu cuda __getitem__ __setitem__ type _has_compatible_shallow_copy_type".split())


def _name(func: Any) -> str:
    return getattr(func, "__name__", "") or ""


def _descriptor(func: Any) -> tuple[str, str]:
    """``("device", "__get__")`` for ``Tensor.device.__get__`` and the like, else ``("", "")``."""
    owner = getattr(func, "__self__", None)
    if type(owner).__name__ == "getset_descriptor":
        return getattr(owner, "__name__", ""), _name(func)
    return "", ""


class TracedGenerator(torch.Generator):
    """A ``torch.Generator`` that remembers whether it was made on the claim's device."""

    on_claim_device: bool

    def __new__(cls, device: Any = "cpu") -> TracedGenerator:
        g = super().__new__(cls, device=device)
        g.on_claim_device = isinstance(device, ClaimDevice) or (
            isinstance(device, torch.device) and device is not HOST_DEVICE)
        return g

    @property
    def device(self) -> Any:  # the claim's device keeps its mark, the host reads as the host
        return CLAIM_DEVICE if self.on_claim_device else HOST_DEVICE


class DeviceTrace(TorchFunctionMode):
    """Follows the virtual device of every tensor (see the module docstring); ``findings``
    lists ``"what (at file:line)"`` for each place a GPU run would fail, once per place."""

    def __init__(self) -> None:
        super().__init__()
        self.labels: WeakIdKeyDictionary = WeakIdKeyDictionary()
        self.findings: list[str] = []

    # -- labels --------------------------------------------------------------------------
    def label(self, t: torch.Tensor) -> str:
        return self.labels.get(t, HOST)

    def device_label(self, device: Any) -> str | None:
        """The virtual device a ``device=`` argument names (None: none given)."""
        if device is None:
            return None
        if device is HOST_DEVICE:
            return HOST
        if isinstance(device, (ClaimDevice, torch.device)):
            return DEV  # the marker, or a torch.device not read from a host tensor
        if isinstance(device, str) and device.startswith("cuda"):
            return DEV
        return HOST

    def generator_label(self, g: Any) -> str | None:
        if g is None:
            return None
        return DEV if getattr(g, "on_claim_device", False) else HOST

    def _mark(self, out: Any, label: str) -> None:
        for leaf in tree_flatten(out)[0]:
            if isinstance(leaf, torch.Tensor):
                self.labels[leaf] = label

    def _find(self, what: str) -> None:
        where = _site()
        entry = f"{what} (at {where})"
        if entry not in self.findings:
            self.findings.append(entry)

    # -- the mode ------------------------------------------------------------------------
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        attr, access = _descriptor(func)
        if attr == "device" and access == "__get__":
            t = args[0]
            return CLAIM_DEVICE if self.label(t) == DEV else HOST_DEVICE
        if _name(func) == "device" and args and isinstance(args[0], ClaimDevice):
            return args[0]  # torch.device(CLAIM_DEVICE) stays the claim's device
        out = func(*args, **kwargs)
        if attr == "data" and access == "__set__":  # the tensor takes its new data's device
            self.labels[args[0]] = self.label(args[1]) if args[1] is not None else HOST
            return out
        if attr == "grad" and access == "__set__":  # a gradient has its tensor's device:
            if args[1] is not None and self.label(args[1]) != self.label(args[0]):
                self._find(f"a gradient on the {self.label(args[1])} assigned to a tensor on "
                           f"the {self.label(args[0])}")
            return out  # the tensor keeps its own device (``p.grad = None`` too)
        if attr in ("data", "grad", "real", "imag", "T", "mT", "H", "mH") and access == "__get__":
            if isinstance(out, torch.Tensor):
                self.labels[out] = self.label(args[0])
            return out
        self._mark(out, self._result_label(_name(func), args, kwargs))
        return out

    def _result_label(self, name: str, args: tuple, kwargs: dict) -> str:
        tensors = [x for x in tree_flatten((args, kwargs))[0] if isinstance(x, torch.Tensor)]
        given = self.device_label(kwargs.get("device"))
        if name in ("numpy", "__array__"):
            if tensors and self.label(tensors[0]) == DEV:
                self._find("NumPy of a tensor on the claim's device (call .cpu() first)")
            return HOST
        if name == "cpu":
            return HOST
        if name == "cuda":
            return DEV
        if name == "to":
            return self._to_label(args, kwargs, tensors)
        if name == "from_numpy":
            return HOST
        if name in LIKE:
            return given or (self.label(tensors[0]) if tensors else HOST)
        if name in ("tensor", "as_tensor") and tensors:  # a copy of tensors: where asked
            return given or (DEV if any(self.label(t) == DEV for t in tensors) else HOST)
        if name in FACTORIES:
            made = given or HOST
            drawn = self.generator_label(kwargs.get("generator"))
            if name in RANDOM and drawn is not None and drawn != made:
                self._find(f"torch.{name} draws from a generator on the {drawn} into a tensor "
                           f"on the {made}")
            return made
        labels = {self.label(t) for t in tensors}
        if DEV in labels and name not in CROSS_DEVICE:
            host = [t for t in tensors if self.label(t) == HOST and t.dim() > 0]
            if host:
                self._find(f"{name} mixes a tensor on the claim's device with a host tensor of "
                           f"shape {tuple(host[0].shape)}")
        if name in RANDOM and tensors:
            drawn = self.generator_label(kwargs.get("generator"))
            made = self.label(tensors[0])
            if drawn is not None and drawn != made:
                self._find(f"{name} draws from a generator on the {drawn} into a tensor on the "
                           f"{made}")
        return DEV if DEV in labels else HOST

    def _to_label(self, args: tuple, kwargs: dict, tensors: list) -> str:
        target = kwargs.get("device")
        for a in args[1:]:
            if isinstance(a, (str, torch.device)):
                target = a
            elif isinstance(a, torch.Tensor):
                return self.label(a)
        named = self.device_label(target)
        return named or (self.label(tensors[0]) if tensors else HOST)


def _site() -> str:
    """The innermost frame in this repository's papers or engine (not torch, not this file)."""
    for frame in reversed(traceback.extract_stack()):
        path = Path(frame.filename)
        if path == Path(__file__).resolve() or ROOT not in path.parents:
            continue
        return f"{path.relative_to(ROOT)}:{frame.lineno}"
    return "unknown"


def _inheriting(trace: DeviceTrace, wrapper: Any) -> Any:
    """``wrapper`` (a functorch wrapper) whose results take the virtual device of its first
    argument, the tensor it wraps or unwraps."""

    def traced(*args, **kwargs):
        out = wrapper(*args, **kwargs)
        if args and isinstance(args[0], torch.Tensor):
            trace._mark(out, trace.label(args[0]))
        return out

    return traced


def _parsing_to(trace: DeviceTrace, parse_to: Any) -> Any:
    """``torch._C._nn._parse_to`` (how ``Module.to`` reads its arguments) that keeps the host:
    it answers a fresh ``torch.device`` for any device it is given, which the trace would take
    for the claim's; for a device on the host (or a host tensor's) it answers the host."""

    def traced(*args, **kwargs):
        device, *rest = parse_to(*args, **kwargs)
        given = kwargs.get("device", kwargs.get("tensor"))
        for a in args:
            if isinstance(a, (str, torch.device, torch.Tensor)):
                given = a
                break
        label = (trace.label(given) if isinstance(given, torch.Tensor)
                 else trace.device_label(given))
        if device is not None and label == HOST:
            device = HOST_DEVICE
        return (device, *rest)

    return traced


def _grouping(trace: DeviceTrace, group: Any) -> Any:
    """``torch._C._group_tensors_by_device_and_dtype`` (how ``clip_grad_norm_`` and the
    optimisers' foreach paths sort their tensors) whose device keys keep the host: it answers a
    fresh ``torch.device`` per group, which the trace would take for the claim's, and those
    code paths move their scalars ``.to(device)``; a group of host tensors gets the host."""

    def traced(tensorlistlist, *args, **kwargs):
        grouped = group(tensorlistlist, *args, **kwargs)
        out = {}
        for (_device, dtype), (lists, indices) in grouped.items():
            first = next((t for tl in lists for t in tl if isinstance(t, torch.Tensor)), None)
            on_dev = first is not None and trace.label(first) == DEV
            out[(CLAIM_DEVICE if on_dev else HOST_DEVICE, dtype)] = (lists, indices)
        return out

    return traced


@contextmanager
def _wrappers_traced(trace: DeviceTrace) -> Iterator[None]:
    """For the block, replace what the mode cannot see by label-keeping versions: functorch's
    wrappers (:data:`FUNCTORCH_WRAPPERS`) and ``Module.to``'s parser (:func:`_parsing_to`);
    put the originals back after it."""
    targets = [(importlib.import_module(module_name), name, _inheriting)
               for module_name, names in FUNCTORCH_WRAPPERS.items() for name in names]
    targets.append((torch._C._nn, "_parse_to", _parsing_to))
    targets.append((torch._C, "_group_tensors_by_device_and_dtype", _grouping))
    saved = []
    try:
        for owner, name, make in targets:
            original = getattr(owner, name)
            saved.append((owner, name, original))
            setattr(owner, name, make(trace, original))
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


@contextmanager
def device_trace() -> Iterator[DeviceTrace]:
    """Run the block under a :class:`DeviceTrace`; generators made in it are traced,
    parameters and functorch's wrapped tensors take the virtual device of the tensor they
    wrap, and ``Module.to`` a host device keeps its modules on the host."""
    trace = DeviceTrace()
    generator, parameter_new = torch.Generator, torch.nn.Parameter.__new__

    def traced_parameter(cls, data=None, requires_grad=True):
        p = parameter_new(cls, data, requires_grad)
        trace.labels[p] = trace.label(data) if isinstance(data, torch.Tensor) else HOST
        return p

    torch.Generator = TracedGenerator  # type: ignore[misc]
    torch.nn.Parameter.__new__ = staticmethod(traced_parameter)  # type: ignore[assignment]
    try:
        with _wrappers_traced(trace), trace:
            yield trace
    finally:
        torch.Generator = generator  # type: ignore[misc]
        torch.nn.Parameter.__new__ = parameter_new  # type: ignore[assignment]


__all__ = ["CLAIM_DEVICE", "ClaimDevice", "DeviceTrace", "device_trace"]


def main(argv: list[str]) -> int:
    """``python tests/device_trace.py GLOB...``: run the claims matching each glob in this
    process under the trace and print, per glob, the verdicts and the places a GPU run would
    fail; exit status 1 when there is any."""
    import tempfile

    import verify

    found = 0
    for pattern in argv:
        with tempfile.TemporaryDirectory() as tmp, device_trace() as trace:
            results = verify.run(pattern, jobs=0, device=CLAIM_DEVICE,
                                 results_path=Path(tmp) / "results.jsonl")
        verdicts = ", ".join(f"{r.id} {r.verdict.name}" for r in results)
        sys.stdout.write(f"{pattern}: {verdicts}\n")
        sys.stdout.writelines(f"    {f}\n" for f in trace.findings)
        found += len(trace.findings)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
