"""nfa's operator training under verify.memo: an interrupted training resumes to the
bit-identical operator and losses of an uninterrupted one (weights, AdamW moments, batch and
dropout generators are in the checkpoint), and the Table 1 claims share one training."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from numerics.nfa.model import training
from numerics.nfa.model.training import QUICK_TRAIN, train_operator
from verify import memo

CFG = dataclasses.replace(QUICK_TRAIN, steps=12)


class Stop(Exception):
    pass


def train(seed: int):
    return train_operator("softmax_tau1", 2, CFG, seed=seed)


def same(a, b) -> bool:
    sa, sb = a.operator.state_dict(), b.operator.state_dict()
    return a.losses == b.losses and all(torch.equal(sa[k], sb[k]) for k in sa)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CHECKPOINT_S", "0")
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_an_interrupted_training_resumes_to_the_uninterrupted_operator(cache, monkeypatch):
    real_save = memo.Checkpoint.save
    saves = {"n": 0}

    def save_then_stop(self, state):
        real_save(self, state)
        saves["n"] += 1
        if saves["n"] == 5:
            raise Stop

    monkeypatch.setattr(memo.Checkpoint, "save", save_then_stop)
    with pytest.raises(Stop):
        memo.persistent(train)(4)
    (ck,) = cache.rglob("*.ckpt")
    assert memo.Checkpoint(ck).load()["step"] == 5
    monkeypatch.setattr(memo.Checkpoint, "save", real_save)
    resumed = memo.persistent(train)(4)
    assert same(resumed, train(4))


def test_table1_claims_share_one_training(cache):
    """The second claim reads the first one's training from the disk: the stored entry is
    replaced by a marked copy, and a fresh wrapper (a new claim process has an empty
    in-process memo) returns the marked copy, so nothing was trained again. (Counting calls by
    patching the trainer would switch the memo off: a patched process is never memoised.)"""
    import pickle

    first = memo.persistent(training.trained_operator.uncached)(0, "softmax_tau1", 2, CFG)
    (entry,) = cache.rglob("*.pkl")
    marked = {"marker": "read from disk", "value": pickle.loads(entry.read_bytes())}
    entry.write_bytes(pickle.dumps(marked))
    again = memo.persistent(training.trained_operator.uncached)(0, "softmax_tau1", 2, CFG)
    assert again["marker"] == "read from disk" and same(first, again["value"])
