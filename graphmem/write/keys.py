"""Contextual keys: what a memory is indexed under.

A turn read alone often loses its meaning ("Yeah, it was amazing - we went
last weekend!" names neither the topic nor the date: the topic is in the turn
before, the date in the session). A memory's *key* is the text the BM25 and
the dense retriever index; it is built from the memory's context at write
time, while the stored content stays the claim itself::

    [7 May 2023] <the turn before> <content> <content> <content> <the turn after>

- the date in brackets is the memory's event time when its content names one
  ("yesterday" said on 8 May 2023 → 7 May 2023), else the day it was
  observed (the session date);
- the neighbouring turns are those of the same session, ``before`` turns
  before it and ``after`` turns after it (each cut to ``max_neighbour_chars``);
- the claim is written ``Settings.write.key_claim_repeats`` times (3) when it has
  neighbours: each neighbour's key quotes it once, and without the repeat a
  turn's neighbours matched its words as well as the turn itself did and
  crowded the top 10 (multi-hop questions, which need several turns, lost most);
- the speaker is already in the content of a turn ("Caroline: ..."); a claim
  whose content does not start with its speaker's name gets ``Speaker:``.

Where the write path has no context (a single candidate, no date), the key is
the content. :func:`build_keys` builds the keys of one batch of candidates in
write order: the neighbours of a candidate are the candidates of the same
session next to it in the batch.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphmem.models import Memory
    from graphmem.settings import Settings
    from graphmem.store.base import MemoryStore

__all__ = [
    "KeyContext",
    "KeyItem",
    "build_key",
    "build_keys",
    "key_date",
    "keys_of_stored",
    "rebuild_keys",
]

#: Neighbouring turns are cut to this many characters (a long turn would drown the claim).
MAX_NEIGHBOUR_CHARS = 200


@dataclass(frozen=True, slots=True)
class KeyContext:
    """The context a key is built from.

    ``before`` / ``after``: neighbouring turns' texts, in conversation order
    (``before[-1]`` is the turn just before). ``observed_at``: when the claim
    was said (the session date). ``event_time``: when what it says happened,
    when its content names a time. ``speaker``: who said it.
    """

    before: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    observed_at: datetime | None = None
    event_time: datetime | None = None
    speaker: str | None = None


@dataclass(frozen=True, slots=True)
class KeyItem:
    """One write-path candidate as :func:`build_keys` reads it."""

    content: str
    session_id: str | None
    observed_at: datetime | None
    event_time: datetime | None = None
    speaker: str | None = None


def key_date(when: datetime) -> str:
    """``"7 May 2023"``: the key's date form (day, month name, year; no zero pad)."""
    return f"{when.day} {when:%B %Y}"


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return f"{cut} …"


def build_key(
    content: str,
    context: KeyContext | None,
    *,
    max_neighbour_chars: int = MAX_NEIGHBOUR_CHARS,
    claim_repeats: int = 1,
) -> str:
    """The key of one memory (see the module docstring).

    Parameters
    ----------
    content : str
        The claim as stored.
    context : KeyContext or None
        ``None``: no context, the key is ``content``.
    max_neighbour_chars : int
        Each neighbouring turn is cut to this many characters (at a word).
    claim_repeats : int
        Times the claim is written when the context has neighbouring turns
        (``Settings.write.key_claim_repeats``; ≥ 1): each neighbour's key quotes the
        claim once, so without the repeat a hit's neighbours match its words as
        well as the hit does.

    Returns
    -------
    str
        ``[date] before… speaker: content after…``, parts missing from the
        context left out; exactly ``content`` when the context is empty.

    Raises
    ------
    ValueError
        ``claim_repeats < 1``.
    """
    if claim_repeats < 1:
        raise ValueError(f"claim_repeats must be >= 1, got {claim_repeats}")
    if context is None:
        return content
    parts: list[str] = []
    when = context.event_time or context.observed_at
    if when is not None:
        parts.append(f"[{key_date(when)}]")
    parts.extend(_cut(t, max_neighbour_chars) for t in context.before if t.strip())
    speaker = context.speaker
    if speaker and not content.lstrip().lower().startswith(speaker.lower()):
        claim = f"{speaker}: {content}"
    else:
        claim = content
    neighbours = any(t.strip() for t in (*context.before, *context.after))
    parts.extend([claim] * (claim_repeats if neighbours else 1))
    parts.extend(_cut(t, max_neighbour_chars) for t in context.after if t.strip())
    return " ".join(parts)


def build_keys(
    items: Sequence[KeyItem],
    *,
    before: int = 1,
    after: int = 1,
    max_neighbour_chars: int = MAX_NEIGHBOUR_CHARS,
    claim_repeats: int = 1,
) -> list[str]:
    """Keys for a batch of candidates in write order, one per item.

    The neighbours of an item are the items of the same ``session_id`` next to
    it in the batch (``before`` of them before, ``after`` after); an item with
    no session has none. A batch of one item with no date and no neighbours
    gets its content as key.
    """
    sessions: dict[str | None, list[int]] = {}
    position: list[int] = []
    for i, item in enumerate(items):
        order = sessions.setdefault(item.session_id, [])
        position.append(len(order))
        order.append(i)
    keys: list[str] = []
    for i, item in enumerate(items):
        if item.session_id is None:
            near_before: tuple[str, ...] = ()
            near_after: tuple[str, ...] = ()
        else:
            order, at = sessions[item.session_id], position[i]
            near_before = tuple(items[j].content for j in order[max(0, at - before) : at])
            near_after = tuple(items[j].content for j in order[at + 1 : at + 1 + after])
        context = KeyContext(
            before=near_before,
            after=near_after,
            observed_at=item.observed_at,
            event_time=item.event_time,
            speaker=item.speaker,
        )
        keys.append(
            build_key(
                item.content,
                context,
                max_neighbour_chars=max_neighbour_chars,
                claim_repeats=claim_repeats,
            )
        )
    return keys


def _turn_order(turn_id: str | None) -> tuple[object, ...]:
    """Natural order of turn ids ("D1:9" before "D1:10")."""
    parts = re.split(r"(\d+)", turn_id or "")
    return tuple(int(p) if p.isdigit() else p for p in parts)


def keys_of_stored(
    memories: Sequence[Memory],
    *,
    before: int = 1,
    after: int = 1,
    enabled: bool = True,
    claim_repeats: int = 1,
) -> dict[str, str | None]:
    """The keys the write path would give ``memories`` (one namespace) had they been
    written together, by memory id: a memory whose first observation has a turn id is
    keyed with the other memories of that observation's session, ordered by turn id
    (natural order), then observation time, then id; one alone in its session, or
    without a turn id, gets ``None`` (its content). ``enabled=False``: every key ``None``.
    """
    out: dict[str, str | None] = {m.id: None for m in memories}
    if not enabled:
        return out
    turns = [m for m in memories if m.observations and m.observations[0].turn_id is not None]
    turns.sort(
        key=lambda m: (
            m.observations[0].session_id,
            _turn_order(m.observations[0].turn_id),
            m.observations[0].observed_at,
            m.id,
        )
    )
    sizes: dict[str, int] = {}
    for m in turns:
        sizes[m.observations[0].session_id] = sizes.get(m.observations[0].session_id, 0) + 1
    items = [
        KeyItem(
            content=m.content,
            session_id=m.observations[0].session_id,
            observed_at=m.observations[0].observed_at,
            event_time=m.event_time,
        )
        for m in turns
    ]
    keys = build_keys(items, before=before, after=after, claim_repeats=claim_repeats)
    for m, key in zip(turns, keys, strict=True):
        if sizes[m.observations[0].session_id] > 1:
            out[m.id] = key
    return out


def rebuild_keys(
    store: MemoryStore,
    namespace: str,
    settings: Settings,
    *,
    page_size: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int]:
    """Migration: recompute the contextual key of every memory of ``namespace`` from
    the stored memories (:func:`keys_of_stored` with the settings' window; every key
    cleared when ``settings.contextual_keys`` is off) and write those that changed, one
    compare-and-set batch per page (a memory changed meanwhile raises
    :class:`~graphmem.errors.WriteConflictError`; re-run). Idempotent.

    Returns ``(memories, changed)``; ``progress(done, total)`` after each page.
    """
    from graphmem.store.base import WriteBatch, memory_pages, versions_read

    everything = [m for page in memory_pages(store, namespace, page_size) for m in page]
    keys = keys_of_stored(
        everything,
        before=settings.write.key_turns_before,
        after=settings.write.key_turns_after,
        enabled=settings.write.contextual_keys,
        claim_repeats=settings.write.key_claim_repeats,
    )
    stale = {m.id for m in everything if m.key != keys[m.id]}
    total, done, changed = len(everything), 0, 0
    for page in memory_pages(store, namespace, page_size, with_embeddings=True):
        rewritten = [m.model_copy(update={"key": keys[m.id]}) for m in page if m.id in stale]
        if rewritten:
            batch = WriteBatch(memories=rewritten, expected_versions=versions_read(rewritten))
            store.write(namespace, batch)
            changed += len(rewritten)
        done += len(page)
        if progress is not None:
            progress(done, total)
    return total, changed
