"""``pegr.data.*``: the synthetic targets of App. D.1 (eqs. (30)-(31), L317-325) and their
(approximate) rotation symmetry claimed at L89 and L114.

Grid checks (exact C4 symmetry of the centred grid, target variances, rotated-grid errors of
the Spiral targets) are in ``numerics/pegr/data.py``.
"""

from __future__ import annotations

import sympy as sp

import verify
from verify.symbolic import prove_equal, refute_exactly

from .model import PAPER, R


def polar_targets(r: sp.Expr, theta: sp.Expr, magnitude: bool = False):
    """``(I_rad, I_sp, v_rad, v_sp)`` at polar ``(r, theta)``: the images of L325 (signed, or
    their absolute value with ``magnitude``) and the vector fields of eqs. (30)-(31)."""
    radial = sp.sin(15 * sp.sqrt(r))
    spiral = sp.sin(30 * sp.sqrt(r / 10) + theta)
    e = sp.Matrix([sp.cos(theta), sp.sin(theta)])
    images = (sp.Abs(radial), sp.Abs(spiral)) if magnitude else (radial, spiral)
    return images[0], images[1], radial * e, spiral * e


@verify.claim(
    "pegr.data.definitions_and_radial_symmetry", paper=PAPER,
    where="eqs. (30)-(31), L317-323; L325; claims L89, L114",
    statement=r"I_{rad}(R_\phi p)=I_{rad}(p),\quad v_{rad}(R_\phi p)=R_\phi v_{rad}(p)",
    kind="identity", expect="PROVED",
    readings={"B": "image intensity = |sin(15 sqrt r)| ('magnitude of the vector', L325)"},
)
def data_radial_symmetry(ctx):
    """Polar form, ``theta -> theta + phi``: the Radial image does not depend on theta, under
    both the signed formula (A) and the "magnitude of the vector" (B) of L325, and ``v_rad(r,
    theta + phi) = R(phi) v_rad(r, theta)`` (PROVED, symbolic). Grid checks:
    ``numerics/pegr/data.py``."""
    th, ph = sp.symbols("theta phi", real=True)
    r = sp.Symbol("r", positive=True)
    gen = "symbolic r > 0, theta, phi"
    asm = {"theta": "real", "phi": "real"}
    out = []
    for reading, magnitude in (("A", False), ("B", True)):
        rotated = polar_targets(r, th + ph, magnitude)[0]
        out.append(prove_equal(rotated, polar_targets(r, th, magnitude)[0], assumptions=asm,
                               part="image", reading=reading).relabel(
            generality=gen, prefix="Radial image invariant"))
    v_rot, v = polar_targets(r, th + ph)[2], polar_targets(r, th)[2]
    out.append(prove_equal(v_rot, R(ph) * v, assumptions=asm, part="vector field").relabel(
        generality=gen, scope="general", prefix="Radial VF equivariant"))
    return out


@verify.claim(
    "pegr.data.spiral_approx", paper=PAPER, where="L89; L114",
    statement=r"I_{sp}(R_\phi p)\approx I_{sp}(p),\quad v_{sp}(R_\phi p)\approx R_\phi v_{sp}(p)",
    kind="identity", expect="REFUTED",
    readings={"B": "local: the error tends to 0 as phi -> 0"},
)
def data_spiral_approx(ctx):
    """Exact residuals in polar form (``a(r) = 30 sqrt(r/10)``, so ``u = a + theta`` is uniform on
    each circle): the relative L2 error is ``eps_2(phi)^2 = 4 sin^2(phi/2)`` for the signed image
    and for the VF (PROVED by exact integration; the same on every circle, so on any
    rotation-invariant domain). Reading A (global, "for all g", L43; the metrics of
    ``pegr.rep.equivariance_def``): REFUTED: at phi = pi the Spiral image is exactly anti-invariant,
    ``I_sp(R_pi p) = -I_sp(p)``, eps_2 = 2, larger than the sqrt(2) of an independent-pixel random
    image; the Spiral VF has ``v(R_pi p) - R_pi v(p) = 2 v(p)``; witness p = (1/40, 0) (a = 3/2).
    Reading B (local): ``eps_2 = 2|sin(phi/2)| -> 0`` linearly (PROVED). The magnitude reading of
    the image and grid numbers: ``numerics/pegr/data.py``. No reading repairs A: the local reading B
    holds for every continuous image, so it does not say what L89 and L114 claim of the Spiral
    targets."""
    th, ph = sp.symbols("theta phi", real=True)
    u = sp.Symbol("u", real=True)
    num = sp.integrate(sp.expand_trig((sp.sin(u + ph) - sp.sin(u)) ** 2), (u, 0, 2 * sp.pi))
    den = sp.integrate(sp.sin(u) ** 2, (u, 0, 2 * sp.pi))
    image_error = prove_equal(sp.simplify(num / den), 4 * sp.sin(ph / 2) ** 2, assumptions="real",
                              part="closed form", reading="B").relabel(
        generality="exact, every circle, symbolic phi",
        prefix=r"$\varepsilon_2(\phi)^2 = 4\sin^2(\phi/2)$ (signed image)")
    r = sp.Symbol("r", positive=True)
    res = polar_targets(r, th + ph)[3] - R(ph) * polar_targets(r, th)[3]
    a_r = 30 * sp.sqrt(r / 10)
    field_error = prove_equal((res.T * res)[0], (sp.sin(a_r + th + ph) - sp.sin(a_r + th)) ** 2,
                              assumptions={"theta": "real", "phi": "real"}, part="closed form",
                              reading="B").relabel(
        generality="symbolic r > 0, theta, phi",
        prefix="VF: |v(R p) - R v(p)|^2 = (sin(u+phi) - sin u)^2, so the same eps_2")
    r0 = sp.Rational(1, 40)
    _, image_rot, _, field_rot = polar_targets(r0, sp.pi)
    _, image, _, field = polar_targets(r0, sp.Integer(0))
    angular_mean = sp.integrate(sp.sin(u + th), (u, 0, 2 * sp.pi))
    image_witness = refute_exactly(
        r"$\phi = \pi$, $p = (1/40, 0)$: $I_{sp}(R_\pi p) = -I_{sp}(p) = -\sin(3/2)$ (relative "
        r"error 2; on the disk $\epsilon_2(\pi) = 2 > \sqrt{2}$, the value of a random image)",
        {"p": ["1/40", "0"], "phi": "pi", "I(p)": "sin(3/2)", "I(R_pi p)": "-sin(3/2)",
         "eps_2(pi)": 2, "random_image_eps_2": "sqrt(2)",
         "angular_mean_on_every_circle": str(angular_mean),
         "note": "zero angular mean: the projection onto SO(2)-invariant functions is 0"},
        lhs=image_rot, rhs=image, part="image", generality="exact witness")
    field_witness = refute_exactly(
        "phi = pi, p = (1/40, 0): v_sp(R_pi p) - R_pi v_sp(p) = 2 v_sp(p)",
        {"p": ["1/40", "0"], "phi": "pi", "v(p)": "sin(3/2)(1, 0)"},
        lhs=field_rot, rhs=R(sp.pi) * field, part="vector field", generality="exact witness")
    return [image_error, field_error, image_witness, field_witness]
