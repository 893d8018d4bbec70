"""A newer claim outranks the older claim it contradicts (graphmem.retrieval.ranking.currency)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from graphmem.language.claims import Claim, subject_of
from graphmem.retrieval.ranking.currency import prefer_newer, same_slot

OLD = datetime(2025, 1, 1, tzinfo=UTC)
NEW = datetime(2025, 6, 1, tzinfo=UTC)

CLAIMS = {
    "oslo": Claim("Nia lives in Oslo"),
    "seats": Claim("Nia prefers window seats"),
    "bergen": Claim("Nia lives in Bergen now"),
    "tea": Claim("Nia likes green tea"),
}
WHEN = {"oslo": OLD, "seats": OLD, "bergen": NEW, "tea": OLD}


def test_the_newer_contradicting_claim_moves_directly_above_the_older() -> None:
    close = {"oslo": 0.70, "seats": 0.40, "bergen": 0.66, "tea": 0.30}
    order, moved = prefer_newer(
        ["oslo", "seats", "bergen", "tea"], CLAIMS, WHEN, close, margin=0.05
    )
    assert order == ["bergen", "oslo", "seats", "tea"]
    assert moved == {"bergen": "oslo"}


def test_a_newer_claim_that_answers_the_question_worse_stays_below() -> None:
    close = {"oslo": 0.70, "seats": 0.68, "bergen": 0.60}  # bergen 0.10 below oslo
    order, moved = prefer_newer(["oslo", "seats", "bergen"], CLAIMS, WHEN, close, margin=0.05)
    assert order == ["oslo", "seats", "bergen"] and moved == {}


def test_an_older_claim_never_moves_up() -> None:
    when = {"oslo": NEW, "bergen": OLD}
    close = {"oslo": 0.60, "bergen": 0.70}
    order, moved = prefer_newer(["oslo", "bergen"], CLAIMS, when, close, margin=0.5)
    assert order == ["oslo", "bergen"] and moved == {}


def test_a_restatement_is_not_a_contradiction() -> None:
    claims = {"oslo": Claim("Nia lives in Oslo"), "again": Claim("Nia lives in Oslo.")}
    when = {"oslo": OLD, "again": NEW}
    order, moved = prefer_newer(
        ["oslo", "again"], claims, when, {"oslo": 0.7, "again": 0.7}, margin=0.5
    )
    assert order == ["oslo", "again"] and moved == {}


def test_another_subject_is_not_a_contradiction() -> None:
    claims = {"nia": Claim("Nia lives in Oslo"), "ove": Claim("Ove lives in Bergen")}
    when = {"nia": OLD, "ove": NEW}
    order, moved = prefer_newer(["nia", "ove"], claims, when, {"nia": 0.7, "ove": 0.7}, margin=0.1)
    assert order == ["nia", "ove"] and moved == {}


def test_memories_without_a_claim_neither_move_nor_are_moved_past() -> None:
    # verbatim source text (a dialogue turn) is not one claim: the pipeline leaves it out
    close = {"oslo": 0.70, "bergen": 0.70}
    claims = {"bergen": CLAIMS["bergen"]}
    order, moved = prefer_newer(["oslo", "bergen"], claims, WHEN, close, margin=0.05)
    assert order == ["oslo", "bergen"] and moved == {}


def test_a_claim_that_only_names_the_subject_is_about_someone_else() -> None:
    # "Ines works with Nia" is about Ines: it states nothing of Nia's partner (the old
    # rule took any shared name for one subject and moved it above the older claim)
    claims = {
        "partner": Claim("Nia is dating Ravi", names=("Nia", "Ravi")),
        "coworker": Claim("Ines works with Nia", names=("Ines", "Nia")),
    }
    when = {"partner": OLD, "coworker": NEW}
    close = {"partner": 0.62, "coworker": 0.61}
    order, moved = prefer_newer(["partner", "coworker"], claims, when, close, margin=0.05)
    assert order == ["partner", "coworker"] and moved == {}


def test_the_subject_is_the_first_given_name_the_text_names() -> None:
    assert subject_of(Claim("Tests showed Nia is not allergic to latex", names=("Nia",))) == (
        "nia",
    )
    assert subject_of(Claim("Ines works with Nia", names=("Nia", "Ines"))) == ("ines",)
    assert subject_of(Claim("Nia's birthday is on 3 May")) == ("nia",)  # the opening name
    assert subject_of(Claim("x", subject="Nia Berg")) == ("nia", "berg")


def test_two_predicates_are_two_slots() -> None:
    lives = Claim("Nia lives in Oslo", subject="Nia", predicate="lives_in", object="Oslo")
    works = Claim("Nia works in Bergen", subject="Nia", predicate="works_in", object="Bergen")
    moved = Claim("Nia lives in Bergen", subject="Nia", predicate="lives in", object="Bergen")
    assert not same_slot(lives, works)
    assert same_slot(lives, moved)


def test_near_duplicate_claims_need_no_help_from_the_question() -> None:
    # "Is Nia vegan?" matches the short old claim 0.12 better than the negation, but the
    # two claims are each other's nearest (cosine 0.9 >= near): the newer one wins
    claims = {"vegan": Claim("Nia is vegan"), "not": Claim("Nia is not vegan anymore")}
    when = {"vegan": OLD, "not": NEW}
    close = {"vegan": 0.80, "not": 0.68}
    vectors = {
        "vegan": np.array([1.0, 0.0], dtype=np.float32),
        "not": np.array([0.9, np.sqrt(1 - 0.81)], dtype=np.float32),
    }
    order, moved = prefer_newer(
        ["vegan", "not"], claims, when, close, margin=0.05, vectors=vectors, near=0.75
    )
    assert order == ["not", "vegan"] and moved == {"not": "vegan"}
    order, moved = prefer_newer(
        ["vegan", "not"], claims, when, close, margin=0.05, vectors=vectors, near=0.95
    )
    assert order == ["vegan", "not"] and moved == {}


def test_two_claims_that_name_no_attribute_are_not_two_values_of_one() -> None:
    # "I still drive a little red Fiesta" is not an update of "I've kept racing pigeons
    # since I was a boy": no attribute ties them, so the question cannot decide it
    claims = {
        "pigeons": Claim("I've kept racing pigeons since I was a boy.", user="Gareth"),
        "fiesta": Claim("I still drive, a little red Fiesta, up to the club.", user="Gareth"),
    }
    when = {"pigeons": OLD, "fiesta": NEW}
    close = {"pigeons": 0.25, "fiesta": 0.22}
    order, moved = prefer_newer(["pigeons", "fiesta"], claims, when, close, margin=0.05)
    assert order == ["pigeons", "fiesta"] and moved == {}


def test_a_question_about_the_present_prefers_the_newer_claim_of_the_same_subject() -> None:
    # no attribute the patterns know, no conflict the compatibility rule sees: only the
    # question's "these days" says that the newer one is wanted
    claims = {
        "old": Claim("I teach maths at Abhinav Vidyalaya, classes nine and ten.", user="Asha"),
        "new": Claim(
            "I'm vice principal from this term, though I kept one maths section.", user="Asha"
        ),
    }
    when = {"old": datetime(2025, 1, 1, tzinfo=UTC), "new": datetime(2025, 9, 1, tzinfo=UTC)}
    close = {"old": 0.52, "new": 0.50}
    assert prefer_newer(["old", "new"], claims, when, close, margin=0.05)[0] == ["old", "new"]
    order, moved = prefer_newer(["old", "new"], claims, when, close, margin=0.05, present=True)
    assert order == ["new", "old"] and moved == {"new": "old"}
    # a newer claim that answers the question much worse stays below
    far = {"old": 0.52, "new": 0.30}
    assert prefer_newer(["old", "new"], claims, when, far, margin=0.05, present=True)[0] == [
        "old",
        "new",
    ]
    # two events are two events, whatever the question
    events = {
        "old": Claim("Lena ran 5 km on Monday.", names=("Lena",)),
        "new": Claim("Lena ran 8 km on Wednesday.", names=("Lena",)),
    }
    assert prefer_newer(["old", "new"], events, when, close, margin=0.05, present=True)[0] == [
        "old",
        "new",
    ]


def _unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_a_newer_claim_saying_nearly_the_same_thing_moves_up_however_the_question_fits() -> None:
    close = {"oslo": 0.70, "seats": 0.68, "bergen": 0.40}  # bergen 0.30 below oslo
    masked = {"oslo": _unit(1.0, 0.0), "bergen": _unit(1.0, 1.0)}  # cosine 0.707
    args = (["oslo", "seats", "bergen"], CLAIMS, WHEN, close)
    order, moved = prefer_newer(*args, margin=0.05, related_vectors=masked, masked_near=0.5)
    assert order == ["bergen", "oslo", "seats"] and moved == {"bergen": "oslo"}
    # below masked_near (0.707 < 0.8), the question's margin decides again
    order, moved = prefer_newer(*args, margin=0.05, related_vectors=masked, masked_near=0.8)
    assert order == ["oslo", "seats", "bergen"] and moved == {}


def test_a_newer_claim_about_another_attribute_stays_below_for_a_question_asking_one() -> None:
    # "Which hospital am I working at these days?": the newer job title moved above the
    # employer the question asks for (a question about the present lets any newer claim
    # of the same subject that fits it nearly as well move up)
    claims = {
        "job": Claim("Took the ICU job at the university hospital in Wrocław!", user="Kasia"),
        "title": Claim("As of this month I'm charge nurse on ICU nights.", user="Kasia"),
    }
    when = {"job": OLD, "title": NEW}
    close = {"job": 0.55, "title": 0.52}
    args = (["job", "title"], claims, when, close)
    order, moved = prefer_newer(*args, margin=0.05, present=True)
    assert order == ["title", "job"]  # nothing asked: what holds now comes first
    order, moved = prefer_newer(*args, margin=0.05, present=True, asked=frozenset({"employer"}))
    assert order == ["job", "title"] and moved == {}
    # asked for the job title, the newer title still moves up
    order, moved = prefer_newer(*args, margin=0.05, present=True, asked=frozenset({"job_title"}))
    assert order == ["title", "job"] and moved == {"title": "job"}


def test_an_ending_moves_only_above_a_claim_it_ends() -> None:
    claims = {
        "sister": Claim("Lucía has one older sister, Rosa.", names=("Lucía", "Rosa")),
        "dance": Claim("Lucía dances morenada with a fraternidad.", names=("Lucía",)),
        "quit": Claim("Lucía isn't dancing with the fraternidad anymore.", names=("Lucía",)),
    }
    when = {"sister": OLD, "dance": OLD, "quit": NEW}
    close = {"sister": 0.30, "dance": 0.28, "quit": 0.27}
    order, moved = prefer_newer(["sister", "dance", "quit"], claims, when, close, margin=0.15)
    assert order == ["sister", "quit", "dance"]  # above the dancing it ends, not the sister
    assert moved == {"quit": "dance"}


def test_a_newer_claim_about_the_past_is_no_answer_to_now() -> None:
    # "in Stockholm I taught at Norra Real" corrects an old job; for "Where do I live
    # now?" it does not rank above the move it shares nothing with
    claims = {
        "a": Claim("We've moved to Umeå! Got here in August.", user="Emma Lind", people=()),
        "b": Claim(
            "Got my old school wrong: in Stockholm I taught at Norra Real.",
            user="Emma Lind",
            people=(),
        ),
    }
    when = {"a": datetime(2025, 1, 1, tzinfo=UTC), "b": datetime(2025, 6, 1, tzinfo=UTC)}
    order, moved = prefer_newer(
        ["a", "b"], claims, when, {"a": 0.6, "b": 0.6}, margin=0.05, present=True,
        asked=frozenset({"residence"}),
    )  # fmt: skip
    assert (order, moved) == (["a", "b"], {})


def test_a_value_named_as_wrong_negates_only_the_claim_that_holds_it() -> None:
    """"…, not Casa Odile" says which name is wrong: no conflict with the kiwi claim, above
    which it used to move as a negation flip."""
    claims = {
        "kiwi": Claim("Anything with kiwi is off-limits for Odile - she reacts to the fruit and the skin alike."),
        "fix": Claim("Correction: Odile's café is called Le Comptoir, not Casa Odile - she changed the name."),
    }
    close = {"kiwi": 0.5, "fix": 0.5}
    order, moved = prefer_newer(["kiwi", "fix"], claims, {"kiwi": OLD, "fix": NEW}, close, margin=0.05)
    assert order == ["kiwi", "fix"] and moved == {}
