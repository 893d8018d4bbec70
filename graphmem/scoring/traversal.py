"""Graph traversal scores and query specificity (docs/spec.md §3).

``traversal_score = hop_score(hops) × path_confidence`` with weakest-link path
confidence (``min`` of the edge confidences, not their product); an entity
reached by several paths keeps its best score. Constants (hop scores,
``max_hops``, specificity weights) come from :class:`graphmem.settings.Settings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphmem.scoring import _checks


def hop_score(hops: int, *, hop_scores: tuple[float, float, float]) -> float:
    """Score of an entity ``hops`` relations away from a query entity.

    Parameters
    ----------
    hops : int
        Path length in relations, ``>= 1``.
    hop_scores : tuple of 3 float
        Scores for 1, 2 and 3-or-more hops, each ``>= 0`` (``Settings.read.graph.hop_scores``).

    Returns
    -------
    float
        ``hop_scores[0]`` for 1 hop, ``[1]`` for 2, ``[2]`` for 3 or more.

    Raises
    ------
    ValueError
        If ``hops < 1`` or ``hop_scores`` is malformed.
    """
    scores = _checks.weights("hop_scores", hop_scores, 3)
    return scores[min(_checks.count("hops", hops, minimum=1), 3) - 1]


def path_confidence(edge_confidences: Sequence[float]) -> float:
    """Weakest-link confidence of a path: ``min`` of its edge confidences.

    Parameters
    ----------
    edge_confidences : sequence of float
        Confidence of each relation on the path, each in ``[0, 1]``.

    Returns
    -------
    float
        In ``[0, 1]``.

    Raises
    ------
    ValueError
        If the sequence is empty or a confidence is NaN or out of ``[0, 1]``.
    """
    if len(edge_confidences) == 0:
        raise ValueError("edge_confidences must hold at least one edge")
    return min(_checks.unit(f"edge_confidences[{i}]", c) for i, c in enumerate(edge_confidences))


def _adjacency(
    edges: Iterable[tuple[str, str, float]], directed: bool
) -> dict[str, dict[str, float]]:
    """Neighbour → best edge confidence, per entity; parallel edges keep the best."""
    adjacency: dict[str, dict[str, float]] = {}
    for index, (source, target, conf) in enumerate(edges):
        value = _checks.unit(f"edges[{index}] confidence", conf)
        if source == target:
            continue
        pairs = [(source, target)] if directed else [(source, target), (target, source)]
        for a, b in pairs:
            neighbours = adjacency.setdefault(a, {})
            neighbours[b] = max(value, neighbours.get(b, value))
    return adjacency


def traversal_scores(
    edges: Iterable[tuple[str, str, float]],
    seeds: Iterable[str],
    *,
    max_hops: int,
    hop_scores: tuple[float, float, float],
    directed: bool = False,
) -> dict[str, tuple[float, int]]:
    """Best traversal score of every entity reachable from the query entities.

    Enumerates the simple paths of at most ``max_hops`` relations from each
    seed (a depth-first search: ``max_hops`` is at most 3 in practice, so the
    number of paths stays small on a namespace's relation graph).

    Parameters
    ----------
    edges : iterable of (str, str, float)
        Relations as ``(source entity, target entity, confidence in [0, 1])``.
        Self-loops are ignored; parallel edges keep the highest confidence.
    seeds : iterable of str
        Entities linked from the query; seeds absent from the graph are ignored.
    max_hops : int
        Longest path considered, ``>= 1`` (``Settings.read.graph.max_hops``).
    hop_scores : tuple of 3 float
        ``Settings.read.graph.hop_scores``, see :func:`hop_score`.
    directed : bool
        Follow relations only from source to target; by default both ways.

    Returns
    -------
    dict of str to (float, int)
        Entity → ``(hop_score(h) × path_confidence, h)`` of its best path; on
        equal scores the path with fewer hops wins. Seeds are never included.

    Raises
    ------
    ValueError
        If ``max_hops < 1``, an edge confidence is out of ``[0, 1]``, or
        ``hop_scores`` is malformed.
    """
    max_hops = _checks.count("max_hops", max_hops, minimum=1)
    per_hop = [hop_score(h, hop_scores=hop_scores) for h in range(1, max_hops + 1)]
    adjacency = _adjacency(edges, directed)
    seed_set = set(seeds)
    best: dict[str, tuple[float, int]] = {}

    def visit(node: str, on_path: set[str], weakest: float, hops: int) -> None:
        for neighbour, conf in adjacency.get(node, {}).items():
            if neighbour in on_path:
                continue
            link = min(weakest, conf)
            if neighbour not in seed_set:
                score = per_hop[hops] * link
                current = best.get(neighbour)
                if (
                    current is None
                    or score > current[0]
                    or (score == current[0] and hops + 1 < current[1])
                ):
                    best[neighbour] = (score, hops + 1)
            if hops + 1 < max_hops:
                on_path.add(neighbour)
                visit(neighbour, on_path, link, hops + 1)
                on_path.remove(neighbour)

    for seed in sorted(seed_set):
        visit(seed, {seed}, 1.0, 0)
    return best


def specificity(
    entity_density: float,
    temporal_precision: float,
    lexical_rarity: float,
    type_cue_strength: float,
    *,
    weights: tuple[float, float, float, float],
) -> float:
    """Query specificity, the weighted sum of four cues (docs/spec.md §3 "Query planner").

    Parameters
    ----------
    entity_density : float
        Resolved entities / query tokens.
    temporal_precision : float
        1.0 exact date, 0.7 relative, 0.3 vague, 0 none (``Settings.read.planning.temporal_precision``).
    lexical_rarity : float
        Mean IDF of the query terms / max IDF in the namespace.
    type_cue_strength : float
        1.0 explicit type word, 0.5 implied, 0 none.
    weights : tuple of 4 float
        ``Settings.read.planning.specificity_weights``, each ``>= 0``.

    Returns
    -------
    float
        In ``[0, sum(weights)]`` (``[0, 1]`` with the default weights). Each
        cue is clipped to ``[0, 1]`` first.

    Raises
    ------
    ValueError
        If a cue is NaN or infinite, or ``weights`` is malformed.
    """
    cues = {
        "entity_density": entity_density,
        "temporal_precision": temporal_precision,
        "lexical_rarity": lexical_rarity,
        "type_cue_strength": type_cue_strength,
    }
    clipped = [min(1.0, max(0.0, _checks.finite(name, v))) for name, v in cues.items()]
    ws = _checks.weights("weights", weights, 4)
    return sum(w * c for w, c in zip(ws, clipped, strict=True))


@dataclass(frozen=True, slots=True)
class PathStep:
    """One relation on a traversal path, in the direction walked.

    ``relevance`` is the edge's question match in ``[floor, 1]``;
    ``forward`` is False when the relation was walked from target to source.
    """

    source: str
    predicate: str
    target: str
    confidence: float
    relevance: float
    memory_id: str
    forward: bool = True


@dataclass(frozen=True, slots=True)
class Reached:
    """An entity reached from a query entity by its best path.

    ``score = hop_score × path_confidence × path_relevance`` (docs/spec.md §3's
    traversal score times the question match, the product of the edges'
    relevances).
    """

    entity_id: str
    score: float
    hop_score: float
    path_confidence: float
    path_relevance: float
    steps: tuple[PathStep, ...]

    @property
    def hops(self) -> int:
        """Path length in relations."""
        return len(self.steps)


def guided_traversal(
    edges: Iterable[PathStep],
    seeds: Iterable[str],
    *,
    max_hops: int,
    hop_scores: tuple[float, float, float],
    avoid: Iterable[str] = (),
) -> dict[str, Reached]:
    """Best question-weighted path to every entity reachable from the query entities.

    Like :func:`traversal_scores` (simple paths of at most ``max_hops``
    relations, walked both ways; docs/spec.md §3's ``hop_score × min(edge
    confidence)``), with each path further multiplied by the product of its
    edges' ``relevance`` (how well each edge matches the question), so
    that among equally distant neighbours the ones the question asks about
    win, and a 2-hop path of matching edges beats a 1-hop edge off topic.

    Parameters
    ----------
    edges : iterable of PathStep
        Relations as given (``forward=True``); ``confidence`` and
        ``relevance`` in ``[0, 1]``. Self-loops are ignored; of parallel edges
        between two entities the one with the higher ``confidence × relevance``
        is walked.
    seeds : iterable of str
        Entities linked from the query; never included in the result.
    max_hops, hop_scores
        As in :func:`traversal_scores`.
    avoid : iterable of str
        Entities no path enters (reached, or passed through).

    Returns
    -------
    dict of str to Reached
        Entity → its best path (highest score; on equal scores fewer hops).

    Raises
    ------
    ValueError
        If ``max_hops < 1``, a confidence or relevance is out of ``[0, 1]``,
        or ``hop_scores`` is malformed.
    """
    max_hops = _checks.count("max_hops", max_hops, minimum=1)
    per_hop = [hop_score(h, hop_scores=hop_scores) for h in range(1, max_hops + 1)]
    adjacency: dict[str, dict[str, PathStep]] = {}
    for index, edge in enumerate(edges):
        _checks.unit(f"edges[{index}] confidence", edge.confidence)
        _checks.unit(f"edges[{index}] relevance", edge.relevance)
        if edge.source == edge.target:
            continue
        backward = PathStep(
            edge.target,
            edge.predicate,
            edge.source,
            edge.confidence,
            edge.relevance,
            edge.memory_id,
            forward=False,
        )
        for step in (edge, backward):
            neighbours = adjacency.setdefault(step.source, {})
            current = neighbours.get(step.target)
            if current is None or (step.confidence * step.relevance, step.memory_id) > (
                current.confidence * current.relevance,
                current.memory_id,
            ):
                neighbours[step.target] = step
    seed_set = set(seeds)
    best: dict[str, Reached] = {}

    def visit(
        node: str, on_path: set[str], path: tuple[PathStep, ...], weakest: float, match: float
    ) -> None:
        hops = len(path)
        for neighbour, step in sorted(adjacency.get(node, {}).items()):
            if neighbour in on_path:
                continue
            link, relevance = min(weakest, step.confidence), match * step.relevance
            steps = (*path, step)
            if neighbour not in seed_set:
                score = per_hop[hops] * link * relevance
                current = best.get(neighbour)
                if (
                    current is None
                    or score > current.score
                    or (score == current.score and hops + 1 < current.hops)
                ):
                    best[neighbour] = Reached(
                        neighbour, score, per_hop[hops], link, relevance, steps
                    )
            if hops + 1 < max_hops:
                on_path.add(neighbour)
                visit(neighbour, on_path, steps, link, relevance)
                on_path.remove(neighbour)

    for seed in sorted(seed_set):
        # a path never passes through another query entity: that one's own paths are shorter
        visit(seed, seed_set | set(avoid), (), 1.0, 1.0)
    return best
