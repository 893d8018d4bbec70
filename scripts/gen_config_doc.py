#!/usr/bin/env python3
"""Write docs/configuration.md from ``graphmem.settings.Settings``.

    python scripts/gen_config_doc.py           # rewrite docs/configuration.md
    python scripts/gen_config_doc.py --check   # exit 1 when the page is stale

Every field of ``Settings`` (and of any nested settings model under it) becomes one table
row: its environment variable, type, default, allowed range and description. Fields are
grouped by concern with ``GROUPS`` below (first matching rule wins); a field no rule matches
lands in "Other", so a new setting is never left off the page. The page is generated: edit
``graphmem/settings.py`` (descriptions, ranges) or this script, never the page.
``tests/unit/test_docs_config.py`` fails when the page differs from this script's output.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "configuration.md"

# (group title, one-line summary, rule). A rule is a tuple of exact names and name prefixes
# ending in "_" or "*"; the first group whose rule matches a field's name takes it.
GROUPS: list[tuple[str, str, tuple[str, ...]]] = [
    (
        "Store",
        "Where memories live: the embedded store's directory, or a Neo4j server and its index.",
        ("data_dir", "neo4j_*", "embedded_*"),
    ),
    (
        "Embedding",
        "The embedding backend and its model ([embedders.md](embedders.md)).",
        ("embedder", "embedding_*", "onnx_*", "vector_cache*"),
    ),
    (
        "LLM extraction and judge",
        "The optional chat model for `remember_text` / `ingest --extract` and as a judge "
        "([llm.md](llm.md), [extraction.md](extraction.md)).",
        ("llm_*",),
    ),
    (
        "Write: confidence",
        "The confidence formula at write time ([scoring.md](scoring.md)).",
        (
            "extractor",
            "extractor_*",
            "source_levels",
            "hearsay_cap",
            "type_prior*",
            "confidence_weights",
            "grounding_*",
            "confirmation_*",
        ),
    ),
    (
        "Write: dedup, updates and retries",
        "Deduplication tiers, independent observations, updates and write retries "
        "([pipelines.md](pipelines.md)).",
        ("dedup_*", "independence_window_hours", "update_margin", "write_conflict_*"),
    ),
    (
        "Write: contextual keys",
        "What a conversation turn is indexed under for BM25.",
        ("contextual_keys", "key_*"),
    ),
    (
        "Read: question handling",
        "How a question is read before search: time, gathering questions, short names.",
        ("event_time_ranking", "aggregate_questions", "when_weight", "question_resolution"),
    ),
    (
        "Read: retrieval and fusion",
        "Candidate lists, BM25 and weighted Reciprocal Rank Fusion.",
        ("candidate_k", "top_k", "rrf_k", "retriever_weights", "bm25_*", "session_support*"),
    ),
    (
        "Read: graph traversal",
        "The graph retriever: relation walk and concept walk.",
        ("max_hops", "hop_scores", "graph_*"),
    ),
    (
        "Read: query planner",
        "The plan chosen per question from its specificity.",
        (
            "specificity_*",
            "entity_plan_confidence",
            "precise_k",
            "entity_centric_weight",
            "relational_graph_weight",
            "entity_mention_weight",
            "temporal_anchored_weight",
            "temporal_precision",
        ),
    ),
    (
        "Read: rescoring",
        "Name-masked similarity, expected answer type, newer over older, direct hits, reranking.",
        (
            "name_mask_*",
            "verbatim_*",
            "answer_type_*",
            "update_rank_*",
            "direct_hit_rank",
            "reranker_model",
            "rerank_depth",
        ),
    ),
    (
        "Read: ranking, freshness and access",
        "The final weight, the gates and what a recall records as use.",
        (
            "half_life_days",
            "freshness_*",
            "access_*",
            "min_confidence",
            "render_gate",
            "mmr_lambda",
            "composite_weights",
        ),
    ),
    (
        "Dynamics and consolidation",
        "Stability, spaced repetition, salience, associations, the cold tier "
        "([forgetting.md](forgetting.md) for deletion).",
        (
            "stability_*",
            "spaced_rep_*",
            "salience_*",
            "consolidation_similarity",
            "retrievability_factor",
            "cold_after_days",
            "association_k",
        ),
    ),
    (
        "Guards and monitors",
        "Consistency scan, read-time faithfulness, concept drift, index recall "
        "([guards.md](guards.md)).",
        ("faithfulness_*", "consistency_*", "drift_*", "vector_recall_alert"),
    ),
]
OTHER = ("Other", "Settings no group above claims yet (add a rule to GROUPS in the generator).")

HEADER = """\
# Configuration

<!-- Generated by scripts/gen_config_doc.py from graphmem.settings.Settings: do not edit.
     Regenerate with `python scripts/gen_config_doc.py`; tests/unit/test_docs_config.py
     fails when this page is stale. -->

Every tunable constant of graphmem is a field of one settings object,
`graphmem.Settings`. A value comes from the keyword argument
(`Settings(rrf_k=60)`, then `GraphMem(settings=...)`), else from the environment
variable named in the table (`GRAPHMEM_RRF_K=60`), else from the default. A value
outside its range, a mistyped name passed as a keyword, or an unknown key of a
mapping is a `pydantic.ValidationError` naming the field. Mapping settings
(`half_life_days`, `source_levels`, `type_priors`, `salience_decay`) change only
the keys given: `GRAPHMEM_HALF_LIFE_DAYS='{"Event": 14}'`. Structured values
(mappings, tuples) are given as JSON in the environment.

Examples: `GRAPHMEM_RRF_K=60` (the specification's value; the default 10 and the
retriever weights were chosen leave-one-conversation-out on LoCoMo dev — each
setting's description gives the reason and numbers), `GRAPHMEM_MIN_CONFIDENCE=0.5`,
`GRAPHMEM_UPDATE_MARGIN=0.15`, `GRAPHMEM_DATA_DIR=.graphmem`,
`GRAPHMEM_NEO4J_URI=bolt://localhost:7687`, `GRAPHMEM_NEO4J_PASSWORD=…`.

The formulas these constants enter are in [scoring.md](scoring.md); where a
default departs from the specification, the description names the measurement
that chose it. Print one field's description:
`python -c "import graphmem; print(graphmem.Settings.model_fields['rrf_k'].description)"`.
"""


def _matches(name: str, rule: tuple[str, ...]) -> bool:
    for pattern in rule:
        if pattern.endswith("*"):
            if name.startswith(pattern[:-1]):
                return True
        elif name == pattern:
            return True
    return False


def _is_model(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _fields(
    model: type[BaseModel], env_prefix: str, delimiter: str, path: str
) -> Iterator[tuple[str, str, FieldInfo]]:
    """(dotted name, environment variable, field) for every leaf field, nested models walked."""
    for name, info in model.model_fields.items():
        dotted = f"{path}{name}"
        env = f"{env_prefix}{name}".upper()
        if _is_model(info.annotation) and delimiter:
            nested = typing.cast(type[BaseModel], info.annotation)
            yield from _fields(nested, f"{env}{delimiter}", delimiter, f"{dotted}.")
        else:
            yield dotted, env, info


def _type_name(annotation: object) -> str:
    text = repr(annotation) if not isinstance(annotation, type) else annotation.__name__
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is not None:
        text = str(annotation)
    text = text.replace("typing.", "").replace("pydantic.types.", "").replace("pathlib.", "")
    text = re.sub(r"Literal\[([^\]]*)\]", lambda m: m.group(1).replace(", ", " \\| "), text)
    return text.replace(" | ", " \\| ")


def _default(info: FieldInfo) -> str:
    value: Any = info.get_default(call_default_factory=True)
    if value is None:
        return "unset"
    if isinstance(value, SecretStr):
        return "(secret)"
    if isinstance(value, Path):
        return f"`{value}`"
    if isinstance(value, dict | tuple | list):
        return f"`{json.dumps(value, default=str)}`"
    return f"`{value}`"


def _range(info: FieldInfo) -> str:
    parts = []
    for item in info.metadata:
        for attr, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            bound = getattr(item, attr, None)
            if bound is not None and isinstance(item, annotated_types.BaseMetadata):
                parts.append(f"{sign} {bound}")
    return ", ".join(parts)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render() -> str:
    """The page as it should be, from the Settings class imported now."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this checkout's graphmem, not another install's
    from graphmem.settings import Settings

    config = Settings.model_config
    prefix = str(config.get("env_prefix", ""))
    delimiter = str(config.get("env_nested_delimiter") or "")
    grouped: dict[str, list[str]] = {title: [] for title, _, _ in GROUPS}
    grouped[OTHER[0]] = []
    for dotted, env, info in _fields(Settings, prefix, delimiter, ""):
        leaf = dotted.rsplit(".", 1)[-1]
        title = next(
            (t for t, _, rule in GROUPS if _matches(dotted, rule) or _matches(leaf, rule)),
            OTHER[0],
        )
        row = (
            f"| `{dotted}` | `{env}` | {_type_name(info.annotation)} | {_default(info)} "
            f"| {_range(info)} | {_cell(info.description or '')} |"
        )
        grouped[title].append(row)
    summaries = {title: summary for title, summary, _ in GROUPS}
    summaries[OTHER[0]] = OTHER[1]
    lines = [HEADER, "| group | settings |", "|---|---:|"]
    for title, rows in grouped.items():
        if rows:
            anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
            lines.append(f"| [{title}](#{anchor}) | {len(rows)} |")
    for title, rows in grouped.items():
        if not rows:
            continue
        lines += ["", f"## {title}", "", summaries[title], ""]
        lines += ["| setting | environment | type | default | range | description |"]
        lines += ["|---|---|---|---|---|---|", *rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    args = parser.parse_args(argv)
    page = render()
    if args.check:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != page:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python scripts/gen_config_doc.py")
            return 1
        print(f"{PAGE.relative_to(ROOT)} is up to date")
        return 0
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
