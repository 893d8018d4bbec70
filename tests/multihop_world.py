"""A small written world for multi-hop recall (issue 12): people, their relatives and
managers, where they work and live, what the companies build and what the cities are
known for — each fact one memory with its entities and relations — and questions
whose answers take 2 or 3 relations, each with the memories that answer it.

Written for graphmem's tests; nothing here comes from a benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PEOPLE = {
    "Alice Moreno": ("Quarry Systems", "Tallinn", "paints watercolour birds on weekends"),
    "Ben Okafor": ("Northwind Analytics", "Porto", "coaches a youth football team"),
    "Chloe Park": ("Helix Foundry", "Kyoto", "restores vintage typewriters"),
    "Daniel Reyes": ("Bluebird Health", "Halifax", "plays bass in a jazz trio"),
    "Elena Petrova": ("Cobalt Studio", "Boulder", "grows chili peppers on her balcony"),
    "Farid Haddad": ("Quarry Systems", "Porto", "collects antique maps"),
    "Grace Liu": ("Northwind Analytics", "Kyoto", "swims in the sea every morning"),
    "Hiro Tanaka": ("Helix Foundry", "Halifax", "bakes sourdough for his neighbours"),
    "Isla Murphy": ("Bluebird Health", "Boulder", "volunteers at an animal shelter"),
    "Jonas Berg": ("Cobalt Studio", "Tallinn", "builds model railways"),
    "Kofi Mensah": ("Quarry Systems", "Kyoto", "runs ultramarathons"),
    "Lena Vogel": ("Northwind Analytics", "Halifax", "knits sweaters for charity"),
}
ROLES = {
    "Alice Moreno": "field engineer",
    "Ben Okafor": "data scientist",
    "Chloe Park": "welding technician",
    "Daniel Reyes": "nurse practitioner",
    "Elena Petrova": "storyboard artist",
    "Farid Haddad": "project manager",
    "Grace Liu": "statistician",
    "Hiro Tanaka": "frame designer",
    "Isla Murphy": "clinical researcher",
    "Jonas Berg": "sound editor",
    "Kofi Mensah": "operations lead",
    "Lena Vogel": "team lead",
}
COMPANIES = {
    "Quarry Systems": "Quarry Systems builds tidal energy turbines for coastal towns.",
    "Northwind Analytics": "Northwind Analytics makes crop yield forecasting software.",
    "Helix Foundry": "Helix Foundry manufactures 3D-printed bicycle frames.",
    "Bluebird Health": "Bluebird Health develops wearable sleep apnea monitors.",
    "Cobalt Studio": "Cobalt Studio produces animated films for children.",
}
CITIES = {
    "Tallinn": "Tallinn is known for its medieval old town and city walls.",
    "Porto": "Porto is famous for its port wine cellars along the river.",
    "Kyoto": "Kyoto is known for its bamboo forests and ancient temples.",
    "Halifax": "Halifax is known for its waterfront boardwalk and maritime museum.",
    "Boulder": "Boulder is famous for rock climbing on the Flatirons.",
}
# (owner, noun, predicate, relative)
KIN = [
    ("Alice Moreno", "sister", "SISTER_OF", "Chloe Park"),
    ("Ben Okafor", "brother", "BROTHER_OF", "Hiro Tanaka"),
    ("Chloe Park", "cousin", "COUSIN_OF", "Daniel Reyes"),
    ("Daniel Reyes", "roommate", "ROOMMATE_OF", "Jonas Berg"),
    ("Elena Petrova", "mentor", "MENTOR_OF", "Grace Liu"),
    ("Farid Haddad", "sister", "SISTER_OF", "Isla Murphy"),
    ("Grace Liu", "brother", "BROTHER_OF", "Kofi Mensah"),
    ("Hiro Tanaka", "cousin", "COUSIN_OF", "Elena Petrova"),
    ("Isla Murphy", "roommate", "ROOMMATE_OF", "Alice Moreno"),
    ("Jonas Berg", "mentor", "MENTOR_OF", "Ben Okafor"),
    ("Kofi Mensah", "sister", "SISTER_OF", "Lena Vogel"),
    ("Lena Vogel", "cousin", "COUSIN_OF", "Farid Haddad"),
]
# person -> manager (a 3rd relation for 3-hop questions)
MANAGERS = {
    "Chloe Park": "Farid Haddad",
    "Hiro Tanaka": "Lena Vogel",
    "Daniel Reyes": "Kofi Mensah",
    "Jonas Berg": "Grace Liu",
    "Grace Liu": "Isla Murphy",
    "Isla Murphy": "Ben Okafor",
    "Kofi Mensah": "Elena Petrova",
    "Lena Vogel": "Jonas Berg",
    "Alice Moreno": "Hiro Tanaka",
    "Ben Okafor": "Daniel Reyes",
}


@dataclass(frozen=True)
class Question:
    text: str
    hops: int
    gold: frozenset[str]  # memory contents that together answer it


def _person(name: str, role: str = "mention") -> dict[str, Any]:
    return {"name": name, "kind": "Person", "role": role}


def memories() -> list[dict[str, Any]]:
    """The world as MemoryCandidate dicts (sessions one per person, then the places)."""
    out: list[dict[str, Any]] = []

    def add(content: str, session: str, entities: list[dict[str, Any]], relations=()) -> None:
        out.append(
            {
                "content": content,
                "type": "Fact",
                "source_level": "direct",
                "extractor": "claude-3-5-sonnet",
                "session_id": session,
                "turn_id": f"{session}:t{len(out)}",
                "observed_at": "2025-03-01T12:00:00+00:00",
                "entities": entities,
                "relations": list(relations),
            }
        )

    for i, (name, (company, city, hobby)) in enumerate(PEOPLE.items()):
        session = f"s{i}"
        add(
            works(name),
            session,
            [_person(name, "subject"), {"name": company, "kind": "Organization", "role": "object"}],
            [{"source": name, "predicate": "WORKS_AT", "target": company}],
        )
        add(
            lives(name),
            session,
            [_person(name, "subject"), {"name": city, "kind": "Place", "role": "object"}],
            [{"source": name, "predicate": "LIVES_IN", "target": city}],
        )
        add(f"{name} {hobby}.", session, [_person(name, "subject")])
    for owner, noun, predicate, relative in KIN:
        add(
            kin(owner, noun, relative),
            "family",
            [_person(owner, "subject"), _person(relative, "object")],
            [{"source": owner, "predicate": predicate, "target": relative}],
        )
    for person, manager in MANAGERS.items():
        add(
            managed(person, manager),
            "org",
            [_person(person, "subject"), _person(manager, "object")],
            [{"source": person, "predicate": "MANAGED_BY", "target": manager}],
        )
    for company, text in COMPANIES.items():
        add(text, "places", [{"name": company, "kind": "Organization", "role": "subject"}])
    for city, text in CITIES.items():
        add(text, "places", [{"name": city, "kind": "Place", "role": "subject"}])
    return out


def works(name: str) -> str:
    return f"{name} works at {PEOPLE[name][0]} as a {ROLES[name]}."


def lives(name: str) -> str:
    return f"{name} lives in {PEOPLE[name][1]}."


def kin(owner: str, noun: str, relative: str) -> str:
    return f"{owner.split()[0]}'s {noun} is {relative}."


def managed(person: str, manager: str) -> str:
    return f"{person}'s manager is {manager}."


def questions() -> list[Question]:
    """44 questions: 24 of 2 hops (3 memories each), 20 of 3 hops (4 memories each)."""
    out: list[Question] = []
    for owner, noun, _, relative in KIN:
        first = owner.split()[0]
        company, city, _ = PEOPLE[relative]
        rel = kin(owner, noun, relative)
        out.append(
            Question(
                f"Where does {first}'s {noun} work, and what does that company build?",
                2,
                frozenset({rel, works(relative), COMPANIES[company]}),
            )
        )
        out.append(
            Question(
                f"Which city does {first}'s {noun} live in, and what is it known for?",
                2,
                frozenset({rel, lives(relative), CITIES[city]}),
            )
        )
    for owner, noun, _, relative in KIN:
        manager = MANAGERS.get(relative)
        if manager is None:
            continue
        first = owner.split()[0]
        company, city, _ = PEOPLE[manager]
        chain = {kin(owner, noun, relative), managed(relative, manager)}
        out.append(
            Question(
                f"Where does {first}'s {noun}'s manager work, and what does that company build?",
                3,
                frozenset({*chain, works(manager), COMPANIES[company]}),
            )
        )
        out.append(
            Question(
                f"Which city does {first}'s {noun}'s manager live in, and what is it known for?",
                3,
                frozenset({*chain, lives(manager), CITIES[city]}),
            )
        )
    return out
