"""``graphmem demo``: the main job on a small conversation this project wrote.

Ingests ``examples/demo_conversation.jsonl`` (four sessions, January to
September 2024) into a fresh embedded store and answers entity-centric,
temporal and multi-hop questions with their explanations.
"""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.rule import Rule

from graphmem.cli.render import print_recall
from graphmem.memory import GraphMem
from graphmem.models import MemoryCandidate
from graphmem.settings import Settings

NAMESPACE = "demo-maya"
NOW = datetime(2024, 9, 10, 12, 0, tzinfo=UTC)
QUESTIONS = (
    (
        "entity-centric",
        "What do we know about Biscuit?",
        "the entity retriever: every memory that mentions the dog, ranked by how directly",
        "entity linking failed: the name in the question resolved to no stored entity",
    ),
    (
        "preference",
        "What coffee does Maya like?",
        "dedup: the preference said in three sessions is one memory with n = 3",
        "the repeated statement was stored three times, or lost to a weaker match",
    ),
    (
        "temporal",
        "What did Maya do in March 2024?",
        "the temporal retriever: 'March 2024' becomes a window over event times",
        "the time expression was not parsed, or event times were not stored",
    ),
    (
        "multi-hop",
        "Where does Maya's sister work and what does that company build?",
        "the graph: 'Maya's sister' follows SISTER_OF to Priya Raman, then WORKS_AT to"
        " Lumen Labs; both Lumen Labs memories should be in the top 3, with the path below",
        "the traversal did not follow the question (the sister's employer is two relations"
        " away and no word of the question matches 'wildfire detection software')",
    ),
    (
        "relative time",
        "What happened last summer?",
        "relative time: 'last summer' is resolved against the recall's reference time",
        "the relative expression was not resolved to a window",
    ),
)


def demo_candidates() -> list[MemoryCandidate]:
    """The demo conversation, shipped with the package."""
    text = resources.files("graphmem.cli").joinpath("demo_conversation.jsonl").read_text("utf-8")
    return [
        MemoryCandidate.model_validate(json.loads(line))
        for line in text.splitlines()
        if line.strip()
    ]


def _components(memory: GraphMem) -> str:
    """Which embedder and entity extractor the demo runs with: the graph it builds depends
    on the extractor (docs/extraction.md), and the default install has no spaCy. Rich
    markup: "[nlp]" is escaped."""
    extractor = getattr(memory.extractor, "name", type(memory.extractor).__name__)
    line = f"embedder {memory.embedder.name}, entity extractor {extractor}"
    if extractor == "capitalized":
        line += " (pip install 'graphmem\\[nlp]' for the ner extractor and a fuller graph)"
    return line


def run_demo(console: Console, data_dir: Path | None) -> None:
    """Ingest the demo conversation and answer the demo questions."""
    with tempfile.TemporaryDirectory(prefix="graphmem-demo-") as tmp:
        settings = Settings(data_dir=data_dir or Path(tmp), neo4j_uri=None)
        with GraphMem(settings, clock=lambda: NOW) as memory:
            memory.delete_namespace(NAMESPACE)
            candidates = demo_candidates()
            console.print(Rule("graphmem demo"))
            console.print(
                f"Remembering {len(candidates)} statements from 4 sessions (Jan–Sep 2024) "
                f"into an embedded store at {settings.store.data_dir} …"
            )
            console.print(_components(memory))
            with console.status("loading the embedding model and writing memories"):
                report = memory.remember(NAMESPACE, candidates)
            console.print(
                f"{len(report.created)} memories created, {len(report.merged)} merges "
                f"(the coffee preference was said in 3 sessions), "
                f"{report.entities_created} entities, {report.relations_written} relations"
            )
            coffee = memory.get(NAMESPACE, report.memory_ids[1] or "")
            console.print(
                f"repeated preference: n = {coffee.n}, confidence {coffee.confidence:.4f} "
                "(r(n) = 1 − 1/(1 + ln(1 + n)))"
            )
            for kind, question, shows, miss in QUESTIONS:
                console.print(Rule(f"{kind}: {question}"))
                console.print(f"[dim]shows: {shows}[/]")
                result = memory.recall(NAMESPACE, question, k=5, record_access=False)
                print_recall(console, result, explain=True)
                console.print(f"[dim]if the answer is missing above: {miss}[/]")
            stats = memory.stats(NAMESPACE)
        console.print(Rule())
        console.print(f"namespace {NAMESPACE}: {stats}")
        console.print(
            "Try: graphmem ingest graphmem/cli/demo_conversation.jsonl && graphmem recall 'Who is Priya?' --explain"
        )
