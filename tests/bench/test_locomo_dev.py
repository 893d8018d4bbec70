"""LoCoMo dev data with the real embedding model (docs/benchmarks.md "Retrieval quality: LoCoMo").

Reads ``../shared/data/locomo-dev.json`` at run time (its licence forbids a
copy in the repository) and skips when the file is absent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.locomo import gold_units, import_conversation, load_locomo, total_report
from graphmem import GraphMem, RecallQuery, Settings

DEV = Path(__file__).parents[2].parent / "shared/data/locomo-dev.json"

pytestmark = [
    pytest.mark.locomo,
    pytest.mark.model,
    pytest.mark.skipif(not DEV.exists(), reason=f"{DEV} is absent (LoCoMo dev data)"),
]


@pytest.fixture(scope="module")
def conversations() -> list[Any]:
    return load_locomo(DEV)


def test_malformed_evidence_is_repaired_and_reported(conversations: list[Any]) -> None:
    report = total_report(conversations)
    assert report.repaired >= 1 and report.dropped >= 1 and report.no_evidence >= 1
    assert len(report.details) >= report.repaired
    turn_ids = {t.dia_id for c in conversations for s in c.sessions for t in s.turns}
    assert all(e in turn_ids for c in conversations for q in c.qa for e in q.evidence)


def test_an_evidence_turn_is_recalled_with_its_explanation(
    conversations: list[Any], tmp_path: Path
) -> None:
    conv = next(c for c in conversations if c.report.repaired)  # one whose evidence needed repair
    with GraphMem(Settings(data_dir=tmp_path, neo4j_uri=None)) as memory:
        namespace, stands_for, _ = import_conversation(memory, conv, "turns")
        assert sum(len(units) for units in stands_for.values()) == sum(
            len(s.turns) for s in conv.sessions
        )
        single_hop = [q for q in conv.qa if q.category == 4 and q.evidence][:20]
        for qa in single_hop:
            gold = gold_units(conv, qa, "turns")
            query = RecallQuery(
                text=qa.question, k=10, reference_time=conv.now, record_access=False
            )
            result = memory.recall(namespace, query)
            found = [h for h in result.hits if gold.intersection(stands_for[h.memory.id])]
            if found:
                hit = found[0]
                assert hit.explanation.plan == result.plan
                assert hit.explanation.retrievers, (
                    "a recalled memory names the retrievers that found it"
                )
                assert hit.explanation.rrf > 0 and 0 < hit.explanation.freshness <= 1
                assert set(hit.memory.turn_ids) & gold
                return
    pytest.fail("no single-hop question of the first 20 recalled its evidence turn in the top 10")
