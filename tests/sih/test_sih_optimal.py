"""Tests of proofs/sih/optimal.py: Algorithm 1 on rule-generated rows and the minimax LP."""

import itertools
from fractions import Fraction

from proofs.sih.optimal import (
    algorithm1_expected_errors,
    minimax_lp,
    rule_generated_steps,
    worst_case_expected_errors,
)


def runs_of_the_witness_instance():
    return {rule: rule_generated_steps(rule, (0, 0), (0,), 3, 2)
            for rule in itertools.product(range(2), repeat=2)}


def test_rows_are_generated_by_the_rule():
    # f(0) = 1, f(1) = 0 from (0, 0): rows (1, 1) then (0, 0)
    assert rule_generated_steps((1, 0), (0, 0), (0,), 3, 2) == [(0, 1), (0, 1), (1, 0), (1, 0)]
    # ECA-style offsets (-1, 0, 1), rule 90 (xor of the outer neighbours) on (0, 1, 0)
    table = [(90 >> n) & 1 for n in range(8)]
    steps = rule_generated_steps(tuple(table), (0, 1, 0), (-1, 0, 1), 2, 2)
    assert [y for _, y in steps] == [1, 0, 1]


def test_algorithm1_is_beaten_on_rule_generated_rows():
    runs = runs_of_the_witness_instance()
    alg1 = max(algorithm1_expected_errors([c for c, _ in s], 2) for s in runs.values())
    assert alg1 == 1
    # Algorithm 1 itself as a behaviour strategy: uniform at a new configuration, else stored
    uniform = {(): Fraction(1, 2), (0,): 0, (0, 0): 0, (0, 0, 0): 0, (1,): 1,
               (1, 1): Fraction(1, 2), (1, 1, 0): 0, (1, 1, 1): 1}
    assert worst_case_expected_errors(uniform, runs) == 1
    better = dict(uniform) | {(): Fraction(3, 4)}
    assert worst_case_expected_errors(better, runs) == Fraction(3, 4)


def test_minimax_lp_rows_are_the_expected_errors():
    runs = runs_of_the_witness_instance()
    c, A_ub, b_ub, bounds, infos = minimax_lp(runs)
    strategy = {h: Fraction(1, 2) for h in infos}
    x = [strategy[h] for h in infos]
    for (rule, steps), row, b in zip(runs.items(), A_ub, b_ub, strict=True):
        expected = worst_case_expected_errors(strategy, {rule: steps})
        assert sum(a * v for a, v in zip(row[:-1], x, strict=True)) - b == expected
    assert c[-1] == 1 and bounds[-1] == (None, None)
