"""The Cypher statements of the Neo4j store, loaded by name from ``.cypher`` files.

Each file holds one parameterised statement; its name is its path below the
statement root without the suffix, e.g. ``"read/vector_search"`` or
``"schema/010_memory_embedding"``. The root is the ``graphmem/_cypher``
folder of an installed wheel (``cypher/`` is packaged there) or, in a source
checkout, the repository's ``cypher/`` folder.

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

__all__ = ["code_only", "load", "names", "parameters", "root"]

SUFFIX = ".cypher"
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
def load(name: str) -> str:
    """The statement called ``name`` (cached), without its trailing ``;`` or whitespace.

    Parameters
    ----------
    name : str
        ``"<folder>/<file stem>"``, lower-case, e.g. ``"write/upsert_memories"``.

    Raises
    ------
    KeyError
        If no such statement exists.
    """
    if not _NAME.match(name):
        raise KeyError(f"not a statement name: {name!r} (expected e.g. 'read/vector_search')")
    node = root()
    for part in f"{name}{SUFFIX}".split("/"):
        node = node / part
    if not node.is_file():
        raise KeyError(f"no Cypher statement {name!r} under {root()}")
    return node.read_text(encoding="utf-8").strip().rstrip(";").rstrip()


@functools.cache
def names() -> tuple[str, ...]:
    """Every statement name, sorted (``schema/...`` names sort in application order)."""
    found: list[str] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(SUFFIX):
                found.append(prefix + child.name[: -len(SUFFIX)])

    walk(root(), "")
    return tuple(sorted(found))


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
