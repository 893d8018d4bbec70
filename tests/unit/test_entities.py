"""Entity resolution and query linking (SPEC §2.12, §3): names, aliases, possessives, first names."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from graphmem.entities import (
    EntityDictionary,
    LinkConfidences,
    resolve_mentions,
    user_by_later_name,
)
from graphmem.extract import CapitalizedNameExtractor
from graphmem.models import Entity, EntityMention
from graphmem.retrieval.ranking.attribute_rank import question_subject
from graphmem.settings import Settings
from graphmem.text import entity_id

# link confidences of the default settings (docs/configuration.md, read.planning.link_*)
LINK_EXACT, LINK_ALIAS, LINK_FIRST_NAME = 1.0, 0.95, 0.9


def _dictionary(settings: Settings | None = None) -> EntityDictionary:
    links = LinkConfidences.from_settings(settings or Settings())
    return EntityDictionary(
        [
            Entity(id="e-car", namespace="n", name="Caroline Smith", aliases=("Caro",)),
            Entity(id="e-mel", namespace="n", name="Melanie", aliases=("Mel",)),
            Entity(id="e-nyc", namespace="n", name="New York City", aliases=("NYC",)),
        ],
        links,
    )


def test_links_names_aliases_possessives_first_names() -> None:
    links = {
        link.entity_id: link
        for link in _dictionary().link("Did Caroline's friend Mel visit New York City?")
    }
    assert links["e-car"].confidence == LINK_FIRST_NAME  # first name of a multi-word name
    assert links["e-car"].surface == "Caroline"  # the possessive is not part of the name
    assert links["e-mel"].confidence == LINK_ALIAS
    assert links["e-nyc"].confidence == LINK_EXACT  # longest match wins over "New"
    assert set(links) == {"e-car", "e-mel", "e-nyc"}


def test_link_confidences_are_settings() -> None:
    # read.planning.link_*: a first name linked below the alias confidence still resolves a
    # one-word person mention to that person; the order first name <= alias <= exact holds
    settings = Settings(link_exact=0.99, link_alias=0.8, link_first_name=0.7)
    links = {
        link.entity_id: link.confidence
        for link in _dictionary(settings).link("Did Caroline's friend Mel visit New York City?")
    }
    assert links == {"e-car": 0.7, "e-mel": 0.8, "e-nyc": 0.99}
    resolved, _ = resolve_mentions(
        "n", [EntityMention(name="Caroline", kind="Person")], _dictionary(settings)
    )
    assert [ident for ident, _ in resolved] == ["e-car"]
    with pytest.raises(ValidationError, match="link_first_name <= link_alias"):
        Settings(link_alias=0.8, link_first_name=0.9)


def test_no_link_for_unknown_names() -> None:
    assert _dictionary().link("What did Bob do?") == []


def test_resolution_uses_existing_or_uuid5() -> None:
    known = _dictionary()
    resolved, changed = resolve_mentions(
        "n", [EntityMention(name="mel", aliases=("Melly",)), EntityMention(name="Dana Park")], known
    )
    assert [ident for ident, _ in resolved] == ["e-mel", entity_id("Dana Park")]
    names = {e.name: e for e in changed}
    assert names["Melanie"].aliases == ("Mel", "Melly")  # the new alias was added
    assert "Dana Park" in names
    assert known.resolve("melly") == ("e-mel", LINK_ALIAS)


def test_default_extractor_links_known_and_proposes_multiword() -> None:
    found = CapitalizedNameExtractor().extract(
        "Yesterday Mel and I hiked Mount Hood.", _dictionary()
    )
    assert {m.name for m in found} == {"Melanie", "Mount Hood"}


def _link_every_ngram(known: EntityDictionary, text: str) -> list[tuple[str, str, float]]:
    """The linking rule spelled out: at each word, the longest n-gram (up to 5 words)
    that resolves, no overlaps, one link per entity at its best confidence."""
    words = re.findall(r"[\w][\w'’.-]*", text)
    found: dict[str, tuple[str, str, float]] = {}
    i = 0
    while i < len(words):
        step = 1
        for size in range(min(5, len(words) - i), 0, -1):
            surface = " ".join(words[i : i + size])
            hit = known.resolve(surface.rstrip(".,"))
            if hit is not None:
                if hit[0] not in found or hit[1] > found[hit[0]][2]:
                    # the link's surface is the name without a possessive ("Ada's" → "Ada")
                    name = re.sub(r"['’]s?$", "", surface.rstrip(".,")) or surface
                    found[hit[0]] = (hit[0], name, hit[1])
                step = size
                break
        i += step
    return list(found.values())


_NAMES = ["Ada Lovelace", "Ada", "Bank of America", "Mount Hood", "Ben", "New York City", "Cleo"]
_WORDS = [*" ".join(_NAMES).split(), "the", "went", "to", "Ada's", "Hood.", "of", "city,", "ＡＤＡ"]


@given(st.lists(st.sampled_from(_WORDS), max_size=30))
def test_link_matches_the_every_ngram_rule(words: list[str]) -> None:
    known = EntityDictionary(
        [
            Entity(
                id=f"e{i}", namespace="ns", name=name, aliases=("NYC",) if "York" in name else ()
            )
            for i, name in enumerate(_NAMES)
        ]
    )
    text = " ".join(words)
    got = [(link.entity_id, link.surface, link.confidence) for link in known.link(text)]
    assert got == _link_every_ngram(known, text)


def test_first_name_alias_only_for_people() -> None:
    known = EntityDictionary(
        [
            Entity(id="p", namespace="n", name="Priya Raman", kind="Person"),
            Entity(id="o", namespace="n", name="Lumen Labs", kind="Organization"),
        ]
    )
    assert known.resolve("Priya") == ("p", LINK_FIRST_NAME)
    assert known.resolve("Lumen") is None  # an organisation's first word is not its name


def test_people_follow_every_add() -> None:
    known = EntityDictionary([Entity(id="z", namespace="n", name="Zoe Park", kind="Person")])
    assert known.people() == ["Zoe Park"]
    known.people().append("not kept")  # callers get a copy
    known.add(Entity(id="a", namespace="n", name="Arlo Diaz", kind="person"))
    known.add(Entity(id="l", namespace="n", name="Lumen Labs", kind="Organization"))
    assert known.people() == ["Arlo Diaz", "Zoe Park"]
    known.add(Entity(id="z", namespace="n", name="Zoe Park", kind="Organization"))
    assert known.people() == ["Arlo Diaz"]


def test_capitalized_fallback_skips_interjections_pronouns_and_time_words() -> None:
    extractor = CapitalizedNameExtractor()
    for text in ("So I'm Going", "Thanks Mel", "Last Friday was fun", "Hey Jo", "Happy Birthday"):
        names = {m.name for m in extractor.extract(text, EntityDictionary())}
        assert names == set(), (text, names)
    found = extractor.extract("Thanks Mel Gibson, see you at Bank of America", EntityDictionary())
    assert {m.name for m in found} == {"Mel Gibson", "Bank of America"}


def test_title_abbreviation_keeps_one_name() -> None:
    """Issue 10 item 5 / issue 12: "St. Mary's Hospital" is one entity, never "Mary's Hospital"."""
    found = CapitalizedNameExtractor().extract(
        "I was born at St. Mary's Hospital in 1990.", EntityDictionary()
    )
    assert [m.name for m in found] == ["St. Mary's Hospital"]


def test_a_shorter_form_of_a_persons_name_is_that_person() -> None:
    user = Entity(
        id="e-user", namespace="n", name="Lucía Mamani Quispe", kind="Person", aliases=("User",)
    )
    other = Entity(id="e-ana", namespace="n", name="Ana Paula Souza", kind="Person")
    known = EntityDictionary([user, other])
    resolved, _ = resolve_mentions(
        "n",
        [
            EntityMention(name="Lucía Mamani", kind="Person"),  # first name and a surname
            EntityMention(name="Ana Souza", kind="Person"),
            EntityMention(name="Quispe", kind="Person"),  # a later word of the user's name
            EntityMention(name="Lucía Ortega", kind="Person"),  # another surname: someone else
            EntityMention(name="Souza", kind="Person"),  # not the user's: unsure
        ],
        known,
    )
    assert [ident for ident, _ in resolved] == [
        "e-user",
        "e-ana",
        "e-user",
        entity_id("Lucía Ortega"),
        entity_id("Souza"),
    ]


def test_a_vietnamese_given_name_alone_is_the_user() -> None:
    user = Entity(
        id="e-user", namespace="n", name="Mai Thị Hương", kind="Person", aliases=("User",)
    )
    known = EntityDictionary([user])
    resolved, _ = resolve_mentions("n", [EntityMention(name="Hương", kind="Person")], known)
    assert resolved[0][0] == "e-user"
    assert known.resolve("Hương") == ("e-user", known.links.alias)  # kept as an alias


def test_a_question_naming_the_user_by_a_later_name_asks_about_the_user() -> None:
    """"Which city does Khoa live in now?" asks about the user Phạm Minh Khoa, whose
    statements all said "User …" (no alias was ever made); "Phạm", which his father's
    name has too, names nobody."""
    user = Entity(id="u", namespace="n", name="Phạm Minh Khoa", kind="Person", aliases=("User",))
    father = Entity(id="f", namespace="n", name="Phạm Văn Lộc", kind="Person")
    known = EntityDictionary([user, father])
    assert question_subject("Which city does Khoa live in now?", known) == ("phạm", "minh", "khoa")
    assert user_by_later_name(known, "Phạm") is None
    assert user_by_later_name(known, "Lộc") is None  # a later word, but not the user's


def test_a_hyphenated_first_name_is_called_by_its_initials() -> None:
    """"JF" is Jean-François Tremblay (a question "Where does JF live now?" asks about
    him); initials that spell a word ("ME" for Marie-Ève) and unhyphenated names link
    nothing."""
    known = EntityDictionary(
        [
            Entity(id="jf", namespace="n", name="Jean-François Tremblay", kind="Person"),
            Entity(id="me", namespace="n", name="Marie-Eve Roy", kind="Person"),
            Entity(id="as", namespace="n", name="Anna Smith", kind="Person"),
        ]
    )
    assert known.resolve("JF") == ("jf", LINK_FIRST_NAME)
    assert [link.entity_id for link in known.link("Where does JF live now?")] == ["jf"]
    assert known.resolve("ME") is None
    assert known.resolve("AS") is None


def test_a_question_asks_about_the_person_it_names_before_a_place() -> None:
    """"Which part of Lisbon does Tomás live in?" asks about Tomás, not Lisbon;
    "Flying to Oslo — which pills must I pack?" about the user; "Where do we live now?"
    names nobody but speaks for the user and those with them."""
    user = Entity(id="u", namespace="n", name="Rita Alves", kind="Person", aliases=("User",))
    tomas = Entity(id="t", namespace="n", name="Tomás", kind="Person")
    lisbon = Entity(id="l", namespace="n", name="Lisbon", kind="Place")
    oslo = Entity(id="o", namespace="n", name="Oslo", kind="Place")
    known = EntityDictionary([user, tomas, lisbon, oslo])
    assert question_subject("Which part of Lisbon does Tomás live in?", known) == ("tomás",)
    assert question_subject("Flying to Oslo - which pills must I pack?", known) == (
        "rita",
        "alves",
    )
    assert question_subject("Where do we live now?", known) == ("rita", "alves")
    assert question_subject("Best time to visit the US?", known) is None  # not "us"
    assert question_subject("What is Lisbon like in May?", known) == ("lisbon",)
    # a person the extractor typed as an organisation still comes first after "with"
    seun = Entity(id="s", namespace="n", name="Seun", kind="Organization")
    known = EntityDictionary([user, seun])
    assert question_subject("Dinner with Seun on Friday, should I order him a beer?", known) == (
        "seun",
    )
