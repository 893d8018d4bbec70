"""Which of several like events a question picks (docs/updates.md "At recall";
graphmem.retrieval.ranking.event_order)."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.models import Memory
from graphmem.retrieval.ranking.event_order import event_first
from tests.contract.builders import make_memory


def _event(content: str, day: int) -> Memory:
    when = datetime(2025, 1, day, 9, tzinfo=UTC)
    return make_memory("ns", content, type="Event", observed_at=when, event_time=when)


def test_a_place_or_number_the_question_names_picks_the_event_that_names_it() -> None:
    """"Which race did Abebe run in Hawassa?": of two runs that embed alike, the one in
    Hawassa; "my 3 km swim": the one of 3 km. A question about the present ("Is Abebe
    still in Addis?") moves no event."""
    addis = _event("Abebe ran the Great Ethiopian Run 10K in Addis.", 20)
    hawassa = _event("Abebe ran the Hawassa Half Marathon on a hot morning.", 5)
    order, moved = event_first([addis, hawassa], "Which race did Abebe run in Hawassa?", ("abebe",))
    assert [m.id for m in order] == [hawassa.id, addis.id] and moved == [hawassa.id]
    pool = _event("Swam 1.5 km at the pool this morning.", 9)
    lake = _event("First open-water swim here: 3 km in the Oder.", 3)
    order, _ = event_first([pool, lake], "Where was my 3 km swim?")
    assert order[0].id == lake.id
    order, moved = event_first([hawassa, addis], "Is Abebe still running in Addis?", ("abebe",))
    assert moved == []


def test_without_a_cue_the_event_sharing_most_of_the_question_comes_first() -> None:
    """"What did I play at the spring recital?": of two recitals, the one that says
    "spring"; "not Cachoeira" names no Cachoeira; two that share as much keep their order."""
    spring = _event("Yesterday I played at the spring recital, Kojo no Tsuki.", 3)
    autumn = _event("The autumn recital was yesterday. I played Rokudan with the group.", 20)
    order, moved = event_first([autumn, spring], "What did I play at the spring recital?")
    assert [m.id for m in order] == [spring.id, autumn.id] and moved == [spring.id]
    there = _event("Renata danced forró all night at the festival in Cachoeira.", 4)
    lagoa = _event("Renata danced forró in Lagoa, not Cachoeira, but it'll do.", 25)
    order, _ = event_first([lagoa, there], "When did Renata dance forró in Cachoeira?", ("renata",))
    assert order[0].id == there.id
    fail = _event("Wrote the exam last Friday and I failed.", 2)
    passed = _event("I PASSED the exam on the second attempt!", 28)
    order, moved = event_first([fail, passed], "When did I take the exam?")
    assert moved == []
