"""The Def. D.1 checker shared by the ``sih`` claims, on the real token stream.

:func:`def_d1_margins` evaluates one Layer-1 head's full causal score matrix on a token stream
(cells and separators: no key filtered beyond the causal mask) and returns the worst margin
``s_min - Delta - score`` per key class (negative: Def. D.1 (8) violated).
"""

from __future__ import annotations

import math

from .ca import Stream
from .embedding import SpatialAwareEmbedding


def def_d1_margins(
    emb: SpatialAwareEmbedding,
    stream: Stream,
    coef: dict,
    offsets,
    W_T: float,
    Delta: float,
    sign: str = "A",
    include_t0: bool = False,
) -> dict:
    """Worst Def. D.1 margin per key class (``same_row``, ``prev_row_nontarget``, ``older_row``,
    ``separator``).

    Target keys: ``(t-1, i + delta_j mod L)`` (sign A) or ``(t-1, i - delta_j)`` (sign B); their
    scores ``s_j`` are read off the matrix; ``s_min`` is their minimum.
    """
    P = emb(stream.times, stream.cells)
    Q, K = emb.projections(coef, W_T)
    S = emb.scores(P, Q, K)
    widths = emb.widths
    index = {
        (t, c): n
        for n, (t, c) in enumerate(zip(stream.times, stream.cells, strict=True))
        if c is not None
    }
    worst: dict = {}
    sgn = 1 if sign == "A" else -1
    at = None
    for q in range(len(stream)):
        c, t = stream.cells[q], stream.times[q]
        if c is None or (t == 0 and not include_t0):
            continue
        tg = []
        if t > 0:
            for off in offsets:
                cell = tuple((ci + sgn * o) % L for ci, o, L in zip(c, off, widths, strict=True))
                tg.append(index[(t - 1, cell)])
        smin = min(float(S[q, j]) for j in tg) if tg else math.inf
        for kx in range(q + 1):
            if kx in tg:
                continue
            kind = stream.kinds[kx]
            if kind != "cell":
                cls = "separator"
            elif stream.times[kx] == t:
                cls = "same_row"
            elif stream.times[kx] == t - 1:
                cls = "prev_row_nontarget"
            else:
                cls = "older_row"
            mg = smin - Delta - float(S[q, kx])
            if mg < worst.get(cls, (math.inf,))[0]:
                worst[cls] = (
                    mg,
                    {
                        "query": [t, list(c)],
                        "key": [
                            stream.times[kx],
                            list(stream.cells[kx]) if stream.cells[kx] else None,
                        ],
                        "score": float(S[q, kx]),
                        "s_min": smin,
                    },
                )
                if at is None or mg < at[0]:
                    at = (mg, cls)
    return {
        "worst": worst,
        "min_margin": min((v[0] for v in worst.values()), default=math.inf),
        "worst_class": at[1] if at else None,
    }
