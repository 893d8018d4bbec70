"""The deletion-and-cascade probe of the lifecycle benchmark (SPEC §9.16;
``docs/forgetting.md``), in the spirit of MEME's deletion and cascade tasks.

Per person of the lifecycle scenarios, in its own namespace ``forget-<mode>-<id>``:
ingest session by session (as :mod:`bench.lifecycle.runner` does), ask every
current fact's direct question, then forget, one after the other:

1. **a fact**: the current memory of the person's city, with its history
   (``forget_memory``): every city statement of the person must be gone;
2. **a pet**: the pet's entity with the memories that name it
   (``forget_entity(include_mentions=True)``);
3. **a person**: the first other person of the timeline (a sibling, a coworker), with
   the memories that name them.

Then every question again. Metrics (shares in [0, 1]):

- ``deleted_returned``: questions about forgotten statements (their direct questions
  and the probes they answer) where any forgotten statement's text comes back in the
  top ``K`` — history included (target 0); also per task. A fact's history is what
  supersession links: an earlier value the write pipeline did not recognise as
  replaced (plain mode, no triple) is a separate current memory and is counted here
  when it comes back;
- ``kept_before`` / ``kept_after``: current facts not forgotten whose memory is in the
  top 3 for their direct question, before and after the forgets (target: equal);
- per task, the memories each forget removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from bench.lifecycle.runner import K, Mode, PersonRun, SettableClock
from bench.lifecycle.scenarios import Person, Statement
from graphmem.errors import InvalidInputError, MemoryNotFoundError
from graphmem.memory import GraphMem

TASKS = ("fact", "pet", "person")
Progress = Callable[[str, int, int], None]

__all__ = ["TASKS", "run_forgetting"]


def _names(statement: Statement) -> set[str]:
    return {e["name"] for e in statement.entities}


def _targets(person: Person) -> dict[str, tuple[str, list[Statement]]]:
    """Per task: what is forgotten (a statement id or an entity name) and the statements
    that must be gone afterwards."""
    own = [s for s in person.statements if s.about == person.first_name]
    city = [s for s in own if s.slot == "city"]
    pets = [s for s in own if s.slot == "pet"]
    pet = next((e["name"] for s in pets for e in s.entities if e["role"] == "object"), None)
    other = next((s.about for s in person.statements if s.about != person.first_name), None)
    out: dict[str, tuple[str, list[Statement]]] = {}
    if city:
        out["fact"] = (city[-1].id, city)
    if pet is not None:
        out["pet"] = (pet, [s for s in person.statements if pet in _names(s)])
    if other is not None:
        gone = [s for s in person.statements if s.about == other or other in _names(s)]
        out["person"] = (other, gone)
    return out


class _ForgetRun(PersonRun):
    """One person's namespace for the probe."""

    def returned(self, question: str, texts: set[str]) -> bool:
        result = self.memory.recall(
            self.ns, question, k=K, record_access=False, include_history=True
        )
        return any(h.memory.content in texts for h in result.hits)

    def kept_top3(self, statements: list[Statement]) -> tuple[int, int]:
        found = 0
        for s in statements:
            top = self.ask(s.question, record=False)[:3]
            found += any(m in self.current_memories(s.id) for m in top)
        return found, len(statements)

    def forget(self, task: str, target: str) -> int:
        """Run one task's forget; the memories it removed (0 when its target is already
        gone with an earlier task)."""
        try:
            if task == "fact":
                memory_id = self.memory_of.get(target)
                if memory_id is None:
                    return 0
                return self.memory.forget_memory(self.ns, memory_id).memories
            return self.memory.forget_entity(self.ns, target, include_mentions=True).memories
        except (InvalidInputError, MemoryNotFoundError):
            return 0


def run_forgetting(
    memory: GraphMem,
    clock: SettableClock,
    people: Iterable[Person],
    mode: Mode,
    *,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the probe for one mode (see the module docstring); the namespaces are deleted
    at the end. Returns ``{"mode", "people", "deleted_returned": [n, d],
    "kept_before": [n, d], "kept_after": [n, d], "returned_by_task": {task: [n, d]},
    "forgotten": {task: memories},
    "returned": [{"person", "task", "question"}, ...]}``."""
    people = list(people)
    totals = {"deleted_returned": [0, 0], "kept_before": [0, 0], "kept_after": [0, 0]}
    forgotten = dict.fromkeys(TASKS, 0)
    by_task = {task: [0, 0] for task in TASKS}
    returned: list[dict[str, str]] = []
    tick = progress or (lambda _phase, _n, _total: None)
    for person in people:
        run = _ForgetRun(memory, clock, person, mode)
        run.ns = f"forget-{mode}-{person.id}"
        run.run_ingest()
        clock.now = person.sessions[-1].at + timedelta(hours=1)
        targets = _targets(person)
        gone = {s.id for _, statements in targets.values() for s in statements}
        kept = [s for s in run.direct_facts() if s.id not in gone]
        _add(totals["kept_before"], run.kept_top3(kept))
        for task in TASKS:
            if task in targets:
                forgotten[task] += run.forget(task, targets[task][0])
        _add(totals["kept_after"], run.kept_top3(kept))
        for task, (_, statements) in targets.items():
            texts = {s.content for s in statements}
            ids = {s.id for s in statements}
            questions = [s.question for s in statements]
            questions += [p.question for p in person.probes if ids & set(p.answer)]
            for question in dict.fromkeys(questions):
                hit = run.returned(question, texts)
                _add(totals["deleted_returned"], (int(hit), 1))
                _add(by_task[task], (int(hit), 1))
                if hit:
                    returned.append({"person": person.id, "task": task, "question": question})
        memory.delete_namespace(run.ns)
        tick(f"forget {mode}", 1, len(people))
    return {
        "mode": mode,
        "people": len(people),
        **totals,
        "returned_by_task": by_task,
        "forgotten": forgotten,
        "returned": returned,
    }


def _add(total: list[int], pair: tuple[int, int]) -> None:
    total[0] += pair[0]
    total[1] += pair[1]
