"""Evidence round-trips through JSON and rejects malformed fields."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
import torch

from verify import Evidence, Verdict


def test_round_trip_through_json():
    e = Evidence(
        "refuted", "flipped sign", method="symbolic", counterexample={"x": Fraction(1, 3)},
        numbers={"gap": np.float64(0.5), "v": torch.tensor([1.0, 2.0])}, dtype=torch.float64,
        steps=[r"\frac{1}{3}"],
    )
    d = json.loads(json.dumps(e.to_dict(), allow_nan=False))
    assert d["verdict"] == "REFUTED" and d["dtype"] == "float64"
    assert d["counterexample"] == {"x": "1/3"}
    assert d["numbers"] == {"gap": 0.5, "v": [1.0, 2.0]}
    back = Evidence.from_dict(d)
    assert back.verdict is Verdict.REFUTED and back.steps == [r"\frac{1}{3}"]


def test_non_finite_numbers_become_strings():
    d = Evidence(Verdict.SUPPORTED, "x", numbers={"a": float("nan"), "b": float("inf")}).to_dict()
    assert d["numbers"] == {"a": "nan", "b": "inf"}


def test_bad_method_and_verdict():
    with pytest.raises(ValueError, match="method must be one of"):
        Evidence(Verdict.SUPPORTED, "x", method="vibes")
    with pytest.raises(ValueError, match="unknown verdict 'maybe'"):
        Evidence("maybe", "x")


def test_summary_is_one_line():
    assert Evidence(Verdict.UNDECIDED, "a\n  b").summary == "a b"


def test_informal_is_undecided_with_reason():
    e = Evidence.informal()
    assert e.verdict is Verdict.UNDECIDED and e.summary == "not a checkable statement"


def test_relabel_places_engine_evidence_in_a_claim():
    e = Evidence(Verdict.PROVED, "exact zero", method="symbolic")
    assert e.relabel(part="law", reading="B", generality="N <= 4", prefix="action law") is e
    assert (e.part, e.reading, e.generality) == ("law", "B", "N <= 4")
    assert e.summary == "action law: exact zero"
