"""Role statements become typed relations (issue 12): "Nadia is Omar's sister" and its
other forms give ``Omar —SISTER_OF→ Nadia`` with the capitalised-word extractor (no
spaCy needed here; the spaCy extractor's forms are in test_extract_ner.py)."""

from __future__ import annotations

import pytest

from graphmem.entities import EntityDictionary
from graphmem.extract import CapitalizedNameExtractor
from graphmem.extract.roles import is_person_role, role_predicate, role_relations
from graphmem.models import Entity


def _triples(text: str, speaker: str | None = None) -> set[tuple[str, str, str]]:
    return {(r.source, r.predicate, r.target) for r in role_relations(text, speaker)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nadia is Omar's sister.", ("Omar", "SISTER_OF", "Nadia")),
        ("Omar's sister is Nadia.", ("Omar", "SISTER_OF", "Nadia")),
        ("Nadia, Omar's sister, works at a bakery.", ("Omar", "SISTER_OF", "Nadia")),
        ("Omar's older sister Nadia lives in Rome.", ("Omar", "SISTER_OF", "Nadia")),
        (
            "Tomas Berg was Ines Duarte's husband until 2019.",
            ("Ines Duarte", "HUSBAND_OF", "Tomas Berg"),
        ),
        ("Wren became Jules's manager in May", ("Jules", "MANAGER_OF", "Wren")),
        ("Ana is Luis' wife and they live nearby", ("Luis", "WIFE_OF", "Ana")),
        ("Pia has been Ravi’s colleague since March.", ("Ravi", "COLLEAGUE_OF", "Pia")),
        ("So Edda is Bram's best friend!", ("Bram", "FRIEND_OF", "Edda")),
        ("Lena is Hiro's mother-in-law.", ("Hiro", "MOTHER_IN_LAW_OF", "Lena")),
        ("Hiro's boss, Dr. Lena Vogel, signed it.", ("Hiro", "BOSS_OF", "Dr. Lena Vogel")),
    ],
)
def test_role_statement_forms(text: str, expected: tuple[str, str, str]) -> None:
    assert _triples(text) == {expected}


def test_my_and_i_stand_for_the_speaker() -> None:
    assert _triples("Dana Whitfield is my boss.", "Caroline") == {
        ("Caroline", "BOSS_OF", "Dana Whitfield")
    }
    assert _triples("My little brother Kenji loves trains", "Caroline") == {
        ("Caroline", "BROTHER_OF", "Kenji")
    }
    assert _triples("I am Omar's roommate.", "Caroline") == {("Omar", "ROOMMATE_OF", "Caroline")}
    # nobody to stand for "my"
    assert _triples("Dana Whitfield is my boss.") == set()


@pytest.mark.parametrize(
    "text",
    [
        "She is Omar's sister.",  # a pronoun is not a name
        "It is Omar's fault.",
        "Paris is Omar's favourite city.",  # not a person's role
        "Omar's sister is nice.",
        "Omar's brother is Lena's boss.",  # a chain, not a name
        "Omar is Omar's own boss.",  # nobody else
        "Nadia is Omar's sisterly rival.",
    ],
)
def test_no_relation_without_two_names_and_a_role(text: str) -> None:
    assert _triples(text) == set()


def test_role_predicate_and_vocabulary() -> None:
    assert role_predicate("sister") == "SISTER_OF"
    assert role_predicate("co-worker") == "CO_WORKER_OF"
    assert role_predicate("Mother-in-law") == "MOTHER_IN_LAW_OF"
    for noun in (
        "wife",
        "husband",
        "mother",
        "boss",
        "manager",
        "colleague",
        "Cousins",
        "neighbour",
    ):
        assert is_person_role(noun), noun
    for noun in ("city", "car", "idea", "birthday"):
        assert not is_person_role(noun), noun


def test_capitalized_extractor_relates_the_people() -> None:
    known = EntityDictionary([Entity(id="omar", namespace="n", name="Omar Haddad", kind="Person")])
    found = CapitalizedNameExtractor().analyse("Nadia Haddad is Omar's sister.", known)
    assert [(r.source, r.predicate, r.target) for r in found.relations] == [
        ("Omar", "SISTER_OF", "Nadia Haddad")
    ]
    # the new name is a person; the known one is linked under its stored name
    assert {(m.name, m.kind) for m in found.entities} == {
        ("Omar Haddad", "Thing"),
        ("Nadia Haddad", "Person"),
    }


def test_capitalized_extractor_speaker_prefix() -> None:
    found = CapitalizedNameExtractor().analyse(
        "Caroline: my boss Dana founded it.", EntityDictionary()
    )
    assert [(r.source, r.predicate, r.target) for r in found.relations] == [
        ("Caroline", "BOSS_OF", "Dana")
    ]
    assert {m.name for m in found.entities} == {"Caroline", "Dana"}


def test_capitalized_extractor_without_a_role_has_no_relations() -> None:
    found = CapitalizedNameExtractor().analyse(
        "We hiked near Mount Hood with Jo.", EntityDictionary()
    )
    assert found.relations == ()
    assert [m.name for m in found.entities] == ["Mount Hood"]
