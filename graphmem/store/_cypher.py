"""The Cypher statements of the Neo4j store, loaded by name from ``.cypher`` files.

Each file holds one parameterised statement; its name is its path below the
statement root without the suffix, e.g. ``"read/vector_search"`` or
``"schema/010_memory_embedding"``. The root is the ``graphmem/_cypher``
folder of an installed wheel (``cypher/`` is packaged there) or, in a source
checkout, the repository's ``cypher/`` folder.

Statements are written for Neo4j 5.26 LTS (``CYPHER 5``, which 2026.x servers still run by
default). Where a newer server does better, a statement has a variant for that server's
Cypher **dialect** below ``<root>/<dialect>/`` under the same name, with the same
parameters: ``cypher25/`` holds the Neo4j 2026.06+ forms (the in-index filtered vector
search ``SEARCH`` and a vector index declaring filter properties, both ``CYPHER 25``).
:func:`load` with a dialect returns the variant where one exists, else the base statement.

Examples
--------
>>> "read/vector_search" in names()
True
>>> sorted(parameters("MATCH (m:Memory {namespace: $namespace}) // $not_this\\nRETURN $k"))
['k', 'namespace']
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["DIALECTS", "code_only", "load", "names", "parameters", "root", "variants"]

SUFFIX = ".cypher"
#: Dialect folders below the root: each holds variants of base statements, same names.
DIALECTS = ("cypher25",)
_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)+$")
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


@functools.cache
def root() -> Traversable:
    """The folder the statements are read from (packaged copy first, then the source tree)."""
    packaged = resources.files("graphmem") / "_cypher"
    if packaged.is_dir():
        return packaged
    source = Path(__file__).resolve().parents[2] / "cypher"
    if source.is_dir():
        return source
    raise FileNotFoundError(
        f"no Cypher statements found: neither {packaged} nor {source} exists;"
        " reinstall graphmem (the wheel ships them as graphmem/_cypher)"
    )


@functools.cache
def load(name: str, dialect: str | None = None) -> str:
    """The statement called ``name`` (cached), without its trailing ``;`` or whitespace.

    Parameters
    ----------
    name : str
        ``"<folder>/<file stem>"``, lower-case, e.g. ``"write/upsert_memories"``.
    dialect : str, optional
        One of :data:`DIALECTS`: its variant of the statement when it has one.

    Raises
    ------
    KeyError
        If no such statement (or dialect) exists.
    """
    if not _NAME.match(name) or name.partition("/")[0] in DIALECTS:
        raise KeyError(f"not a statement name: {name!r} (expected e.g. 'read/vector_search')")
    if dialect is not None:
        if dialect not in DIALECTS:
            raise KeyError(f"unknown Cypher dialect {dialect!r} (known: {', '.join(DIALECTS)})")
        if name in variants(dialect):
            return _read(f"{dialect}/{name}")
    return _read(name)


def _read(path: str) -> str:
    node = root()
    for part in f"{path}{SUFFIX}".split("/"):
        node = node / part
    if not node.is_file():
        raise KeyError(f"no Cypher statement {path!r} under {root()}")
    return node.read_text(encoding="utf-8").strip().rstrip(";").rstrip()


def _walk(node: Traversable, prefix: str, found: list[str], skip: tuple[str, ...] = ()) -> None:
    for child in node.iterdir():
        if child.is_dir() and child.name not in skip:
            _walk(child, f"{prefix}{child.name}/", found)
        elif child.name.endswith(SUFFIX):
            found.append(prefix + child.name[: -len(SUFFIX)])


@functools.cache
def names() -> tuple[str, ...]:
    """Every base statement name, sorted (``schema/...`` names sort in application order)."""
    found: list[str] = []
    _walk(root(), "", found, skip=DIALECTS)
    return tuple(sorted(found))


@functools.cache
def variants(dialect: str) -> frozenset[str]:
    """Names of the base statements that ``dialect`` replaces (each must be a base name)."""
    folder = root() / dialect
    found: list[str] = []
    if folder.is_dir():
        _walk(folder, "", found)
    return frozenset(found)


def code_only(statement: str) -> str:
    """``statement`` without comments, with string literals emptied (``''``) and
    backtick-quoted names blanked (````), so that what is left is Cypher syntax only."""
    out: list[str] = []
    i, n = 0, len(statement)
    while i < n:
        ch = statement[i]
        if statement.startswith("//", i):
            end = statement.find("\n", i)
            i = n if end < 0 else end
        elif statement.startswith("/*", i):
            end = statement.find("*/", i + 2)
            i = n if end < 0 else end + 2
            out.append(" ")
        elif ch in "'\"`":
            j = i + 1
            while j < n and statement[j] != ch:
                j += 2 if statement[j] == "\\" and ch != "`" else 1
            out.append(ch * 2)
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def parameters(statement: str) -> frozenset[str]:
    """Names of the ``$parameters`` a statement uses (comments and strings ignored)."""
    return frozenset(_PARAM.findall(code_only(statement)))
