"""ASCII math in the checks' prose is typeset; identifiers, claim ids, paths and ``$..$``
math are left as they are (verify.report.asciimath, verify.report.values.prose)."""

from __future__ import annotations

import re

import pytest

from verify.report import asciimath, latex, values


def _math(tex: str) -> list[str]:
    return re.findall(r"(?<!\\)\$([^$]*)\$", tex)


def _squeezed(tex: str) -> str:
    return re.sub(r"\s+", "", tex)


@pytest.mark.parametrize(("text", "expected"), [
    ("sum_i r_i = 0", [r"\sum_{i}", "r_{i}"]),
    ("mean_k g_k^2", [r"\operatorname{mean}_{k}", "g_{k}^{2}"]),
    ("max_k and min_x", [r"\max_{k}", r"\min_{x}"]),
    ("log_a of it", [r"\log_{a}"]),
    ("argmax_x f", [r"\operatorname{arg\,max}_{x}"]),
    ("sup_{tau >= tau_0} of it", [r"\sup_{\tau\ge\tau_{0}}"]),
])
def test_an_operator_with_a_subscript_is_typeset(text, expected):
    assert [_squeezed(m) for m in _math(values.prose(text))] == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("loss L = 1/2 (y - f)^2, then", r"(y-f)^{2}"),
    ("a bound [A B]^T here", r"[AB]^{\top}"),
    ("points in g([-1,1]^2)", r"g([-1,1]^{2})"),
    ("norm ||R(tau)||_2 = 3", r"\|R(\tau)\|_{2}"),
    ("with |det A|^-1: f", r"|\detA|^{-1}"),
    ("coefficient ((s_i - s_bar)^2 - var(s))/(2N) exact",
     r"((s_{i}-\bar{s})^{2}-\operatorname{var}(s))"),
    ("error mean_k (N tau O_k/kappa - g_k)^2 / mean", r"(N\tauO_{k}/\kappa-g_{k})^{2}"),
    ("F = span{phi_k} here", r"\operatorname{span}\{\phi_{k}\}"),
    ("and pi(g_a) O(S)", r"\pi(g_{a})"),
])
def test_a_script_after_a_bracket_or_bar_typesets_the_whole_group(text, expected):
    maths = [_squeezed(m) for m in _math(values.prose(text))]
    assert expected in maths, maths
    assert "^" not in re.sub(r"\$[^$]*\$", "", values.prose(text))


@pytest.mark.parametrize(("text", "expected"), [
    ("theta = 0 gives", r"\theta"),
    ("as tau grows", r"\tau"),
    ("with kappa=1: the slope", r"\kappa"),
    ("tau_0 is the start", r"\tau_{0}"),
])
def test_a_greek_name_standing_alone_is_the_letter(text, expected):
    assert _squeezed(_math(values.prose(text))[0]) == expected


@pytest.mark.parametrize("text", ["the beta-version", "alphabet", "softmax_tau100",
                                  "nfa.exp.tau", "Delta method"])
def test_a_greek_name_inside_a_word_or_id_is_not(text):
    assert "$" not in values.prose(text)


def test_a_decorated_letter_and_negative_exponents():
    assert _squeezed(_math(values.prose("so v_bar=0 holds"))[0]) == r"\bar{v}"
    assert _squeezed(_math(values.prose("x_hat is"))[0]) == r"\hat{x}"
    assert _squeezed(_math(values.prose("rate O(T^-2)."))[0]) == r"O(T^{-2})"
    assert _squeezed(_math(values.prose("O(tau^-2) as"))[0]) == r"O(\tau^{-2})"
    assert _squeezed(_math(values.prose("eps 10^-7 here"))[0]) == r"10^{-7}"


@pytest.mark.parametrize("text", [
    "worst_in_eps", "no_normalization", "x_range", "std_paper", "paper_g", "num_heads",
    "NOT_REPRODUCED", "k_max", "max_err", "sum_simplify", "entries_in_01",
    "nfa.exp.table1_equivariance", "nfa.ag.softmax_rate_headline",
    "numerics/nfa/x_1.py", "proofs/gda/W_o.py", "verify run --claim 'toef.thm_1'",
    "gda_grad_prop[dW_O,db_O]", "my_fn(x_1, y_2)", "obj.method(a_1)",
])
def test_identifiers_claim_ids_and_paths_stay_text(text):
    tex = values.prose(f"see {text} here")
    assert "$" not in tex, tex
    assert asciimath.spans(text) == []


def test_a_word_raised_to_a_power_is_math_and_the_words_around_it_stay_text():
    tex = values.prose("|measured - paper| <= 2 sqrt(std_paper^2 + std_measured^2)")
    maths = [_squeezed(m) for m in _math(tex)]  # no identifier has a ^: std_paper^2 is math
    assert maths == [r"(\mathrm{std}_{\mathrm{paper}}^{2}"  # a long root may break: a power
                     r"+\mathrm{std}_{\mathrm{measured}}^{2})^{1/2}"]
    assert _squeezed(_math(values.prose("is sqrt(x_1 + 2) here"))[0]) == r"\sqrt{x_{1}+2}"
    assert "measured - paper" in tex
    assert _squeezed(_math(values.prose("so A^adv_ij < 0"))[0]) == r"A^{\mathrm{adv}}_{ij}"
    assert _squeezed(_math(values.prose("with (mu1+mu2)^2 here"))[0]) == r"(\mu_{1}+\mu_{2})^{2}"


def test_a_group_holding_a_word_stays_text_around_its_math():
    tex = values.prose("(raw scores s_ki = phi_k(x_i)) gives")
    assert "raw scores" in tex and "$" in tex  # the words stay words, s_ki is math
    assert all("raw" not in m for m in _math(tex))


def test_math_already_in_dollars_is_kept_and_not_converted_again():
    tex = values.prose(r"the bound $\sum_i r_i = 0$ and sum_k x_k")
    assert r"\sum _i r_i = 0" in tex or r"\sum_i r_i = 0" in tex
    assert _squeezed(_math(tex)[-1]) == "x_{k}" and r"\sum_{k}" in _squeezed(tex)


def test_every_typeset_span_passes_the_math_sanitizer():
    for text in ["f~_theta(x - mu(S))", "x_i^2_j", "a_{\\input{x}}", "((a_1)", "x_{$}",
                 "O(g_a S)(x/a) = 0", "(so v_bar=0)"]:
        for _, _, tex in asciimath.spans(text):
            latex.sanitize_math(tex)  # raises Unsafe on anything not allowed
    assert "input" not in values.prose("a_{\\input{x}}").replace(r"\textbackslash{}input", "")


def test_a_statement_in_words_gets_its_ascii_math_typeset():
    tex = latex.statement("the residuals satisfy sum_i r_i = 0 for every head")
    assert r"\sum" in tex and "r_{i}" in tex and "residuals satisfy" in tex
    assert "$" not in latex.statement("the flag worst_in_eps is set for every head")


def test_a_key_that_is_math_is_typeset_and_one_that_is_a_name_is_words():
    assert "$" in values.key_text("alpha_i") and "$" in values.key_text("W_o")
    assert values.key_text("worst_in_eps") == "worst error in units of machine epsilon"
    assert "$" not in values.key_text("step_size")


@pytest.mark.parametrize(("text", "expected"), [
    ("holds (PX)^*(PX) = X^* P^* P X here", r"(PX)^{*}"),
    ("gives R = (Q^T)^+ for all", r"(Q^{\top})^{+}"),
    ("(2) vec(A)^T vec(B) = tr(A^T B) for", r"\operatorname{vec}(A)^{\top}"),
    ("on eig(PLP^T) only", r"\operatorname{eig}(PLP^{\top})"),
    ("is ubar_j^T Delta v_j", r"\bar{u}_{j}^{\top}"),
    ("and i dq^dp here", r"dq\wedgedp"),
    ("total <= 4hV^m on", r"4hV^{m}"),
    ("step sum_{k=nm}^{nm+n-1} f(k)", r"\sum_{k=nm}^{nm+n-1}"),
    ("F = (Tr K)^2 here", r"(\operatorname{Tr}K)^{2}"),
    ("e^X e^Y = e^(X + G(beta) Y) when", r"e^{X+G(\beta)Y}"),
    ("eq. (4) = 2i|x|^2 x", r"2i|x|^{2}"),
])
def test_conjugates_pseudo_inverses_operators_and_products_of_letters(text, expected):
    assert expected in [_squeezed(m) for m in _math(values.prose(text))], values.prose(text)


@pytest.mark.parametrize("text", ["(so a_1 is it)", "(in x_1 of it)", "(the NOT_SET flag)"])
def test_a_bracket_of_short_english_words_is_not_grown_into(text):
    tex = values.prose(text)
    assert not any(w in m for m in _math(tex) for w in ("so", "in", "the", "NOT")), tex


def test_figure_labels_get_their_ascii_math_as_mathtext():
    from verify.report import figures

    assert figures.mathtext("ours: kappa=1") == r"ours: $\kappa$=1"
    assert r"\geq" in figures.mathtext("sup_{tau >= tau_0} of x")  # mathtext's spelling
    assert figures.mathtext("flag worst_in_eps") == "flag worst_in_eps"
    assert figures.mathtext("cost $x$ and x_1") == "cost $x$ and x_1"  # mathtext of its own


@pytest.mark.parametrize("text", [
    "a" * 4000 + "(x_1)", "a_" * 2000, "x^" * 2000, "(" * 2000 + ")^2" * 600,
    "(x_1) " * 700, "|" * 4000 + "x|^2", "sum_{" * 1000, "a.py/x_1 " * 400,
])
def test_a_long_hostile_text_is_converted_in_linear_time(text):
    """The longest text the report prints (4000 characters) in well under a second each on
    an idle core; a path pattern that backtracked took minutes on the first of these."""
    import time

    start = time.perf_counter()
    values.prose(text[:4000])
    latex.statement(text[:4000])
    assert time.perf_counter() - start < 10
