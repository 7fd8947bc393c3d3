"""Draw the figures an Evidence asks for (``Evidence.figures``) as PDF files.

Three kinds (schema in :mod:`verify.evidence`):

``rate``       measured points on log-log axes, the fitted power law and, beside it, the
               slope the paper claims (drawn through the same centre of mass), with the
               fitted slope's interval in the legend;
``histogram``  a distribution of errors (equivariance, margins), on a log axis when the
               values and the tolerance span decades (exact zeros drawn at the left edge
               and counted in the legend), with the tolerance drawn as a vertical line;
``curve``      experiment curves (ours: lines) beside the paper's numbers (markers).

matplotlib's object API is used directly (no pyplot, no global backend), with its bundled
DejaVu fonts embedded as TrueType, and without a creation date so that equal data give
equal files.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # matplotlib itself is imported only when a figure is drawn
    from matplotlib.typing import RcKeyType

KINDS = ("rate", "histogram", "curve")

_RC: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 8.5,
    "axes.titlesize": 9,
    "axes.labelsize": 8.5,
    "legend.fontsize": 7.5,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.5,
    "pdf.fonttype": 42,
    "svg.fonttype": "none",
    "text.usetex": False,
    "axes.unicode_minus": True,
}
OURS = "#1f5fa8"
PAPER = "#c0392b"
NEUTRAL = "#555555"


class FigureDataError(ValueError):
    """A figure's data is missing or not plottable."""


def _floats(values: Any, name: str) -> list[float]:
    if not isinstance(values, (list, tuple)) or not values:
        raise FigureDataError(f"{name}: expected a non-empty list of numbers")
    out = []
    for v in values:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            raise FigureDataError(f"{name}: {v!r} is not a number") from None
    return out


#: A Python qualified name's inner part (``check_equivariance.<locals>.``): not for readers.
_LOCALS = re.compile(r"[\w.]*<locals>\.")
#: Characters per line of a title or axis label at the figure's width and font size.
WRAP = 62


def readable(text: str) -> str:
    """``text`` without internal Python names: ``check_equivariance.<locals>.g`` reads ``g``."""
    return _LOCALS.sub("", text)


def _label(fig: dict[str, Any], key: str, default: str = "") -> str:
    """A title or label as shown: internal Python names (``f.<locals>.g``) cut to ``g``, and
    wrapped onto at most two lines so that nothing is cut off at the figure's edge.
    Labels are shown as text: mathtext ($...$) is kept only when it parses."""
    import textwrap

    value = readable(str(fig.get(key) or default)).replace("\n", " ")[:120]
    if "$" in value:  # never break inside mathtext
        return value
    lines = textwrap.wrap(value, WRAP, break_long_words=True) or [""]
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), WRAP, placeholder="...")]
    return "\n".join(mathtext(line) for line in lines)


#: LaTeX relations mathtext spells otherwise.
_MATHTEXT_NAMES = ((r"\le ", r"\leq "), (r"\ge ", r"\geq "), (r"\ne ", r"\neq "))


def mathtext(text: str) -> str:
    """``text`` with its ASCII math (:mod:`verify.report.asciimath`: ``max_k|O_k|``,
    ``kappa=1``) as matplotlib mathtext; a span mathtext cannot parse stays as written."""
    from matplotlib.mathtext import MathTextParser

    from . import asciimath

    if "$" in text:
        return text
    parser = MathTextParser("agg")
    out, pos = [], 0
    for start, end, latex in asciimath.spans(text):
        for name, spelled in _MATHTEXT_NAMES:
            latex = latex.replace(name, spelled)
        try:
            parser.parse(f"${latex}$")
        except Exception:  # mathtext's own errors; the ASCII stays readable
            continue
        out.append(f"{text[pos:start]}${latex}$")
        pos = end
    return "".join(out) + text[pos:]


def _safe_text(s: str) -> str:
    """matplotlib mathtext may reject a label; escape the dollars then."""
    from matplotlib.mathtext import MathTextParser

    if s.count("$") >= 2 and s.count("$") % 2 == 0:
        try:
            parser = MathTextParser("agg")
            for part in re.findall(r"\$([^$]*)\$", s):
                parser.parse("$" + part + "$")
            return s
        except Exception:
            pass
    return s.replace("$", r"\$")


def _new_figure(width: float = 4.6, height: float = 2.9):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def tick_overlaps(fig: Any) -> list[str]:
    """The tick labels of ``fig`` that overlap a neighbour, as ``"x: 10^-3 / 10^-2"``, from
    matplotlib's own text extents (what the page will show)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if hasattr(fig.canvas, "get_renderer") else FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    found = []
    for ax in fig.axes:
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            labels = [t for t in axis.get_ticklabels(which="both")
                      if t.get_visible() and t.get_text()]
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in labels]
            key = 0 if name == "x" else 1
            boxes.sort(key=lambda tb: tb[1].get_points()[0][key])
            for (ta, a), (tb, b) in zip(boxes, boxes[1:], strict=False):
                if a.overlaps(b) and a.width > 0 and b.width > 0:
                    found.append(f"{name}: {ta} / {tb}")
    return found


def _declutter(fig: Any) -> None:
    """Thin the tick labels of a log axis until none overlaps: minor labels off, then fewer
    decades labelled."""
    from matplotlib.ticker import LogLocator, NullFormatter

    if not tick_overlaps(fig):
        return
    logs = [axis for ax in fig.axes for axis in (ax.xaxis, ax.yaxis) if axis.get_scale() == "log"]
    for axis in logs:  # minor labels at 2 and 5 times a power of ten only
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
    if not tick_overlaps(fig):
        return
    for axis in logs:
        axis.set_minor_formatter(NullFormatter())
    for numticks in (6, 4, 3):
        if not tick_overlaps(fig):
            return
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                if axis.get_scale() == "log":
                    axis.set_major_locator(LogLocator(base=10, numticks=numticks))


def _save(fig: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    _declutter(fig)
    fig.savefig(path, format="pdf", metadata={"CreationDate": None, "Creator": "verify"})


def _rate(spec: dict[str, Any], ax: Any) -> None:
    x = _floats(spec.get("x"), "rate.x")
    y = _floats(spec.get("y"), "rate.y")
    if len(x) != len(y):
        raise FigureDataError("rate: x and y differ in length")
    pts = [
        (a, b)
        for a, b in zip(x, y, strict=True)
        if a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)
    ]
    if len(pts) < 2:
        raise FigureDataError("rate: fewer than two positive points to draw on log-log axes")
    lx = [math.log(a) for a, _ in pts]
    ly = [math.log(b) for _, b in pts]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    ax.loglog([a for a, _ in pts], [b for _, b in pts], "o", color=OURS, ms=4, label="measured")
    xs = [min(a for a, _ in pts), max(a for a, _ in pts)]

    def line(slope: float) -> list[float]:
        return [math.exp(my + slope * (math.log(v) - mx)) for v in xs]

    slope = spec.get("slope")
    if slope is not None:
        slope = float(slope)
        ci = spec.get("ci")
        text = f"fitted slope {slope:.3g}"
        if isinstance(ci, (list, tuple)) and len(ci) == 2:
            text += f"  [{float(ci[0]):.3g}, {float(ci[1]):.3g}]"
        ax.loglog(xs, line(slope), "-", color=OURS, lw=1.4, label=text)
    claimed = spec.get("claimed_slope")
    if claimed is not None:
        claimed = float(claimed)
        ax.loglog(
            xs, line(claimed), "--", color=PAPER, lw=1.4, label=f"claimed slope {claimed:.3g}"
        )
    ax.legend(frameon=False)


def _histogram(spec: dict[str, Any], ax: Any) -> None:
    values = [v for v in _floats(spec.get("values"), "histogram.values") if math.isfinite(v)]
    if not values:
        raise FigureDataError("histogram: no finite values")
    threshold = spec.get("threshold")
    thr = float(threshold) if threshold is not None else None
    positive = [v for v in values if v > 0]
    zeros = sum(1 for v in values if v == 0)
    ends = positive + ([thr] if thr is not None and thr > 0 else [])
    # A log axis when what is drawn (values and tolerance) spans decades: a float64 error
    # of a few eps beside a tolerance of 1e8 eps is otherwise one bar squashed against 0.
    only_zeros = zeros == len(values) and thr is not None and thr > 0
    logscale = all(v >= 0 for v in values) and (
        only_zeros or (len(ends) >= 2 and max(ends) / min(ends) > 100)
    )
    style = {"alpha": 0.85, "edgecolor": "white", "linewidth": 0.4}
    label = None
    bins: list[float] | int = 30
    if logscale:
        lo, hi = math.log10(min(ends)), math.log10(max(ends))
        lo = lo - 2 if only_zeros else lo
        if zeros:  # exact zeros have no place on a log axis: their own bar at the left edge
            lo -= 1
            values = positive
            label = f"{zeros} exact zero{'s' if zeros != 1 else ''}"
        hi += 0.05
        edges = [10 ** (lo + (hi - lo) * k / 30) for k in range(31)]
        bins = edges
        ax.set_xscale("log")
        if zeros:
            ax.hist([10**lo] * zeros, bins=edges[:2], color=NEUTRAL, label=label, **style)
    if values:
        ax.hist(values, bins=bins, color=OURS, **style)
    if threshold is not None:
        ax.axvline(
            float(threshold),
            color=PAPER,
            ls="--",
            lw=1.3,
            label=f"tolerance {float(threshold):.3g}",
        )
    if threshold is not None or label:
        ax.legend(frameon=False)
    ax.set_ylabel("count")


def _curve(spec: dict[str, Any], ax: Any) -> None:
    x = _floats(spec.get("x"), "curve.x")
    series = spec.get("series") or {}
    paper = spec.get("paper") or {}
    if not isinstance(series, dict) or not isinstance(paper, dict) or not (series or paper):
        raise FigureDataError("curve: needs 'series' and/or 'paper' as {name: [values]}")
    colors = [OURS, "#2e8b57", "#8e44ad", "#d4a017", "#16a085", NEUTRAL]
    for k, (name, ys) in enumerate(series.items()):
        ys = _floats(ys, f"curve.series[{name}]")
        if len(ys) != len(x):
            raise FigureDataError(f"curve: series {name!r} has {len(ys)} values for {len(x)} x")
        ax.plot(x, ys, "-", color=colors[k % len(colors)], lw=1.4, label=mathtext(f"ours: {name}"))
    for k, (name, ys) in enumerate(paper.items()):
        ys = _floats(ys, f"curve.paper[{name}]")
        xs = x if len(ys) == len(x) else None
        if xs is None:
            raise FigureDataError(
                f"curve: paper values {name!r} have {len(ys)} values for {len(x)} x"
            )
        ax.plot(
            xs,
            ys,
            "s",
            mfc="none",
            color=[PAPER, "#e67e22", "#7f8c8d"][k % 3],
            ms=5,
            label=mathtext(f"paper: {name}"),
        )
    if spec.get("logx"):
        ax.set_xscale("log")
    if spec.get("logy"):
        ax.set_yscale("log")
    ax.legend(frameon=False)


_DRAW = {"rate": _rate, "histogram": _histogram, "curve": _curve}


def draw(spec: dict[str, Any], path: str | Path) -> Path:
    """Draw one figure ``spec`` (an ``Evidence.figures`` entry) into the PDF ``path``.

    Raises :class:`FigureDataError` when the data cannot be drawn.
    """
    import matplotlib

    if not isinstance(spec, dict):
        raise FigureDataError("a figure must be a dict")
    kind = spec.get("kind")
    if kind not in _DRAW:
        raise FigureDataError(f"unknown figure kind {kind!r}; expected one of {', '.join(KINDS)}")
    with matplotlib.rc_context(_RC):
        fig, ax = _new_figure()
        _DRAW[kind](spec, ax)
        if spec.get("title"):
            ax.set_title(_safe_text(_label(spec, "title")))
        if spec.get("xlabel"):
            ax.set_xlabel(_safe_text(_label(spec, "xlabel")))
        if spec.get("ylabel"):
            ax.set_ylabel(_safe_text(_label(spec, "ylabel")))
        _save(fig, Path(path))
    return Path(path)


def file_stem(claim_id: str, k: int, parts: Sequence[str] = ()) -> str:
    """A file name safe for LaTeX's ``\\includegraphics`` (letters, digits, ``-``)."""
    base = re.sub(r"[^A-Za-z0-9]+", "-", claim_id).strip("-")[:60] or "claim"
    tag = hashlib.sha1(claim_id.encode("utf-8")).hexdigest()[:6]  # "a.b" and "a-b" differ
    extra = "-".join(re.sub(r"[^A-Za-z0-9]+", "", p)[:12] for p in parts if p)
    return f"{base}-{tag}-{extra}-{k}" if extra else f"{base}-{tag}-{k}"
