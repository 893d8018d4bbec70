"""Fit the learned order's weights on the user-path tune half (graphmem.retrieval.ranking.learned).

    python -m bench.user_path.learn [--file people_tune_x.json ...] [--out PATH] [--folds 5]

Every tune person is written through the API door (plain mode, the embedded store in a
temporary folder) and each probe (one-hop and two-hop) asked once at the end of the
person's story, as the benchmark's fresh phase does. The ranker's own feature rows are recorded where it
hands its hits to the learned order (nothing is reordered while recording), and a
pairwise logistic model is fitted: for every probe, each answering memory against every
other memory in its list (outdated and confusing memories counted twice), features
standardised, L2 penalty ``--l2``, Newton's method (deterministic). The test half
is never read. ``--folds`` also reports current@1 of the rules' order and of the learned
order under person-wise cross-validation, so the gain is not read off the fitted data
(without the pairs the learned order keeps from the rules, ``learned.kept_above``: the
rows carry no explanations).
Writes ``graphmem/retrieval/ranking/learned_order.json`` unless ``--out`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import graphmem.retrieval.ranking.ranker as ranker_module
from bench.user_path.data import HERE, Person, load, load_file
from bench.user_path.doors import ApiDoor
from bench.user_path.run import Written, write_person
from graphmem.retrieval.ranking.learned import FEATURES, features, readings

OUT = Path(ranker_module.__file__).with_name("learned_order.json")
#: How much more an outdated or confusing memory above an answer costs than another one.
HARD = 2.0

Probe = tuple[str, np.ndarray, list[str]]  # person id, feature rows, label per row


def collect(people: Sequence[Person]) -> list[Probe]:
    """Each probe's feature rows (the ranker's, rules' order) and labels: ``a``
    answer, ``s`` outdated, ``c`` confuser, ``o`` other."""
    rows: list[np.ndarray] = []

    def recording(hits, memories, question, weigh, depth):  # type: ignore[no-untyped-def]
        read = readings(weigh[0], memories[:10], question)
        rows.append(features(list(hits[:10]), question, read))
        return list(hits)

    setattr(ranker_module, "learned_order", recording)  # noqa: B010 (recording only)
    out: list[Probe] = []
    for n, person in enumerate(people, 1):
        with tempfile.TemporaryDirectory() as tmp:
            door = ApiDoor(Path(tmp))
            try:
                written = write_person(door, person, f"learn-{person.id}", "plain")
                door.clock.at = person.last + timedelta(hours=1)
                for probe in person.probes:
                    rows.clear()
                    result = door.memory.recall(written.ns, probe.question, k=10, record_access=False)
                    labels = _labels(written, probe, [h.memory.id for h in result.hits[:10]])
                    if rows and len(rows[-1]) == len(labels):
                        out.append((person.id, rows[-1], labels))
            finally:
                door.close()
        print(f"\r{n}/{len(people)} people", end="", flush=True)
    print()
    return out


def _labels(written: Written, probe: Any, ids: Sequence[str]) -> list[str]:
    """Per id: ``a`` answers ``probe``, ``s`` outdated for it, ``c`` a confuser, ``o`` other."""

    def memories(statements: Sequence[str]) -> set[str]:
        return {m for s in statements if (m := written.ids.get(s)) is not None}

    answer, stale, confusers = (memories(probe.answer), memories(probe.stale), memories(probe.confusers))
    return [
        "a" if i in answer else "s" if i in stale else "c" if i in confusers else "o" for i in ids
    ]


def fit(probes: Sequence[Probe], l2: float, steps: int = 25) -> np.ndarray:
    """Weights over FEATURES (raw scale) minimising the weighted pairwise logistic loss
    plus ``l2`` times the squared norm of the standardised weights (Newton's method,
    ``steps`` iterations)."""
    diffs, weights = [], []
    for _, x, labels in probes:
        for a in (i for i, lab in enumerate(labels) if lab == "a"):
            for j, lab in enumerate(labels):
                if lab != "a":
                    diffs.append(x[a] - x[j])
                    weights.append(HARD if lab in "sc" else 1.0)
    d, w = np.asarray(diffs), np.asarray(weights) / sum(weights)
    scale = d.std(axis=0) + 1e-6
    z = d / scale
    theta = np.zeros(z.shape[1])
    ridge = l2 * 1e-3 * np.eye(z.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ theta)))  # chance the answer ranks above
        grad = -(z * (w * (1.0 - p))[:, None]).sum(axis=0) + ridge @ theta
        hess = (z * (w * p * (1.0 - p))[:, None]).T @ z + ridge
        theta -= np.linalg.solve(hess, grad)
    return np.asarray(theta / scale, dtype=np.float64)


def first(probes: Sequence[Probe], theta: np.ndarray | None) -> float:
    """current@1 over ``probes``: the rules' order (``theta`` None) or the learned one."""
    hits = 0
    for _, x, labels in probes:
        top = 0 if theta is None else int(np.argsort(-(x @ theta), kind="stable")[0])
        hits += labels[top] == "a"
    return hits / max(1, len(probes))


def cross_validate(
    probes: Sequence[Probe], folds: int, l2: float, steps: int
) -> dict[str, float]:
    """Person-wise ``folds``-fold current@1, rules' order against learned order."""
    people = sorted({p for p, _, _ in probes})
    rng = np.random.default_rng(0)
    rng.shuffle(people)
    learned = 0.0
    for k in range(folds):
        held = set(people[k::folds])
        train = [p for p in probes if p[0] not in held]
        test = [p for p in probes if p[0] in held]
        learned += first(test, fit(train, l2, steps)) * len(test)
    return {"rules": round(first(probes, None), 4), "learned": round(learned / len(probes), 4)}


def _cached(path: Path) -> list[Probe]:
    """Feature rows kept by an earlier run (``--cache``)."""
    return [(p, np.asarray(x, dtype=np.float64), lab) for p, x, lab in json.loads(path.read_text())]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", action="append", type=Path, help="tune files (default: all)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--l2", type=float, default=0.1)
    parser.add_argument("--folds", type=int, default=5, help="0: no cross-validation")
    parser.add_argument("--steps", type=int, default=25, help="Newton steps")
    parser.add_argument(
        "--cache", type=Path, help="keep the collected feature rows here (read if present)"
    )
    args = parser.parse_args(argv)
    os.environ["GRAPHMEM_LEARNED_ORDER_DEPTH"] = "10"  # the recording hook reorders nothing
    people = [p for f in args.file for p in load_file(f)] if args.file else load("tune", HERE)
    probes = _cached(args.cache) if args.cache and args.cache.exists() else collect(people)
    if args.cache and not args.cache.exists():
        args.cache.write_text(json.dumps([(p, x.tolist(), lab) for p, x, lab in probes]))
    theta = fit(probes, args.l2, args.steps)
    report: dict[str, Any] = {"probes": len(probes), "fitted_current@1": round(first(probes, theta), 4)}
    if args.folds > 1:
        report["cross_validated_current@1"] = cross_validate(probes, args.folds, args.l2, args.steps)
    files = sorted({f.name for f in (args.file or HERE.glob("people_tune*.json"))})
    payload = {
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in theta],
        "trained_on": f"{len(people)} people of the user-path tune half ({', '.join(files)}),"
        f" {len(probes)} probes, {date.today().isoformat()}; l2 {args.l2}",
        "fit": report,
    }
    args.out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
