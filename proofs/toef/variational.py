"""Sec. 2.3 of the paper (Defs 2-3), symbolically: the action, its Euler-Lagrange equations,
the dissipative and conservative parts of V, the symplectic form, and when a field has a
potential at all (Def. 2, "whenever it exists", l. 64).

Scalar claims (N = C = 1) use independent symbols ``x, xb`` for ``X`` and ``conj(X)``, as the
Wirtinger convention of l. 196 does; the first variation of the action along a flow is
computed numerically in ``numerics/toef/variational.py``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import sympy as sp
from sympy.calculus.euler import euler_equations

import verify
from verify import Evidence, Verdict
from verify.symbolic import bound_variables_renamed, prove_equal, refute_exactly

from .model import PAPER, quartic_tensor, token_matrix
from .model.anysize import flow_rate_any_size

#: ``X`` and ``conj(X)`` of the scalar case N = C = 1, independent (Wirtinger convention).
x, xb = sp.symbols("x xb")


def conj_poly(e: sp.Expr) -> sp.Expr:
    """Complex conjugate of a polynomial in the independent ``x, xb`` (real symbols and
    complex numbers as coefficients): conjugate the coefficients, swap ``x`` and ``xb``."""
    e = sp.conjugate(sp.expand(e))
    return sp.expand(e.subs({sp.conjugate(x): xb, sp.conjugate(xb): x}, simultaneous=True))


def real_poly(deg: int, name: str) -> sp.Expr:
    """A generic real-valued polynomial ``sum c_pq x^p xb^q`` of degree ``<= deg``
    (``c_qp = conj(c_pq)``, coefficients as real symbols ``{name}a{p}{q}``, ``{name}b{p}{q}``)."""
    e = sp.Integer(0)
    for p in range(deg + 1):
        for q in range(deg + 1 - p):
            if p < q:
                a, b = sp.symbols(f"{name}a{p}{q} {name}b{p}{q}", real=True)
                e += (a + sp.I * b) * x**p * xb**q + (a - sp.I * b) * x**q * xb**p
            elif p == q:
                e += sp.Symbol(f"{name}a{p}{q}", real=True) * x**p * xb**q
    return sp.expand(e)


def _rate_along_flow(F: sp.Expr, V: sp.Expr) -> sp.Expr:
    """``dF/dt`` along the flow ``xdot = dV/dxb`` (so ``xbdot = conj(xdot)``)."""
    xdot = sp.diff(V, xb)
    return sp.expand(sp.diff(F, x) * xdot + sp.diff(F, xb) * conj_poly(xdot))


@verify.claim(
    "toef.def2_euler_lagrange", paper=PAPER, where="Definition 2, eq. (3), L64-66",
    statement=r"\dot X=\frac{\partial V}{\partial X^*}\ \big(\text{or equivalently }-\dot X^*"
              r"=\frac{\partial V}{\partial X}\big)\text{ extremizes }S(X)=\int_0^1\mathrm{Tr}"
              r"\big(\tfrac12(\dot XX^*-X\dot X^*)-V(X)\big)dt",
    kind="identity", expect="REFUTED",
    readings={"B": r"with the hypothesis, not in the paper, that V is purely imaginary "
                   r"($\mathrm{Re}\,V$ constant): the Euler-Lagrange equation "
                   r"$\dot X=\partial V/\partial X^*$ is equivalent to "
                   r"$-\dot X^*=\partial V/\partial X$, and its solutions extremize S"},
    repairs={"B": "overstated"},
)
def def2_euler_lagrange(ctx):
    """(i) The Euler-Lagrange equation of S (eq. 3) in ``xb`` is ``xdot = dV/dxb``, and
    (ii) in ``x`` it is ``-xbdot = dV/dx`` (PROVED, scalar, generic smooth V). With
    ``xbdot = conj(dV/dxb)`` both hold iff ``conj(dV/dxb) + dV/dx = 2 dRe(V)/dx`` vanishes,
    i.e. iff Re V is constant (PROVED for generic quadratic V = R + iH). So "equivalently"
    fails for real V: ``V = |x|^2`` gives ``xdot = x`` but ``-xbdot = dV/dx`` demands
    ``xdot = -x`` (REFUTED, exact, N = C = 1). (iii) The first variation along the flow is
    computed numerically: not zero for real V. Reading B adds the hypothesis that V is purely
    imaginary: (i) the Euler-Lagrange equation in ``xb`` is ``xdot = dV/dxb`` (the same
    symbolic proof), (ii) the two equations agree for V = iH (PROVED), (iii) the flow is
    stationary (numeric)."""
    t = sp.Symbol("t")
    xf, xbf = sp.Function("x")(t), sp.Function("xb")(t)
    Vf = sp.Function("V")
    lagrangian = (sp.diff(xf, t) * xbf - xf * sp.diff(xbf, t)) / 2 - Vf(xf, xbf)
    eqs = euler_equations(lagrangian, [xf, xbf], t)
    (el_xb,) = [e for e in eqs if e.lhs.has(sp.Derivative(xf, t))]
    (el_x,) = [e for e in eqs if e is not el_xb]
    u, ub = sp.symbols("u ub")
    dV_dxb = sp.diff(Vf(u, ub), ub).subs({u: xf, ub: xbf})
    dV_dx = sp.diff(Vf(u, ub), u).subs({u: xf, ub: xbf})
    # bounded: the matrix Lagrangian is a sum over the entries x_jk of this scalar one minus
    # V(X), so each entry's equation is the scalar one; SymPy's euler_equations needs every
    # entry as a function of its own, so only N = C = 1 is checked
    generic = ("N = C = 1, generic smooth V(x, xb) (the matrix case is entrywise the same; "
               "not checked)")
    out = []
    for reading in ("A", "B"):
        out.append(prove_equal(el_xb.lhs - el_xb.rhs, sp.diff(xf, t) - dV_dxb).relabel(
            part="(i) EL in conj X", generality=generic, reading=reading, scope="bounded",
            prefix="EL equation of S in xb is xdot - dV/dxb = 0"))
    out.append(prove_equal(el_x.lhs - el_x.rhs, -sp.diff(xbf, t) - dV_dx).relabel(
        part="(ii) EL in X", generality=generic, scope="bounded",
        prefix="EL equation of S in x is -xbdot - dV/dx = 0"))
    V = x * xb
    flow_xbdot = conj_poly(sp.diff(V, xb))
    claimed_xbdot = -sp.diff(V, x)
    at_one = {x: 1, xb: 1}
    out.append(refute_exactly(
        r"$V=|x|^2$: the flow $\dot x=\partial V/\partial\bar x=x$ gives "
        r"$\dot{\bar x}=\bar x$, but $-\dot{\bar x}=\partial V/\partial x$ demands "
        r"$\dot{\bar x}=-\bar x$ (at x = 1: 1 vs -1); not equivalent",
        {"N": 1, "C": 1, "V": "$|x|^2$", "x": 1},
        lhs=flow_xbdot.subs(at_one), rhs=claimed_xbdot.subs(at_one), part="(ii) equivalence"))
    polynomials = ("N = C = 1, R, H generic real polynomials of degree <= 2 (SymPy cannot "
                   "conjugate an undefined V, so polynomials stand in for it)")
    R, H = real_poly(2, "r"), real_poly(2, "h")

    def gap(V: sp.Expr) -> sp.Expr:
        """conj(dV/dxb) + dV/dx: zero iff the two equations of (ii) agree along the flow."""
        return sp.expand(conj_poly(sp.diff(V, xb)) + sp.diff(V, x))

    out.append(prove_equal(gap(R + sp.I * H), 2 * sp.diff(R, x)).relabel(
        part="(ii) when the two agree", generality="V = R + iH, " + polynomials, scope="bounded",
        prefix=r"$\overline{\partial V/\partial\bar x}+\partial V/\partial x="
               r"2\,\partial\,\mathrm{Re}\,V/\partial x$: the two equations agree iff "
               r"$\mathrm{Re}\,V$ is constant"))
    out.append(prove_equal(gap(sp.I * H), 0).relabel(
        reading="B", part="(ii) equivalence", generality="V = iH, " + polynomials,
        scope="bounded",
        prefix=r"$V=iH$: $\overline{\partial V/\partial\bar x}=-\partial V/\partial x$, so "
               r"$\dot X=\partial V/\partial X^*$ is $-\dot X^*=\partial V/\partial X$"))
    return out


@verify.claim(
    "toef.def2_dissipative_conservative", paper=PAPER, where="Sec. 2.3, L68 (first sentence)",
    statement=r"\text{The real and imaginary parts of }V\text{ are the dissipative and "
              r"conservative parts respectively}",
    kind="property", expect="PROVED",
    readings={"B": r"along the full flow of $V=R+iH$, $\mathrm{Re}V$ is monotone and "
                   r"$\mathrm{Im}V$ is conserved"},
)
def def2_dissipative_conservative(ctx):
    """Along ``Xdot = dV/dX^*`` (l. 68): real ``V = R`` gives ``dR/dt = 2 |dR/dX^*|^2 >= 0``
    (R increases: gradient ascent) and ``V = iH`` gives ``dH/dt = 0`` exactly: PROVED in
    symbolic size N x C for every real-differentiable R, H
    (:func:`.model.anysize.flow_rate_any_size`,
    the chain rule in real coordinates at a point), and as instances for generic real
    polynomials R, H of degree <= 3 quick / 4 deep at N = C = 1. Reading B: for mixed
    ``V = R + iH``, ``dH/dt = 2 Re(conj(R_xb) H_xb)``, nonzero for ``V = |x|^2 + i Re(x^2)``
    at ``x = 1`` (dH/dt = 2, REFUTED, exact)."""
    deg = ctx.pick(3, 4)
    R = real_poly(deg, "r")
    dR = _rate_along_flow(R, R)
    grad_sq = sp.expand(2 * sp.diff(R, xb) * conj_poly(sp.diff(R, xb)))
    real_part = prove_equal(dR, grad_sq).relabel(
        part="real part", scope="bounded",
        generality=f"N = C = 1, R generic real polynomial of degree <= {deg} "
                   "(an instance; every R: the symbolic-size proof)",
        prefix=r"$dR/dt=2|\partial R/\partial\bar x|^2\ge0$ along "
               r"$\dot X=\partial R/\partial X^*$")
    H = real_poly(deg, "h")
    imag_part = prove_equal(_rate_along_flow(sp.I * H, sp.I * H), 0).relabel(
        part="imaginary part", scope="bounded",
        generality=f"N = C = 1, H generic real polynomial of degree <= {deg} (an instance; "
                   "every H: the symbolic-size proof)",
        prefix=r"$d(iH)/dt=0$ along $\dot X=\partial(iH)/\partial X^*$")
    Rm, Hm = x * xb, (x**2 + xb**2) / 2
    dH = _rate_along_flow(Hm, Rm + sp.I * Hm)
    mixed = refute_exactly(
        r"$V=|x|^2+i\,\mathrm{Re}(x^2)$: $dH/dt=2$ at x = 1 ($\mathrm{Im}\,V$ not conserved)",
        {"N": 1, "C": 1, "V": r"$|x|^2+i\,\mathrm{Re}(x^2)$", "x": 1},
        lhs=dH.subs({x: 1, xb: 1}), rhs=0, reading="B")
    return [flow_rate_any_size(imaginary=False), real_part, flow_rate_any_size(imaginary=True),
            imag_part, mixed]


@verify.claim(
    "toef.def2_symplectic_legendre", paper=PAPER, where="Sec. 2.3, L68 (remainder)",
    statement=r"\alpha:=\tfrac12(dX\,X^*-X\,dX^*)\text{ is canonical, since }d\alpha=dX\wedge X^*"
              r"\text{ is the symplectic form; }X=\tfrac{q+ip}{\sqrt2}:\ \max_{\dot q}"
              r"\tfrac12(\dot XX^*-X\dot X^*)-V(\dot q)=p\dot q-V(\dot q)",
    kind="identity", expect="PROVED",
    readings={"B": r"$d\alpha=dX\wedge dX^*$ (2-form reading)",
              "C": r"up to a nonzero constant factor and a total time derivative: "
                   r"$d\alpha=-dX\wedge dX^*=i\,dq\wedge dp$, and the kinetic term is "
                   r"$-i\,(p\dot q-\tfrac12\tfrac{d}{dt}(pq))$"},
    repairs={"C": ("erratum", r"equal up to a constant factor and a total time derivative "
                              r"($d\alpha=-dX\wedge dX^*$)")},
)
def def2_symplectic_legendre(ctx):
    """Scalar case, ``x = (q + ip)/sqrt2`` (l. 68): ``alpha = (i/2)(q dp - p dq)``,
    ``d alpha = i dq^dp``. Reading A: ``dX ^ X^* = conj(x) dx`` is a 1-form, not a 2-form
    (REFUTED); reading B: ``dx ^ dxb = -i dq^dp = -d alpha`` (sign, REFUTED); reading C:
    ``d alpha`` is ``i`` times the canonical form (PROVED). The kinetic term is
    ``(i/2)(q pdot - p qdot) = -i p qdot + (i/2) d(pq)/dt``: not ``p qdot`` (q = 0, p = 1,
    qdot = 1: -i/2 vs 1), equal up to the factor -i and a total derivative (C); it is linear in
    qdot, so the max over qdot does not exist."""
    q, p, qd, pd = sp.symbols("q p qdot pdot", real=True)
    X = (q + sp.I * p) / sp.sqrt(2)
    Xd = (qd + sp.I * pd) / sp.sqrt(2)
    kin = sp.expand((Xd * sp.conjugate(X) - X * sp.conjugate(Xd)) / 2)
    # alpha = a_q dq + a_p dp: the coefficients of qdot and pdot in the kinetic term
    a_q, a_p = kin.coeff(qd), kin.coeff(pd)
    dalpha = sp.simplify(sp.diff(a_p, q) - sp.diff(a_q, p))  # coefficient of dq^dp
    # dx ^ dxb in dq^dp: dx = (dq + i dp)/sqrt2, dxb = (dq - i dp)/sqrt2
    dxdxb = sp.simplify((1 * (-sp.I) - sp.I * 1) / 2)
    scalar = ("N = C = 1 (the matrix forms are sums over the entries of the scalar ones; not "
              "checked)")
    return [
        Evidence(Verdict.REFUTED, r"$d\alpha=i\,dq\wedge dp$ is a 2-form; the printed "
                 r"$dX\wedge X^*=\bar x\,dx$ is a 1-form (degree mismatch)", method="symbolic",
                 counterexample={"N": 1, "C": 1, "d_alpha": rf"${sp.latex(dalpha)}\,dq\wedge dp$",
                                 "printed": r"$\bar x\,dx$ (1-form)"},
                 numbers={"kinetic_term": str(kin)}, part=r"(i) $d\alpha$", generality=scalar),
        refute_exactly(r"2-form reading: $dX\wedge dX^*=-i\,dq\wedge dp$ but "
                       r"$d\alpha=i\,dq\wedge dp$ (opposite sign)",
                       {"N": 1, "C": 1, "d_alpha": str(dalpha), "dX^dX*": str(dxdxb)},
                       lhs=dalpha, rhs=dxdxb, reading="B", part=r"(i) $d\alpha$"),
        prove_equal(dalpha, -dxdxb).relabel(
            reading="C", part=r"(i) $d\alpha$", generality=scalar, scope="bounded",
            prefix=r"$d\alpha=-dX\wedge dX^*=i\,dq\wedge dp$ (a constant multiple of the "
                   "canonical form)"),
        refute_exactly(r"kinetic term $\frac i2(q\dot p-p\dot q)\neq p\dot q$ at q=0, p=1, "
                       r"$\dot q=1$, $\dot p=0$",
                       {"q": 0, "p": 1, "qdot": 1, "pdot": 0},
                       lhs=kin.subs({q: 0, p: 1, qd: 1, pd: 0}), rhs=1, part="(ii) Legendre"),
        prove_equal(kin, -sp.I * p * qd + sp.I / 2 * (qd * p + q * pd)).relabel(
            reading="C", part="(ii) Legendre", generality=scalar, scope="bounded",
            prefix="kinetic term = -i p qdot + (i/2) d(pq)/dt"),
    ]


# -- potential existence: closedness of the quartic field ------------------------------------


def _closedness_system(N: int, C: int) -> tuple[list[sp.Expr], dict]:
    """The asymmetry of the conjugate Jacobian of ``F = sum_i X A_i X^* X B_i`` (N x C),
    written with the tensor ``T[a, m, b, k] = sum_i A_i[a, m] B_i[b, k]``: the linear equations
    in T that make it vanish identically in X, and the symbols of T."""
    X = token_matrix(N, C)
    Xb = token_matrix(N, C, "xb")
    T = quartic_tensor(C)
    F = sp.zeros(N, C)
    for j, k in itertools.product(range(N), range(C)):
        F[j, k] = sum(X[j, a] * Xb[p, m] * X[p, b] * T[(a, m, b, k)]
                      for a, m, b in itertools.product(range(C), repeat=3) for p in range(N))
    entries = list(itertools.product(range(N), range(C)))
    eqs = []
    for (j, k), (p, m) in itertools.combinations_with_replacement(entries, 2):
        d = sp.expand(sp.diff(F[j, k], Xb[p, m]) - sp.diff(F[p, m], Xb[j, k]))
        if d != 0:
            eqs += list(sp.Poly(d, *list(X)).coeffs())
    return eqs, T


def _closed_and_swap_symmetric(N: int, C: int):
    """The space of tensors T whose field is closed, and that of swap-symmetric T
    (``T_ambk = T_bkam``), as exact null spaces; returns ``(closed, swap, swap_matrix, syms)``."""
    eqs, T = _closedness_system(N, C)
    syms = list(T.values())
    if eqs:
        M = sp.Matrix([[sp.Poly(e, *syms).coeff_monomial(s) for s in syms] for e in eqs])
    else:
        M = sp.zeros(1, len(syms))
    swap = sp.Matrix([[(1 if s == T[i] else 0) - (1 if s == T[(i[2], i[3], i[0], i[1])] else 0)
                       for s in syms] for i in T])
    return M.nullspace(), swap.nullspace(), swap, syms


_SIZE = {"integer": True, "nonnegative": True}


def closed_form_jacobian(X, T, j, k, q, n, C, a, b) -> sp.Sum:
    """``dF_jk / d conj(X)_qn = sum_{a,b} X_ja X_qb T_anbk`` for ``F = sum_i X A_i X^* X B_i``
    (``T = sum_i A_i (x) B_i``), the closed form step 1 of :func:`closedness_any_size` proves."""
    return sp.Sum(X[j, a] * X[q, b] * T[a, n, b, k], (a, 1, C), (b, 1, C))


def closedness_any_size(jacobian: Callable[..., sp.Expr] = closed_form_jacobian) -> Evidence:
    """(b) for every N >= 2 and every C, with sizes symbolic (SymPy ``Sum`` over ``IndexedBase``).

    ``F_jk = sum_{a,m,b,p} X_ja conj(X)_pm X_pb T_ambk`` (the general quartic field; T = sum_i
    A_i (x) B_i), with ``conj(X)`` an independent symbol as in Wirtinger calculus. Steps:

    1. ``dF_jk/dconj(X)_qn = jacobian(j, k, q, n)`` for free ``j, k`` and ``q, n`` in range
       (``q = r + 1``, ``N = r + 1 + s``; likewise ``n`` in ``1..C``), sizes symbolic;
    2. ``jacobian(q, n, j, k) = sum_{a,b} X_ja X_qb T_bkan`` (exchanging the two finite sums,
       then renaming the summation indices with :func:`~verify.symbolic.bound_variables_renamed`:
       a structural identity);
    3. so the asymmetry ``E = dF_jk/dconj(X)_qn - dF_qn/dconj(X)_jk = sum_{a,b} X_ja X_qb
       S_anbk`` with ``S_anbk = T_anbk - T_bkan``; if T is swap-symmetric, S = 0 and E = 0 for
       every N, C (closed);
    4. for rows ``q = j + 1 + d`` (distinct rows exist iff N >= 2)
       ``d^2 E / dX_{j a0} dX_{q b0} = S_{a0 n b0 k}`` for every ``a0, b0`` in ``1..C`` (both
       orders ``a0 <= b0`` and ``a0 > b0``); E is a quadratic form in X, so ``E = 0``
       identically forces ``S = 0``: closed => swap-symmetric.

    ``jacobian`` is a parameter so that a wrong closed form can be shown to fail step 1.
    """
    t0 = time.monotonic()
    a, b, m, p = sp.symbols("a b m p", integer=True)
    j, k = sp.symbols("j k", integer=True)
    r, s, c, e = sp.symbols("r s c e", **_SIZE)
    X, Xb, T = sp.IndexedBase("X"), sp.IndexedBase("Xb"), sp.IndexedBase("T")
    q, n, N, C = r + 1, c + 1, r + 1 + s, c + 1 + e
    steps: list[str] = []
    part = "(b) N >= 2"

    def proved_in_symbolic_size(ev: Evidence) -> bool:
        return ev.verdict is Verdict.PROVED and (ev.generality or "").startswith("symbolic")

    def failed(label: str, ev: Evidence) -> Evidence:
        return Evidence(Verdict.UNDECIDED, f"{label}: no symbolic-size proof "
                        f"({ev.verdict.value}: {ev.summary})", method="symbolic", part=part,
                        steps=steps)

    # 1. the conjugate Jacobian (the delta sums innermost, so that SymPy resolves them in range)
    F = sp.Sum(X[j, a] * X[p, b] * T[a, m, b, k] * Xb[p, m],
               (m, 1, C), (p, 1, N), (a, 1, C), (b, 1, C))
    ev = prove_equal(sp.diff(F, Xb[q, n]), jacobian(X, T, j, k, q, n, C, a, b),
                     assumptions="real", timeout=20, sizes={d: (1, 2) for d in (r, s, c, e)})
    steps.append(f"dF_jk/dconj(X)_qn = sum_ab X_ja X_qb T_anbk: {ev.verdict.value} "
                 f"({ev.summary})")
    if not proved_in_symbolic_size(ev):
        return failed("step 1", ev)
    # 2.-3. with free indices and a symbolic width
    jj, kk, qq, nn = sp.symbols("j k q n", integer=True)
    Cs = sp.Symbol("C", integer=True, positive=True)
    transposed = jacobian(X, T, qq, nn, jj, kk, Cs, a, b)
    target = sp.Sum(X[jj, a] * X[qq, b] * T[b, kk, a, nn], (a, 1, Cs), (b, 1, Cs))
    same = bound_variables_renamed(transposed.reorder((0, 1))) == bound_variables_renamed(target)
    steps.append(f"exchanging the sums of dF_qn/dconj(X)_jk and renaming their bound variables "
                 f"gives {target} (structurally the target: {same})")
    if not same:
        return Evidence(Verdict.UNDECIDED, "step 2: the exchanged sum is not structurally the "
                        "target", method="symbolic", part=part, steps=steps)
    S = sp.IndexedBase("S")
    asym = sp.Sum(X[jj, a] * X[qq, b] * (T[a, nn, b, kk] - T[b, kk, a, nn]),
                  (a, 1, Cs), (b, 1, Cs))
    ev = prove_equal(jacobian(X, T, jj, kk, qq, nn, Cs, a, b) - target, asym,
                     assumptions="real", timeout=20, sizes={Cs: (1, 2)})
    steps.append(f"E = sum_ab X_ja X_qb (T_anbk - T_bkan): {ev.verdict.value} ({ev.summary})")
    if not proved_in_symbolic_size(ev):
        return failed("step 3", ev)
    # 4. second derivatives across two distinct rows
    u, v, w, d = sp.symbols("u v w d", **_SIZE)
    q2 = jj + 1 + d
    for order, (a0, b0, C2) in (("a0 <= b0", (u + 1, u + 1 + v, u + 1 + v + w)),
                                ("a0 > b0", (u + 2 + v, u + 1, u + 2 + v + w))):
        E = sp.Sum(X[jj, a] * X[q2, b] * S[a, nn, b, kk], (a, 1, C2), (b, 1, C2))
        ev = prove_equal(sp.diff(E, X[jj, a0], X[q2, b0]), S[a0, nn, b0, kk],
                         assumptions="real", timeout=20, sizes={z: (0, 1) for z in (u, v, w, d)})
        steps.append(f"d^2E/dX_ja0 dX_qb0 = S_a0nb0k for rows q = j+1+d, {order}: "
                     f"{ev.verdict.value} ({ev.summary})")
        if not proved_in_symbolic_size(ev):
            return failed(f"step 4 ({order})", ev)
    return Evidence(Verdict.PROVED, "any N >= 2, any C: the conjugate Jacobian is symmetric iff "
                    "T_anbk = T_bkan (sum A(x)B = sum B(x)A); sizes symbolic", method="symbolic",
                    part=part, steps=steps,
                    generality="symbolic N, C (index ranges explicit); E is quadratic in X, so "
                    "it vanishes identically iff its second derivatives do", scope="general",
                    elapsed_s=time.monotonic() - t0)


def _criterion_at(N: int, C: int) -> Evidence:
    """(b) at N >= 2: closed <=> swap-symmetric, by comparing the two exact solution spaces."""
    t0 = time.monotonic()
    closed, swap, _, _ = _closed_and_swap_symmetric(N, C)
    rank_union = sp.Matrix.hstack(*closed, *swap).rank()
    numbers = {"dim_closed": len(closed), "dim_swap_symmetric": len(swap),
               "rank_union": rank_union}
    part = "(b) N >= 2"
    if len(closed) == len(swap) == rank_union:
        return Evidence(Verdict.PROVED, f"N={N}, C={C}: closed <=> T swap-symmetric (both spaces "
                        f"have dimension {len(closed)}, exact linear algebra)", method="symbolic",
                        part=part, numbers=numbers, scope="bounded",
                        generality=f"N={N}, C={C}, general T (every size: closedness_any_size)",
                        elapsed_s=time.monotonic() - t0)
    return Evidence(Verdict.REFUTED, f"N={N}, C={C}: closed space {len(closed)} != swap-symmetric "
                    f"{len(swap)}", method="symbolic", part=part, numbers=numbers,
                    counterexample={"N": N, "C": C, **numbers})


def _criterion_one_token(C: int) -> Evidence:
    """(c) at N = 1: is the tensor condition still necessary? Either answer is exact."""
    closed, swap, swap_matrix, syms = _closed_and_swap_symmetric(1, C)
    rank_union = sp.Matrix.hstack(*closed, *swap).rank()
    numbers = {"dim_closed": len(closed), "dim_swap_symmetric": len(swap),
               "rank_union": rank_union}
    extra = [v for v in closed if swap_matrix * v != sp.zeros(swap_matrix.rows, 1)]
    part, generality = "(c) N = 1", f"N=1, C={C}"
    if not extra:
        return Evidence(Verdict.PROVED, f"N=1, C={C}: closed <=> swap-symmetric",
                        method="symbolic", part=part, numbers=numbers, scope="bounded",
                        generality=generality + " only (other C not checked)")
    witness = {str(s): str(val) for s, val in zip(syms, extra[0], strict=True) if val != 0}
    return Evidence(Verdict.PROVED, f"N=1, C={C}: closed fields form a space of dimension "
                    f"{len(closed)} > {len(swap)} (swap-symmetric): the tensor condition is not "
                    "necessary at N = 1", method="symbolic", part=part, numbers=numbers,
                    steps=[f"closed but not swap-symmetric tensor: {witness}"],
                    generality=generality + ": one witness settles (c) for N = 1",
                    scope="general")


@verify.claim(
    "toef.potential_existence_criterion", paper=PAPER,
    where="derived: Def 2 'whenever it exists' (L64); L90, L130",
    statement=r"F=\partial V/\partial X^*\text{ for some }V\iff\partial F_a/\partial\bar X_b="
              r"\partial F_b/\partial\bar X_a;\ F=\sum_iXA_iX^*XB_i\text{ has a potential }"
              r"(N\ge2)\iff\sum_iA_i\otimes B_i=\sum_iB_i\otimes A_i",
    kind="identity", expect="PROVED",
)
def potential_existence_criterion(ctx):
    """(b) at N = 2, C = 2 with a general tensor ``T = sum A_i (x) B_i`` (16 symbols): the
    conjugate Jacobian is symmetric identically in X iff T is swap-symmetric (the solution
    space of the exact linear system equals the swap-symmetric space, dimension 10); and for
    every N >= 2 and every C with sizes symbolic (:func:`closedness_any_size`). (c) at N = 1,
    C = 2 the solution space is strictly larger: the condition is not necessary for N = 1
    (exact witness). (d) the linear field XW of Lemma 3 is closed for every W: its entries
    contain no conj(X), in symbolic size."""
    j, k, a, q, n = sp.symbols("j k a q n", integer=True)
    C = sp.Symbol("C", integer=True, positive=True)
    X, Xb, W = sp.IndexedBase("X"), sp.IndexedBase("Xb"), sp.IndexedBase("W")
    F = sp.Sum(X[j, a] * W[a, k], (a, 1, C))  # (XW)_jk
    linear = prove_equal(sp.diff(F, Xb[q, n]), 0).relabel(
        part="(d) linear fields",
        generality="symbolic N, C, every W (IndexedBase, free indices)",
        prefix="d(XW)_jk / d conj(X)_qn = 0 (closed for every W)")
    return [_criterion_at(2, 2), _criterion_one_token(2), closedness_any_size(), linear]
