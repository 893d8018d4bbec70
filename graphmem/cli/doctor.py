"""``graphmem doctor``: check the configured store and say what is wrong."""

from __future__ import annotations

from rich.console import Console

from graphmem.errors import GraphMemError
from graphmem.memory import GraphMem


def run_doctor(console: Console, memory: GraphMem) -> bool:
    """Open the store and print its state; ``True`` when everything is usable."""
    console.print(f"store: [bold]{memory.store.name}[/]")
    try:
        memory.open()
    except GraphMemError as exc:
        console.print(f"[red]✗[/] cannot open the store: {exc}")
        return False
    ok = True
    info = getattr(memory.store, "server_info", None)
    if callable(info):
        for key, value in info().items():
            console.print(f"  {key}: {value}")
    states = getattr(memory.store, "index_states", None)
    if callable(states):
        for name, state in states().items():
            good = state == "ONLINE"
            ok &= good
            console.print(f"  index {name}: {'[green]' if good else '[red]'}{state}[/]")
    for namespace in memory.namespaces()[:20]:
        console.print(f"  namespace {namespace}: {memory.stats(namespace)}")
        # concept drift (SPEC §10): reported, never acted on, not a failure
        for drift in memory.drift(namespace):
            if drift.drift:
                console.print(f"    [yellow]drift[/] {drift.describe()}")
    memory.close()
    console.print("[green]✓ ok[/]" if ok else "[red]✗ problems found[/]")
    return ok
