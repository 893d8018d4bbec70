"""The learned order: the rules' first hits reordered by weights learned on the tune half.

The ranking rules (the semantic lead, the asked attribute first, newer over older, the
event a question picks by its time) each read one kind of evidence and act on it alone;
when two disagree, the last one to run wins, however weak its reading. Of the user-path
tune half's failures (docs/benchmarks-log.md "Twenty-third pass"), about a fifth are a
rule moving a memory above one that both the fused weight and the question's cosine
prefer: a newer claim about something else moved up for a question about the present,
a claim the word patterns misread as the asked attribute.

This step weighs that evidence together. Each of a recall's first ``depth`` hits gets a
score, a linear function of :data:`FEATURES` (its position after the rules, its cosine
to the question, every retriever's rank, its weight, which rule moved it, how recent it
is among them, its type, what its nearest labeled examples say it is about, and its
change and past-tense cues), and the hits are reordered by that score, stable on ties.
Nothing enters or leaves the list, and only its first ``depth`` hits move, so recall@k
for any k >= ``depth`` is unchanged. The weights were fitted on the tune half of the
user-path benchmark (``python -m bench.user_path.learn``: pairwise logistic loss, an
answer against every other memory in its probe's list, outdated and confusing ones
counted twice) and ship as ``learned_order.json`` beside this module.

Transcript records (dialogue turns, :func:`graphmem.language.voice.is_transcript`) are
left in the rules' order: no turn was in the data the weights were fitted on.

The score does not overrule what the rules decided on evidence it cannot weigh: a
recognised contradiction of an older claim, a triple's predicate, a claim the
asked-attribute rule moved up above one nothing reads as the asked attribute, the newer
of two such values for a question about the present (:func:`kept_above`). On by default
(setting ``learned_order_depth``, 10): on 24 people written for the check and used for
nothing else, current@1 goes from 0.880 to 0.896 (docs/updates.md "The learned order").
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from graphmem.entities import EntityDictionary
from graphmem.language.attributes import update_cue
from graphmem.language.claims import claim_of, names_agree, subject_of
from graphmem.language.endings import of_the_past, strong_ending
from graphmem.language.triples import triple_attribute
from graphmem.language.voice import is_transcript
from graphmem.models import Memory, RecallHit
from graphmem.retrieval.ranking.asked_person import about_someone_else, question_subject
from graphmem.retrieval.ranking.attribute_examples import AttributeExamples

__all__ = [
    "FEATURES", "LearnedOrder", "Question", "Reading", "features", "kept_above", "learned_order",
    "readings",
]  # fmt: skip

#: The retrievers whose reciprocal rank is a feature, in feature order.
RETRIEVERS = ("semantic", "bm25", "entity", "graph", "temporal")
#: The memory types, one indicator each.
TYPES = ("Fact", "Preference", "Event", "Relation", "Entity")
#: What ``Explanation.reordered`` says, by rule (a prefix or a phrase of it).
_RULES = (
    ("moved up: the question asks", "attribute_up"),
    ("moved down", "owner_down"),
    ("most similar", "semantic_lead"),
    ("replaced the state", "still_successor"),
    ("by its time", "event_by_time"),
)

#: Feature names, in the order of :func:`features`' columns.
FEATURES: tuple[str, ...] = (
    "first", "second", "third", "log_position",
    "cosine", "cosine_best",
    *(f"rank_{name}" for name in RETRIEVERS),
    "weight_share", "weight_gap",
    *(name for _, name in _RULES), "newer_than",
    "age_years", "newest", "present_x_age", "present_x_newest",
    *(f"type_{name}" for name in TYPES),
    "vote_asked", "lean_vote_asked", "vote_other", "lean_vote_other",
    "about_asked_person", "about_someone_else",
    "change_cue", "ending", "past", "present_x_change_cue", "present_x_past",
)  # fmt: skip

_SECONDS_PER_YEAR = 365.0 * 86400.0
_WEIGHTS = "learned_order.json"


@dataclass(frozen=True, slots=True)
class Question:
    """What the learned order reads of the question: whether it asks about the present
    (:func:`graphmem.language.questions.asks_present`), which attributes it asks for
    (:func:`graphmem.retrieval.ranking.attribute_rank.asked_attributes`), its text and
    the namespace's entities (whom it asks about; None: nobody is read)."""

    present: bool
    asked: frozenset[str]
    text: str = ""
    known: EntityDictionary | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """What the learned order reads of one memory beyond its explanation: the attribute
    its nearest labeled examples give by the full and by the weaker vote (None: none),
    and whether it is about the person the question asks about, or about someone else
    (someone close to them: :func:`~graphmem.retrieval.ranking.asked_person.about_someone_else`)."""

    vote: str | None = None
    lean_vote: str | None = None
    about_asked: bool = False
    about_other: bool = False


def features(
    hits: Sequence[RecallHit], question: Question, read: Mapping[str, Reading]
) -> np.ndarray:
    """The :data:`FEATURES` of each hit, shape ``(len(hits), len(FEATURES))``, float64.

    ``hits`` in the rules' order, best first (explanations as the ranker made them);
    ``read``: per memory id, its :class:`Reading` (:func:`readings`; a missing id reads
    as nothing known). Cosines are the semantic retriever's (name-masked) scores in
    [-1, 1], -1 where it did not return the memory.
    """
    if not hits:
        return np.zeros((0, len(FEATURES)))
    cos = [h.explanation.retrievers.get("semantic") for h in hits]
    cosines = [c.score if c is not None else -1.0 for c in cos]
    best = max(cosines)
    weights = [h.weight for h in hits]
    top_weight = max(weights) or 1.0
    seen = [h.memory.last_observed_at.timestamp() for h in hits]
    newest = max(seen)
    present = 1.0 if question.present else 0.0
    rows = []
    for i, hit in enumerate(hits):
        e, text = hit.explanation, hit.memory.content
        why = e.reordered or ""
        known = read.get(hit.memory.id, _NOTHING)
        age = (seen[i] - newest) / _SECONDS_PER_YEAR
        is_newest = 1.0 if seen[i] == newest else 0.0
        cue, past = float(update_cue(text)), float(of_the_past(text))
        rows.append(
            [
                float(i == 0), float(i == 1), float(i == 2), math.log1p(i),
                cosines[i], float(cosines[i] == best),
                *(1.0 / e.retrievers[r].rank if r in e.retrievers else 0.0 for r in RETRIEVERS),
                weights[i] / top_weight, weights[i] - top_weight,
                *(float(phrase in why) for phrase, _ in _RULES), float(e.newer_than is not None),
                age, is_newest, present * age, present * is_newest,
                *(float(hit.memory.type == t) for t in TYPES),
                *_vote_features(known.vote, known.lean_vote, question.asked),
                float(known.about_asked), float(known.about_other),
                cue, float(strong_ending(text)), past, present * cue, present * past,
            ]
        )  # fmt: skip
    return np.asarray(rows, dtype=np.float64)


def readings(
    examples: AttributeExamples | None, memories: Sequence[Memory], question: Question
) -> dict[str, Reading]:
    """Each memory's :class:`Reading` for ``question``. The votes come from the examples'
    per-memory cache (one matrix product for the memories not read before; none without
    examples); whom a memory is about, from the namespace's entities ``question.known``
    (nothing without them, or when the question names nobody)."""
    full = examples.votes(memories) if examples is not None else {}
    lean = examples.votes(memories, lean=True) if examples is not None else {}
    known = question.known
    asked = question_subject(question.text, known) if known is not None else None
    out = {}
    for m in memories:
        mine = other = False
        if asked is not None and known is not None:
            other = about_someone_else(m, asked, known)
            words = subject_of(claim_of(m, known))
            mine = not other and words is not None and names_agree(words, asked)
        out[m.id] = Reading(full.get(m.id), lean.get(m.id), mine, other)
    return out


_NOTHING = Reading()


def _vote_features(full: str | None, lean: str | None, asked: frozenset[str]) -> list[float]:
    """Whether each vote names an asked attribute, and whether it names another one."""
    return [
        float(full in asked),
        float(lean in asked),
        float(bool(asked) and full is not None and full not in asked),
        float(bool(asked) and lean is not None and lean not in asked),
    ]


def kept_above(
    hits: Sequence[RecallHit], question: Question, read: Mapping[str, Reading]
) -> list[set[int]]:
    """What the rules decided on evidence the features cannot outweigh, which the learned
    order keeps: per position in ``hits`` (the rules' order), the positions above it that
    must stay above (docs/spec.md "Learned order").

    1. A newer claim the newer-over-older rule moved above an older one it contradicts
       (``Explanation.newer_than``), for a question that does not ask about the present
       (there the rule moves only on a recognised conflict; for the present, the
       question alone may decide, and the learned order weighs that move).
    2. A claim whose triple's predicate names an asked attribute (the agent said what it
       states), above a claim whose does not.
    3. A claim the asked-attribute rule moved up, above one that nothing reads as stating
       an asked attribute (no rule, predicate or nearest-examples vote).
    4. For a question about the present, a claim the asked-attribute rule moved up above
       an older claim it also moved up (the newer value of the asked attribute).

    Each pair keeps the rules' order, so the constraints hold together.
    """
    asked = question.asked
    ids = {h.memory.id: i for i, h in enumerate(hits)}
    up = [_UP in (h.explanation.reordered or "") for h in hits]
    said = [_said(h.memory, asked) for h in hits]
    unread = [
        not (up[i] or said[i] or _voted(read.get(h.memory.id), asked)) for i, h in enumerate(hits)
    ]
    seen = [h.memory.last_observed_at for h in hits]
    above: list[set[int]] = [set() for _ in hits]
    for j, hit in enumerate(hits):
        for i in range(j):
            newer = question.present and up[j] and seen[i] > seen[j]
            if (said[i] and not said[j]) or (up[i] and (unread[j] or newer)):
                above[j].add(i)
        older = ids.get(hit.explanation.newer_than or "")
        if older is not None and j < older and not question.present:
            above[older].add(j)
    return above


_UP = _RULES[0][0]  # the asked-attribute rule's phrase in ``Explanation.reordered``


def _said(memory: Memory, asked: frozenset[str]) -> bool:
    given = triple_attribute(memory.predicate, memory.object)
    return given is not None and given.key in asked


def _voted(known: Reading | None, asked: frozenset[str]) -> bool:
    return known is not None and (known.vote in asked or known.lean_vote in asked)


def _constrained(scores: np.ndarray, above: Sequence[set[int]]) -> list[int]:
    """Positions by descending score (stable on ties), each placed only after every
    position in its ``above`` set."""
    placed: set[int] = set()
    out: list[int] = []
    while len(out) < len(scores):
        free = [j for j in range(len(scores)) if j not in placed and above[j] <= placed]
        best = min(free, key=lambda j: (-scores[j], j))
        out.append(best)
        placed.add(best)
    return out


@dataclass(frozen=True, slots=True)
class LearnedOrder:
    """Weights over :data:`FEATURES` (shape ``(len(FEATURES),)``) and where they came from."""

    weights: np.ndarray
    trained_on: str

    @classmethod
    def shipped(cls) -> LearnedOrder | None:
        """The weights shipped beside this module; None when the file is absent or was
        fitted on another feature list (the step is then off)."""
        return _shipped()

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """One score per row of :func:`features`' output (higher: earlier)."""
        return np.asarray(rows @ self.weights, dtype=np.float64)


@lru_cache(maxsize=1)
def _shipped() -> LearnedOrder | None:
    source = resources.files("graphmem.retrieval.ranking").joinpath(_WEIGHTS)
    if not source.is_file():
        return None
    data = json.loads(source.read_text(encoding="utf-8"))
    if tuple(data.get("features", ())) != FEATURES:
        return None
    return LearnedOrder(np.asarray(data["weights"], dtype=np.float64), str(data["trained_on"]))


def learned_order(
    hits: Sequence[RecallHit],
    memories: Sequence[Memory],
    question: Question,
    weigh: tuple[AttributeExamples | None, LearnedOrder | None],
    depth: int,
) -> list[RecallHit]:
    """``hits`` with their first ``depth`` reordered by the model's score (stable on ties).

    ``memories``: the hits' memories in the same order, with their embeddings (for the
    examples' vote: :func:`readings`); ``weigh``: the labeled examples and the model.
    Unchanged when the model is None, ``depth`` < 2, or a transcript record is among the
    first ``depth``. Each moved hit's explanation gets ``learned`` (its score and the
    position the rules gave it, and the rules' positions of the hits :func:`kept_above`
    held above it against its score) for ``recall --explain``.
    """
    examples, model = weigh
    head = list(hits[:depth])
    if model is None or len(head) < 2:
        return list(hits)
    if any(is_transcript(h.memory.extractor, h.memory.content) for h in head):
        return list(hits)
    read = readings(examples, memories[:depth], question)
    scores = model.scores(features(head, question, read))
    above = kept_above(head, question, read)
    order = _constrained(scores, above)
    out = []
    for place, i in enumerate(order):
        hit = head[i]
        held = sorted(k + 1 for k in above[i] if scores[k] < scores[i])
        if place != i or held:
            note = f"learned order: score {scores[i]:.2f}, rule order {i + 1}"
            if held:  # the score wanted it higher: a pair the rules decided held it
                note += f"; kept below rule order {', '.join(map(str, held))}"
            hit = hit.model_copy(
                update={"explanation": hit.explanation.model_copy(update={"learned": note})}
            )
        out.append(hit)
    return out + list(hits[depth:])
