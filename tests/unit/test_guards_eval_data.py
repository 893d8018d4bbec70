"""The data of bench/guards_eval.py (issue 16's evaluation) is what its docstring says:
at least 50 answers, half faithful, half with exactly one planted claim; the planted
contradictions break the §9.10 rule and the restatements keep it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from graphmem.guards.claims import split_claims
from graphmem.language.claims import Claim, check, one_sided

ROOT = Path(__file__).resolve().parents[2]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("guards_eval", ROOT / "bench/guards_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["guards_eval"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("wording", ["a", "b"])
def test_answers_half_faithful_half_planted(wording: str) -> None:
    world = load().build_world(wording=wording)
    assert len(world.answers) >= 50
    faithful = [a for a in world.answers if a.kind == "faithful"]
    planted = [a for a in world.answers if a.kind != "faithful"]
    assert len(faithful) == len(planted) == len(world.answers) // 2
    assert all(not any(a.planted) for a in faithful)
    assert all(sum(a.planted) == 1 for a in planted)
    assert {a.kind for a in planted} == {"changed number", "swapped name", "invented event"}
    # the claims the checker will see are the ones the answer was built from
    assert all(split_claims(a.text) == a.claims for a in world.answers)
    # no planted claim is a memory word for word
    memories = {m for p in world.people for m in p.memories()}
    assert not any(
        c in memories for a in planted for c, f in zip(a.claims, a.planted, strict=True) if f
    )


def test_contradictions_break_the_rule_and_distractors_do_not() -> None:
    world = load().build_world()
    planted = [c for c in world.contradictions if c.planted]
    distractors = [c for c in world.contradictions if not c.planted]
    assert len(planted) == len(distractors) == 30
    for item in planted:
        verdict = check(Claim(item.original), Claim(item.content))
        assert verdict.reason is not None and verdict.reason.is_conflict, item
    for item in distractors:
        verdict = check(Claim(item.original), Claim(item.content))
        assert verdict.compatible or one_sided(Claim(item.original), Claim(item.content)), item
