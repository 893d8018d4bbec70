"""Write bench/lifecycle/scenarios.json: the lifecycle benchmark's people.

The scenarios are the project's own (docs/benchmarks.md "Memory over time"), built from the word
lists and sentence templates below with a seeded RNG, so the file is
reproducible: ``python bench/make_lifecycle_scenarios.py`` rewrites it byte for
byte. Each person gets 3-6 sessions over about a year in their own time zone,
12-25 statements worded as an extractor would store them, each tagged with its
kind (base, update, negation, restatement, correction, distractor) and, for
update / negation / correction, the statement it makes stale; then 6-10 probe
questions with the statement(s) that answer them now and the stale one(s).

    .venv/bin/python bench/make_lifecycle_scenarios.py [--seed 2026] [--people 40]
"""

from __future__ import annotations

import argparse
import json
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from graphmem.language.vocabulary import MONTH_NAMES

OUT = Path(__file__).resolve().parent / "lifecycle" / "scenarios.json"

FIRST = [
    ("Dana", "she"),
    ("Marcus", "he"),
    ("Priya", "she"),
    ("Tomas", "he"),
    ("Elena", "she"),
    ("Kwame", "he"),
    ("Ingrid", "she"),
    ("Rafael", "he"),
    ("Yuki", "she"),
    ("Oliver", "he"),
    ("Amara", "she"),
    ("Jonah", "he"),
    ("Leila", "she"),
    ("Mateo", "he"),
    ("Siobhan", "she"),
    ("Dmitri", "he"),
    ("Hana", "she"),
    ("Caleb", "he"),
    ("Noor", "she"),
    ("Felix", "he"),
    ("Beatriz", "she"),
    ("Arjun", "he"),
    ("Greta", "she"),
    ("Samuel", "he"),
    ("Mei", "she"),
    ("Lucas", "he"),
    ("Zainab", "she"),
    ("Henrik", "he"),
    ("Rosa", "she"),
    ("Theo", "he"),
    ("Aisha", "she"),
    ("Nikolai", "he"),
    ("Clara", "she"),
    ("Desmond", "he"),
    ("Ivy", "she"),
    ("Omar", "he"),
    ("Freya", "she"),
    ("Victor", "he"),
    ("Lucia", "she"),
    ("Emeka", "he"),
]
LAST = [
    "Whitfield",
    "Okafor",
    "Raman",
    "Novak",
    "Petrov",
    "Mensah",
    "Lindqvist",
    "Castillo",
    "Tanaka",
    "Brennan",
    "Adeyemi",
    "Fischer",
    "Haddad",
    "Moreno",
    "Gallagher",
    "Sokolov",
    "Kimura",
    "Reyes",
    "Qureshi",
    "Bauer",
    "Santos",
    "Mehta",
    "Johansson",
    "Abbott",
    "Zhang",
    "Dupont",
    "Bello",
    "Nilsen",
    "Ferreira",
    "Hartley",
    "Yusuf",
    "Volkov",
    "Weber",
    "Clarke",
    "Lam",
    "Farouk",
    "Eriksen",
    "Duarte",
    "Romano",
    "Nwosu",
]
RELATIVE_NAMES = [
    "Mia",
    "Jordan",
    "Tessa",
    "Ravi",
    "Nadia",
    "Owen",
    "Lena",
    "Kofi",
    "Sara",
    "Ben",
    "Anya",
    "Paolo",
    "Ruth",
    "Idris",
    "Maya",
    "Colin",
    "Esme",
    "Tariq",
    "Nina",
    "Hugo",
    "Alma",
    "Jasper",
    "Selma",
    "Dev",
    "Iris",
    "Luca",
    "June",
    "Malik",
    "Vera",
    "Rowan",
    "Talia",
    "Ezra",
    "Kira",
    "Milo",
    "Zoe",
    "Ansel",
    "Dora",
    "Reza",
    "Gwen",
    "Arlo",
    "Cleo",
    "Bram",
    "Lila",
    "Nico",
]
TIMEZONES = [
    "America/Denver",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Lisbon",
    "Asia/Tokyo",
    "Australia/Sydney",
    "America/Toronto",
    "Africa/Lagos",
    "Asia/Kolkata",
]
CITIES = [
    "Boston",
    "Denver",
    "Portland",
    "Austin",
    "Chicago",
    "Seattle",
    "Minneapolis",
    "Pittsburgh",
    "Raleigh",
    "Tucson",
    "Sacramento",
    "Madison",
    "Columbus",
    "Baltimore",
    "Richmond",
    "Boise",
    "Albuquerque",
    "Omaha",
    "Savannah",
    "Providence",
    "Spokane",
    "Lisbon",
    "Rotterdam",
    "Lyon",
    "Leeds",
    "Dublin",
    "Melbourne",
    "Toronto",
    "Vancouver",
    "Edinburgh",
]
ORGS = [
    "Northwind Health",
    "Brightline Logistics",
    "Kestrel Labs",
    "Harbor & Finch Architects",
    "Bluefield Credit Union",
    "Orchard Street Bakery",
    "Tidewater Engineering",
    "Larkspur Games",
    "Meridian Insurance",
    "Copperleaf Software",
    "Saltmarsh Analytics",
    "Redwood Pediatrics",
    "Pinecrest High School",
    "Granite Peak Outfitters",
    "Lumen Biotech",
    "Ironbridge Bank",
    "Westvale Library",
    "Summit Dental",
    "Foxglove Media",
    "Quarry Lane Studio",
    "St. Brigid's Hospital",
    "Cobalt Robotics",
    "Fernhill Veterinary Clinic",
    "Atlas Freight",
]
ROLES = [
    "nurse",
    "data analyst",
    "project manager",
    "carpenter",
    "teacher",
    "software engineer",
    "accountant",
    "pharmacist",
    "graphic designer",
    "paramedic",
    "chef",
    "librarian",
    "mechanical engineer",
    "product designer",
    "veterinarian",
    "sales manager",
]
PETS = [
    ("dog", "Biscuit"),
    ("cat", "Pepper"),
    ("dog", "Juniper"),
    ("parrot", "Kiwi"),
    ("cat", "Mochi"),
    ("rabbit", "Clover"),
    ("dog", "Otis"),
    ("cat", "Saffron"),
    ("dog", "Waffles"),
    ("tortoise", "Sheldon"),
    ("cat", "Nimbus"),
    ("dog", "Rocket"),
]
HOBBIES = [
    "rock climbing",
    "trail running",
    "baking sourdough bread",
    "playing chess",
    "birdwatching",
    "kayaking",
    "gardening",
    "painting watercolors",
    "cycling",
    "doing pottery",
    "playing the cello",
    "woodworking",
    "salsa dancing",
    "fly fishing",
]
DRINKS = ["green tea", "oat-milk lattes", "black coffee", "chai", "sparkling water", "espresso"]
ALLERGENS = ["penicillin", "peanuts", "shellfish", "latex", "bee stings", "sesame"]
DIETS = [
    ("is vegetarian", "is not vegetarian anymore", "Is {P} vegetarian?", "vegetarian"),
    ("keeps kosher", "no longer keeps kosher", "Does {P} keep kosher?", "kosher"),
    ("is vegan", "is not vegan anymore and eats dairy again", "Is {P} vegan?", "vegan"),
    (
        "eats gluten-free",
        "does not eat gluten-free anymore",
        "Does {P} eat gluten-free?",
        "gluten-free",
    ),
    ("drinks alcohol", "does not drink alcohol anymore", "Does {P} drink alcohol?", "alcohol"),
]
CARS = [
    "Subaru Outback",
    "Honda Civic",
    "Toyota RAV4",
    "Ford F-150",
    "Mazda 3",
    "Tesla Model 3",
    "Volkswagen Golf",
    "Kia Niro",
    "Volvo XC40",
    "Hyundai Ioniq 5",
]
MONTHS = [name.capitalize() for name in MONTH_NAMES]


class Person:
    """Builds one person's statements and probes."""

    def __init__(self, index: int, rng: random.Random) -> None:
        self.rng = rng
        self.index = index
        self.first, pron = FIRST[index % len(FIRST)]
        self.name = f"{self.first} {LAST[index % len(LAST)]}"
        self.pron = {"she": "her", "he": "his"}[pron]
        self.id = f"p{index + 1:02d}"
        self.tz = rng.choice(TIMEZONES)
        self.statements: list[dict[str, Any]] = []
        self.probes: list[dict[str, Any]] = []
        self.sessions = self._sessions()
        free = [n for n in RELATIVE_NAMES if n != self.first]
        self.sister, self.coworker = rng.sample(free, 2)
        self.sibling_word = rng.choice(["sister", "brother"])

    def _sessions(self) -> list[dict[str, str]]:
        rng = self.rng
        count = rng.randint(3, 6)
        zone = ZoneInfo(self.tz)
        start = datetime(
            2025,
            rng.randint(1, 3),
            rng.randint(1, 28),
            rng.randint(8, 21),
            rng.choice([0, 10, 25, 40, 55]),
            tzinfo=zone,
        )
        gaps = [rng.randint(40, 100) for _ in range(count - 1)]
        scale = rng.randint(270, 365) / sum(gaps)  # about a year from first to last
        at = [start]
        for gap in gaps:
            nxt = at[-1] + timedelta(days=max(14, int(gap * scale)))
            at.append(nxt.replace(hour=rng.randint(8, 21), minute=rng.choice([5, 15, 30, 45])))
        return [{"id": f"s{i + 1}", "at": t.isoformat()} for i, t in enumerate(at)]

    # -------------------------------------------------------------- helpers
    def add(
        self,
        slot: str,
        kind: str,
        session: int,
        content: str,
        *,
        type_: str,
        triple: tuple[str, str, str],
        objects: list[tuple[str, str]] = (),  # type: ignore[assignment]
        question: str,
        replaces: str | None = None,
        restates: str | None = None,
        subject: str | None = None,
        event_time: str | None = None,
        about: str | None = None,
    ) -> str:
        sid = f"{self.id}-{len(self.statements) + 1:02d}"
        who = subject or self.first
        entities = [{"name": who, "kind": "Person", "role": "subject"}]
        entities += [{"name": n, "kind": k, "role": "object"} for n, k in objects]
        self.statements.append(
            {
                "id": sid,
                "session": self.sessions[session]["id"],
                "kind": kind,
                "slot": slot,
                "about": about or self.first,
                "content": content,
                "type": type_,
                "entities": entities,
                "triple": {"subject": triple[0], "predicate": triple[1], "object": triple[2]},
                "event_time": event_time,
                "question": question,
                "replaces": replaces,
                "restates": restates,
            }
        )
        return sid

    def pick(self, options: list[str]) -> str:
        return self.rng.choice(options)

    def fmt(self, template: str, **values: str) -> str:
        return template.format(P=self.first, pron=self.pron, **values)


def build_person(index: int, rng: random.Random) -> dict[str, Any]:
    p = Person(index, rng)
    last = len(p.sessions) - 1
    later = list(range(1, last + 1))  # sessions after the first
    P = p.first
    chosen: dict[str, Any] = {}
    probes: list[dict[str, Any]] = []

    def later_than(session: int) -> int:
        return rng.choice([s for s in later if s > session] or [last])

    # ---- slots that change: pick 2-3 updates among these
    updatable = ["city", "employer", "partner", "phone", "car", "trip"]
    updates = set(rng.sample(updatable, rng.randint(2, 3)))
    correction_slot = rng.choice(
        ["birthday", "birthday", "phone"] if "phone" not in updates else ["birthday"]
    )
    negations = rng.sample(["diet", "allergy"], rng.choice([1, 1, 2]))

    # city
    city, city2, sister_city, coworker_city = rng.sample(CITIES, 4)
    s0 = p.add(
        "city",
        "base",
        0,
        p.fmt(p.pick(["{P} lives in {v}.", "{P} has lived in {v} for six years."]), v=city),
        type_="Fact",
        triple=(P, "lives_in", city),
        objects=[(city, "Place")],
        question=p.fmt(p.pick(["Where does {P} live?", "Which city does {P} live in?"])),
    )
    chosen["city"] = s0
    if "city" in updates:
        at = later_than(0)
        s1 = p.add(
            "city",
            "update",
            at,
            p.fmt(
                p.pick(["{P} lives in {v} now.", "{P} moved to {v}.", "{P} now lives in {v}."]),
                v=city2,
            ),
            type_="Fact",
            triple=(P, "lives_in", city2),
            objects=[(city2, "Place")],
            question=p.fmt("Where does {P} live?"),
            replaces=s0,
        )
        probes.append({"answer": [s1], "stale": [s0]})
        chosen["city"] = s1

    # employer
    org, org2, sister_org = rng.sample(ORGS, 3)
    role, role2 = rng.sample(ROLES, 2)
    e0 = p.add(
        "employer",
        "base",
        0,
        p.fmt(p.pick(["{P} works at {v} as a {r}.", "{P} is a {r} at {v}."]), v=org, r=role),
        type_="Fact",
        triple=(P, "works_at", org),
        objects=[(org, "Organization")],
        question=p.fmt(p.pick(["Where does {P} work?", "Who is {P}'s employer?"])),
    )
    chosen["employer"] = e0
    if "employer" in updates:
        at = later_than(0)
        e1 = p.add(
            "employer",
            "update",
            at,
            p.fmt(
                p.pick(
                    [
                        "{P} works at {v} now.",
                        "{P} started a new job at {v} as a {r}.",
                        "{P} now works at {v}.",
                    ]
                ),
                v=org2,
                r=role2,
            ),
            type_="Fact",
            triple=(P, "works_at", org2),
            objects=[(org2, "Organization")],
            question=p.fmt("Where does {P} work?"),
            replaces=e0,
        )
        probes.append({"answer": [e1], "stale": [e0]})
        chosen["employer"] = e1

    # phone
    digits = rng.sample(range(100, 999), 2)
    phone = f"555-0{digits[0]}"
    phone2 = f"555-0{digits[1]}"
    ph0 = p.add(
        "phone",
        "base",
        rng.choice([0, 0, 1]) if last > 1 else 0,
        p.fmt(p.pick(["{P}'s phone number is {v}.", "{P}'s mobile number is {v}."]), v=phone),
        type_="Fact",
        triple=(P, "phone_number", phone),
        question=p.fmt("What is {P}'s phone number?"),
    )
    ph_session = int(p.statements[-1]["session"][1:]) - 1
    if "phone" in updates:
        at = later_than(ph_session)
        ph1 = p.add(
            "phone",
            "update",
            at,
            p.fmt(
                p.pick(
                    [
                        "{P}'s phone number is now {v}.",
                        "{P} has a new phone number: {v}.",
                        "{P}'s new mobile number is {v}.",
                    ]
                ),
                v=phone2,
            ),
            type_="Fact",
            triple=(P, "phone_number", phone2),
            question=p.fmt("What is {P}'s phone number?"),
            replaces=ph0,
        )
        probes.append({"answer": [ph1], "stale": [ph0]})
    elif correction_slot == "phone":
        fixed = phone[:-1] + str((int(phone[-1]) + rng.randint(1, 8)) % 10)
        at = later_than(ph_session)
        ph1 = p.add(
            "phone",
            "correction",
            at,
            p.fmt("{P}'s phone number is {v}.", v=fixed),
            type_="Fact",
            triple=(P, "phone_number", fixed),
            question=p.fmt("What is {P}'s phone number?"),
            replaces=ph0,
        )
        probes.append({"answer": [ph1], "stale": [ph0]})

    # birthday
    day, month = rng.randint(2, 27), rng.choice(MONTHS)
    b0 = p.add(
        "birthday",
        "base",
        0,
        p.fmt(
            p.pick(["{P}'s birthday is on {d} {m}.", "{P} was born on {d} {m}."]),
            d=str(day),
            m=month,
        ),
        type_="Fact",
        triple=(P, "birthday", f"{day} {month}"),
        question=p.fmt("When is {P}'s birthday?"),
    )
    if correction_slot == "birthday":
        fixed_day = day + rng.choice([-1, 1])
        at = later_than(0)
        b1 = p.add(
            "birthday",
            "correction",
            at,
            p.fmt("{P}'s birthday is on {d} {m}.", d=str(fixed_day), m=month),
            type_="Fact",
            triple=(P, "birthday", f"{fixed_day} {month}"),
            question=p.fmt("When is {P}'s birthday?"),
            replaces=b0,
        )
        probes.append({"answer": [b1], "stale": [b0]})

    # negations: diet and/or allergy
    diet = rng.choice(DIETS)
    d0 = p.add(
        "diet",
        "base",
        0,
        f"{P} {diet[0]}.",
        type_="Preference",
        triple=(P, diet[3], "yes"),
        question=diet[2].format(P=P),
    )
    if "diet" in negations:
        at = later_than(0)
        d1 = p.add(
            "diet",
            "negation",
            at,
            f"{P} {diet[1]}.",
            type_="Preference",
            triple=(P, diet[3], "no"),
            question=diet[2].format(P=P),
            replaces=d0,
        )
        probes.append({"answer": [d1], "stale": [d0]})
    allergen, sister_allergen = rng.sample(ALLERGENS, 2)
    a0 = p.add(
        "allergy",
        "base",
        rng.choice([0, 1]) if last > 1 else 0,
        f"{P} is allergic to {allergen}.",
        type_="Fact",
        triple=(P, f"allergic_to_{allergen.replace(' ', '_')}", "yes"),
        question=f"Is {P} allergic to {allergen}?",
    )
    a_session = int(p.statements[-1]["session"][1:]) - 1
    if "allergy" in negations:
        at = later_than(a_session)
        a1 = p.add(
            "allergy",
            "negation",
            at,
            p.fmt(
                p.pick(
                    [
                        "{P} is not allergic to {v} after all.",
                        "Tests showed {P} is not allergic to {v}.",
                    ]
                ),
                v=allergen,
            ),
            type_="Fact",
            triple=(P, f"allergic_to_{allergen.replace(' ', '_')}", "no"),
            question=f"Is {P} allergic to {allergen}?",
            replaces=a0,
        )
        probes.append({"answer": [a1], "stale": [a0]})

    # stable facts that get restated
    pet_kind, pet_name = rng.choice(PETS)
    pt = p.add(
        "pet",
        "base",
        0,
        p.fmt(
            p.pick(["{P} has a {k} named {n}.", "{P} owns a {k} called {n}."]),
            k=pet_kind,
            n=pet_name,
        ),
        type_="Fact",
        triple=(P, "has_pet", f"{pet_kind} named {pet_name}"),
        objects=[(pet_name, "Animal")],
        question=p.fmt("What pet does {P} have?"),
    )
    hobby = rng.choice(HOBBIES)
    hb = p.add(
        "hobby",
        "base",
        0,
        p.fmt(p.pick(["{P} enjoys {h} on weekends.", "{P} loves {h} on weekends."]), h=hobby),
        type_="Preference",
        triple=(P, "hobby", hobby),
        question=p.fmt(p.pick(["What does {P} do on weekends?", "What is {P}'s hobby?"])),
    )
    drink = rng.choice(DRINKS)
    dr = p.add(
        "drink",
        "base",
        rng.choice([0, 1]) if last > 1 else 0,
        p.fmt(
            p.pick(["{P}'s favourite drink is {d}.", "{P} prefers {d} in the morning."]), d=drink
        ),
        type_="Preference",
        triple=(P, "favourite_drink", drink),
        question=p.fmt("What does {P} like to drink?"),
    )
    restatable = [
        (
            pt,
            "pet",
            p.fmt(
                p.pick(["{P}'s {k} is called {n}.", "{P} still has {pron} {k} {n}."]),
                k=pet_kind,
                n=pet_name,
            ),
            "Fact",
            (P, "has_pet", f"{pet_kind} named {pet_name}"),
            [(pet_name, "Animal")],
        ),
        (
            hb,
            "hobby",
            p.fmt("{P} spends most weekends {h}.", h=hobby),
            "Preference",
            (P, "hobby", hobby),
            [],
        ),
        (
            dr,
            "drink",
            p.fmt(p.pick(["{P} always orders {d}.", "{P} likes {d} best."]), d=drink),
            "Preference",
            (P, "favourite_drink", drink),
            [],
        ),
    ]
    for target, slot, content, type_, triple, objects in rng.sample(restatable, rng.randint(1, 2)):
        t_session = int(next(s["session"] for s in p.statements if s["id"] == target)[1:]) - 1
        at = later_than(t_session)
        question = next(s["question"] for s in p.statements if s["id"] == target)
        p.add(
            slot,
            "restatement",
            at,
            content,
            type_=type_,
            triple=triple,
            objects=objects,
            question=question,
            restates=target,
        )
        probes.append({"answer": [target], "stale": []})

    # optional changing facts: partner, car, trip
    if "partner" in updates or rng.random() < 0.5:
        partner, partner2 = rng.sample(
            [n for n in RELATIVE_NAMES if n not in (p.sister, p.coworker)], 2
        )
        r0 = p.add(
            "partner",
            "base",
            0,
            p.fmt(p.pick(["{P} is dating {v}.", "{P}'s partner is {v}."]), v=partner),
            type_="Fact",
            triple=(P, "partner", partner),
            objects=[(partner, "Person")],
            question=p.fmt("Who is {P}'s partner?"),
        )
        if "partner" in updates:
            at = later_than(0)
            r1 = p.add(
                "partner",
                "update",
                at,
                p.fmt(p.pick(["{P} is dating {v} now.", "{P}'s new partner is {v}."]), v=partner2),
                type_="Fact",
                triple=(P, "partner", partner2),
                objects=[(partner2, "Person")],
                question=p.fmt("Who is {P}'s partner?"),
                replaces=r0,
            )
            probes.append({"answer": [r1], "stale": [r0]})
    if "car" in updates or rng.random() < 0.4:
        car, car2 = rng.sample(CARS, 2)
        c0 = p.add(
            "car",
            "base",
            0,
            p.fmt("{P} drives a {v}.", v=car),
            type_="Fact",
            triple=(P, "drives", car),
            objects=[(car, "Product")],
            question=p.fmt("What car does {P} drive?"),
        )
        if "car" in updates:
            at = later_than(0)
            c1 = p.add(
                "car",
                "update",
                at,
                p.fmt(
                    p.pick(
                        ["{P} drives a {v} now.", "{P} traded in {pron} car and now drives a {v}."]
                    ),
                    v=car2,
                ),
                type_="Fact",
                triple=(P, "drives", car2),
                objects=[(car2, "Product")],
                question=p.fmt("What car does {P} drive?"),
                replaces=c0,
            )
            probes.append({"answer": [c1], "stale": [c0]})
    if "trip" in updates or rng.random() < 0.4:
        dest = rng.choice([c for c in CITIES if c not in (city, city2)])
        t_at = rng.choice(later[:-1] or [0]) if "trip" in updates else rng.randint(0, last)
        u_at = later_than(t_at)  # the session that moves the trip, before it happens
        start = p.sessions[u_at if "trip" in updates else t_at]["at"]
        when = datetime.fromisoformat(start) + timedelta(days=rng.randint(20, 60))
        when = when.replace(hour=9, minute=0)
        label = f"{when.day} {MONTHS[when.month - 1]}"
        t0 = p.add(
            "trip",
            "base",
            t_at,
            p.fmt(
                p.pick(["{P} is flying to {v} on {d}.", "{P} departs for {v} on {d}."]),
                v=dest,
                d=label,
            ),
            type_="Event",
            triple=(P, "flight_to", f"{dest} on {label}"),
            objects=[(dest, "Place")],
            question=p.fmt("When is {P} flying to {v}?", v=dest),
            event_time=when.isoformat(),
        )
        if "trip" in updates:
            at = u_at
            shift = rng.choice([-9, -5, 3, 7, 9, 12])
            when2 = when + timedelta(days=shift)
            label2 = f"{when2.day} {MONTHS[when2.month - 1]}"
            t1 = p.add(
                "trip",
                "update",
                at,
                p.fmt(
                    p.pick(
                        ["{P}'s flight to {v} is now on {d}.", "{P} is flying to {v} on {d} now."]
                    ),
                    v=dest,
                    d=label2,
                ),
                type_="Event",
                triple=(P, "flight_to", f"{dest} on {label2}"),
                objects=[(dest, "Place")],
                question=p.fmt("When is {P} flying to {v}?", v=dest),
                replaces=t0,
                event_time=when2.isoformat(),
            )
            probes.append({"answer": [t1], "stale": [t0]})

    # distractors: a sibling and a coworker with facts in the same slots as the person's
    S, C, word = p.sister, p.coworker, p.sibling_word
    sib = p.add(
        "sibling",
        "base",
        0,
        p.fmt("{S} is {P}'s {w}.", S=S, w=word),
        type_="Relation",
        triple=(S, f"{word}_of", P),
        objects=[(P, "Person")],
        subject=S,
        question=p.fmt("Who is {P}'s {w}?", w=word),
    )
    p.statements[-1]["entities"][1]["role"] = "object"
    at = rng.choice(later)
    sw = p.add(
        "employer",
        "distractor",
        at,
        p.fmt("{S} works at {v}.", S=S, v=sister_org),
        type_="Fact",
        triple=(S, "works_at", sister_org),
        objects=[(sister_org, "Organization")],
        subject=S,
        about=S,
        question=p.fmt("Where does {S} work?", S=S),
    )
    sc = p.add(
        "city",
        "distractor",
        rng.choice(later),
        p.fmt("{S} lives in {v}.", S=S, v=sister_city),
        type_="Fact",
        triple=(S, "lives_in", sister_city),
        objects=[(sister_city, "Place")],
        subject=S,
        about=S,
        question=p.fmt("Where does {S} live?", S=S),
    )
    probes.append(
        {"answer": [sib, sw], "stale": [], "question": p.fmt("Where does {P}'s {w} work?", w=word)}
    )
    co_at = rng.choice(later)
    co = p.add(
        "coworker",
        "base",
        co_at,
        p.fmt(p.pick(["{C} is {P}'s coworker.", "{C} works with {P}."]), C=C),
        type_="Relation",
        triple=(C, "coworker_of", P),
        objects=[(P, "Person")],
        subject=C,
        question=p.fmt("Who is {P}'s coworker?"),
    )
    cc = p.add(
        "city",
        "distractor",
        rng.choice([s for s in later if s >= co_at]),
        p.fmt("{C} lives in {v}.", C=C, v=coworker_city),
        type_="Fact",
        triple=(C, "lives_in", coworker_city),
        objects=[(coworker_city, "Place")],
        subject=C,
        about=C,
        question=p.fmt("Where does {C} live?", C=C),
    )
    if len(p.statements) >= 25:
        pass
    elif rng.random() < 0.5:
        p.add(
            "allergy",
            "distractor",
            rng.choice(later),
            f"{S} is allergic to {sister_allergen}.",
            type_="Fact",
            triple=(S, f"allergic_to_{sister_allergen.replace(' ', '_')}", "yes"),
            subject=S,
            about=S,
            question=f"Is {S} allergic to {sister_allergen}?",
        )
    else:
        p.add(
            "diet",
            "distractor",
            rng.choice(later),
            f"{C} {diet[0]}.",
            type_="Preference",
            triple=(C, diet[3], "yes"),
            subject=C,
            about=C,
            question=diet[2].format(P=C),
        )
    probes.append(
        {"answer": [co, cc], "stale": [], "question": p.fmt("Where does {P}'s coworker live?")}
    )
    del sc

    # seat preference, stable; fills the count to at least 12
    if len(p.statements) < 22 and rng.random() < 0.6:
        seat = rng.choice(["window", "aisle"])
        p.add(
            "seat",
            "base",
            rng.randint(0, last),
            p.fmt("{P} prefers {v} seats on flights.", v=seat),
            type_="Preference",
            triple=(P, "seat_preference", seat),
            question=p.fmt("Which seat does {P} prefer on flights?"),
        )

    # probes: the ones above, then stable facts until 6-10
    target = rng.randint(max(6, min(10, len(probes))), 10)
    stable = [
        s
        for s in p.statements
        if s["kind"] == "base"
        and s["about"] == P
        and not any(o["replaces"] == s["id"] for o in p.statements)
        and not any(s["id"] in q["answer"] for q in probes)
    ]
    rng.shuffle(stable)
    for s in stable:
        if len(probes) >= target:
            break
        probes.append({"answer": [s["id"]], "stale": []})
    by_id = {s["id"]: s for s in p.statements}
    out_probes = []
    for q in probes[:10]:
        hops = len(q["answer"])
        out_probes.append(
            {
                "question": q.get("question") or by_id[q["answer"][0]]["question"],
                "answer": q["answer"],
                "stale": q["stale"],
                "hops": hops,
            }
        )
    p.statements.sort(key=lambda s: (int(s["session"][1:]), s["id"]))
    return {
        "id": p.id,
        "name": p.name,
        "first_name": P,
        "timezone": p.tz,
        "sessions": p.sessions,
        "statements": p.statements,
        "probes": out_probes,
        "everyday": [
            t.format(P=P, S=S, C=C)
            for t in (
                "What do I know about {P}?",
                "Tell me about {P}'s family.",
                "What should I keep in mind before dinner with {P}?",
                "Any health notes for {P}?",
                "What does {P} like?",
                "How can I reach {P}?",
                "What is going on with {P} lately?",
                "What do I know about {S}?",
                "Who does {P} work with?",
                "Plans for the weekend with {P}",
            )
        ],
    }


def build(seed: int, people: int) -> dict[str, Any]:
    rng = random.Random(seed)
    out = [build_person(i, rng) for i in range(people)]
    return {
        "description": "graphmem lifecycle benchmark scenarios"
        " (docs/benchmarks.md 'Memory over time'); generated by"
        " bench/make_lifecycle_scenarios.py",
        "seed": seed,
        "people": out,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--people", type=int, default=40)
    args = parser.parse_args()
    data = build(args.seed, args.people)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    counts = [len(p["statements"]) for p in data["people"]]
    probes = [len(p["probes"]) for p in data["people"]]
    print(
        f"{OUT}: {len(counts)} people, statements {min(counts)}-{max(counts)} "
        f"({sum(counts)}), probes {min(probes)}-{max(probes)} ({sum(probes)})"
    )


if __name__ == "__main__":
    main()
