"""Ingest throughput (docs/benchmarks.md "Speed and scale"): ``python -m bench ingest``.

:func:`bench_ingest` ingests LoCoMo turns through the full write pipeline (real
embeddings, dedup on). Before each chunk of write batches it times raw
``model.encode`` on that chunk's texts, so encode and ingest are measured on the
same texts, in the same call shape and under the same machine load (a shared
2-core machine drifts by 2x within minutes); the headline is the ratio of their
throughputs.

``compare`` times a variant of the write path beside the default on the same
chunks, interleaved: the ner extractor against the capitalized one (issue 12:
what extraction costs), contextual keys on against off (issue 15).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.perf.latency import Progress, configuration, peak_rss_mb
from graphmem.entities import EntityDictionary, EntityExtractor, RelationExtractor
from graphmem.memory import GraphMem

__all__ = ["INGEST_CHUNK_BATCHES", "INGEST_VARIANTS", "bench_ingest"]

#: Write batches per timed ingest chunk (bench_ingest alternates raw encode and ingest
#: chunks, so both see the same machine load; within a chunk ingest prefetches).
INGEST_CHUNK_BATCHES = 4

#: ``bench_ingest(compare=...)``: the write-path settings each compared variant runs
#: under (label -> settings overrides), the first being the product's default.
INGEST_VARIANTS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "extractor": (("ner", {"extractor": "ner"}), ("capitalized", {"extractor": "capitalized"})),
    "keys": (("keys on", {"contextual_keys": True}), ("keys off", {"contextual_keys": False})),
}


@dataclass(frozen=True, slots=True)
class _Variant:
    label: str
    memory: GraphMem
    namespace: str


@dataclass(slots=True)
class _Clock:
    """Seconds spent, per variant where it differs."""

    encode_s: float = 0.0
    ingest_s: list[float] = field(default_factory=list)
    extract_s: list[float] = field(default_factory=list)
    merged: list[int] = field(default_factory=list)


def bench_ingest(
    memory: GraphMem,
    texts_and_candidates: tuple[list[str], list[dict[str, Any]]],
    *,
    namespace: str = "bench-ingest",
    batch_size: int = 256,
    progress: Progress | None = None,
    compare: str | None = None,
) -> dict[str, Any]:
    """Ingest throughput vs raw encode throughput on the same texts, same run.

    ``texts_and_candidates`` are the candidates' texts and the candidates. In
    chunks of :data:`INGEST_CHUNK_BATCHES` write batches, the chunk's texts are
    first encoded raw in ``batch_size`` calls (timed), then remembered with
    :meth:`GraphMem.remember_many` (timed; it embeds the next batch while
    writing the current one), so both see the same texts under the same load.

    ``compare`` (a key of :data:`INGEST_VARIANTS`: ``"extractor"`` — ner vs
    capitalized — or ``"keys"`` — contextual keys on vs off) ingests every chunk
    once per variant, each into its own namespace on the same store and
    embedder, right after the chunk's raw encode and in alternating order, so
    the variants see the same load; the top-level figures are the first
    variant's. With ``"extractor"`` each extractor alone is also timed on the
    chunk's texts (``extract_ms_per_text``).

    Returns
    -------
    dict
        ``encode_per_s``, ``ingest_per_s``, ``ratio_to_encode``, ``extract_s``,
        ``extract_per_s`` (the extractor alone), ``floor_per_s`` and ``ratio_to_floor``
        (:func:`_floor`), ``memories``,
        ``merged``, ``write_batch``, ``extractor``, ``contextual_keys``,
        ``peak_rss_mb`` and the configuration; with ``compare``, also
        ``variants`` (label -> ``ingest_s``, ``ingest_per_s``,
        ``ratio_to_encode``, the floor's figures, ``merged`` and, for extractors,
        ``extract_ms_per_text``) and ``cost`` (the first variant's ingest time
        over the second's, minus 1: +0.25 is 25 % slower).

    Raises
    ------
    ValueError
        Texts and candidates of different lengths, or an unknown ``compare``.
    """
    texts, candidates = texts_and_candidates
    if len(texts) != len(candidates):
        raise ValueError("need one text per candidate")
    if compare is not None and compare not in INGEST_VARIANTS:
        raise ValueError(f"compare must be one of {sorted(INGEST_VARIANTS)}, not {compare!r}")
    memory.open()
    variants = _variants(memory, namespace, compare)
    for variant in variants:
        variant.memory.delete_namespace(variant.namespace)
    memory.embedder.embed(texts[:64])  # load the model outside both timings
    for variant in variants:  # load spaCy's pipeline outside the timings too
        _extract(variant.memory.extractor, texts[:1])
    clock = _Clock(
        ingest_s=[0.0] * len(variants), extract_s=[0.0] * len(variants), merged=[0] * len(variants)
    )
    chunk = batch_size * INGEST_CHUNK_BATCHES
    for number, offset in enumerate(range(0, len(candidates), chunk)):
        part = slice(offset, offset + chunk)
        started = time.perf_counter()
        for start in range(offset, min(offset + chunk, len(texts)), batch_size):
            memory.embedder.embed(texts[start : start + batch_size])
        clock.encode_s += time.perf_counter() - started
        order = range(len(variants)) if number % 2 == 0 else reversed(range(len(variants)))
        for index in order:
            variant = variants[index]
            clock.extract_s[index] += _extract(variant.memory.extractor, texts[part])
            started = time.perf_counter()
            for report in variant.memory.remember_many(
                variant.namespace, candidates[part], batch_size=batch_size
            ):
                clock.merged[index] += len(report.merged)
            clock.ingest_s[index] += time.perf_counter() - started
        if progress:
            progress(min(len(candidates), offset + chunk))
    for variant in variants:  # their real embeddings would crowd later searches
        variant.memory.delete_namespace(variant.namespace)
    return _report(memory, variants, clock, len(candidates), batch_size, compare)


def _report(
    memory: GraphMem,
    variants: Sequence[_Variant],
    clock: _Clock,
    n: int,
    batch_size: int,
    compare: str | None,
) -> dict[str, Any]:
    encode_rate = n / clock.encode_s
    rates = [n / seconds for seconds in clock.ingest_s]
    first = variants[0].memory
    result: dict[str, Any] = {
        **configuration(memory),
        "write_batch": batch_size,
        "prefetch_next_batch": True,
        "extractor": getattr(first.extractor, "name", "custom"),
        "contextual_keys": first.settings.write.contextual_keys,
        "memories": n,
        "merged": clock.merged[0],
        "encode_s": round(clock.encode_s, 2),
        "ingest_s": round(clock.ingest_s[0], 2),
        "encode_per_s": round(encode_rate, 1),
        "ingest_per_s": round(rates[0], 1),
        "ratio_to_encode": round(rates[0] / encode_rate, 3),
        **_floor(clock, n, 0),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
    if compare is None:
        return result
    result["compare"] = compare
    result["variants"] = {}
    for i, variant in enumerate(variants):
        row: dict[str, Any] = {
            "ingest_s": round(clock.ingest_s[i], 2),
            "ingest_per_s": round(rates[i], 1),
            "ratio_to_encode": round(rates[i] / encode_rate, 3),
            **_floor(clock, n, i),
            "merged": clock.merged[i],
        }
        if compare == "extractor":
            row["extract_ms_per_text"] = round(1000 * clock.extract_s[i] / n, 3)
        result["variants"][variant.label] = row
    result["cost"] = round(clock.ingest_s[0] / clock.ingest_s[1] - 1, 3)
    return result


def _floor(clock: _Clock, n: int, index: int) -> dict[str, float]:
    """The unavoidable floor (docs/benchmarks.md "Speed and scale"): the encoder's and the
    extractor's
    throughput, each timed alone on the same texts in the same run, combined as
    1 / (1/encode + 1/extract) = n / (encode_s + extract_s); ``ratio_to_floor`` is the
    ingest rate over it (1.0: the pipeline adds nothing to the two)."""
    extract_s = max(clock.extract_s[index], 1e-9)
    floor_s = clock.encode_s + extract_s
    return {
        "extract_s": round(extract_s, 2),
        "extract_per_s": round(n / extract_s, 1),
        "floor_per_s": round(n / floor_s, 1),
        "ratio_to_floor": round(floor_s / clock.ingest_s[index], 3),
    }


def _extract(extractor: EntityExtractor, texts: Sequence[str]) -> float:
    """Seconds ``extractor`` takes over ``texts`` as the write path calls it (with an
    empty dictionary of known names)."""
    known = EntityDictionary()
    started = time.perf_counter()
    for text in texts:
        if isinstance(extractor, RelationExtractor):
            extractor.analyse(text, known)
        else:
            extractor.extract(text, known)
    return time.perf_counter() - started


def _variants(memory: GraphMem, namespace: str, compare: str | None) -> list[_Variant]:
    """One per compared variant: a facade on ``memory``'s store and embedder with the
    variant's settings, and its namespace; just ``memory`` without ``compare``."""
    if compare is None:
        return [_Variant("", memory, namespace)]
    return [
        _Variant(
            label,
            GraphMem(
                memory.settings.model_copy(update=overrides),
                store=memory.store,
                embedder=memory.embedder,
                owns_store=False,
            ),
            f"{namespace}-{label.replace(' ', '-')}",
        )
        for label, overrides in INGEST_VARIANTS[compare]
    ]
