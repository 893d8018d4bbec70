"""``python -m bench``: the benchmark commands (``docs/benchmarks.md``).

    python -m bench locomo FILE          retrieval quality on LoCoMo
    python -m bench import-locomo FILE   LoCoMo conversations as memories
    python -m bench lifecycle            memory over time
    python -m bench forget               the forgetting probe
    python -m bench latency              recall latency and its stages
    python -m bench ingest FILE          ingest throughput

They were ``graphmem bench ...`` and ``graphmem import-locomo``; the options are the
same. Settings come from ``GRAPHMEM_*`` as for ``graphmem``.
"""

from __future__ import annotations

import typer

from bench.cli import forget_cmds, lifecycle_cmds, locomo_cmds, perf_cmds
from graphmem.cli.common import run_app

__all__ = ["app", "main"]

app = typer.Typer(
    name="python -m bench",
    help=(
        "graphmem's benchmarks: retrieval quality (LoCoMo), memory over time (lifecycle,"
        " forget) and speed (latency, ingest). docs/benchmarks.md says what each measures."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.command("locomo")(locomo_cmds.bench_locomo)
app.command("lifecycle")(lifecycle_cmds.bench_lifecycle)
app.command("forget")(forget_cmds.bench_forget)
app.command("latency")(perf_cmds.bench_latency_command)
app.command("ingest")(perf_cmds.bench_ingest_command)
app.command("import-locomo")(locomo_cmds.import_locomo)


def main() -> None:
    """Entry point with graphmem errors turned into one clear line and exit code 2."""
    run_app(app)
