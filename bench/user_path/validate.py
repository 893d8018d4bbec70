"""Check a user-path scenario file against FORMAT.md: ``python bench/user_path/validate.py FILE...``."""

from __future__ import annotations

import json
import sys
from datetime import datetime

KINDS = {"base", "update", "negation", "correction", "restatement", "event", "safety", "distractor"}
TYPES = {"Fact", "Preference", "Event", "Relation", "Entity"}
PREDICATES = set(
    ["lives_in", "works_at", "job_title", "diet", "allergy", "medication", "partner", "pet", "phone", "email", "birthday", "hobby", "language", "studies_at", "favourite", "drives", "plays", "owns", "sibling", "parent", "child", "friend", "did"]
)
VOICES = {"first", "user", "third"}


def problems(path: str) -> list[str]:
    out: list[str] = []
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    people = data.get("people")
    if not isinstance(people, list) or not people:
        return [f"{path}: no people"]
    for p in people:
        pid = p.get("id", "?")
        where = f"{path}:{pid}"
        if p.get("voice") not in VOICES:
            out.append(f"{where}: voice {p.get('voice')!r}")
        if not p.get("user"):
            out.append(f"{where}: no user")
        sessions = {s["id"]: datetime.fromisoformat(s["at"]) for s in p.get("sessions", [])}
        if not 3 <= len(sessions) <= 6:
            out.append(f"{where}: {len(sessions)} sessions")
        if any(t.tzinfo is None for t in sessions.values()):
            out.append(f"{where}: a session time without a time zone")
        times = list(sessions.values())
        if times != sorted(times):
            out.append(f"{where}: sessions not in time order")
        stmts = p.get("statements", [])
        ids = [s["id"] for s in stmts]
        if len(set(ids)) != len(ids):
            out.append(f"{where}: duplicate statement ids")
        if not 12 <= len(stmts) <= 25:
            out.append(f"{where}: {len(stmts)} statements")
        kinds = {s["kind"] for s in stmts}
        for need in ("update", "negation", "restatement", "event", "safety", "distractor"):
            if need not in kinds:
                out.append(f"{where}: no {need} statement")
        known = set(ids)
        for s in stmts:
            sw = f"{where}:{s.get('id')}"
            if s.get("kind") not in KINDS:
                out.append(f"{sw}: kind {s.get('kind')!r}")
            if s.get("type") not in TYPES:
                out.append(f"{sw}: type {s.get('type')!r}")
            if s.get("session") not in sessions:
                out.append(f"{sw}: session {s.get('session')!r}")
            if not s.get("text", "").strip():
                out.append(f"{sw}: empty text")
            t = s.get("triple") or {}
            if set(t) != {"subject", "predicate", "object"} or t.get("predicate") not in PREDICATES:
                out.append(f"{sw}: triple {t!r}")
            if s["kind"] in {"update", "negation", "correction"} and s.get("replaces") not in known:
                out.append(f"{sw}: replaces {s.get('replaces')!r}")
            if s["kind"] == "restatement" and s.get("restates") not in known:
                out.append(f"{sw}: restates {s.get('restates')!r}")
            when = s.get("event_time")
            if when and datetime.fromisoformat(when).tzinfo is None:
                out.append(f"{sw}: event_time without a time zone")
            if s.get("correct_target") and s["correct_target"] not in known:
                out.append(f"{sw}: correct_target {s['correct_target']!r}")
        probes = p.get("probes", [])
        if not 8 <= len(probes) <= 14:
            out.append(f"{where}: {len(probes)} probes")
        for q in probes:
            for key in ("answer", "stale", "confusers"):
                for ref in q.get(key, []):
                    if ref not in known:
                        out.append(f"{where}: probe {q.get('question')!r} {key} {ref!r} unknown")
            if not q.get("answer"):
                out.append(f"{where}: probe {q.get('question')!r} has no answer")
            if q.get("hops") not in (1, 2):
                out.append(f"{where}: probe hops {q.get('hops')!r}")
    return out


if __name__ == "__main__":
    found = [msg for f in sys.argv[1:] for msg in problems(f)]
    print("\n".join(found) or "ok")
    sys.exit(1 if found else 0)
