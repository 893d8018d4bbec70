"""The lifecycle benchmark: memory that stays right over time (docs/benchmarks.md "Memory over
time").

    scenarios  the project's own people, statements, probes   load_people, Person
    runner     ingest, phases, metrics                        run_lifecycle

``python -m bench lifecycle`` runs it from the command line.
"""

from bench.lifecycle.runner import (
    MODES,
    PHASES,
    SettableClock,
    namespace_for,
    run_lifecycle,
)
from bench.lifecycle.scenarios import Person, Probe, Session, Statement, load_people

__all__ = [
    "MODES",
    "PHASES",
    "Person",
    "Probe",
    "Session",
    "SettableClock",
    "Statement",
    "load_people",
    "namespace_for",
    "run_lifecycle",
]
