"""The Sec. 7.2 trainer (numerics.gda.model.sticky) under verify.memo: claims share one training,
and a training interrupted mid-run resumes to the bit-identical result of an uninterrupted
one (the data generator's state is part of the checkpoint)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from numerics.gda.model import sticky
from verify import memo

CFG = sticky.StickyConfig(T=12, steps=40, eval_every=10, n_seeds=2, d_x=6, d_k=4, d_v=5,
                          block=8, protocols=("SGD", "Adam0.01"))


class Stop(Exception):
    pass


def same(a: sticky.RunLog, b: sticky.RunLog) -> bool:
    tensors = all(torch.equal(a.final[k], b.final[k]) for k in a.final)
    grads = all(np.array_equal(a.grad_norms[k], b.grad_norms[k]) for k in a.grad_norms)
    return (tensors and grads and a.steps == b.steps and np.array_equal(a.loss, b.loss)
            and np.array_equal(a.acc, b.acc) and np.array_equal(a.ent, b.ent))


@pytest.fixture
def small_chunks(tmp_path, monkeypatch):
    """Chunks of 4 sequences, a checkpoint at every chunk boundary, the cache in tmp_path."""
    monkeypatch.setattr(sticky, "CHUNK_TOKENS", 4 * CFG.n_seeds * CFG.T)
    monkeypatch.setenv("VERIFY_CHECKPOINT_S", "0")
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_an_interrupted_training_resumes_to_the_uninterrupted_result(small_chunks, monkeypatch):
    saves = {"n": 0}
    real_save = memo.Checkpoint.save

    def save_then_stop(self, state):
        real_save(self, state)
        saves["n"] += 1
        if saves["n"] == 3:  # killed after the third chunk, as a timeout would
            raise Stop

    monkeypatch.setattr(memo.Checkpoint, "save", save_then_stop)
    with pytest.raises(Stop):
        memo.persistent(sticky.train)(CFG, 3)
    ckpts = list(small_chunks.rglob("*.ckpt"))
    assert ckpts and memo.Checkpoint(ckpts[0]).load()["step"] == 12
    monkeypatch.setattr(memo.Checkpoint, "save", real_save)
    resumed = memo.persistent(sticky.train)(CFG, 3)
    assert not list(small_chunks.rglob("*.ckpt"))
    assert same(resumed, sticky.train(CFG, 3))


def test_a_different_seed_is_a_different_training(small_chunks):
    a = memo.persistent(sticky.train)(CFG, 1)
    b = memo.persistent(sticky.train)(CFG, 2)
    assert not same(a, b) and len(list(small_chunks.rglob("*.pkl"))) == 2
