"""Evaluate two guards of SPEC §10 on this project's own memories (issue 16).

A small invented world — 30 people, four memories each (job, children, a move, a pet) —
is remembered through the facade with the real embedding model, then:

1. **Read-time faithfulness, offline.** 60 answers written from templates worded
   unlike the memories: 30 faithful (two true claims), 30 with one planted unsupported
   claim beside a true one — a changed number (children, a year), a swapped name (the
   employer, the city, the dog) or an invented event (a marathon, a prize, a trip). Each
   answer is checked against what a recall of its question returns
   (``GraphMem.faithfulness`` with ``query``). Reported: claim-level precision and
   recall of "unsupported" at finding the planted claims, answer-level detection (risk
   above none) and false alarms on the faithful answers.
2. **Consistency scan.** The same memories in a second namespace, plus memories that
   contradict some of them (another employer, another number of children, another
   year, a negation) and distractors that must be left alone (restatements in other
   words, a detail added on one side), written *as an import* — stored directly,
   bypassing the write path's own conflict check — so the scan alone must find them.
   Reported: contradictions found / planted, false alarms (pairs superseded that were
   not planted), and how many the write path would have resolved itself had they been
   remembered normally.

    .venv/bin/python bench/guards_eval.py [--store embedded|neo4j] [--json out.json]

Runs in a temporary directory (embedded) or in throwaway namespaces (Neo4j, from
``GRAPHMEM_NEO4J_URI``); about a minute on two cores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphmem import GraphMem, Settings
from graphmem.entities import EntityDictionary
from graphmem.guards.claims import split_claims
from graphmem.guards.faithfulness import check_faithfulness
from graphmem.language.vocabulary import MONTH_NAMES
from graphmem.store.base import WriteBatch
from graphmem.text import memory_id

SEED = 16
T0 = datetime(2024, 1, 10, 9, 0, tzinfo=UTC)
FIRST = [
    "Amara",
    "Liam",
    "Sofia",
    "Noah",
    "Priya",
    "Mateo",
    "Hana",
    "Omar",
    "Greta",
    "Tomas",
    "Ines",
    "Kofi",
    "Yuki",
    "Lars",
    "Nadia",
    "Diego",
    "Elif",
    "Ravi",
    "Maren",
    "Jonas",
    "Leila",
    "Bruno",
    "Aiko",
    "Felix",
    "Zara",
    "Iker",
    "Mira",
    "Oskar",
    "Dalia",
    "Emil",
]
LAST = [
    "Okafor",
    "Brandt",
    "Rossi",
    "Lindqvist",
    "Haddad",
    "Moreau",
    "Tanaka",
    "Castillo",
    "Novak",
    "Petrov",
    "Silva",
    "Mensah",
    "Ito",
    "Berg",
    "Karimi",
    "Duarte",
    "Yilmaz",
    "Sharma",
    "Holm",
    "Weber",
    "Nasser",
    "Costa",
    "Mori",
    "Keller",
    "Adeyemi",
    "Ibarra",
    "Varga",
    "Nyberg",
    "Suleiman",
    "Falk",
]
COMPANIES = [
    "Northwind",
    "Contoso",
    "Initech",
    "Globex",
    "Umbrella",
    "Stark",
    "Wayne",
    "Acme",
    "Hooli",
    "Vandelay",
    "Soylent",
    "Cyberdyne",
    "Tyrell",
    "Wonka",
    "Oscorp",
]
ROLES = [
    "nurse",
    "architect",
    "data analyst",
    "chef",
    "pilot",
    "teacher",
    "translator",
    "electrician",
    "pharmacist",
    "lawyer",
    "geologist",
    "welder",
    "librarian",
    "dentist",
    "photographer",
]
CITIES = [
    "Lisbon",
    "Oslo",
    "Porto",
    "Kyoto",
    "Dublin",
    "Valencia",
    "Tallinn",
    "Ghent",
    "Bergen",
    "Krakow",
    "Leipzig",
    "Lyon",
    "Turin",
    "Seville",
    "Aarhus",
]
DOGS = [
    "Biscuit",
    "Pepper",
    "Juno",
    "Ollie",
    "Maple",
    "Rocket",
    "Hazel",
    "Toby",
    "Nala",
    "Ziggy",
    "Luna",
    "Mochi",
]
MONTHS = [name.capitalize() for name in MONTH_NAMES]
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")
EVENTS = (
    "ran the Berlin marathon in 2019",
    "won the Nobel Prize in 2021",
    "climbed Mount Kilimanjaro in 2018",
    "sailed across the Atlantic in 2020",
    "opened a bakery in Vienna in 2022",
    "was elected mayor of Ghent in 2017",
)


@dataclass(frozen=True)
class Person:
    """One invented person and the facts remembered about them."""

    name: str
    company: str
    role: str
    kids: int
    city: str
    month: str
    year: int
    dog: str
    dog_year: int

    @property
    def first(self) -> str:
        return self.name.split()[0]

    def memories(self) -> list[str]:
        """The four memories, as stored."""
        return [
            f"{self.name} works at {self.company} as a {self.role}.",
            f"{self.name} has {NUMBER_WORDS[self.kids]} children.",
            f"{self.name} moved to {self.city} in {self.month} {self.year}.",
            f"{self.name} adopted a dog named {self.dog} in {self.dog_year}.",
        ]


@dataclass
class Answer:
    """An answer to check: its claims, which of them are planted, and the question."""

    question: str
    claims: list[str]
    planted: list[bool]
    kind: str  # "faithful" or the planted claim's kind
    person: str

    @property
    def text(self) -> str:
        return " ".join(self.claims)


@dataclass
class Contradiction:
    """A memory written as an import beside a true one: ``planted`` pairs must be found,
    distractors (``planted`` False) must be left alone."""

    person: str
    original: str
    content: str
    planted: bool
    kind: str
    days: int = 30  # observed this many days after T0 (negative: before)


@dataclass
class World:
    people: list[Person] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)


def _true_claims(p: Person, wording: str = "a") -> list[tuple[str, str]]:
    """(question, claim) pairs worded unlike the memories (wording "a", used while the
    check was built; "b", written afterwards and never tuned on)."""
    kids = "no children" if p.kids == 0 else f"{p.kids} kids"
    if wording == "b":
        count = "no kids" if p.kids == 0 else f"{NUMBER_WORDS[p.kids]} kids"
        return [
            (f"What does {p.first} do?", f"{p.first} is on the staff of {p.company}, working as a {p.role}."),
            (f"Does {p.first} have children?", f"{p.first} is raising {count}."),
            (f"When did {p.first} move?", f"In {p.month} {p.year}, {p.first} relocated to {p.city}."),
            (f"Has {p.first} got a pet?", f"{p.dog} is the dog {p.first} took in back in {p.dog_year}."),
        ]  # fmt: skip
    return [
        (f"Where does {p.first} work?", f"{p.name} is a {p.role} employed by {p.company}."),
        (f"How many children does {p.first} have?", f"{p.first} has {kids}."),
        (
            f"Where does {p.first} live?",
            f"{p.name} has lived in {p.city} since {p.month} {p.year}.",
        ),
        (f"What is {p.first}'s dog called?", f"{p.first}'s dog {p.dog} joined in {p.dog_year}."),
    ]


def _planted_claim(p: Person, rng: random.Random, kind: str, wording: str = "a") -> str:
    if wording == "b":
        if kind == "changed number":
            if rng.random() < 0.5:
                return f"{p.first} is raising {NUMBER_WORDS[(p.kids + 1) % 6]} kids."
            return f"In {p.month} {p.year - 1}, {p.first} relocated to {p.city}."
        if kind == "swapped name":
            choice = rng.randrange(3)
            if choice == 0:
                other = rng.choice([c for c in COMPANIES if c != p.company])
                return f"{p.first} is on the staff of {other}, working as a {p.role}."
            if choice == 1:
                other = rng.choice([c for c in CITIES if c != p.city])
                return f"In {p.month} {p.year}, {p.first} relocated to {other}."
            other = rng.choice([d for d in DOGS if d != p.dog])
            return f"{other} is the dog {p.first} took in back in {p.dog_year}."
        return f"Back then {p.first} {rng.choice(EVENTS)}."
    if kind == "changed number":
        if rng.random() < 0.5:
            return f"{p.first} has {p.kids + 1} kids."
        return f"{p.name} has lived in {p.city} since {p.month} {p.year + 1}."
    if kind == "swapped name":
        choice = rng.randrange(3)
        if choice == 0:
            other = rng.choice([c for c in COMPANIES if c != p.company])
            return f"{p.name} is a {p.role} employed by {other}."
        if choice == 1:
            other = rng.choice([c for c in CITIES if c != p.city])
            return f"{p.name} has lived in {other} since {p.month} {p.year}."
        other = rng.choice([d for d in DOGS if d != p.dog])
        return f"{p.first}'s dog {other} joined in {p.dog_year}."
    return f"{p.name} {rng.choice(EVENTS)}."


def build_world(seed: int = SEED, people: int = 30, wording: str = "a") -> World:
    """The people, 2 answers per person (one faithful, one planted) in ``wording``, and
    the imports (the people and imports do not depend on the wording)."""
    rng = random.Random(seed)
    world = World()
    names = [f"{first} {last}" for first, last in zip(FIRST, LAST, strict=True)][:people]
    for name in names:
        world.people.append(
            Person(
                name=name,
                company=rng.choice(COMPANIES),
                role=rng.choice(ROLES),
                kids=rng.randrange(0, 5),
                city=rng.choice(CITIES),
                month=rng.choice(MONTHS),
                year=rng.randrange(2005, 2022),
                dog=rng.choice(DOGS),
                dog_year=rng.randrange(2010, 2023),
            )
        )
    kinds = ("changed number", "swapped name", "invented event")
    for i, p in enumerate(world.people):
        true = _true_claims(p, wording)
        a, b = rng.sample(range(4), 2)
        world.answers.append(
            Answer(true[a][0], [true[a][1], true[b][1]], [False, False], "faithful", p.name)
        )
        c = rng.randrange(4)
        kind = kinds[i % 3]
        planted = _planted_claim(p, rng, kind, wording)
        claims, flags = [true[c][1], planted], [False, True]
        if rng.random() < 0.5:
            claims, flags = claims[::-1], flags[::-1]
        world.answers.append(Answer(true[c][0], claims, flags, kind, p.name))
    for i, p in enumerate(world.people):
        job, kids, move, dog = p.memories()
        days = 30 if i % 2 == 0 else -30
        other = [c for c in COMPANIES if c != p.company][i % (len(COMPANIES) - 1)]
        planted = [
            Contradiction(p.name, job, f"{p.name} works at {other} as a {p.role}.", True,
                          "other employer", days),
            Contradiction(p.name, kids, f"{p.name} has {NUMBER_WORDS[(p.kids + 1) % 6]} children.",
                          True, "other number", days),
            Contradiction(p.name, move, f"{p.name} moved to {p.city} in {p.month} {p.year + 2}.",
                          True, "other year", days),
            Contradiction(p.name, dog, f"{p.name} never adopted a dog named {p.dog}.", True,
                          "negation", days),
        ]  # fmt: skip
        distractors = [
            Contradiction(p.name, job, f"{p.name} is employed by {p.company} as a {p.role}.",
                          False, "restatement", days),
            Contradiction(p.name, move, f"{p.name} lives in {p.city}.", False,
                          "detail on one side", days),
        ]  # fmt: skip
        # one planted contradiction and one distractor per person, rotating the kinds
        world.contradictions.append(planted[i % 4])
        world.contradictions.append(distractors[i % 2])
    return world


def _candidates(world: World) -> list[dict[str, Any]]:
    rows = []
    for i, p in enumerate(world.people):
        for j, content in enumerate(p.memories()):
            rows.append(
                {
                    "content": content,
                    "type": "Fact",
                    "entities": [{"name": p.name, "role": "subject"}],
                    "session_id": f"s{i}",
                    "turn_id": f"s{i}:{j}",
                    "observed_at": T0.isoformat(),
                }
            )
    return rows


def eval_faithfulness(memory: GraphMem, namespace: str, world: World) -> dict[str, Any]:
    """Claim- and answer-level detection of the planted claims (module docstring)."""
    tp = fp = fn = tn = misaligned = 0
    by_kind: dict[str, list[int]] = {}
    examples: list[dict[str, Any]] = []
    for answer in world.answers:
        report = memory.faithfulness(namespace, answer.text, query=answer.question)
        flags = [not c.supported for c in report.claims]
        if len(flags) != len(answer.planted) or split_claims(answer.text) != [
            c.claim for c in report.claims
        ]:
            misaligned += 1
            continue
        for flagged, planted in zip(flags, answer.planted, strict=True):
            tp += flagged and planted
            fp += flagged and not planted
            fn += planted and not flagged
            tn += not flagged and not planted
        flagged_answer = report.risk != "none"
        bucket = by_kind.setdefault(answer.kind, [0, 0])
        bucket[0] += flagged_answer
        bucket[1] += 1
        if (flagged_answer != (answer.kind != "faithful")) and len(examples) < 8:
            examples.append(
                {
                    "answer": answer.text,
                    "kind": answer.kind,
                    "claims": [
                        {"claim": c.claim, "supported": c.supported, "reason": c.reason}
                        for c in report.claims
                    ],
                }
            )
    planted_answers = sum(v[1] for k, v in by_kind.items() if k != "faithful")
    detected = sum(v[0] for k, v in by_kind.items() if k != "faithful")
    sweep = _threshold_sweep(memory, namespace, world)
    return {
        "threshold": memory.settings.guards.faithfulness_similarity,
        "threshold_sweep": sweep,
        "answers": len(world.answers),
        "claims": tp + fp + fn + tn,
        "planted_claims": tp + fn,
        "claim_precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "claim_recall": round(tp / (tp + fn), 3) if tp + fn else None,
        "true_claims_flagged": fp,
        "true_claims": fp + tn,
        "answers_detected": f"{detected}/{planted_answers}",
        "faithful_answers_flagged": f"{by_kind.get('faithful', [0, 0])[0]}"
        f"/{by_kind.get('faithful', [0, 0])[1]}",
        "by_kind_detected": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_kind.items())},
        "misaligned": misaligned,
        "misses_and_false_alarms": examples,
    }


def _threshold_sweep(memory: GraphMem, namespace: str, world: World) -> dict[str, Any]:
    """Claim precision / recall of the offline check at other cosine thresholds (the same
    recalled memories; SPEC §10 fixes 0.80, the setting allows 0.5-0.99)."""
    dictionary = EntityDictionary(memory.store.list_entities(namespace))
    recalled = []
    for answer in world.answers:
        result = memory.recall(namespace, answer.question, record_access=False)
        ids = [h.memory.id for h in result.hits]
        recalled.append(memory.store.get_memories(namespace, ids, with_embeddings=True))
    out: dict[str, Any] = {}
    for threshold in (0.6, 0.65, 0.7, 0.75, 0.8, 0.85):
        tp = fp = fn = 0
        for answer, memories in zip(world.answers, recalled, strict=True):
            report = check_faithfulness(
                answer.text,
                memories,
                memory.embedder,
                similarity=threshold,
                dictionary=dictionary,
            )
            if len(report.claims) != len(answer.planted):
                continue
            for check, planted in zip(report.claims, answer.planted, strict=True):
                tp += (not check.supported) and planted
                fp += (not check.supported) and not planted
                fn += check.supported and planted
        out[f"{threshold:.2f}"] = {
            "precision": round(tp / (tp + fp), 3) if tp + fp else None,
            "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        }
    return out


def eval_consistency(
    memory: GraphMem, namespace: str, staging: str, write_path_ns: str, world: World
) -> dict[str, Any]:
    """Found / planted and false alarms of the scan over imported contradictions."""
    rows = _candidates(world)
    list(memory.remember_many(namespace, rows))
    imports = []
    for c in world.contradictions:
        imports.append(
            {
                "content": c.content,
                "type": "Fact",
                "entities": [{"name": c.person, "role": "subject"}],
                "session_id": f"import-{c.person}",
                "turn_id": f"import-{c.person}:{c.kind}",
                "observed_at": (T0 + timedelta(days=c.days)).isoformat(),
            }
        )
    # What the write path itself would resolve: the same memories remembered normally.
    list(memory.remember_many(write_path_ns, rows))
    write_path = 0
    for row in imports:
        report = memory.remember(write_path_ns, [row])
        write_path += bool(report.superseded)
    # The import: the imports remembered alone (embeddings, mentions), then copied into
    # the namespace unchecked, as memories written before the rule existed would be.
    for row in imports:
        memory.remember(staging, [row])
    staged = memory.store.get_memories(
        staging,
        _ids_by_content(memory, staging, [r["content"] for r in imports]),
        with_embeddings=True,
    )
    copied = [
        m.model_copy(
            update={
                "namespace": namespace,
                "id": memory_id(namespace, m.content_hash),
                "superseded_by": None,
                "valid_until": None,
                "version": 0,
            }
        )
        for m in staged
    ]
    entities = [
        e.model_copy(update={"namespace": namespace}) for e in memory.store.list_entities(staging)
    ]
    memory.store.write(namespace, WriteBatch(memories=copied, entities=entities))
    started = time.perf_counter()
    report = memory.consolidate(namespace, now=T0 + timedelta(days=60))
    elapsed = time.perf_counter() - started
    scan = report.consistency
    assert scan is not None
    content = {
        m.id: m.content
        for m in memory.store.get_memories(
            namespace,
            sorted({p.kept_id for p in scan.pairs} | {p.superseded_id for p in scan.pairs}),
        )
    }
    planted = {c.content: c for c in world.contradictions if c.planted}
    true_texts = {p.name: set(p.memories()) for p in world.people}
    for c in world.contradictions:
        if not c.planted:
            true_texts[c.person].add(c.content)
    found: set[str] = set()
    false_alarms: list[dict[str, str]] = []
    distractor_hits = 0
    for pair in scan.pairs:
        texts = (content.get(pair.kept_id, ""), content.get(pair.superseded_id, ""))
        hit = next(
            (
                t
                for t, other in (texts, texts[::-1])
                if t in planted and other in true_texts[planted[t].person]
            ),
            None,
        )
        if hit is not None:  # a planted contradiction against a true memory of its person
            found.add(hit)
            continue
        if any(
            t not in planted and t not in {m for p in world.people for m in p.memories()}
            for t in texts
        ):
            distractor_hits += 1
        false_alarms.append(
            {"kept": texts[0], "superseded": texts[1], "action": pair.action,
             "reason": pair.reason}
        )  # fmt: skip
    by_kind: dict[str, list[int]] = {}
    for c in world.contradictions:
        if c.planted:
            bucket = by_kind.setdefault(c.kind, [0, 0])
            bucket[0] += c.content in found
            bucket[1] += 1
    missed = [
        {"original": c.original, "contradiction": c.content}
        for c in world.contradictions
        if c.planted and c.content not in found
    ]
    return {
        "memories": len(rows) + len(copied),
        "planted": len(planted),
        "distractors": sum(not c.planted for c in world.contradictions),
        "pairs_reported": len(scan.pairs),
        "found": len(found),
        "found_by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(by_kind.items())},
        "false_alarms": len(false_alarms),
        "distractors_touched": distractor_hits,
        "superseded": scan.superseded,
        "held": scan.held,
        "write_path_would_resolve": f"{write_path}/{len(imports)} imports"
        " (planted and distractors, remembered normally)",
        "scan_seconds": round(elapsed, 2),
        "false_alarm_examples": false_alarms[:6],
        "missed": missed[:6],
    }


def _ids_by_content(memory: GraphMem, namespace: str, contents: list[str]) -> list[str]:
    wanted = set(contents)
    ids: list[str] = []
    after: str | None = None
    while True:
        page = memory.store.scan_memories(namespace, after, 500)
        ids.extend(m.id for m in page if m.content in wanted)
        if len(page) < 500:
            return ids
        after = page[-1].id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("embedded", "neo4j"), default="embedded")
    parser.add_argument("--json", type=Path, help="Write the results here.")
    args = parser.parse_args(argv)
    world = build_world()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp)) if args.store == "embedded" else Settings()
        if args.store == "neo4j" and not settings.store.neo4j_uri:
            parser.error("--store neo4j needs GRAPHMEM_NEO4J_URI")
        if args.store == "embedded":
            settings = settings.model_copy(update={"neo4j_uri": None})
        stamp = datetime.now(UTC).strftime("%H%M%S")
        parts = ("answers", "scan", "staging", "writepath")
        names = [f"guards-eval-{part}-{stamp}" for part in parts]
        with GraphMem(settings) as memory:
            try:
                list(memory.remember_many(names[0], _candidates(world)))
                faithfulness = eval_faithfulness(memory, names[0], world)
                faithfulness_b = eval_faithfulness(memory, names[0], build_world(wording="b"))
                consistency = eval_consistency(memory, names[1], names[2], names[3], world)
            finally:
                for name in names:
                    memory.delete_namespace(name)
    result = {
        "store": args.store,
        "faithfulness": faithfulness,
        "faithfulness_wording_b": faithfulness_b,
        "consistency": consistency,
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
