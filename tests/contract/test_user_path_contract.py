"""One write semantics whatever the door, on every store (SPEC §9.13-§9.15;
docs/updates.md).

Each test writes as an agent writes through MCP or ``graphmem remember``: one
statement per call, ``extractor="verbatim"`` (the stored text is the source
text), no triple, often in the first person. Each failed before these rules:
verbatim claims skipped supersession, a move was never an update, "I" had no
subject, and two events at different times replaced each other.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graphmem import GraphMem, Settings
from graphmem.embedding import make_embedder
from graphmem.errors import InvalidInputError
from graphmem.store.base import MemoryStore
from tests.fakes import HashEmbedder

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def memory(store: MemoryStore, clock: Clock) -> Iterator[GraphMem]:
    gm = GraphMem(Settings(), store=store, embedder=HashEmbedder(), clock=clock, owns_store=False)
    yield gm
    gm.close()


def said(memory: GraphMem, clock: Clock, ns: str, text: str, day: int) -> str:
    """One statement through the API as the MCP ``remember`` tool stores it."""
    clock.now = T0 + timedelta(days=day)
    item: dict[str, Any] = {"content": text, "extractor": "verbatim", "session_id": f"s{day}"}
    report = memory.remember(ns, [item])
    memory_id = report.memory_ids[0]
    assert memory_id is not None
    return memory_id


def current(memory: GraphMem, ns: str, memory_id: str) -> bool:
    return memory.get(ns, memory_id).is_current


def test_a_verbatim_claim_is_a_claim_and_the_newer_supersedes(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    old = said(memory, clock, ns, "Alice works at Google.", 0)
    new = said(memory, clock, ns, "Alice works at Microsoft.", 5)
    assert not current(memory, ns, old)
    assert memory.get(ns, old).superseded_by == new
    top = memory.recall(ns, "Where does Alice work?", k=3).hits
    assert top[0].memory.id == new


def test_a_transcript_turn_is_a_record_and_is_never_superseded(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    first = said(memory, clock, ns, "Caroline: I work at Google.", 0)
    said(memory, clock, ns, "Caroline: I work at Microsoft now.", 5)
    assert current(memory, ns, first)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Lena lives in Portland.", "Lena moved to Denver."),
        ("Lena lives in Portland.", "Lena lives in Denver now."),
        ("Lena is vegetarian.", "Lena eats fish again, so she's pescatarian now."),
        ("Lena is an urban planner.", "Lena is a senior urban planner now."),
        ("Lena works at Acme.", "Lena left Acme last month."),
        ("Lena does yoga every morning.", "Lena doesn't do yoga anymore."),
    ],
)
def test_an_update_in_other_words_supersedes_the_value_it_replaces(
    memory: GraphMem, clock: Clock, ns: str, before: str, after: str
) -> None:
    old = said(memory, clock, ns, before, 0)
    new = said(memory, clock, ns, after, 30)
    assert memory.get(ns, old).superseded_by == new


def test_two_attributes_of_one_person_do_not_replace_each_other(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    home = said(memory, clock, ns, "Lena lives in Portland.", 0)
    said(memory, clock, ns, "Lena works at Acme Robotics.", 3)
    said(memory, clock, ns, "Lena has a dog called Juno.", 4)
    said(memory, clock, ns, "Lena's sister Mia lives in Denver.", 5)
    assert current(memory, ns, home)


def test_two_events_at_different_times_are_two_events(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    monday = said(memory, clock, ns, "Lena ran 5 km on Monday.", 0)
    wednesday = said(memory, clock, ns, "Lena ran 8 km on Wednesday.", 2)
    assert current(memory, ns, monday) and current(memory, ns, wednesday)
    hits = memory.recall(ns, "How far did Lena run on Monday?", k=3).hits
    assert hits[0].memory.id == monday


def test_the_first_person_is_the_namespaces_user(memory: GraphMem, clock: Clock, ns: str) -> None:
    user = memory.set_user(ns, "Jonas Weber")
    assert memory.user(ns) == user and user.kind == "Person"
    old = said(memory, clock, ns, "I work at the Vienna General Hospital.", 0)
    said(memory, clock, ns, "Declan has a red setter called Bran.", 1)
    dog = said(memory, clock, ns, "My dog is called Pixel.", 2)
    new = said(memory, clock, ns, "I work at AKH Wien now.", 10)
    assert memory.get(ns, old).superseded_by == new
    assert memory.recall(ns, "What is my dog called?", k=3).hits[0].memory.id == dog
    assert memory.recall(ns, "Where do I work?", k=3).hits[0].memory.id == new
    mentioned = {m.entity_id for m in memory.get(ns, new).mentions}
    assert user.id in mentioned


def test_without_a_named_user_first_person_claims_share_one_implicit_subject(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    old = said(memory, clock, ns, "I live in Basel.", 0)
    new = said(memory, clock, ns, "User moved to Zurich.", 9)
    assert memory.get(ns, old).superseded_by == new
    implicit = memory.user(ns)
    assert implicit is not None and implicit.name == "User"
    renamed = memory.set_user(ns, "Anke Roth")
    assert renamed.id == implicit.id and renamed.name == "Anke Roth"
    with pytest.raises(InvalidInputError):
        memory.set_user(ns, "   ")


def test_someone_close_to_the_user_is_not_the_user(memory: GraphMem, clock: Clock, ns: str) -> None:
    memory.set_user(ns, "Ingrid Solberg")
    mine = said(memory, clock, ns, "I work at Ullevål hospital.", 0)
    said(memory, clock, ns, "My sister Marit works at Haukeland hospital.", 4)
    assert current(memory, ns, mine)


def test_allergies_are_recalled_for_a_question_about_food(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    for day, text in enumerate(
        [
            "Lena works at the city council as an urban planner.",
            "Lena is allergic to peanuts.",
            "Lena loves hiking in the Alps.",
            "Lena's favourite cuisine is Thai food.",
            "Lena is learning Portuguese.",
        ]
    ):
        said(memory, clock, ns, text, day)
    hits = memory.recall(ns, "What should I cook for Lena tonight?", k=5).hits
    assert hits[0].memory.content == "Lena is allergic to peanuts."


def test_correct_on_a_replaced_memory_corrects_its_current_successor(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    first = said(memory, clock, ns, "Lena lives in Portland.", 0)
    moved = said(memory, clock, ns, "Lena moved to Denver.", 10)
    clock.now = T0 + timedelta(days=20)
    old, new = memory.correct(ns, first, "Lena moved to Boulder, not Denver.")
    assert old.id == moved
    assert memory.get(ns, moved).superseded_by == new.id
    assert new.is_current


def test_the_write_report_says_why_a_memory_was_superseded(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    old = said(memory, clock, ns, "Lena lives in Portland.", 0)
    clock.now = T0 + timedelta(days=30)
    report = memory.remember(ns, [{"content": "Lena moved to Denver.", "extractor": "verbatim"}])
    assert report.superseded == (old,)
    assert report.why_superseded[old] == (
        "both say where the subject lives: denver replaces portland"
    )


def test_a_correction_corrects_the_claim_wherever_it_was_restated(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Gareth Pritchard")
    said(memory, clock, ns, "Our Rhian is my only one.", 0)
    first = said(memory, clock, ns, "Doctor's got me on warfarin for my heart.", 1)
    again = said(memory, clock, ns, "I'm on that warfarin, mind, so the nurse does my blood.", 5)
    clock.now = T0 + timedelta(days=9)
    _, new = memory.correct(ns, first, "Rhian checked the box: it's apixaban I take, not warfarin.")
    assert memory.get(ns, again).superseded_by == new.id
    hits = memory.recall(ns, "What's the tablet I take for my heart?", k=3).hits
    assert hits[0].memory.id == new.id


def test_a_correction_corrects_the_wrong_value_it_names_however_it_was_restated(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # the restatements were read as another attribute (health, not allergy) or named
    # the value in the singular ("egg allergy" / "not eggs"): they stayed current and
    # answered "Can I put out everything bagels?" with the egg allergy
    first = said(memory, clock, ns, "Hannah has a serious food allergy: eggs.", 0)
    again = said(memory, clock, ns, "Reminder: Hannah, egg allergy, EpiPen in her bag.", 3)
    other = said(memory, clock, ns, "Hannah's son Eli loves egg sandwiches.", 4)
    clock.now = T0 + timedelta(days=9)
    text = "Correction: Hannah's own allergy is sesame, not eggs. The egg allergy is Eli's."
    _, new = memory.correct(ns, first, text)
    assert memory.get(ns, again).superseded_by == new.id
    assert current(memory, ns, other)  # about Eli, not Hannah
    peanuts = said(memory, clock, ns, "Nora's peanut allergy is severe.", 10)
    again = said(memory, clock, ns, "Peanuts are dangerous for Nora, she keeps the EpiPen.", 11)
    text = "Nora's severe allergy is to tree nuts (cashews, pistachios), not peanuts."
    newer = said(memory, clock, ns, text, 12)
    assert memory.get(ns, peanuts).superseded_by == newer
    assert memory.get(ns, again).superseded_by == newer


def test_the_time_of_a_question_about_what_to_do_is_no_window(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # "tonight" made the plan temporal-anchored: the newest memory of the day (a baduk
    # club) ranked above "Not one glass of soju since the check-up"
    memory.set_user(ns, "Park Dong-hyun")
    soju = said(memory, clock, ns, "Not one glass of soju since the check-up in August.", 0)
    said(memory, clock, ns, "Joined the baduk club at the community centre.", 5)
    clock.now += timedelta(hours=1)
    result = memory.recall(ns, "Is it alright if I have a soju with the guys tonight?", k=3)
    assert result.plan != "temporal-anchored"
    assert result.hits[0].memory.id == soju
    asked = memory.recall(ns, "What did I do tonight?", k=3)
    assert asked.plan == "temporal-anchored"  # a question about what was done keeps it


def test_a_question_for_advice_finds_the_health_claim_however_it_is_said(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Sione Tupou")
    for day, text in enumerate(
        [
            "Sione teaches PE at Kelston Boys' High.",
            "Sione has gout. The doctor says no shellfish, and go easy on red meat.",
            "Sione's family moved to Papatoetoe over the summer.",
            "Sione coaches the under-15s on Saturdays.",
        ]
    ):
        said(memory, clock, ns, text, day)
    hits = memory.recall(ns, "Can Sione have the seafood platter at the feast?", k=3).hits
    assert hits[0].memory.content.startswith("Sione has gout.")


def test_the_asked_persons_memory_ranks_above_one_about_someone_close_to_them(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Henrik Larsson")
    own = said(memory, clock, ns, "Henrik owns an old wooden Folkbåt called Sigrid.", 0)
    said(memory, clock, ns, "Henrik takes metformin twice a day with meals.", 1)
    other = said(memory, clock, ns, "Henrik's brother Lars has a boat too, a motorboat.", 2)
    ranked = [h.memory.id for h in memory.recall(ns, "What's Henrik's boat called?", k=3).hits]
    assert ranked.index(own) < ranked.index(other)


def test_a_nickname_names_the_same_person(
    memory: GraphMem, store: MemoryStore, clock: Clock, ns: str
) -> None:
    said(memory, clock, ns, "Ramón is a large-animal vet. Everyone calls him Moncho.", 0)
    old = said(memory, clock, ns, "Moncho works at Clínica Veterinaria Los Altos in Zapopan.", 1)
    new = said(memory, clock, ns, "Ramón left Los Altos and opened his own practice.", 30)
    assert memory.get(ns, old).superseded_by == new
    names = {e.name for e in store.list_entities(ns)}
    assert "Moncho" not in names


def test_a_correction_stays_about_its_subject_when_it_does_not_name_it(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    first = said(memory, clock, ns, "Ramón opened his own practice, Veterinaria Mendoza.", 0)
    ramon = {m.entity_id for m in memory.get(ns, first).mentions}
    clock.now = T0 + timedelta(days=3)
    _, new = memory.correct(
        ns, first, "Correction: the practice is in Tlajomulco, not Tlaquepaque."
    )
    about = {m.entity_id for m in new.mentions if m.role == "subject"}
    assert len(about) == 1 and about <= ramon


def test_a_note_in_the_users_voice_updates_the_users_own_claim(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # the place it names is where it happens, not whom it is about
    memory.set_user(ns, "Haruka Mori")
    old = said(memory, clock, ns, "I live in Osaka, in a tiny flat near Tenma station.", 0)
    new = said(
        memory,
        clock,
        ns,
        "Handed the Osaka flat back. I'm renting near Ohori Park in Fukuoka now.",
        30,
    )
    assert memory.get(ns, old).superseded_by == new


def test_a_memory_a_question_rule_moved_says_why(memory: GraphMem, clock: Clock, ns: str) -> None:
    memory.set_user(ns, "Haruka Mori")
    said(memory, clock, ns, "I'm allergic to fish, even a little dashi.", 0)
    home = said(memory, clock, ns, "I live in Osaka, near Tenma station.", 1)
    result = memory.recall(ns, "Where do I live?", k=3)
    reasons = {h.memory.id: h.explanation.reordered for h in result.hits}
    assert reasons[home] is not None and "where the subject lives" in reasons[home]


def test_a_note_that_names_nobody_is_the_users_and_a_refusal_ends_it(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # neither note names anyone, nor opens in the first person: both are the user's
    memory.set_user(ns, "Lars Eriksson")
    old = said(
        memory, clock, ns, "A glass of aquavit with the herring at midsummer, that's the best.", 0
    )
    new = said(
        memory, clock, ns, "No aquavit this midsummer, or any other. The new pills forbid it.", 30
    )
    assert memory.get(ns, old).superseded_by == new
    user = memory.user(ns)
    assert user is not None and user.id in {m.entity_id for m in memory.get(ns, new).mentions}


def test_a_permission_question_brings_the_similar_safety_claim_first(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # "café con leche" is no food the question rules know; the allergy is among the
    # claims most similar to the question, so it comes first
    memory.set_user(ns, "Mateo Rossi")
    allergy = said(
        memory, clock, ns, "User is allergic to cow's milk: no cheese, no café con leche.", 0
    )
    said(memory, clock, ns, "User walks the same way to class, getting a paper on the way.", 1)
    said(memory, clock, ns, "User's sister Lucía is a vet in Rosario.", 2)
    hits = memory.recall(
        ns, "Getting the user a café con leche on the way to class. Okay?", k=3
    ).hits
    assert hits[0].memory.id == allergy
    assert hits[0].explanation.reordered is not None


def said_triple(
    memory: GraphMem, clock: Clock, ns: str, text: str, triple: tuple[str, str, str], day: int
) -> str:
    """One statement with the subject / predicate / object an agent may pass beside it."""
    clock.now = T0 + timedelta(days=day)
    subject, predicate, obj = triple
    item = {"content": text, "session_id": f"s{day}", "subject": subject,
            "predicate": predicate, "object": obj}  # fmt: skip
    memory_id = memory.remember(ns, [item]).memory_ids[0]
    assert memory_id is not None
    return memory_id


def test_a_claim_whose_triple_names_someone_else_ranks_below_the_asked_persons(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Olena Kovalenko")
    own = said_triple(
        memory, clock, ns, "Olena won her audition and plays with the Wiener Symphoniker.",
        ("Olena Kovalenko", "works_at", "Wiener Symphoniker"), 0,
    )  # fmt: skip
    other = said_triple(
        memory, clock, ns, "Andriy plays cello in the same orchestra as Olena, in Kyiv.",
        ("Andriy Kovalenko", "works_at", "Kyiv Symphony Orchestra"), 1,
    )  # fmt: skip
    hits = memory.recall(ns, "Which orchestra does Olena play in?", k=3).hits
    ranked = [h.memory.id for h in hits]
    assert ranked.index(own) < ranked.index(other), ranked


def test_a_triples_predicate_says_which_attribute_a_claim_states(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Haruka Mori")
    own = said_triple(
        memory, clock, ns, "Hakata Design Lab from Monday: packaging, no more flyers!",
        ("Haruka Mori", "works_at", "Hakata Design Lab"), 0,
    )  # fmt: skip
    said(memory, clock, ns, "I work late on Thursdays, these days mostly from home.", 1)
    said(memory, clock, ns, "Where I work, lunch is at noon sharp these days.", 2)
    hits = memory.recall(ns, "Where do I work these days?", k=3).hits
    assert hits[0].memory.id == own, [h.memory.content for h in hits]


def test_the_same_triple_said_again_in_other_words_corroborates_the_claim(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    sesame = ("Chloe Nguyen", "allergy", "sesame")
    first = said_triple(memory, clock, ns, "Chloe is allergic to sesame.", sesame, 0)
    again = said_triple(
        memory, clock, ns, "No sesame for Chloe, please. She ended up in A&E once.", sesame, 5
    )
    assert again == first
    assert memory.get(ns, first).n == 2 and current(memory, ns, first)


def test_the_same_triple_does_not_merge_an_ending_or_another_event(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    diet = ("Kwame Mensah", "diet", "vegetarian")
    first = said_triple(memory, clock, ns, "Kwame is vegetarian.", diet, 0)
    ended = said_triple(memory, clock, ns, "Kwame is not vegetarian anymore.", diet, 5)
    assert ended != first
    run = ("Lena Park", "ran", "5 km")
    monday = said_triple(memory, clock, ns, "Lena ran 5 km on Monday, no music.", run, 10)
    friday = said_triple(memory, clock, ns, "Lena ran 5 km on Friday with Tom.", run, 14)
    assert friday != monday


def test_the_same_value_said_again_with_other_details_replaces_nothing(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    metformin = ("Henrik Lindqvist", "medication", "metformin")
    first = said_triple(
        memory, clock, ns, "Henrik takes metformin twice a day with meals.", metformin, 0
    )
    again = said_triple(
        memory, clock, ns, "Henrik again: he's on metformin, meals at regular times.", metformin, 9
    )
    assert again != first and current(memory, ns, first) and current(memory, ns, again)
    # another value of a single-valued attribute still replaces the older one
    moved = said_triple(
        memory, clock, ns, "Henrik moved to Hovås.", ("Henrik Lindqvist", "lives_in", "Hovås"), 10
    )
    newer = said_triple(
        memory,
        clock,
        ns,
        "Henrik lives in Askim now.",
        ("Henrik Lindqvist", "lives_in", "Askim"),
        20,
    )
    assert memory.get(ns, moved).superseded_by == newer


def test_an_update_no_rule_names_supersedes_the_claim_it_clearly_resembles(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # no attribute pattern reads a choir: "switched to … instead" left the old one current
    # (this test used a car until the car rule learnt "drives an old Volvo estate")
    car = said(memory, clock, ns, "Noor sings with the Leith Community Choir on Tuesdays.", 0)
    job = said(memory, clock, ns, "Noor is a retired chemistry teacher.", 1)
    clock.now = T0 + timedelta(days=5)
    text = "Noor switched to the Canongate Choir instead and sings there on Tuesdays."
    report = memory.remember(ns, [{"content": text, "extractor": "verbatim"}])
    assert memory.get(ns, car).superseded_by == report.memory_ids[0]
    assert current(memory, ns, job)
    assert report.why_superseded[car].startswith("the older claim about the subject it resembles")


def test_a_triple_about_someone_close_states_no_attribute_of_its_subject(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # the sister's home, given as Marta's sibling, replaced Marta's own home in Kraków
    memory.set_user(ns, "Marta Wiśniewska")
    text = "I'm in Kraków, Podgórze, sharing a flat with two other nurses."
    triple = {"subject": "Marta Wiśniewska", "predicate": "lives_in", "object": "Kraków"}
    home = memory.remember(ns, [{"content": text, "extractor": "verbatim", **triple}])
    clock.now = T0 + timedelta(days=3)
    sister = {
        "content": "My sister Kasia is two years younger and still lives with our parents in Tarnów.",
        "extractor": "verbatim",
        "subject": "Marta Wiśniewska",
        "predicate": "sibling",
        "object": "Kasia Wiśniewska",
    }
    memory.remember(ns, [sister])
    assert current(memory, ns, home.memory_ids[0] or "")


def test_a_month_whose_latest_occurrence_is_empty_is_read_a_year_earlier(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # asked in May 2026, "in March" was March 2026, which holds nothing: the game of
    # March 2025 lost to a later one
    memory.set_user(ns, "Mateo Quispe")
    march = said(memory, clock, ns, "Played fulbito with the kitchen guys, we lost 6-3.", 9)
    said(memory, clock, ns, "Fulbito again with the kitchen guys, this time we won 5-4.", 190)
    clock.now = datetime(2026, 5, 11, 16, 0, tzinfo=UTC)
    result = memory.recall(ns, "What was the score in the fulbito game in March?", k=3)
    assert result.hits[0].memory.id == march
    explained = result.hits[0].explanation.retrievers["temporal"].detail
    assert explained is not None and "a year earlier" in explained


def test_a_memory_an_update_supersedes_keeps_its_vector(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # the attribute rule wrote the loser back from a copy read without its vector, which
    # removed the stored one (history and dedup against it search by vector)
    old = said(memory, clock, ns, "Lena lives in Portland.", 0)
    said(memory, clock, ns, "Lena moved to Denver.", 30)
    kept = memory.get(ns, old, with_embedding=True)
    assert kept.superseded_by is not None
    assert kept.embedding is not None


def test_what_only_looks_like_an_update_replaces_nothing(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # each of these superseded the claim beside it (a set written outside the rules)
    memory.set_user(ns, "Aigerim Seitkali")
    job = said(memory, clock, ns, "I work as a vet nurse at the Zoovet clinic on Abay Avenue.", 0)
    flat = said(
        memory, clock, ns, "My flat is in Bostandyk district, right under the mountains.", 1
    )
    safe = said(memory, clock, ns, "I'm on allopurinol for gout and must keep off organ meats.", 2)
    said(memory, clock, ns, "After shifts I work out at the Fitness Planet gym in Mega.", 3)
    assert current(memory, ns, job)  # working out is no job
    said(
        memory,
        clock,
        ns,
        "I've moved to the new animal hospital in Medeu district, as senior vet nurse.",
        4,
    )
    said(memory, clock, ns, "I've stopped drinking beer since a bad gout flare in May.", 5)
    assert current(memory, ns, flat)  # a move to a workplace is no new home
    assert current(memory, ns, safe)  # giving up beer agrees with keeping off things


def test_a_shorter_form_of_the_users_name_is_the_user(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # "Lucía Mamani" became a second person, so her promotion updated nothing
    memory.set_user(ns, "Lucía Mamani Quispe")
    # (the title alone: a claim naming the workplace too outlives a promotion)
    nurse = said(memory, clock, ns, "Lucía Mamani is a paediatric nurse.", 0)
    said(memory, clock, ns, "Lucía was promoted; she is head nurse of the paediatric ward now.", 30)
    assert not current(memory, ns, nurse)


def test_what_someone_gave_up_comes_first_for_a_question_offering_it(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    # "hasn't had a drink" bears on a bottle of rum, not on what to cook
    memory.set_user(ns, "Tomasz Wrona")
    allergy = said(memory, clock, ns, "Tomasz is allergic to celery.", 0)
    said(memory, clock, ns, "Tomasz drives a tram in Wrocław.", 1)
    said(memory, clock, ns, "Tomasz's brother Piotr runs a bar in Gdańsk.", 2)
    dry = said(memory, clock, ns, "Tomasz hasn't had a drink since the spring.", 3)
    said(memory, clock, ns, "Tomasz's daughter Ola started school in September.", 4)
    offered = memory.recall(ns, "Should I bring Tomasz a bottle of rum on Friday?", k=5).hits
    assert offered[0].memory.id == dry
    meal = memory.recall(ns, "What should I cook for Tomasz tonight?", k=5).hits
    assert meal[0].memory.id == allergy
    assert all(h.explanation.reordered is None for h in meal if h.memory.id == dry)


def test_a_question_for_one_of_several_values_brings_those_claims_first(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Amara Okafor")
    spoken = said(memory, clock, ns, "Amara speaks Igbo at home and French with her clients.", 0)
    for day, text in enumerate(
        [
            "Amara's clients can reach her at the Lagos office most mornings.",
            "Amara took her clients on a boat trip along the lagoon.",
            "Amara's cousin Ngozi is learning Spanish.",
            "Amara works as a tour operator in Lagos.",
        ],
        start=1,
    ):
        said(memory, clock, ns, text, day)
    hits = memory.recall(ns, "In which languages can Amara talk to clients?", k=5).hits
    assert hits[0].memory.id == spoken


def test_who_is_my_partner_asks_for_the_users_partner(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Aylin Demir")
    said(memory, clock, ns, "Aylin's partner is Kemal Şahin, a sound engineer.", 0)
    said(memory, clock, ns, "Aylin teaches chemistry at a lycée in Izmir.", 1)
    said(memory, clock, ns, "Aylin's sister Elif is married to a pilot.", 2)
    now = said(memory, clock, ns, "Kemal and I split in the spring. I'm with Deniz Aydın now.", 40)
    hits = memory.recall(ns, "Who's my partner these days?", k=4).hits
    assert hits[0].memory.id == now


def test_a_newer_claim_about_the_past_does_not_answer_now(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory.set_user(ns, "Emma Lind")
    said(memory, clock, ns, "I teach maths at Södra Latin in Stockholm.", 0)
    moved = said(memory, clock, ns, "We've moved to Umeå! Got here in August.", 30)
    said(memory, clock, ns, "New job: maths teacher at Dragonskolan, from September.", 31)
    said(memory, clock, ns, "I take levothyroxine every morning.", 32)
    said(memory, clock, ns, "Got my old school wrong: in Stockholm I taught at Norra Real.", 60)
    hits = memory.recall(ns, "Which city am I living in now?", k=5).hits
    assert hits[0].memory.id == moved


def test_a_name_with_an_accent_opens_a_claim_about_someone_close(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Sigrún's brother Ólafur …" is about Ólafur: it must not replace Sigrún's home."""
    memory.set_user(ns, "Sigrún Halldórsdóttir")
    home = said(memory, clock, ns, "Sigrún lives in Reykjavík, in a flat in Vesturbær.", 0)
    said(memory, clock, ns, "Sigrún's brother Ólafur Halldórsson lives up in Akureyri.", 20)
    assert current(memory, ns, home)
    hits = memory.recall(ns, "Where does Sigrún live?", k=3).hits
    assert hits[0].memory.id == home


@pytest.fixture
def real_memory(store: MemoryStore, clock: Clock) -> Iterator[GraphMem]:
    """With the default model: the nearest examples need its vectors."""
    gm = GraphMem(
        Settings(), store=store, embedder=make_embedder(Settings()), clock=clock, owns_store=False
    )
    yield gm
    gm.close()


def test_what_the_word_patterns_miss_the_nearest_examples_read(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Which city is home for me at the moment?" and "We've packed up and we're in
    Sheffield now" name a residence in no words the patterns know (docs/updates.md
    "Nearest examples"): the newer claim still answers first, above the sister's home."""
    memory = real_memory
    memory.set_user(ns, "Owen Price")
    said(memory, clock, ns, "I rent a flat in Leeds, near Hyde Park.", 0)
    said(memory, clock, ns, "I'm a bus driver for First.", 1)
    said(memory, clock, ns, "My sister lives in York.", 2)
    now = said(
        memory, clock, ns, "We've packed up and we're in Sheffield now, a terrace off Abbeydale Road.", 40
    )  # fmt: skip
    hits = memory.recall(ns, "Which city is home for me at the moment?", k=4).hits
    assert hits[0].memory.id == now


def test_seeing_someone_and_being_single_are_about_a_partner(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    memory = real_memory
    memory.set_user(ns, "Tomasz Nowak")
    said(memory, clock, ns, "I'm single at the moment, on the apps and not loving it.", 0)
    said(memory, clock, ns, "I work as a sound engineer at Radio Gdańsk.", 1)
    said(memory, clock, ns, "My sister Ola is dating a drummer from Sopot.", 2)
    now = said(
        memory, clock, ns,
        "Update on the dating front: I'm seeing someone! Kasia Wrona, she's a nurse in Gdynia.",
        40,
    )  # fmt: skip
    hits = memory.recall(ns, "Who am I seeing at the moment?", k=4).hits
    assert hits[0].memory.id == now


def test_asking_whether_a_named_state_still_holds_brings_its_newest_value_first(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Is Tomasz still living in Gdynia?" names the old home: it asks for the residence,
    whose newest value answers, though the old claim shares the question's words."""
    memory.set_user(ns, "Tomasz Wójcik")
    said(memory, clock, ns, "Tomasz lives in a flat above the harbour in Gdynia.", 0)
    said(memory, clock, ns, "Tomasz sails every Sunday from the Gdynia marina.", 1)
    moved = said(memory, clock, ns, "Tomasz has moved inland to Toruń for his daughter's school.", 50)
    hits = memory.recall(ns, "Is Tomasz still living in Gdynia?", k=3).hits
    assert hits[0].memory.id == moved
    assert hits[0].explanation.reordered is not None



def test_a_still_question_naming_a_replaced_state_brings_what_replaced_it_first(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Is Oskar still doing the Antwerp runs?" names a claim an update superseded; no
    current memory shares its words, so the answer is what replaced it (followed along
    ``superseded_by``), above a newer claim about something else."""
    memory.set_user(ns, "Oskar Nowak")
    old = said(memory, clock, ns, "Oskar drives long-haul for Raben, mostly the Poznań–Antwerp run.", 0)
    said(memory, clock, ns, "Oskar has a season ticket for Lech Poznań.", 1)
    local = said(memory, clock, ns, "Oskar switched to local deliveries: he drives for DPD now.", 40)
    said(memory, clock, ns, "Oskar's delivery van is a white Renault Master.", 60)
    assert memory.get(ns, old).superseded_by == local
    hits = memory.recall(ns, "Is Oskar still doing the Antwerp runs?", k=3).hits
    assert hits[0].memory.id == local
    assert "replaced the state" in (hits[0].explanation.reordered or "")


def test_can_i_have_some_asks_about_the_askers_diet_not_the_cooks(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Sipho's making bobotie tonight, can I have some?" names Sipho first, but the one
    who would eat is the user: the user's diet comes first, not Sipho's claims."""
    memory.set_user(ns, "Naledi Dlamini")
    vegan = said(memory, clock, ns, "I'm vegan, properly: no dairy, no eggs, not even honey.", 0)
    said(memory, clock, ns, "My husband Sipho teaches maths at a high school in Soweto.", 1)
    said(memory, clock, ns, "Sipho is making his mother's bobotie recipe tonight.", 2)
    said(memory, clock, ns, "We won our netball semi on Wednesday!", 3)
    hits = memory.recall(ns, "Sipho's making bobotie tonight, can I have some?", k=3).hits
    assert hits[0].memory.id == vegan


def test_a_promotion_keeps_the_claim_that_also_names_the_workplace(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Amina is a senior engineer at Dar Al-Handasah" states a title and a workplace; a
    promotion changes the title only, so the older claim stays current (superseding it
    lost the workplace), and the promotion still answers the title question first."""
    memory.set_user(ns, "Amina Khalil")
    both = said(memory, clock, ns, "Amina is a senior engineer at Dar Al-Handasah in Cairo.", 0)
    said(memory, clock, ns, "Amina plays squash at the Gezira Club.", 1)
    promoted = said(memory, clock, ns, "Amina made associate, the youngest one in the office.", 90)
    assert current(memory, ns, both)
    assert memory.recall(ns, "Where does Amina work?", k=3).hits[0].memory.id == both
    assert memory.recall(ns, "What is Amina's job title now?", k=3).hits[0].memory.id == promoted


def test_a_note_with_a_heading_is_a_claim_and_updates_the_job_title(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Promotion: Kofi is a senior site engineer now" opens with a heading, not a
    speaker: it is a claim, and it updates the title it replaces (read as a transcript
    turn, it took part in no update rule)."""
    memory.set_user(ns, "Kofi Boateng")
    said(memory, clock, ns, "Kofi lives in Kumasi, in Ahodwo.", 0)
    title = said(memory, clock, ns, "His title is site engineer on the Ejisu road project.", 1)
    promoted = said(memory, clock, ns, "Promotion: Kofi is a senior project engineer now.", 90)
    assert memory.get(ns, title).superseded_by == promoted


def test_a_job_change_stating_title_and_workplace_replaces_the_old_job(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Tomás quit Tortoni and started as a junior developer at Globant" opens on the
    workplace, the older claim on the title: both state both, so the newer replaces it."""
    memory.set_user(ns, "Tomás Ferreyra")
    barista = said(memory, clock, ns, "Tomás is a barista at Café Tortoni in Buenos Aires.", 0)
    said(memory, clock, ns, "Tomás has a beagle called Mate.", 1)
    dev = said(memory, clock, ns, "Tomás quit Tortoni and started as a junior developer at Globant.", 60)
    assert memory.get(ns, barista).superseded_by == dev


def test_a_subjectless_note_naming_its_employer_after_for_is_the_users(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"doing deliveries for Chowdeck now" has no subject; Chowdeck, even when given as a
    person, is what "for" governs: the note is the user's and replaces where she works.
    The bakery named in "football with the girls from the bakery" is company, not what
    quitting the bakery ends."""
    memory.set_user(ns, "Ngozi Eze")
    bakery = said(memory, clock, ns, "I work at Mama Cass Bakery, early shift, 4am starts.", 0)
    football = said(memory, clock, ns, "Sundays I play football with the girls from the bakery.", 1)
    clock.now = T0 + timedelta(days=60)
    item: dict[str, Any] = {
        "content": "ugh, finally quit the bakery. doing deliveries for Chowdeck now",
        "extractor": "verbatim", "entities": [{"name": "Chowdeck", "kind": "Person"}],
    }
    new = memory.remember(ns, [item]).memory_ids[0]
    assert memory.get(ns, bakery).superseded_by == new
    assert current(memory, ns, football)


def test_an_ending_stays_first_above_a_newer_claim_about_something_else(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Does Sorcha still row?" is answered by "no longer rows"; the newer move is about
    something else and must not be moved above it as the present state (with the
    default model, whose vectors find the two claims related)."""
    real_memory.set_user(ns, "Sorcha Byrne")
    said(real_memory, clock, ns, "Sorcha rows for the Neptune club on the Liffey.", 0)
    said(real_memory, clock, ns, "Sorcha has a tabby cat called Miso.", 1)
    ended = said(real_memory, clock, ns, "Sorcha hurt her back and no longer rows with Neptune.", 30)
    said(real_memory, clock, ns, "Sorcha has moved in with her sister in Bray.", 60)
    hits = real_memory.recall(ns, "Does Sorcha still row with Neptune?", k=3).hits
    assert hits[0].memory.id == ended


def test_a_note_opening_with_he_or_she_is_about_the_namespaces_person(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"He shares a Lech season ticket with his cousin Marek" names another person; the
    pronoun opening the note has nobody before it but the namespace's person, so a later
    "doesn't have the season ticket anymore" ends it (it had been left out as Marek's)."""
    memory.set_user(ns, "Oskar Nowak")
    said(memory, clock, ns, "Oskar lives in Poznań, in Jeżyce.", 0)
    memory.remember(ns, [{"content": "Marek Zieliński is Oskar's cousin.", "extractor": "verbatim",
                          "entities": [{"name": "Marek Zieliński", "kind": "Person"}]}])
    games = said(memory, clock, ns, "He shares a Lech season ticket with Marek, sector C.", 1)
    ended = said(memory, clock, ns, "Oskar doesn't have the season ticket anymore; he let it lapse.", 40)
    assert memory.get(ns, games).superseded_by == ended


def test_a_still_question_in_other_words_finds_the_ended_state_by_meaning(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Do I still have hockey on Tuesdays?" shares no word with "I play goalie in a
    Tuesday-night beer league": the claim it names is found among the memories nearest
    the question (history included), and the ending that replaced it comes first."""
    memory = real_memory
    memory.set_user(ns, "Mathieu Gagnon")
    said(memory, clock, ns, "I build and repair guitars at a little shop downtown.", 0)
    league = said(memory, clock, ns, "I play goalie in a Tuesday-night beer league.", 1)
    said(memory, clock, ns, "Went ice fishing on Lac Memphrémagog on 1 March with a buddy.", 20)
    ended = said(memory, clock, ns, "Hung up the goalie pads. No more beer league, my hip is done.", 60)
    said(memory, clock, ns, "We moved to Québec City in June, to Limoilou.", 90)
    said(memory, clock, ns, "I'm not at the downtown shop anymore: I opened my own place.", 95)
    said(memory, clock, ns, "First ice of the season: fished Lac-Saint-Charles on 6 December.", 100)
    assert memory.get(ns, league).superseded_by == ended
    hits = memory.recall(ns, "Do I still have hockey on Tuesdays?", k=3).hits
    assert hits[0].memory.id == ended
    assert "replaced the state" in (hits[0].explanation.reordered or "")


def _event(memory: GraphMem, clock: Clock, ns: str, text: str, day: int) -> str:
    """One event through the API, dated the day it was told."""
    clock.now = T0 + timedelta(days=day)
    item: dict[str, Any] = {
        "content": text, "extractor": "verbatim", "type": "Event", "event_time": clock.now,
    }
    memory_id = memory.remember(ns, [item]).memory_ids[0]
    assert memory_id is not None
    return memory_id


def test_first_last_or_a_named_month_picks_among_like_events(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """Two climbs of Longonot embed alike: "first" asks for the earlier, "last" for the
    later, "in June" for the one in June, above a newer correction with a date."""
    memory.set_user(ns, "Wanjiru Kamau")
    said(memory, clock, ns, "Wanjiru is senior cabin crew with Kenya Airways.", 0)
    early = _event(memory, clock, ns, "Wanjiru hiked up Mount Longonot and did the crater rim.", 30)
    late = _event(memory, clock, ns, "Wanjiru climbed Longonot again with her niece.", 120)
    said(memory, clock, ns, "Correction: her birthday is 21 July, not 12 July.", 130)
    first = memory.recall(ns, "When did Wanjiru first climb Longonot this year?", k=3).hits
    assert first[0].memory.id == early
    last = memory.recall(ns, "When did Wanjiru last climb Longonot?", k=3).hits
    assert last[0].memory.id == late
    month = (T0 + timedelta(days=120)).strftime("%B")
    named = memory.recall(ns, f"Who came along on Wanjiru's {month} Longonot climb?", k=3).hits
    assert named[0].memory.id == late


def test_a_correction_states_the_attribute_it_corrects(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Correction: the studio is in Galata, not Cihangir" states no residence in its own
    words; it corrects one, so it carries the residence's predicate and comes first for a
    question about where the user lives, above newer claims about other things."""
    memory.set_user(ns, "Elif Demir")
    flat = said(memory, clock, ns, "I rent a studio flat in Cihangir, five minutes from the office.", 0)
    said(memory, clock, ns, "I'm in my last year of architecture at Istanbul Technical University.", 1)
    _, fixed = memory.correct(ns, flat, "Correction: the studio is in Galata, not Cihangir.")
    said(memory, clock, ns, "At Atölye Kuzey they made me project lead for a hotel on Büyükada.", 30)
    assert fixed.predicate == "lives_in"
    hits = memory.recall(ns, "Which neighbourhood is my flat in?", k=3).hits
    assert hits[0].memory.id == fixed.id


def test_someone_moving_into_the_users_old_flat_is_no_move_of_the_user(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Elif has moved into Kemal's old flat in Moda" is Elif's move: Kemal owns the
    flat the preposition governs. It had superseded Kemal's own move to Ankara."""
    memory.set_user(ns, "Kemal Aydın")
    said(memory, clock, ns, "Kemal lives in Moda, close to the ferry.", 0)
    said(memory, clock, ns, "His sister Elif plays the violin.", 10)
    ankara = said(memory, clock, ns, "Kemal moved to Ankara in the spring when his office opened there.", 60)
    said(memory, clock, ns, "Elif has moved into Kemal's old flat in Moda.", 90)
    assert current(memory, ns, ankara)
    hits = memory.recall(ns, "Where is Kemal based now?", k=3).hits
    assert hits[0].memory.id == ankara


def test_an_ending_about_something_else_does_not_answer_where_i_live(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"User doesn't drive anymore; she takes the MRT from Sengkang" ends the car and
    names the new neighbourhood in passing: it is no newer home than the move."""
    memory = real_memory
    memory.set_user(ns, "Mei Ling Tan")
    said(memory, clock, ns, "User lives in Bedok with her parents.", 0)
    said(memory, clock, ns, "User drives her dad's Toyota Vios to work.", 1)
    moved = said(memory, clock, ns, "User got her keys and moved out of her parents' place to a flat in Sengkang.", 30)
    said(memory, clock, ns, "User doesn't drive anymore; she takes the MRT from Sengkang.", 60)
    hits = memory.recall(ns, "Where does the user live now?", k=3).hits
    assert hits[0].memory.id == moved


def test_a_household_leaving_one_town_for_another_is_a_move(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Lucía and Pablo left Guadalajara for Mérida" moves the couple to Mérida; it had
    been read as Lucía leaving an employer called Guadalajara."""
    memory.set_user(ns, "Lucía Romero")
    home = said(memory, clock, ns, "Lucía lives in Guadalajara, in Chapalita.", 0)
    said(memory, clock, ns, "Lucía teaches chemistry at a secondary school.", 1)
    moved = said(memory, clock, ns, "Lucía and Pablo left Guadalajara for Mérida in August.", 90)
    assert not current(memory, ns, home)
    hits = memory.recall(ns, "Where does Lucía live?", k=3).hits
    assert hits[0].memory.id == moved


def test_a_promotion_from_one_title_to_another_states_the_title(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"promoted from junior analyst to senior analyst" states the new title; a newer
    note that no longer owns a car ends the car, not the job."""
    memory.set_user(ns, "Jana Nováková")
    said(memory, clock, ns, "Jana is a junior analyst at a small bank in Brno.", 0)
    said(memory, clock, ns, "Jana drives an old Skoda Fabia.", 1)
    promoted = said(memory, clock, ns, "Jana was promoted from junior analyst to senior analyst.", 40)
    said(memory, clock, ns, "Jana sold the Fabia and no longer owns a car; she cycles.", 50)
    hits = memory.recall(ns, "What is Jana's job title?", k=3).hits
    assert hits[0].memory.id == promoted


def test_a_holiday_names_its_day_and_keep_in_mind_asks_for_advice(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"on Christmas Day" is 25 December (the last one before the question); "anything to
    keep in mind?" asks for what keeps someone safe, above a newer note that names
    nothing of the kind; "Who is Nils with now?" asks for his partner."""
    memory.set_user(ns, "Nils Berg")
    allergy = said(memory, clock, ns, "Nils is allergic to shellfish.", 0)
    partner = said(memory, clock, ns, "Nils has a new partner, Ingrid, a ferry captain.", 5)
    _event(memory, clock, ns, "Nils swam across the fjord at Sandviken.", 120)
    # day 299 is 25 December 2025
    christmas = _event(memory, clock, ns, "Nils went for a swim at Nordnes on Christmas morning.", 299)
    said(memory, clock, ns, "Nils now uses nils.berg@proton.me instead of his work address.", 320)
    hits = memory.recall(ns, "Where did Nils swim on Christmas Day?", k=3).hits
    assert hits[0].memory.id == christmas
    advice = memory.recall(ns, "Nils wants a paella recipe for tonight; anything to keep in mind?", k=3)
    assert advice.hits[0].memory.id == allergy
    assert memory.recall(ns, "Who is Nils with now?", k=3).hits[0].memory.id == partner


def test_a_correction_of_a_replaced_claims_past_leaves_what_holds_now(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """`correct` on a replaced claim with "In Toronto I taught at Western Tech, not
    Parkdale" corrects the past: the wrong value is in the replaced claim, not in the
    new job, so the new job stays current (it had been superseded, and "Where do I
    teach now?" lost its answer); a note that says only how things were replaces nothing."""
    memory.set_user(ns, "Ava Lindqvist")
    old = said(memory, clock, ns, "I teach Grade 9 science at Parkdale Collegiate in Toronto.", 0)
    job = said(memory, clock, ns, "New job: science teacher at Dartmouth High School, from September.", 100)
    assert not current(memory, ns, old)
    clock.now = T0 + timedelta(days=110)
    before, fix = memory.correct(ns, old, "In Toronto I taught at Western Tech, not Parkdale.")
    assert before.id == old and fix.predicate is None
    assert current(memory, ns, job) and current(memory, ns, fix.id)
    said(memory, clock, ns, "In Toronto I worked at Western Tech for six years.", 120)
    assert current(memory, ns, job)
    assert memory.recall(ns, "Where do I teach now?", k=3).hits[0].memory.id == job



def test_a_correction_corrects_a_restatement_that_says_the_wrong_value_in_other_words(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """`correct` on a claim that was later said again in other words ("nothing beats a
    bowl of pho ga, it's her comfort food") corrects the restatement too when it holds
    the value the correction names as wrong: it had stayed current and ranked above
    the correction for "What's Thao's favourite dish?"."""
    memory.set_user(ns, "Nguyen Thao")
    old = said(memory, clock, ns, "Thao's favourite dish is pho ga from the stall near her office.", 0)
    again = said(memory, clock, ns, "According to Thao nothing beats a bowl of pho ga; it's her comfort food.", 30)
    assert current(memory, ns, old) and current(memory, ns, again)
    clock.now = T0 + timedelta(days=60)
    _, fix = memory.correct(ns, old, "Correction: Thao's favourite dish is bun cha, not pho ga as I had noted.")
    assert not current(memory, ns, old) and not current(memory, ns, again)
    assert memory.get(ns, again).superseded_by == fix.id
    top = memory.recall(ns, "What's Thao's favourite dish?", k=3).hits
    assert top[0].memory.id == fix.id


def test_the_memory_clearly_most_similar_to_the_question_comes_first(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    # "still" is in the pottery note twice, so BM25 put it first for "Am I still doing
    # nights?"; the night shifts lead it by far in name-masked cosine (ranking.lead)
    real_memory.set_user(ns, "Róisín Walsh")
    said(real_memory, clock, ns, "I'm a nurse on the cardiac ward at St. Vincent's.", 0)
    nights = said(
        real_memory, clock, ns, "No more night shifts for me, I've been on days only since March.", 5
    )
    said(real_memory, clock, ns, "Walked the Kerry Way again in May, still the best week.", 9)
    said(real_memory, clock, ns, "My brother Cian lives in Galway with his dog Bran.", 10)
    said(real_memory, clock, ns, "Still doing the pottery class on Thursdays, still terrible.", 11)
    hits = real_memory.recall(ns, "Am I still doing nights?", k=3).hits
    assert hits[0].memory.id == nights
    assert hits[0].explanation.reordered == "moved up: by far the most similar to the question"


def test_a_correction_aimed_at_an_older_claim_corrects_the_newer_one_that_says_the_wrong_value(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """An agent holding the id of "I live in Bergen" corrects "…, not Lade" after the user
    had said "We ended up in Lade": the newer claim, which says the value the correction
    names as wrong, is corrected with the one named (it had stayed current)."""
    memory.set_user(ns, "Ingvild Haugen")
    old = said(memory, clock, ns, "I live in Bergen, up in Sandviken, with my partner.", 0)
    newer = said(memory, clock, ns, "We ended up in Lade. Trondheim at last!", 30)
    clock.now = T0 + timedelta(days=60)
    _, fix = memory.correct(ns, old, "Small fix: our flat is in Møllenberg, not Lade.")
    assert not current(memory, ns, newer)
    assert memory.get(ns, newer).superseded_by == fix.id


def test_a_correction_with_a_hedged_not_corrects_the_restatement_of_the_value(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"I'm not actually Forestry Service staff" names the value as wrong across the hedge;
    the restatement "Still with the Forestry Service" goes with the corrected claim."""
    memory.set_user(ns, "Aroha Ngata")
    old = said(memory, clock, ns, "I work for the Forestry Service as a ranger, mostly owl counts.", 0)
    again = said(memory, clock, ns, "Still with the Forestry Service, still counting owls, ha.", 40)
    clock.now = T0 + timedelta(days=80)
    _, fix = memory.correct(
        ns, old, "Small fix: I'm not actually Forestry Service staff, I contract for Owlwatch Ltd."
    )
    assert not current(memory, ns, again)
    assert memory.get(ns, again).superseded_by == fix.id


def test_a_correction_of_an_allergy_corrects_the_same_value_said_as_a_medicine(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Can't take penicillin" is read as a medicine and "penicillin allergy" as an
    allergy: what keeps the person safe counts as one attribute, so correcting the allergy
    to amoxicillin corrects both."""
    memory.set_user(ns, "Saga Nyberg")
    old = said(memory, clock, ns, "Also note: penicillin allergy, found out the hard way as a kid.", 0)
    again = said(memory, clock, ns, "For the travel kit, remember I can't take penicillin.", 20)
    clock.now = T0 + timedelta(days=50)
    _, fix = memory.correct(
        ns, old, "Correction on the allergy: it's amoxicillin specifically, not penicillin in general."
    )
    assert not current(memory, ns, again)
    assert memory.get(ns, again).superseded_by == fix.id


def test_a_correction_of_a_safety_constraint_corrects_its_restatement_in_other_words(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Dairy doesn't agree with me at all" says "lactose intolerant" in other words: when
    the intolerance is corrected to gluten, the restatement goes with it (it had stayed
    current, and a dairy question found it above the correction)."""
    memory.set_user(ns, "Oskar Lind")
    old = said(memory, clock, ns, "I'm lactose intolerant, so keep cream out of any recipe.", 0)
    again = said(memory, clock, ns, "For dinner ideas: dairy doesn't agree with me at all.", 25)
    clock.now = T0 + timedelta(days=70)
    _, fix = memory.correct(
        ns, old, "Correction: the tests say a gluten sensitivity, not lactose intolerance."
    )
    assert not current(memory, ns, again)
    assert memory.get(ns, again).superseded_by == fix.id


def test_a_break_up_ends_the_claim_that_named_the_partner(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"My boyfriend Tomek …" is about Tomek and "Tomek and I broke up" about me: each
    names the other's subject, so the ending rule relates them (the old claim had stayed
    current beside the break-up)."""
    memory.set_user(ns, "Ewa Nowak")
    old = said(memory, clock, ns, "My boyfriend Tomek is a carpenter, we've been together two years.", 0)
    said(memory, clock, ns, "I run the bakery on Długa street, opening at six.", 10)
    ended = said(memory, clock, ns, "Tomek and I broke up in March. Not together anymore.", 90)
    assert memory.get(ns, old).superseded_by == ended


def test_a_claim_about_someone_close_stays_when_the_user_moves_and_names_them(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"My sister Noa …" and "I … near Noa's old school" name each other's subject, but only a
    relationship that ends relates such claims: the sister's home stays current."""
    memory.set_user(ns, "Ewa Nowak")
    sister = said(memory, clock, ns, "My sister Noa lives in Lisbon, in Alfama.", 0)
    mine = said(memory, clock, ns, "I live in Porto now, not far from Noa's old school.", 40)
    assert current(memory, ns, sister) and current(memory, ns, mine)


def test_a_correction_leaves_what_only_shares_a_word_with_the_corrected_value(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """Correcting "lactose intolerant" keeps "oat milk in my coffee" (milk is not said for
    lactose alone), and "…, not far from the station" names no wrong value that "my
    commute is far from short" holds."""
    memory.set_user(ns, "Oskar Lind")
    old = said(memory, clock, ns, "I'm lactose intolerant, so keep cream out of any recipe.", 0)
    oat = said(memory, clock, ns, "I switched to oat milk in my coffee this year.", 20)
    memory.correct(ns, old, "Correction: the tests say a gluten sensitivity, not lactose intolerance.")
    assert current(memory, ns, oat)
    home = said(memory, clock, ns, "I rent a flat in Solna.", 30)
    commute = said(memory, clock, ns, "My commute is far from short, 40 km each way.", 35)
    memory.correct(ns, home, "Small fix: the flat is in Sundbyberg, not far from the station.")
    assert current(memory, ns, commute)



def test_a_pet_no_longer_kept_ends_the_claim_that_the_owner_has_it(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Pip died in May; Lotta has no rabbit now" is about Pip and names Lotta, "Lotta has a
    rabbit called Pip" is about Lotta and names Pip: a pet no longer kept ends the older."""
    memory.set_user(ns, "Lotta Berg")
    old = said(memory, clock, ns, "Lotta has a rabbit called Pip.", 0)
    said(memory, clock, ns, "Lotta teaches maths at the Folkhögskola in Umeå.", 5)
    new = said(memory, clock, ns, "Pip died in May; Lotta has no rabbit now.", 80)
    assert memory.get(ns, old).superseded_by == new


def test_an_aside_after_a_hyphen_ends_only_its_own_clause(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"No longer freelancing - took a job at a Lisbon agency" ends the freelancing, not the
    move to Lisbon that the second clause names (a spaced hyphen is a dash)."""
    memory.set_user(ns, "Inês Duarte")
    home = said(memory, clock, ns, "Inês has moved to Lisbon! She rents a room in Graça.", 0)
    said(memory, clock, ns, "Inês works freelance as a subtitler.", 2)
    said(memory, clock, ns, "She's no longer freelancing - Inês took a job at a Lisbon agency.", 60)
    assert current(memory, ns, home)


def test_a_move_after_and_is_what_replaced_the_ended_home_not_its_object(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Gave up the flat and moved into the rooms over the workshop" ends the flat; the
    workshop it names after "and moved" is what replaced it, and stays current."""
    memory.set_user(ns, "Tomás Ferreira")
    said(memory, clock, ns, "Tomás rents a flat in Boavista.", 0)
    shop = said(memory, clock, ns, "Tomás left the dealership and opened his own bike workshop in Bonfim.", 30)
    said(memory, clock, ns, "Tomás gave up the Boavista flat and moved into the rooms over the workshop.", 90)
    assert current(memory, ns, shop)


def test_the_user_named_by_a_later_name_is_asked_about_before_the_place_they_go_to(
    memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Minh is flying to Seoul …" asks about the user Trần Văn Minh, not about Seoul (the
    only name the question links): his allergy answers what to carry."""
    memory.set_user(ns, "Trần Văn Minh")
    allergy = said(memory, clock, ns, "User has a severe peanut allergy and carries two adrenaline pens.", 0)
    said(memory, clock, ns, "User freelances as a backend developer now, mostly for Seoul clients.", 30)
    said(memory, clock, ns, "User moved to Huế in August.", 60)
    hits = memory.recall(ns, "Minh is flying to Seoul to see a client, what does he need in his carry-on?", k=5).hits
    assert hits[0].memory.id == allergy


def test_a_food_the_rules_name_nowhere_else_brings_the_safety_claim_first(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """A question offering a dish ("empanadas") bears on what keeps the person safe, as
    "dinner" or "a cake" does (graphmem/language/food_words.txt)."""
    memory = real_memory
    memory.set_user(ns, "Greta Holm")
    said(memory, clock, ns, "Greta picks up pastries from the bakery on Götgatan on her way to work.", 0)
    coeliac = said(memory, clock, ns, "Greta has coeliac disease: no wheat, barley or rye.", 5)
    said(memory, clock, ns, "Greta moved to Södermalm last spring.", 40)
    question = "Picking up empanadas for Greta on the way, anything I should know?"
    assert memory.recall(ns, question, k=5).hits[0].memory.id == coeliac

def test_a_safety_question_about_a_group_one_eats_with_asks_about_the_user(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"My housemates want takeaway tonight, should I warn them about anything?" names the
    housemates, but what must be said is what keeps me safe."""
    memory = real_memory
    memory.set_user(ns, "Ravi Menon")
    said(memory, clock, ns, "I share a house in Leeds with three housemates, near Hyde Park.", 0)
    allergy = said(memory, clock, ns, "I'm allergic to shellfish, prawns especially.", 5)
    said(memory, clock, ns, "I started a PhD in computer vision this autumn.", 40)
    question = "My housemates want takeaway tonight, should I warn them about anything?"
    assert memory.recall(ns, question, k=5).hits[0].memory.id == allergy


def test_a_meal_with_someones_family_asks_about_the_users_safety_not_theirs(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"Pierogi with Tomek's family — what do I need to tell the restaurant?" names
    Tomek, but the family is who I eat with: my coeliac disease answers."""
    memory = real_memory
    memory.set_user(ns, "Kasia Nowak")
    coeliac = said(memory, clock, ns, "I'm coeliac, so zero gluten, even crumbs knock me out.", 0)
    said(memory, clock, ns, "My partner Tomek drives trams in Kraków.", 5)
    said(memory, clock, ns, "Tomek's mum is allergic to strawberries.", 9)
    said(memory, clock, ns, "We bought a little house in Wieliczka!", 40)
    question = "We're going for pierogi with Tomek's family — what do I need to tell the restaurant?"
    assert memory.recall(ns, question, k=5).hits[0].memory.id == coeliac


def test_the_safety_claim_naming_what_the_question_offers_comes_first(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"The clinic gave me Septrin — should I take it?": of the user's health claims, the
    one naming Septrin answers first, before a daily pill it does not name."""
    memory = real_memory
    memory.set_user(ns, "Wanjiru Kamau")
    sulfa = said(memory, clock, ns, "I react very badly to sulfa drugs, Septrin nearly put me in hospital.", 0)
    said(memory, clock, ns, "I also take amlodipine 5 mg for blood pressure every morning.", 3)
    said(memory, clock, ns, "I'm the branch manager at Equity Bank in Westlands.", 6)
    question = "The clinic gave me Septrin for this infection — should I take it?"
    assert memory.recall(ns, question, k=5).hits[0].memory.id == sulfa


def test_giving_up_what_the_question_offers_answers_it_in_any_words(
    real_memory: GraphMem, clock: Clock, ns: str
) -> None:
    """"The hematologist says natto messes with warfarin, so no more natto for me" reads
    as no known habit, but it gives up the natto "Is it ok if I have natto?" offers."""
    memory = real_memory
    memory.set_user(ns, "Mei Watanabe")
    said(memory, clock, ns, "I'm on warfarin long term after a blood clot, INR checks monthly.", 0)
    natto = said(memory, clock, ns, "The hematologist says natto messes with warfarin, so no more natto for me.", 20)
    said(memory, clock, ns, "Monthly INR check today, all in range, same warfarin dose.", 60)
    question = "Is it ok if I have natto with breakfast tomorrow?"
    assert memory.recall(ns, question, k=5).hits[0].memory.id == natto
