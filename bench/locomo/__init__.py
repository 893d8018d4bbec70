"""LoCoMo: load the benchmark, import it as memories, score recall (docs/benchmarks.md
"Retrieval quality: LoCoMo").

The package, one module per role::

    dataset    LoCoMo's file format, evidence repair          load_locomo, Conversation
    corpus     the turns / observations corpora as memories   import_conversation, gold_units
    metrics    R@5, R@10, nDCG@10, MRR, All@10 per category    score_ranking, summarize
    baselines  BM25Okapi, MiniLM cosine, unweighted RRF        baseline_rankings
    runner     the bench                                       run_bench

The protocol, units, gold and the metrics' exact definitions are in the
docstrings of :mod:`~bench.locomo.corpus` and :mod:`~bench.locomo.metrics`.
"""

from bench.locomo.baselines import (
    BASELINE_RRF_K,
    baseline_rankings,
    baseline_tokens,
    score_baselines,
)
from bench.locomo.corpus import (
    CORPORA,
    Corpus,
    gold_units,
    import_conversation,
    namespace_for,
    observation_candidates,
    turn_candidates,
)
from bench.locomo.dataset import (
    Conversation,
    ImportReport,
    ObservationFact,
    QAItem,
    Session,
    Turn,
    load_locomo,
    parse_session_time,
    repair_evidence,
    total_report,
)
from bench.locomo.metrics import CATEGORIES, HEADLINE, METRICS, Row, score_ranking, summarize
from bench.locomo.runner import Progress, run_bench

__all__ = [
    "BASELINE_RRF_K",
    "CATEGORIES",
    "CORPORA",
    "HEADLINE",
    "METRICS",
    "Conversation",
    "Corpus",
    "ImportReport",
    "ObservationFact",
    "Progress",
    "QAItem",
    "Row",
    "Session",
    "Turn",
    "baseline_rankings",
    "baseline_tokens",
    "gold_units",
    "import_conversation",
    "load_locomo",
    "namespace_for",
    "observation_candidates",
    "parse_session_time",
    "repair_evidence",
    "run_bench",
    "score_baselines",
    "score_ranking",
    "summarize",
    "total_report",
    "turn_candidates",
]
