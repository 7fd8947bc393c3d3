"""Registration errors are raised at import, naming the claim and the file."""

from __future__ import annotations

import pytest

import verify
from verify.context import Context
from verify.errors import ClaimDefinitionError, DuplicateClaimError, UnknownClaimError
from verify.execute import execute
from verify.registry import Registry


def _register(reg: Registry, id: str = "pp.a", **kw):
    fields = dict(paper="pp", where="l. 1", statement="x = x", kind="identity")
    fields.update(kw)
    return verify.claim(id, registry=reg, **fields)(lambda ctx: None)


def test_duplicate_id_names_both_files():
    reg = Registry()
    _register(reg)
    with pytest.raises(DuplicateClaimError, match=r"'pp.a' is registered twice.*test_registry.py"):
        _register(reg)


@pytest.mark.parametrize("field", ["paper", "where", "statement"])
def test_missing_field_is_named(field):
    reg = Registry()
    with pytest.raises(ClaimDefinitionError, match=rf"test_registry.py: claim 'pp.a'.*{field!r}"):
        _register(reg, **{field: ""})


def test_unknown_kind_lists_the_kinds():
    with pytest.raises(ClaimDefinitionError,
                       match=r"kind 'lemma' is not one of identity, property"):
        _register(Registry(), kind="lemma")


def test_bad_id_and_paper_prefix():
    with pytest.raises(ClaimDefinitionError, match="dotted lowercase"):
        _register(Registry(), id="NoDots")
    with pytest.raises(ClaimDefinitionError, match="must start with its paper key 'pp.'"):
        _register(Registry(), id="qq.a")


def test_bad_expect():
    with pytest.raises(ClaimDefinitionError, match="unknown verdict 'TRUE'"):
        _register(Registry(), expect="TRUE")


def test_expect_accepts_names_in_any_case():
    reg = Registry()
    _register(reg, expect="proved")
    assert reg["pp.a"].expect is verify.Verdict.PROVED


def test_expect_per_profile():
    reg = Registry()
    _register(reg, expect={"quick": "UNDECIDED", "deep": "refuted"})
    c = reg["pp.a"]
    assert c.expect is verify.Verdict.UNDECIDED
    assert c.expect_for("deep") is verify.Verdict.REFUTED
    assert c.expect_for("fuzz") is verify.Verdict.UNDECIDED  # no entry: the quick one
    with pytest.raises(ClaimDefinitionError, match="expect names profile 'slow'"):
        _register(Registry(), expect={"quick": "PROVED", "slow": "PROVED"})
    with pytest.raises(ClaimDefinitionError, match="unknown verdict 'TRUE'"):
        _register(Registry(), expect={"deep": "TRUE"})


def test_deep_verdict_is_guarded_by_its_own_expect():
    reg = Registry()
    verify.claim("pp.b", registry=reg, paper="pp", where="l. 1", statement="s", kind="property",
                 expect={"quick": "UNDECIDED", "deep": "REFUTED"})(
        lambda ctx: verify.Evidence.undecided("smoke") if ctx.profile == "quick"
        else verify.Evidence(verify.Verdict.REFUTED, "x", counterexample={"x": 1}))
    quick = execute(reg["pp.b"], Context("pp.b", run_seed=0, profile="quick"))
    deep = execute(reg["pp.b"], Context("pp.b", run_seed=0, profile="deep"))
    assert quick.verdict is verify.Verdict.UNDECIDED and not quick.drift
    assert deep.verdict is verify.Verdict.REFUTED and not deep.drift
    assert deep.expect is verify.Verdict.REFUTED


def test_evidence_for_unknown_claim_fails_validation():
    reg = Registry()
    verify.evidence_for("pp.missing", registry=reg)(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError,
                       match=r"evidence_for\('pp.missing'\) names a claim that is not registered"):
        reg.validate()


def test_evidence_for_before_and_after_the_claim_both_attach():
    reg = Registry()
    early = verify.evidence_for("pp.a", registry=reg)(lambda ctx: "early")
    _register(reg)
    late = verify.evidence_for("pp.a", registry=reg)(lambda ctx: "late")
    reg.validate()
    assert reg["pp.a"].checks[1:] == [early, late]


def test_pending_evidence_is_answered_for_and_forgotten_through_the_registry():
    """A discovery validates only the evidence_for registered since its snapshot, and a
    failed module's waiting evidence_for is forgotten (public methods, not ``_pending``)."""
    reg = Registry()
    verify.evidence_for("pp.old", registry=reg)(lambda ctx: None)
    before = reg.pending()
    reg.validate(since=before)  # waiting from before the snapshot: not this discovery's
    verify.evidence_for("pp.new", registry=reg)(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError, match=r"evidence_for\('pp.new'\)"):
        reg.validate(since=before)
    reg.forget_pending_since(before)
    assert [cid for cid, _, _ in reg.pending()] == ["pp.old"]


def test_emptied_gives_the_registry_back_as_it_was():
    reg = Registry()
    _register(reg, "pp.kept")
    verify.evidence_for("pp.later", registry=reg)(lambda ctx: None)
    with reg.emptied() as empty:
        assert len(empty) == 0 and empty.pending() == []
        _register(empty, "pp.scratch")
    assert [c.id for c in reg] == ["pp.kept"]
    assert [cid for cid, _, _ in reg.pending()] == ["pp.later"]


def test_select_globs_and_papers():
    reg = Registry()
    _register(reg, "pp.ag.one")
    _register(reg, "pp.ag.two")
    _register(reg, "pp.eq.one")
    assert [c.id for c in reg.select("pp.ag.*")] == ["pp.ag.one", "pp.ag.two"]
    assert [c.id for c in reg.select(["*.one"], paper="pp")] == ["pp.ag.one", "pp.eq.one"]
    with pytest.raises(UnknownClaimError, match="'zz.*' matches no claim"):
        reg.select("zz.*")
    with pytest.raises(UnknownClaimError, match="no claims for paper 'zz'"):
        reg.select(None, paper="zz")


def test_timeout_per_profile():
    reg = Registry()
    _register(reg, timeout={"quick": 5, "deep": 50})
    assert reg["pp.a"].timeout_for("quick") == 5
    assert reg["pp.a"].timeout_for("deep") == 50


def test_paper_metadata_is_registered_once():
    reg = Registry()
    info = verify.paper("pp", title="A  Paper", authors="A. Author", registry=reg)
    assert reg.papers["pp"] == info and info.title == "A Paper"
    verify.paper("pp", title="A Paper", authors="A. Author", registry=reg)  # same: fine
    with pytest.raises(DuplicateClaimError, match=r"paper 'pp' is registered twice"):
        verify.paper("pp", title="Another", registry=reg)
    with pytest.raises(ClaimDefinitionError, match=r"title is empty"):
        verify.paper("qq", title=" ", registry=reg)


def test_quantifier_defaults_to_forall_and_is_validated():
    reg = Registry()
    _register(reg)
    assert reg["pp.a"].quantifier_of("A") == "forall"
    assert reg["pp.a"].to_dict()["quantifier"] == "forall"
    _register(reg, id="pp.b", quantifier="exists")
    assert reg["pp.b"].quantifier_of("A") == "exists" == reg["pp.b"].quantifier_of("B")
    _register(reg, id="pp.c", readings={"B": "b"}, quantifier={"A": "exists"})
    assert (reg["pp.c"].quantifier_of("A"), reg["pp.c"].quantifier_of("B")) == ("exists", "forall")
    with pytest.raises(ClaimDefinitionError,
                       match=r"test_registry.py: claim 'pp.d'.*quantifier 'some' is not "
                             r"'forall' or 'exists'"):
        _register(Registry(), id="pp.d", quantifier="some")
    with pytest.raises(ClaimDefinitionError, match=r"quantifier names reading 'Z'"):
        _register(Registry(), quantifier={"Z": "exists"})
    with pytest.raises(ClaimDefinitionError, match=r"quantifier\['A'\] is 'all'"):
        _register(Registry(), quantifier={"A": "all"})


def test_an_existential_claim_is_decided_as_one_and_recorded():
    reg = Registry()
    witness = verify.Evidence(verify.Verdict.PROVED, "holds at W = 1", method="symbolic",
                              witness={"W": 1})
    failing = verify.Evidence(verify.Verdict.REFUTED, "fails at W = 0", method="symbolic",
                              counterexample={"W": 0}, reading="P")
    _register(reg, id="pp.e", readings={"P": "the proof's W = 0"},
              quantifier={"A": "exists"})
    reg["pp.e"].checks = [lambda ctx: [witness, failing]]
    r = execute(reg["pp.e"], Context("pp.e"))
    assert r.verdict is verify.Verdict.PROVED and r.quantifier == "exists"
    assert r.readings["P"]["verdict"] == "REFUTED"  # the proof's choice, universal, beside it
    assert "quantifier" not in r.readings["P"]
    d = r.to_dict()
    assert d["quantifier"] == "exists" and d["evidence"][0]["witness"] == {"W": 1}
    back = type(r).from_dict(d)
    assert back.quantifier == "exists" and back.evidence[0].witness == {"W": 1}
