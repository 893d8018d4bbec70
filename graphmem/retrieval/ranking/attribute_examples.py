"""The attribute a claim states, read from labeled examples (docs/updates.md "Nearest
examples").

The lexical rules (:mod:`graphmem.language.attributes`) read the wordings they were
written for; "We've packed up and we're in Sheffield now" or "Mehmet handed in his taxi
plate and opened a café" are not among them. Recall also asks each claim's nearest
labeled examples: 720 claims, each with the attribute it is about
(``graphmem/language/attribute_claims.jsonl``, written for this and not taken from any
benchmark). The ``k`` nearest examples by cosine vote with their cosine; the winning
attribute is taken when its share of the vote is at least ``min_share`` and its nearest
example has a cosine of at least ``min_cosine``. "none" (an event, a plan, a relative's
name) is an attribute like the others: a claim nearest to events gets no attribute.

For the default model the examples' vectors ship with the package
(``attribute_examples.npz``, float16, written by ``python -m
graphmem.retrieval.ranking.attribute_examples`` and checked against the file's SHA-256);
another model embeds them into the persistent vector cache at its first write
(:func:`warm_examples`).
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources

import numpy as np

from graphmem.language.questions import WORK
from graphmem.models import Memory
from graphmem.retrieval.rescoring.masked_vectors import MaskedEmbeddings
from graphmem.settings import Settings
from graphmem.store.base import Vector

__all__ = ["AttributeExamples", "Vote", "votes_on", "warm_examples"]

NONE_LABEL = "none"
#: How many memories' votes a process keeps before it starts over (a few MB at most).
_VOTES_KEPT = 50_000


@dataclass(frozen=True, slots=True)
class Vote:
    """What the nearest examples say: ``key`` (None when no attribute wins or "none"
    does), the winner's share of the vote in [0, 1], and its nearest example (text,
    cosine in [-1, 1])."""

    key: str | None
    share: float
    example: str
    cosine: float


class _Labeled:
    def __init__(self, texts: list[str], labels: list[str], vectors: np.ndarray) -> None:
        self.texts = texts
        self.labels = np.asarray(labels)
        self.vectors = vectors


class AttributeExamples:
    """Labeled example claims, and the vote of the nearest ones.

    Parameters
    ----------
    embed : callable
        Texts → unit vectors (one per text, the recall's embedder; cached).
    model : str
        The embedder's model name: the shipped vectors serve only their own model.
    k : int
        How many nearest examples vote, ``>= 1``.
    min_share : float
        The least share of the vote, in (0, 1], that the winning attribute needs.
    min_cosine : float
        The least cosine, in [-1, 1], of the winner's nearest example.
    lean_share, lean_cosine : float, optional
        The same two for the weaker vote ``votes(..., lean=True)`` reads (default: the
        full vote's).
    """

    def __init__(
        self,
        embed: Callable[[Sequence[str]], Sequence[Vector]],
        model: str,
        *,
        k: int,
        min_share: float,
        min_cosine: float,
        lean_share: float | None = None,
        lean_cosine: float | None = None,
    ) -> None:
        self._embed = embed
        self._model = model
        self._k = max(1, k)
        self._full = (min_share, min_cosine)
        self._lean = (
            min_share if lean_share is None else lean_share,
            min_cosine if lean_cosine is None else lean_cosine,
        )
        self._lock = threading.Lock()
        self._examples: _Labeled | None = None
        # memory id -> its vote before the thresholds (both votes read it); a memory's
        # vector never changes under its id, so each is read once per process (cleared
        # past _VOTES_KEPT)
        self._voted: dict[str, Vote] = {}

    @classmethod
    def of(cls, masked: MaskedEmbeddings | None, settings: Settings) -> AttributeExamples | None:
        """With the recall's cached embedder and ``settings.read.rescoring``'s
        ``attribute_examples_k``, ``_min_share`` and ``_min_cosine`` (the weaker vote:
        ``attribute_lean_min_share`` and ``_min_cosine``, which only says a claim is
        about something else); None without an embedder or with ``attribute_examples_k``
        0 (the vote off)."""
        cfg = settings.read.rescoring
        if masked is None or cfg.attribute_examples_k <= 0:
            return None
        return cls(
            masked.embed,
            masked.model,
            k=cfg.attribute_examples_k,
            min_share=cfg.attribute_examples_min_share,
            min_cosine=cfg.attribute_examples_min_cosine,
            lean_share=cfg.attribute_lean_min_share,
            lean_cosine=cfg.attribute_lean_min_cosine,
        )

    def claim(self, vector: Vector | None) -> Vote:
        """The attribute a claim states, by its embedding (shape ``(dim,)``)."""
        if vector is None:
            return Vote(None, 0.0, "", 0.0)
        labeled = self._labeled()
        if not len(labeled.texts):
            return Vote(None, 0.0, "", 0.0)
        raw = self._vote(labeled, labeled.vectors @ np.asarray(vector, dtype=np.float32))
        return Vote(self._taken(raw, self._full), raw.share, raw.example, raw.cosine)

    def votes(self, memories: Sequence[Memory], *, lean: bool = False) -> dict[str, str]:
        """Memory id → the attribute :meth:`claim` reads from its embedding (with
        ``lean``: by the weaker vote's thresholds), for the memories it reads one from
        (none without an embedding or a winning attribute). Those not read before in
        this process are read in one matrix product; a memory's vote is kept by its id
        (its vector never changes under it), for both thresholds."""
        new = [m for m in memories if m.embedding is not None and m.id not in self._voted]
        labeled = self._labeled()
        if new and len(labeled.texts):
            if len(self._voted) > _VOTES_KEPT:
                self._voted.clear()
            rows = np.asarray([m.embedding for m in new], dtype=np.float32) @ labeled.vectors.T
            for memory, row in zip(new, rows, strict=True):
                self._voted[memory.id] = self._vote(labeled, row)
        bounds = self._lean if lean else self._full
        return {
            m.id: key
            for m in memories
            if (raw := self._voted.get(m.id)) is not None
            and (key := self._taken(raw, bounds)) is not None
        }

    def _vote(self, labeled: _Labeled, cosines: np.ndarray) -> Vote:
        """The vote of the ``k`` examples nearest by ``cosines`` (one per example), before
        any threshold: ``key`` is the winning label (None when no example votes)."""
        k = min(self._k, len(cosines))
        top = np.argpartition(-cosines, k - 1)[:k]
        top = top[np.argsort(-cosines[top], kind="stable")]
        weights: dict[str, float] = {}
        for i in top:
            label = str(labeled.labels[i])
            weights[label] = weights.get(label, 0.0) + max(0.0, float(cosines[i]))
        total = sum(weights.values())
        if total <= 0.0:
            return Vote(None, 0.0, "", 0.0)
        # a job and its workplace are one question's answer: their examples vote together
        family = {label: _family(label, weights) for label in weights}
        winner = max(weights, key=lambda label: (family[label], weights[label], label))
        share = family[winner] / total
        nearest = next(i for i in top if labeled.labels[i] == winner)
        return Vote(winner, share, labeled.texts[nearest], float(cosines[nearest]))

    @staticmethod
    def _taken(raw: Vote, bounds: tuple[float, float]) -> str | None:
        """``raw``'s winner where it is an attribute and clears ``bounds`` (least share,
        least nearest cosine); else None."""
        if raw.key is None or raw.key == NONE_LABEL:
            return None
        return raw.key if raw.share >= bounds[0] and raw.cosine >= bounds[1] else None

    def _labeled(self) -> _Labeled:
        with self._lock:
            if self._examples is None:
                texts, labels, digest = _read()
                vectors = _shipped(self._model, digest)
                if vectors is None:
                    vectors = np.asarray(self._embed(texts), dtype=np.float32)
                self._examples = _Labeled(texts, labels, vectors)
            return self._examples


def votes_on(
    examples: AttributeExamples | None, memories: Sequence[Memory], asked: frozenset[str]
) -> dict[str, str] | None:
    """What the nearest examples say each claim of ``memories`` is about, for a question
    asking for ``asked`` (None when it asks for nothing or there are no examples): the
    weaker vote for a home or another attribute, the full one for a job or workplace,
    whose claims the examples read least surely (docs/updates.md "Nearest examples")."""
    if not asked or examples is None:
        return None
    return examples.votes(memories, lean=not asked & WORK)


def _family(label: str, weights: dict[str, float]) -> float:
    """``label``'s vote with its family's (:data:`graphmem.language.questions.WORK`)."""
    if label in WORK:
        return sum(weight for key, weight in weights.items() if key in WORK)
    return weights[label]


_CLAIMS = "attribute_claims.jsonl"
_SHIPPED = "attribute_examples.npz"


def _read() -> tuple[list[str], list[str], str]:
    """The example claims' texts and labels, and the file's SHA-256."""
    raw = resources.files("graphmem.language").joinpath(_CLAIMS).read_bytes()
    texts: list[str] = []
    labels: list[str] = []
    for line in raw.decode("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            texts.append(row["text"])
            labels.append(row["key"])
    return texts, labels, hashlib.sha256(raw).hexdigest()


def _shipped(model: str, digest: str) -> np.ndarray | None:
    """The shipped vectors of the examples, if they were made by ``model`` from this
    very file (``digest``); else None."""
    source = resources.files("graphmem.language").joinpath(_SHIPPED)
    if not source.is_file():
        return None
    with source.open("rb") as handle, np.load(handle) as shipped:
        if str(shipped["model"]) != model or str(shipped[f"{_CLAIMS}:sha256"]) != digest:
            return None
        return np.asarray(shipped[_CLAIMS], dtype=np.float32)


_WARMED: weakref.WeakSet[MaskedEmbeddings] = weakref.WeakSet()
_WARM_LOCK = threading.Lock()


def warm_examples(masked: MaskedEmbeddings) -> int:
    """At write time, once per cache and process: put the examples' vectors into
    ``masked``'s persistent cache where no shipped vectors serve its model, so that no
    recall embeds them. Returns how many texts were embedded (0 for the default model)."""
    with _WARM_LOCK:
        if masked in _WARMED:
            return 0
        _WARMED.add(masked)
    texts, _, digest = _read()
    return 0 if _shipped(masked.model, digest) is not None else masked.warm(texts)


def main() -> None:
    """Write ``attribute_examples.npz`` beside the example file with the default
    embedder (run after editing it; a test checks the digest)."""
    from graphmem.embedding import make_embedder
    from graphmem.settings import Settings

    embedder = make_embedder(Settings())
    texts, _, digest = _read()
    arrays: dict[str, np.ndarray] = {
        "model": np.array(embedder.name),
        _CLAIMS: np.asarray(embedder.embed(texts), dtype=np.float16),
        f"{_CLAIMS}:sha256": np.array(digest),
    }
    target = resources.files("graphmem.language").joinpath(_SHIPPED)
    with open(str(target), "wb") as handle:
        np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
    print(f"wrote {target} ({embedder.name})", file=sys.stderr)


if __name__ == "__main__":
    main()
