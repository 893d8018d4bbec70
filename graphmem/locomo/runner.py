"""``run_bench``: import LoCoMo conversations as memories and score recall (BENCHMARKS.md §1).

The protocol, in short: one namespace per conversation and corpus; two
corpora — **turns** (every dialog turn a verbatim memory) and
**observations** (every gpt-3.5-turbo observation a strong-inference
memory); "now" is the conversation's last session; categories 1–4 are the
headline, category 5 (adversarial) is reported apart.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from graphmem.errors import InvalidInputError
from graphmem.locomo.baselines import score_baselines
from graphmem.locomo.corpus import CORPORA, Corpus, gold_units, import_conversation, unit_candidates
from graphmem.locomo.dataset import Conversation, total_report
from graphmem.locomo.metrics import (
    CATEGORIES,
    HEADLINE,
    Row,
    score_ranking,
    summarize,
    with_categories,
)
from graphmem.memory import GraphMem
from graphmem.models import RecallQuery
from graphmem.settings import RETRIEVERS

__all__ = ["Progress", "run_bench"]

Progress = Callable[[str, int, int], None]  # (phase, advance, phase total)


def run_bench(
    memory: GraphMem,
    conversations: Sequence[Conversation],
    corpus: Corpus,
    *,
    k: int = 10,
    retrievers: Sequence[str] = RETRIEVERS,
    progress: Progress | None = None,
    baseline: bool = False,
    batch_size: int = 256,
) -> dict[str, Any]:
    """Import ``conversations`` (each into a fresh namespace) and score recall.

    Every question is asked of the full pipeline and of each retriever alone
    (``retrievers=(name,)``), with ``k``, ``reference_time`` = the
    conversation's last session and ``record_access=False`` (the bench changes
    nothing it reads). With ``baseline``, BENCHMARKS.md's baselines are scored
    on the same memories. Returns the report described in the module docstring
    of :mod:`graphmem.cli.locomo_cmds`.

    Raises
    ------
    InvalidInputError
        For an unknown corpus or ``k < 10``.
    """
    if corpus not in CORPORA:
        raise InvalidInputError(f"corpus must be one of {CORPORA}, got {corpus!r}", field="corpus")
    if k < 10:
        raise InvalidInputError("k must be >= 10 (metrics are at 5 and 10)", field="k")

    def tick(phase: str, total: int) -> Callable[[int], None]:
        return lambda n: progress(phase, n, total) if progress is not None else None

    started = time.perf_counter()
    n_units = sum(len(unit_candidates(c, corpus)) for c in conversations)
    imported = [
        import_conversation(
            memory, c, corpus, batch_size=batch_size, progress=tick(f"import {corpus}", n_units)
        )
        for c in conversations
    ]
    import_s = time.perf_counter() - started
    asked = [
        [(qa, gold) for qa in conv.qa if (gold := gold_units(conv, qa, corpus))]
        for conv in conversations
    ]
    advance = tick(f"recall {corpus}", sum(map(len, asked)))
    rows: dict[str, list[Row]] = defaultdict(list)
    plans: dict[str, Counter[str]] = defaultdict(Counter)
    for conv, (namespace, stands_for, _), questions in zip(
        conversations, imported, asked, strict=True
    ):
        for qa, gold in questions:
            base = RecallQuery(text=qa.question, k=k, reference_time=conv.now, record_access=False)
            result = memory.recall(namespace, base)
            plans[str(qa.category)][result.plan] += 1
            for name in ("pipeline", *retrievers):
                if name != "pipeline":
                    result = memory.recall(
                        namespace, base.model_copy(update={"retrievers": (name,)})
                    )
                units = [stands_for.get(h.memory.id, ()) for h in result.hits]
                rows[name].append((qa.category, score_ranking(units, gold)))
            advance(1)
    query_s = time.perf_counter() - started - import_s
    report: dict[str, Any] = {
        "corpus": corpus,
        "store": str(getattr(memory.store, "name", type(memory.store).__name__)),
        "model": memory.embedder.name,
        "conversations": len(conversations),
        "candidates": n_units,
        "memories": sum(len(sf) for _, sf, _ in imported),
        "merged": sum(m for _, _, m in imported),
        "overall": summarize(rows["pipeline"], HEADLINE),
        "by_category": {str(c): summarize(rows["pipeline"], (c,)) for c in CATEGORIES},
        "retrievers": {name: with_categories(rows[name]) for name in retrievers},
        "plans": {c: dict(sorted(counts.items())) for c, counts in sorted(plans.items())},
        "import": total_report(conversations).as_dict(),
        "namespaces": [ns for ns, _, _ in imported],
        "seconds": {"import": round(import_s, 2), "recall": round(query_s, 2)},
    }
    if baseline:
        started = time.perf_counter()
        report["baselines"] = score_baselines(memory, imported, asked)
        report["seconds"]["baselines"] = round(time.perf_counter() - started, 2)
    return report
