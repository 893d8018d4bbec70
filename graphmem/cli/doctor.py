"""``graphmem doctor``: check the configured store and say what is wrong."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console

from graphmem.errors import GraphMemError
from graphmem.memory import GraphMem


def index_state(entry: object) -> str:
    """The state of one index as ``Neo4jStore.index_states`` reports it (a mapping
    with a ``state`` key, e.g. ``"ONLINE"``), or the entry itself when it is a string."""
    if isinstance(entry, Mapping):
        return str(entry.get("state", "UNKNOWN"))
    return str(entry)


def run_doctor(console: Console, memory: GraphMem) -> bool:
    """Open the store and print its state; ``True`` when everything is usable: the store
    opens and every index is ONLINE."""
    console.print(f"store: [bold]{memory.store.name}[/]")
    try:
        memory.open()
    except GraphMemError as exc:
        console.print(f"[red]✗[/] cannot open the store: {exc}")
        return False
    ok = True
    try:
        info = getattr(memory.store, "server_info", None)
        if callable(info):
            for key, value in info().items():
                console.print(f"  {key}: {value}")
        states = getattr(memory.store, "index_states", None)
        if callable(states):
            for name, entry in states().items():
                state = index_state(entry)
                good = state == "ONLINE"
                ok &= good
                console.print(f"  index {name}: {'[green]' if good else '[red]'}{state}[/]")
        for namespace in memory.namespaces()[:20]:
            console.print(f"  namespace {namespace}: {memory.stats(namespace)}")
            # concept drift (SPEC §10): reported, never acted on, not a failure
            for drift in memory.drift(namespace):
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
    """``graphmem doctor --index-recall`` (SPEC §10): recall@10 of the store's vector search
    against exact cosine, per namespace (the largest ``max_namespaces``), with ``sample``
    stored embeddings as queries; ``True`` when none is below ``vector_recall_alert``."""
    from graphmem.store.recall_monitor import index_recall

    threshold = memory.settings.vector_recall_alert
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
                    memory.store, namespace, sample=sample, search_k=memory.settings.candidate_k
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
