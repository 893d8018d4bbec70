"""What a recall's name-masking step needs, started beside the retrievers (docs/performance.md
"Recall on real input").

Name masking (:mod:`graphmem.retrieval.rescoring.masking`) runs after the semantic and entity lists:
it embeds the masked question, reads the lists' top candidates with their embeddings and,
over a verbatim transcript, searches the question's ``verbatim_mask_depth`` nearest
memories and reads those too. Done in that order, that is an embedding and three round
trips one after the other on the recall's critical path. Two of them need only the
question, so :class:`MaskAhead` starts them as soon as the retrievers start:

- the masked question's vector (into :class:`MaskedEmbeddings`' cache, where the masking
  step finds it);
- in a namespace whose last recall found a transcript (a hint kept per namespace: the
  first recall of a namespace, and one after the namespace changed kind, run as before),
  the deep list's vector search, through the recall's store view, which answers the
  masking step's own call to it with this result, and the read of its memories; the
  lists' candidates it does not hold are read after the lists (:meth:`Started.read`), so
  the large read overlaps the retrievers.

The lists are those of the same calls made later, so the recall's answer is the same.

What masking reads of a memory (:class:`MaskText`: its text, vector and subjects) is kept
per process (:class:`MaskTexts`, at most ``MAX_TEXTS``), so the ~200 turns a transcript
question reads are read from the store once, not per question. A memory's text and
vector do not change under its id; its subjects may (an entity merge), so a write to the
namespace through this process drops them, as it drops the entity dictionary — writes
by another process reach them at the next write here.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from typing import cast

import numpy as np

from graphmem.retrieval.rescoring.masked_vectors import MaskedEmbeddings
from graphmem.retrieval.rescoring.masking import mask_names, verbatim_transcript
from graphmem.retrieval.retrievers import RetrievalContext
from graphmem.retrieval.retrievers.semantic import semantic_search
from graphmem.settings import Settings
from graphmem.store.base import MaskText, MemoryStore, Vector

__all__ = ["MaskAhead", "MaskTexts", "Started"]

#: Namespaces whose transcript hint is kept (the oldest are dropped past it).
_MAX_HINTS = 4096


#: The most :class:`MaskText` a process keeps (~2 KiB each: the vector as float32).
MAX_TEXTS = 20_000


class MaskTexts:
    """What name masking read of memories, by namespace and id (an LRU of at most
    ``size``), in front of :meth:`MemoryStore.mask_texts`."""

    def __init__(self, size: int = MAX_TEXTS) -> None:
        self._size = max(1, size)
        self._kept: OrderedDict[tuple[str, str], MaskText] = OrderedDict()
        self._lock = threading.Lock()
        self._forgets: dict[str, int] = {}  # per namespace, how often it was dropped

    def read(self, store: MemoryStore, namespace: str, ids: Sequence[str]) -> list[MaskText]:
        """The mask texts of ``ids`` (in order; missing memories left out): those kept,
        then one store call for the others, kept unless the namespace was dropped while
        it ran (a forgotten memory's text is never kept past its forget)."""
        with self._lock:
            found = {i: m for i in ids if (m := self._kept.get((namespace, i))) is not None}
            for i in found:
                self._kept.move_to_end((namespace, i))
            before = self._forgets.get(namespace, 0)
        if missing := [i for i in dict.fromkeys(ids) if i not in found]:
            read = [_compact(m) for m in store.mask_texts(namespace, missing)]
            found.update((m.memory_id, m) for m in read)
            with self._lock:
                if self._forgets.get(namespace, 0) == before:
                    self._kept.update(((namespace, m.memory_id), m) for m in read)
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def forget(self, namespace: str) -> None:
        """Drop what is kept of ``namespace`` (and what a read running now would keep)."""
        with self._lock:
            self._forgets[namespace] = self._forgets.get(namespace, 0) + 1
            for key in [k for k in self._kept if k[0] == namespace]:
                del self._kept[key]


def _compact(text: MaskText) -> MaskText:
    """``text`` with its vector as float32 (a list of Python floats is ~6x the size)."""
    vector = np.asarray(text.embedding, dtype=np.float32)
    return dataclasses.replace(text, embedding=cast(Sequence[float], vector))


@dataclasses.dataclass(frozen=True, slots=True)
class Started:
    """The work :meth:`MaskAhead.start` began for one recall."""

    question: Future[list[Vector]] | None
    deep: Future[dict[str, MaskText]] | None
    texts: MaskTexts

    def wait_question(self) -> None:
        """Wait until the masked question's vector is in the cache (re-raising its error)."""
        if self.question is not None:
            self.question.result()

    def read(
        self, store: MemoryStore, namespace: str, ids: Sequence[str], timings: dict[str, float]
    ) -> tuple[dict[str, MaskText], dict[str, MaskText]]:
        """``(candidates, known)``: what masking reads (:class:`MaskText`) of the
        name-masking candidates ``ids``, and of those and the deep search's memories (read
        while the retrievers ran); the candidates not among them are read in one store call
        (none when the deep list holds them all, as it mostly does).
        ``timings["name_mask_read"]``: its ms (the wait for the deep search and its read
        included)."""
        mark = time.perf_counter()
        known = dict(self.deep.result()) if self.deep is not None else {}
        if missing := [i for i in dict.fromkeys(ids) if i not in known]:
            known.update((m.memory_id, m) for m in self.texts.read(store, namespace, missing))
        timings["name_mask_read"] = (time.perf_counter() - mark) * 1000.0
        return {i: known[i] for i in ids if i in known}, known


class MaskAhead:
    """Starts :class:`Started` work on ``pool`` and keeps, per namespace, whether its last
    recall's name-masking candidates were a verbatim transcript.

    Parameters
    ----------
    pool : Executor
        Runs the started work (none of it waits on the pool).
    vectors : MaskedEmbeddings
        Where the masked question's vector goes.
    settings : Settings
        ``verbatim_mask_depth`` (0: no deep search is started).
    """

    def __init__(self, pool: Executor, vectors: MaskedEmbeddings, settings: Settings) -> None:
        self._pool = pool
        self._vectors = vectors
        self._settings = settings
        self._transcripts: dict[str, bool] = {}
        self._lock = threading.Lock()
        self._texts = MaskTexts()

    def start(
        self, view: MemoryStore, store: MemoryStore, ctx: RetrievalContext, names: Sequence[str]
    ) -> Started:
        """Begin embedding the question masked by ``names`` (when masking changes it) and,
        where the hint says transcript, the deep search on ``view`` (the recall's store
        view, which shares it with the masking step) and the read of its memories, with
        their embeddings, from ``store``."""
        masked = mask_names(ctx.text, names)
        if not names or masked == ctx.text:
            return Started(None, None, self._texts)
        question = self._pool.submit(self._vectors.embed, [masked])
        depth = self.deep_depth(ctx, names)
        deep = None
        if depth > 0:
            deep = self._pool.submit(_deep_read, view, store, ctx, depth, self._texts)
        return Started(question, deep, self._texts)

    def deep_depth(self, ctx: RetrievalContext, names: Sequence[str]) -> int:
        """How deep :meth:`start` searches for the deep list (0: no deep search): masking
        changes the question, the setting ``verbatim_mask_depth`` is on, and the
        namespace's last recall found a verbatim transcript."""
        depth = self._settings.read.rescoring.verbatim_mask_depth
        if depth <= 0 or not names or mask_names(ctx.text, names) == ctx.text:
            return 0
        with self._lock:
            transcript = self._transcripts.get(ctx.namespace, False)
        return max(depth, ctx.k) if transcript else 0

    def learn(self, namespace: str, candidates: dict[str, MaskText]) -> None:
        """Keep whether ``candidates`` (a recall's name-masking candidates) were a
        verbatim transcript, for the namespace's next recall."""
        transcript = verbatim_transcript(candidates)
        with self._lock:
            self._transcripts.pop(namespace, None)
            self._transcripts[namespace] = transcript
            while len(self._transcripts) > _MAX_HINTS:
                del self._transcripts[next(iter(self._transcripts))]

    def forget(self, namespace: str) -> None:
        """Drop the namespace's hint and its kept mask texts (it was written to or
        deleted)."""
        with self._lock:
            self._transcripts.pop(namespace, None)
        self._texts.forget(namespace)


def _deep_read(
    view: MemoryStore, store: MemoryStore, ctx: RetrievalContext, depth: int, texts: MaskTexts
) -> dict[str, MaskText]:
    """What masking reads of the deep list's ``depth`` nearest memories
    (:func:`semantic_search` on ``view``), read from ``texts`` in front of ``store``."""
    ids = [r.memory_id for r in semantic_search(view, ctx, depth)]
    return {m.memory_id: m for m in texts.read(store, ctx.namespace, ids)}
