"""``graphmem doctor``: check the configured store and say what is wrong."""

from __future__ import annotations

from rich.console import Console

from graphmem.errors import GraphMemError
from graphmem.memory import GraphMem


def run_doctor(console: Console, memory: GraphMem, namespace: str | None = None) -> bool:
    """Open the store and print its state; ``True`` when everything is usable: the store
    opens and its :meth:`~graphmem.store.base.StoreLifecycle.health` finds no problem
    (every index ONLINE). Per namespace (only ``namespace`` when given, else the first
    20): its counts and any concept drift."""
    console.print(f"store: [bold]{memory.store.name}[/]")
    try:
        memory.open()
    except GraphMemError as exc:
        console.print(f"[red]✗[/] cannot open the store: {exc}")
        return False
    ok = True
    try:
        for key, value in memory.store.server_info().items():
            console.print(f"  {key}: {value}")
        health = memory.store.health()
        for index in health.indexes:
            colour = "[green]" if index.online else "[red]"
            console.print(f"  index {index.name}: {colour}{index.state}[/] ({index.detail})")
        for problem in health.problems:
            console.print(f"  [red]✗[/] {problem}")
        ok = health.ok
        for name in [namespace] if namespace is not None else memory.namespaces()[:20]:
            console.print(f"  namespace {name}: {memory.stats(name)}")
            # concept drift (docs/spec.md §10): reported, never acted on, not a failure
            for drift in memory.drift(name):
                if drift.drift:
                    console.print(f"    [yellow]drift[/] {drift.describe()}")
    except GraphMemError as exc:
        console.print(f"[red]✗[/] the store failed while being checked: {exc}")
        ok = False
    finally:
        memory.close()
    console.print("[green]✓ ok[/]" if ok else "[red]✗ problems found[/]")
    return ok


def run_index_recall(
    console: Console, memory: GraphMem, *, sample: int, max_namespaces: int = 20
) -> bool:
    """``graphmem doctor --index-recall`` (docs/spec.md §10): recall@10 of the store's vector search
    against exact cosine, per namespace (the largest ``max_namespaces``), with ``sample``
    stored embeddings as queries; ``True`` when none is below ``vector_recall_alert``."""
    from graphmem.store.recall_monitor import index_recall

    threshold = memory.settings.guards.vector_recall_alert
    memory.open()
    try:
        sizes = {ns: memory.store.count_memories(ns) for ns in memory.namespaces()}
        chosen = sorted(sizes, key=lambda ns: (-sizes[ns], ns))[:max_namespaces]
        if len(sizes) > len(chosen):
            console.print(f"index recall: the {len(chosen)} largest of {len(sizes)} namespaces")
        ok = True
        for namespace in chosen:
            with console.status(f"index recall: {namespace} ({sizes[namespace]} memories)"):
                found = index_recall(
                    memory.store,
                    namespace,
                    sample=sample,
                    search_k=memory.settings.read.fusion.candidate_k,
                )
            if not found.queries:
                console.print(f"  recall@10 {namespace}: no searchable memories")
                continue
            bad = found.alert(threshold)
            ok &= not bad
            mark = "[red]✗" if bad else "[green]✓"
            console.print(
                f"  {mark} recall@10 {namespace}: {found.recall:.3f}[/] (worst query"
                f" {found.worst:.2f}; {found.queries} sampled queries over {found.memories}"
                f" searchable memories; alert below {threshold:.2f})"
            )
    finally:
        memory.close()
    if not ok:
        console.print(
            "[red]✗ vector index recall below vector_recall_alert[/]: the index loses"
            " neighbours the exact search finds (on Neo4j 2026.x check"
            " GRAPHMEM_NEO4J_VECTOR_QUANTIZATION: binary loses recall; scalar is the default)"
        )
    return ok
