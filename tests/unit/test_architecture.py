"""The package's boundaries, checked by walking its source (issue 11).

- A private module (a name starting with ``_``, e.g. ``graphmem.store._bm25``) is
  imported only from inside its own package: other packages use the public API.
- Outside ``graphmem/store/`` (whose backends are composed of private parts) no module
  reaches into another object's private attribute (``memory._reader``,
  ``store._driver``); ``self._x`` and ``cls._x`` are the object's own.
- The library imports neither the benchmark harness (``bench/``, outside the package) nor
  the command line (``graphmem.cli``); ``bench`` takes from ``graphmem.cli`` only its
  shared toolkit, ``graphmem.cli.common`` (options, console, progress bar, facade).
- The subpackages import each other without a cycle (``write`` ↔ ``retrieval`` was one).
- The stores are composed, not inherited: no class of ``graphmem/store/`` derives from
  another of its classes except :class:`~graphmem.store._composed.ComposedStore` and the
  role protocols, and none raises ``NotImplementedError`` (a stub a subclass must fill);
  store modules stay under 400 lines and their functions under 60.
- Each backend's parts live in its own subpackage (``graphmem/store/neo4j/``,
  ``graphmem/store/embedded/``): no other store module imports its driver (``neo4j``,
  ``sqlite3``), and neither backend imports the other.
- The language floor (``graphmem/language/``: claims, question reading, time
  expressions, vocabulary, the stemmer and stop words, the spaCy loader) sits below the
  read and write paths: it imports only itself and ``graphmem.text``.
- The read path (``graphmem/retrieval/``) imports nothing from the write path
  (``graphmem/write/``), the facade, the guards, the extractors or the MCP server, and
  the write path nothing from the read path, the facade, the guards or the MCP server.
- Recall's stages (``retrieval/retrievers/``, ``planning/``, ``rescoring/``,
  ``ranking/``; docs/structure.md) import only the stages below them, in that order, and
  none imports the pipeline that runs them (``retrieval/pipeline.py``, ``access.py``).
- No module is longer than ``MODULE_LINES`` and no function's body longer than
  ``FUNCTION_LINES`` (outside ``graphmem/store/``, which its own split covers), unless
  :data:`LONG_MODULES` / :data:`LONG_FUNCTIONS` name it with the reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

import graphmem

ROOT = Path(graphmem.__file__).parent

MODULE_LINES = 400
# A function's body: its statements, from the first after the docstring to the last.
# The signature (typer's option tables, keyword-only constants) and the docstring are
# documentation the standards ask for, not logic, and are not counted.
FUNCTION_LINES = 60

# path (from the repository root) -> why it is longer than MODULE_LINES
LONG_MODULES: dict[str, str] = {}
# "path:function" -> why its body is longer than FUNCTION_LINES
LONG_FUNCTIONS: dict[str, str] = {}


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("graphmem", *path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _package(module: str, path: Path) -> str:
    """The package a module belongs to (itself for a package's ``__init__``)."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, dotted name)`` of every graphmem module or name imported, at any depth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def private_imports(module: str, path: Path, source: str) -> list[str]:
    """Imports in ``source`` of a private module of a package other than the importer's."""
    own = _package(module, path)
    found = []
    for line, name in _imports(ast.parse(source)):
        if not name.startswith("graphmem."):
            continue
        parts = name.split(".")
        for i, part in enumerate(parts[1:], start=1):
            if part.startswith("_") and not part.startswith("__"):
                owner = ".".join(parts[:i])  # the package holding the private module
                if own != owner and not own.startswith(owner + "."):
                    found.append(f"{path.relative_to(ROOT.parent)}:{line} imports {name}")
                break
    return found


def private_attributes(path: Path, source: str) -> list[str]:
    """``x._name`` in ``source`` where ``x`` is not ``self`` or ``cls``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {ast.unparse(node)}")
    return found


def test_no_module_imports_another_packages_private_module() -> None:
    found = [
        hit
        for module, path in _modules()
        for hit in private_imports(module, path, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_no_module_outside_the_stores_touches_a_private_attribute() -> None:
    store = ROOT / "store"
    found = [
        hit
        for _, path in _modules()
        if store not in path.parents
        for hit in private_attributes(path, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_subpackages_import_each_other_without_a_cycle() -> None:
    graph: nx.DiGraph = nx.DiGraph()
    for module, path in _modules():
        source_package = ".".join(module.split(".")[:2])
        for _, name in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name.startswith("graphmem."):
                target = ".".join(name.split(".")[:2])
                if target != source_package:
                    graph.add_edge(source_package, target)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, cycles


# -- floors ------------------------------------------------------------------------
# what the language floor may import: itself and the text helpers
LANGUAGE_MAY_IMPORT = ("graphmem.language", "graphmem.text")
# package -> the packages it may not import (the read and write paths, side by side)
MAY_NOT_IMPORT: dict[str, tuple[str, ...]] = {
    "graphmem.retrieval": (
        "graphmem.write",
        "graphmem.facade",
        "graphmem.guards",
        "graphmem.extract",
        "graphmem.mcp",
    ),
    "graphmem.write": ("graphmem.retrieval", "graphmem.facade", "graphmem.guards", "graphmem.mcp"),
}
# recall's stages, lowest first: a stage imports only those before it (the planner asks
# the concept index, a retriever's, whether the concept walk applies)
RETRIEVAL_STAGES = ("retrievers", "planning", "rescoring", "ranking")
# what runs the stages: no stage imports these
RETRIEVAL_TOP = ("pipeline", "access")


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _later_stage(module: str, name: str) -> bool:
    """Whether recall stage ``module`` imports ``name``, a later stage or the pipeline."""
    if not (_within(module, "graphmem.retrieval") and _within(name, "graphmem.retrieval")):
        return False
    own, other = module.split(".")[2:3], name.split(".")[2:3]
    if not own or not other or own[0] not in RETRIEVAL_STAGES:
        return False
    if other[0] in RETRIEVAL_TOP:
        return True
    return other[0] in RETRIEVAL_STAGES and (
        RETRIEVAL_STAGES.index(other[0]) > RETRIEVAL_STAGES.index(own[0])
    )


def floor_violations(module: str, source: str) -> list[str]:
    """Imports in ``source`` (of ``module``) that cross a floor: the language floor
    importing anything but :data:`LANGUAGE_MAY_IMPORT`, a package importing one of
    :data:`MAY_NOT_IMPORT`, a recall stage importing a later stage or the pipeline."""
    found = []
    for line, name in _imports(ast.parse(source)):
        if not name.startswith("graphmem."):
            continue
        hit = f"{module}:{line} imports {name}"
        if _within(module, "graphmem.language"):
            if not any(_within(name, ok) for ok in LANGUAGE_MAY_IMPORT):
                found.append(hit)
            continue
        for package, banned in MAY_NOT_IMPORT.items():
            if _within(module, package) and any(_within(name, b) for b in banned):
                found.append(hit)
        if _later_stage(module, name):
            found.append(hit)
    return sorted(set(found))


def test_the_floors_hold() -> None:
    found = [
        hit
        for module, path in _modules()
        for hit in floor_violations(module, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_recall_stages_are_subpackages() -> None:
    retrieval = ROOT / "retrieval"
    assert {p.name for p in retrieval.iterdir() if (p / "__init__.py").exists()} == set(
        RETRIEVAL_STAGES
    )


def test_floor_violations_are_found() -> None:
    lang = "graphmem.language.claims"
    assert floor_violations(lang, "from graphmem.entities import EntityDictionary\n")
    assert floor_violations(lang, "from graphmem.write.dedup import update_wins\n")
    assert floor_violations(lang, "import graphmem.retrieval.pipeline\n")
    assert floor_violations(lang, "from graphmem.language.words import stem\n") == []
    assert floor_violations(lang, "from graphmem.text import normalize\n") == []
    assert floor_violations(lang, "import re\n") == []
    ranker = "graphmem.retrieval.ranking.ranker"
    assert floor_violations(ranker, "from graphmem.write.matching import x\n")
    assert floor_violations(ranker, "from graphmem.language.claims import Claim\n") == []
    assert floor_violations("graphmem.write.dedup", "from graphmem.retrieval import x\n")
    assert floor_violations("graphmem.retrieval.access", "from graphmem.facade import x\n")
    retriever = "graphmem.retrieval.retrievers.graph"
    assert floor_violations(retriever, "from graphmem.retrieval.ranking.ranker import x\n")
    assert floor_violations(retriever, "from graphmem.retrieval.planning import x\n")
    assert floor_violations(retriever, "from graphmem.retrieval.pipeline import x\n")
    assert floor_violations(retriever, "from graphmem.retrieval.ahead import x\n") == []
    assert floor_violations(ranker, "from graphmem.retrieval.rescoring.masking import x\n") == []
    planner = "graphmem.retrieval.planning.planner"
    assert floor_violations(planner, "from graphmem.retrieval.retrievers import x\n") == []
    assert floor_violations(planner, "from graphmem.retrieval.rescoring import x\n")
    assert (
        floor_violations("graphmem.retrieval.pipeline", "import graphmem.retrieval.ranking\n") == []
    )


BENCH = ROOT.parent / "bench"


def upward_imports(module: str, source: str) -> list[str]:
    """Imports in ``source`` that a library module may not make: the benchmark harness
    (``bench``, outside the package) or the command line (``graphmem.cli``, a user of the
    library like ``bench``); ``graphmem.cli``'s own modules may import ``graphmem.cli``."""

    def within(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")

    in_cli = within(module, "graphmem.cli")
    found = {
        f"{module}:{line} imports {name}"
        for line, name in _imports(ast.parse(source))
        if within(name, "bench") or (within(name, "graphmem.cli") and not in_cli)
    }
    return sorted(found)


def test_the_library_imports_neither_the_bench_nor_the_cli() -> None:
    found = [
        hit
        for module, path in _modules()
        for hit in upward_imports(module, path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


# what the bench may take from the command line: its shared options, console, progress
# bar and facade (the bench's commands are typer commands like graphmem's)
BENCH_MAY_IMPORT = ("graphmem.cli.common",)


def bench_cli_imports(name: str, source: str) -> list[str]:
    """Imports in the bench module ``name`` of a part of ``graphmem.cli`` other than
    :data:`BENCH_MAY_IMPORT` (a command module: what the bench needs of it belongs in
    the bench)."""
    return [
        f"{name}:{line} imports {imported}"
        for line, imported in _imports(ast.parse(source))
        if imported.startswith("graphmem.cli.")
        and not any(imported == ok or imported.startswith(ok + ".") for ok in BENCH_MAY_IMPORT)
    ]


def test_the_bench_imports_only_the_clis_shared_toolkit() -> None:
    found = [
        hit
        for path in sorted(BENCH.rglob("*.py"))
        for hit in bench_cli_imports(
            path.relative_to(BENCH.parent).as_posix(), path.read_text(encoding="utf-8")
        )
    ]
    assert not found, "\n".join(found)


def test_bench_cli_imports_are_found() -> None:
    assert bench_cli_imports("bench/real_replay.py", "from graphmem.cli.locomo_cmds import X\n")
    assert bench_cli_imports("bench/x.py", "from graphmem.cli import main\n")
    assert bench_cli_imports("bench/x.py", "from graphmem.cli import common\n") == []
    assert bench_cli_imports("bench/x.py", "from graphmem.cli.common import err\n") == []


def test_upward_imports_are_found() -> None:
    assert upward_imports("graphmem.facade.base", "from bench.locomo import x\n")
    assert upward_imports("graphmem.memory", "import bench\n")
    assert upward_imports("graphmem.mcp.tools", "from graphmem.cli.common import console\n")
    assert upward_imports("graphmem.mcp.tools", "from graphmem.cli import common\n")
    assert upward_imports("graphmem.cli.main", "from graphmem.cli import common\n") == []
    assert upward_imports("graphmem.memory", "from graphmem.benchmarks import x\n") == []


def _body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = node.body
    first = body[0]
    is_docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    if is_docstring and isinstance(first.value.value, str):  # type: ignore[attr-defined]
        body = body[1:]
    if not body:
        return 0
    return (body[-1].end_lineno or body[-1].lineno) - body[0].lineno + 1


def long_function_bodies(path: Path, source: str) -> dict[str, int]:
    """``{"path:name": body lines}`` of the functions in ``source`` over FUNCTION_LINES."""
    rel = path.relative_to(ROOT.parent).as_posix()
    return {
        f"{rel}:{node.name}": lines
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (lines := _body_lines(node)) > FUNCTION_LINES
    }


def _outside_the_stores() -> Iterator[Path]:
    store = ROOT / "store"
    return (path for _, path in _modules() if store not in path.parents)


def test_no_module_is_long_without_a_reason() -> None:
    lengths = {
        path.relative_to(ROOT.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in _outside_the_stores()
    }
    long = {path: n for path, n in lengths.items() if n > MODULE_LINES}
    unexplained = {path: n for path, n in long.items() if path not in LONG_MODULES}
    assert not unexplained, f"modules over {MODULE_LINES} lines: {unexplained}"
    stale = sorted(path for path in LONG_MODULES if lengths.get(path, 0) <= MODULE_LINES)
    assert not stale, f"allowed as long but no longer are (drop them): {stale}"


def test_no_function_is_long_without_a_reason() -> None:
    found: dict[str, int] = {}
    for path in _outside_the_stores():
        found |= long_function_bodies(path, path.read_text(encoding="utf-8"))
    unexplained = {name: n for name, n in found.items() if name not in LONG_FUNCTIONS}
    assert not unexplained, f"function bodies over {FUNCTION_LINES} lines: {unexplained}"
    stale = sorted(name for name in LONG_FUNCTIONS if name not in found)
    assert not stale, f"allowed as long but no longer are (drop them): {stale}"


# -- the checks themselves catch what they name -------------------------------------
@pytest.mark.parametrize(
    ("module", "file", "source", "caught"),
    [
        (
            "graphmem.retrieval.planning.planner",
            "retrieval/planning/planner.py",
            "from graphmem.store._bm25 import x",
            True,
        ),
        (
            "graphmem.retrieval.planning.planner",
            "retrieval/planning/planner.py",
            "import graphmem.store.neo4j._codec",
            True,
        ),
        (
            "graphmem.retrieval.planning.planner",
            "retrieval/planning/planner.py",
            "from graphmem.store import _bm25",
            True,
        ),
        ("graphmem.facade.reads", "facade/reads.py", "from graphmem.store._bm25 import x", True),
        (
            "graphmem.store.embedded.store",
            "store/embedded/store.py",
            "from graphmem.store._bm25 import x",
            False,
        ),
        (
            "graphmem.store.embedded._reads",
            "store/embedded/_reads.py",
            "from graphmem.store.neo4j._codec import x",
            True,
        ),
        ("graphmem.store", "store/__init__.py", "from graphmem.store._bm25 import x", False),
        (
            "graphmem.retrieval.planning.planner",
            "retrieval/planning/planner.py",
            "from graphmem.store.lucene import x",
            False,
        ),
    ],
)
def test_private_imports_are_found(module: str, file: str, source: str, caught: bool) -> None:
    assert bool(private_imports(module, ROOT / file, source)) is caught


def test_private_attributes_are_found() -> None:
    source = "memory._reader.flush()\nself._lock\ncls._cache\nmemory.flush()\nx.__class__\n"
    found = private_attributes(ROOT / "facade/reads.py", source)
    assert [hit.split(" ", 1)[1] for hit in found] == ["memory._reader"]


# -- the stores' structure ------------------------------------------------------------
STORE = ROOT / "store"
# bases a store class may name: the composition root and the role protocols
ALLOWED_STORE_BASES = frozenset(
    {
        "ComposedStore",
        "StoreLifecycle",
        "StoreWrites",
        "StoreMaintenance",
        "StoreLookups",
        "StoreRetrievers",
        "StoreForgetting",
    }
)


def inherited_store_classes(sources: dict[str, str]) -> list[str]:
    """``Class(Base)`` where both are classes of ``sources`` (store modules) and ``Base``
    is not an allowed one: an inheritance chain between a backend's parts."""
    trees = {name: ast.parse(source) for name, source in sources.items()}
    defined = {
        node.name
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for base in node.bases:
                base_name = ast.unparse(base).split("[")[0].rpartition(".")[2]
                if base_name in defined and base_name not in ALLOWED_STORE_BASES:
                    found.append(f"{name}: {node.name}({base_name})")
    return found


def not_implemented_stubs(name: str, source: str) -> list[str]:
    """Every ``raise NotImplementedError`` in ``source``."""
    return [
        f"{name}:{node.lineno}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Raise)
        and node.exc is not None
        and "NotImplementedError" in ast.unparse(node.exc)
    ]


def long_functions(name: str, source: str, limit: int = 60) -> list[str]:
    """Functions of ``source`` longer than ``limit`` lines (docstring included)."""
    return [
        f"{name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def _store_sources() -> dict[str, str]:
    """``{"store/neo4j/_reads.py": source}`` of every module of ``graphmem/store/``."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(STORE.rglob("*.py"))
    }


# each backend's subpackage and the driver only it may import
BACKENDS = {"neo4j": "neo4j", "embedded": "sqlite3"}


def backend_leaks(name: str, source: str) -> list[str]:
    """Imports in the store module ``name`` (``store/x.py``, ``store/neo4j/_x.py``) of a
    backend's driver or subpackage other than the module's own: a backend's parts live
    in ``store/neo4j/`` or ``store/embedded/``, and neither backend imports the other."""
    parts = name.split("/")
    own = parts[1] if len(parts) > 2 else None
    found = []
    for line, imported in _imports(ast.parse(source)):
        for backend, driver in BACKENDS.items():
            if backend == own:
                continue
            package = f"graphmem.store.{backend}"
            inside = imported == package or imported.startswith(package + ".")
            if inside or imported.split(".")[0] == driver:
                found.append(f"{name}:{line} imports {imported}")
    return sorted(set(found))


def test_the_stores_are_composed_not_inherited() -> None:
    sources = _store_sources()
    assert not inherited_store_classes(sources), inherited_store_classes(sources)
    stubs = [hit for name, source in sources.items() for hit in not_implemented_stubs(name, source)]
    assert not stubs, stubs


def test_each_backend_lives_in_its_own_subpackage() -> None:
    assert {path.name for path in STORE.iterdir() if path.is_dir()} >= set(BACKENDS)
    sources = _store_sources()
    leaks = [hit for name, source in sources.items() for hit in backend_leaks(name, source)]
    assert not leaks, leaks


def test_backend_leaks_are_found() -> None:
    assert backend_leaks("store/checks.py", "import sqlite3\n") == [
        "store/checks.py:1 imports sqlite3"
    ]
    assert backend_leaks("store/base.py", "from neo4j.exceptions import AuthError\n")
    assert backend_leaks("store/embedded/_reads.py", "from graphmem.store.neo4j import _codec\n")
    assert backend_leaks("store/neo4j/_reads.py", "from graphmem.store import embedded\n")
    assert (
        backend_leaks("store/neo4j/_exec.py", "import neo4j\nimport graphmem.store._bm25\n") == []
    )
    assert backend_leaks("store/embedded/_db.py", "import sqlite3\n") == []


def test_store_modules_and_functions_stay_small() -> None:
    sources = _store_sources()
    big = [f"{name} ({n} lines)" for name, s in sources.items() if (n := len(s.splitlines())) > 400]
    assert not big, big
    long = [hit for name, source in sources.items() for hit in long_functions(name, source)]
    assert not long, long


def test_the_structure_checks_catch_what_they_name() -> None:
    chain = {
        "_reads.py": "class Reads:\n    pass\n",
        "_maintenance.py": "class Maintenance(Reads):\n    pass\n",
        "store.py": "class Store(ComposedStore):\n    pass\nclass ComposedStore:\n    pass\n",
    }
    assert inherited_store_classes(chain) == ["_maintenance.py: Maintenance(Reads)"]
    stub = "class A:\n    def run(self):\n        raise NotImplementedError  # by B\n"
    assert not_implemented_stubs("a.py", stub) == ["a.py:3"]
    assert not_implemented_stubs("a.py", "raise ValueError('NotImplemented')\n") == []
    body = "def f():\n" + "    x = 1\n" * 60
    assert long_functions("f.py", body) == ["f.py:1 f (61 lines)"]
    assert long_functions("f.py", "def f():\n" + "    x = 1\n" * 59) == []


def test_long_functions_count_the_body_only() -> None:
    docstring = '    """Doc."""\n' + "    # note\n" * 10
    body = "    x = 1\n" * FUNCTION_LINES
    short = f"def f(\n    a: int,\n    b: int,\n) -> None:\n{docstring}{body}"
    assert long_function_bodies(ROOT / "facade/reads.py", short) == {}
    long = short + "    return None\n"
    assert long_function_bodies(ROOT / "facade/reads.py", long) == {
        "graphmem/facade/reads.py:f": FUNCTION_LINES + 1
    }
