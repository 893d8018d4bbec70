"""Offline extraction against the hand-written gold (docs/extraction.md "Figures").

    python -m bench.extraction.run --half tune     # the half to look at and tune on
    python -m bench.extraction.run --half test     # the held-out half: report only

For each item of ``bench/extraction/gold_<half>.json`` (format: FORMAT.md) the
``ner`` extractor analyses the text with its speaker and addressee; the names it
found earlier in the same chat are known to it, as a namespace's are. Scores,
micro-averaged over the items:

- **entity F1**: (name, kind) pairs; a name matches the gold's when equal after
  normalisation or when one is the other's first words ("Dana" / "Dana
  Whitfield": a known full name stands for the first name);
- **relation F1**: (source, TYPE, target) in the gold's reading ("Elena
  SISTER_OF Priya": Elena is Priya's sister; the extractor stores role relations
  owner first, :func:`graphmem.language.relation_words.reading` turns them); the
  symmetric types (SIBLING_OF, FRIEND_OF, PARTNER_OF, MARRIED_TO) match either way;
- **junk share**: extracted entities of no gold kind (Person, Organization,
  Place, Product, Work, Animal, Event) or named by a month, a weekday, a
  greeting or a number, over all extracted entities;
- **event time**: items whose gold dates an event (YYYY-MM or YYYY-MM-DD) and
  whose text's time expression resolves (``derived_event_time``) to that month or day;
- **turns/s**: items analysed per second (the extraction alone, one process).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.entities import EntityDictionary
from graphmem.extract.ner import NerExtractor
from graphmem.language.relation_words import SYMMETRIC, reading
from graphmem.models import Entity
from graphmem.text import normalize
from graphmem.write.scores import derived_event_time

HERE = Path(__file__).resolve().parent
KINDS = frozenset({"Person", "Organization", "Place", "Product", "Work", "Animal", "Event"})
# written for the bench, apart from the extractor's own lists
_JUNK_WORDS = frozenset(
    [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "today",
        "tomorrow",
        "yesterday",
        "hi",
        "hey",
        "hello",
        "thanks",
        "congrats",
        "congratulations",
        "wow",
        "lol",
        "haha",
        "yay",
        "omg",
        "ok",
        "okay",
        "yes",
        "no",
    ]
)


def _same(a: str, b: str) -> bool:
    x, y = normalize(a).split(), normalize(b).split()
    return bool(x) and bool(y) and (x == y or x[: len(y)] == y or y[: len(x)] == x)


def _matches(found: list[tuple[str, ...]], gold: list[tuple[str, ...]], *, rel: bool) -> int:
    """How many of ``found`` pair off one-to-one with ``gold``."""
    left = list(gold)
    hits = 0
    for item in found:
        for i, want in enumerate(left):
            if _equal(item, want, rel=rel):
                hits += 1
                del left[i]
                break
    return hits


def _equal(item: tuple[str, ...], want: tuple[str, ...], *, rel: bool) -> bool:
    if not rel:
        return item[1] == want[1] and _same(item[0], want[0])
    source, predicate, target = item
    if predicate != want[1]:
        return False
    if _same(source, want[0]) and _same(target, want[2]):
        return True
    return predicate in SYMMETRIC and _same(source, want[2]) and _same(target, want[0])


def _junk(name: str, kind: str) -> bool:
    words = normalize(name).split()
    return kind not in KINDS or not words or all(w in _JUNK_WORDS or w[:1].isdigit() for w in words)


def _f1(hits: int, found: int, gold: int) -> dict[str, float]:
    p = hits / found if found else 1.0
    r = hits / gold if gold else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def evaluate(items: Iterable[dict[str, Any]], *, show: bool = False) -> dict[str, Any]:
    """The figures of one half (see the module's docstring)."""
    ner = NerExtractor()
    known: dict[str, EntityDictionary] = {}
    counts = dict.fromkeys(("ent_hit", "ent_found", "ent_gold", "rel_hit", "rel_found"), 0)
    counts |= {"rel_gold": 0, "junk": 0, "time_gold": 0, "time_hit": 0, "items": 0}
    ner.analyse("warm up", EntityDictionary())
    spent = 0.0
    for item in items:
        chat = item.get("chat") or item["id"]
        dictionary = known.setdefault(chat, EntityDictionary())
        mark = time.perf_counter()
        out = ner.analyse(
            item["text"], dictionary, speaker=item.get("speaker"), addressee=item.get("addressee")
        )
        spent += time.perf_counter() - mark
        for m in out.entities:
            ident = f"{chat}:{normalize(m.name)}"
            dictionary.add(Entity(id=ident, namespace="bench", name=m.name, kind=m.kind))
        ents = [(m.name, m.kind) for m in out.entities]
        gold_ents = [(e["name"], e["kind"]) for e in item["entities"]]
        rels = [reading(r.source, r.predicate, r.target) for r in out.relations]
        gold_rels = [(r["source"], r["predicate"], r["target"]) for r in item["relations"]]
        eh, rh = _matches(ents, gold_ents, rel=False), _matches(rels, gold_rels, rel=True)
        counts["items"] += 1
        counts["ent_hit"] += eh
        counts["ent_found"] += len(ents)
        counts["ent_gold"] += len(gold_ents)
        counts["rel_hit"] += rh
        counts["rel_found"] += len(rels)
        counts["rel_gold"] += len(gold_rels)
        counts["junk"] += sum(_junk(n, k) for n, k in ents)
        if item.get("event_time"):
            counts["time_gold"] += 1
            when = derived_event_time(item["text"], datetime.fromisoformat(item["observed_at"]))
            got = when.date().isoformat() if when else ""
            counts["time_hit"] += got.startswith(item["event_time"])
        if show and (eh < max(len(ents), len(gold_ents)) or rh < max(len(rels), len(gold_rels))):
            print(f"{item['id']} {item['text']}", file=sys.stderr)
            print(f"   entities  got {ents}\n             want {gold_ents}", file=sys.stderr)
            print(f"   relations got {rels}\n             want {gold_rels}", file=sys.stderr)
    return {
        "items": counts["items"],
        "entities": _f1(counts["ent_hit"], counts["ent_found"], counts["ent_gold"]),
        "relations": _f1(counts["rel_hit"], counts["rel_found"], counts["rel_gold"]),
        "junk_share": counts["junk"] / counts["ent_found"] if counts["ent_found"] else 0.0,
        "event_time": {"dated": counts["time_gold"], "right": counts["time_hit"]},
        "turns_per_s": counts["items"] / spent if spent else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "test"), required=True)
    parser.add_argument("--show", action="store_true", help="print the items scored short")
    args = parser.parse_args(argv)
    data = json.loads((HERE / f"gold_{args.half}.json").read_text(encoding="utf-8"))
    result = {"half": args.half, **evaluate(data["items"], show=args.show)}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
