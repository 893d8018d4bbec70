"""Rewrite the library's citations so that each resolves inside the repository.

In ``graphmem/**/*.py`` (comments, docstrings and help texts alike):

- ``SPEC §N`` (also broken over a line) becomes ``docs/spec.md §N``, whose
  sections keep the numbers of the specification the code was written to;
  ``SPEC.md`` becomes ``docs/spec.md``; the few other uses of the word are
  reworded (:data:`EXPLICIT`);
- ``seed 00N ...`` (a design note the repository does not hold) is dropped
  where the same parenthesis already cites ``docs/spec.md``, and otherwise
  replaced by the section of ``docs/spec.md`` that states the formula
  (:data:`SEED_SECTIONS`);
- ``issue N`` (history, which belongs in ``git log``) is dropped, with its
  punctuation, so that the sentence still reads.

Usage::

    python scripts/rewrite_citations.py          # rewrite, print counts
    python scripts/rewrite_citations.py --check  # rewrite nothing; exit 1 if any is left
    python scripts/rewrite_citations.py --docs   # also link docs pages' "SPEC §N" to spec.md

Run it again after a rebase: it is idempotent. ``tests/unit/test_docs_citations.py``
checks the result (nothing left, every ``docs/...`` reference resolves).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = "docs/spec.md"
#: The width a rewritten docstring or comment line is wrapped to (ruff's line length).
WIDTH = 100

#: Rewordings applied first, verbatim, to every file: sentences where a mechanical
#: rule would not read well. Each ``old`` is specific enough to occur only where meant.
EXPLICIT: tuple[tuple[str, str], ...] = (
    # --- SPEC used as a word, not a section reference
    ("for the\nSPEC formulas,", "for the\nformulas of docs/spec.md,"),
    ("names the SPEC value it departs from", "names the docs/spec.md value it departs from"),
    ("its SPEC value and the measurement", "its docs/spec.md value and the measurement"),
    (
        "Turns / observations R@10: SPEC weights",
        "Turns / observations R@10: docs/spec.md §3 weights",
    ),
    ("(observations) with SPEC weights.", "(observations) with docs/spec.md §3 weights."),
    (
        '"Entity weight in the entity-centric plan (SPEC: 2.0;',
        '"Entity weight in the entity-centric plan (docs/spec.md §3: 2.0;',
    ),
    (
        '"Temporal weight in the temporal-anchored plan (SPEC: 1.5;',
        '"Temporal weight in the temporal-anchored plan (docs/spec.md §3: 1.5;',
    ),
    (
        "computes the new state with the SPEC\nformulas,",
        "computes the new state with the formulas of\ndocs/spec.md,",
    ),
    ("the SPEC's BM25", "the BM25 of docs/spec.md §3"),
    ("The SPEC uses Lucene's formula", "docs/spec.md §3 uses Lucene's formula"),
    ("(SPEC: 1.2)", "(docs/spec.md §3: 1.2)"),
    ("(SPEC: 0.75)", "(docs/spec.md §3: 0.75)"),
    ("one of the five SPEC types", "one of the five types of docs/spec.md §1"),
    # --- seeds in running text
    ('(SPEC §2.10, §2.11; seed 000 "GDPR deletion")', '(SPEC §2.10, §2.11, §1 "Provenance")'),
    (
        'Seed 001\'s "cosine above 0.92 essentially guarantees same fact" is false for',
        "The source rule that a cosine above 0.92 means the same fact is false for",
    ),
    ("Seed 004 composite profile:", "The composite profile (docs/spec.md §4):"),
    ("# with seed 003 cold reactivation:", "# with cold reactivation (docs/spec.md §4):"),
    ("The seed's risk level (seed 001", "The risk level (seed 001"),
    ("(SPEC §4, §9.7; seeds 003 and 004)", "(SPEC §4, §9.7)"),
    (
        "access updates (SPEC §4) and cold reactivations (seed 003) on one",
        "access updates and cold reactivations (SPEC §4) on one",
    ),
    ("(SPEC §10; seed 001's second guard)", '(SPEC §10 "Consistency scan")'),
    # --- issues whose sentence needs more than dropping the reference
    (
        "entities with the memory's confidence (issue 2, step 6).",
        "entities with the memory's confidence (docs/spec.md §2.12).",
    ),
    ("indexes of before issue 13 (memory_content", "indexes of older versions (memory_content"),
    ("unquantised (issue 13,\n# 2026.08.1,", "unquantised (Neo4j\n# 2026.08.1,"),
    (
        '" Issue 10: 0.3 with the finite-population factor',
        '" Then 0.3 with the finite-population factor',
    ),
    ("# Issue 10 (BENCHMARKS.md §3,", "# Access and currency (BENCHMARKS.md §3,"),
    (
        '" issue measured 36-60 vs 150 on an idle box)',
        '" measurement on an idle box gave 36-60 vs 150)',
    ),
)

#: Where a seed's idea is stated in docs/spec.md, by (seed, qualifier) — the
#: qualifier being its appendix letter or the quoted heading; ``None``: the seed
#: cited alone.
SEED_SECTIONS: dict[tuple[str, str | None], str] = {
    ("000", None): "§2.4",
    ("000", '"GDPR deletion"'): '§1 "Provenance"',
    ("001", None): "§3",
    ("001", "A"): "§2.7",
    ("001", "B"): "§1",
    ("001", "C"): "§2.5",
    ("001", '"Confidence"'): "§2.5",
    ("001", '"Confirmation"'): "§2.10",
    ("001", '"Graph Traversal Scoring"'): '§3 "Graph traversal"',
    ("001", '"Reciprocal Rank Fusion"'): '§3 "Fusion"',
    ("001", '"Diversity"'): '§3 "MMR"',
    ("001", '"Access boost"'): '§3 "Final weight"',
    ("001", '"Combined retrieval weight"'): '§3 "Final weight"',
    ("001", '"Faithfulness and Grounding"'): "§10",
    ("001", '"Faithfulness score"'): '§10 "Read-time faithfulness"',
    ("001", '"All Thresholds in One Place"'): "§8",
    ("002", None): "§2.6",
    ("002", '"logprobs"'): "§2.2",
    ("003", None): "§4",
    ("003", '"cold reactivation"'): "§4",
    ("004", None): "§4",
}

_SEED = r"[Ss]eed 00(\d)(?:\s+App\.\s+([ABC])|,?\s+(\"[^\"]*\"))?"
SEED_GROUP = re.compile(rf"{_SEED}(?:,\s+{_SEED})*")
_SEED_ONE = re.compile(_SEED)
SPEC_REF = re.compile(r"\bSPEC((?:[ \t]*\n[ \t]*(?:#[ \t]*)?)|[ \t]+)(?=§)")
SPEC_FILE = re.compile(r"\bSPEC\.md\b")
ISSUE = r"[Ii]ssue \d+"

#: Leftovers the check reports: what the rewrite must leave none of.
LEFT = re.compile(r"\bSPEC\b|[Ss]eed 00\d|\b[Ii]ssue\s")


def _qualifier(match: re.Match[str]) -> str | None:
    """A seed reference's qualifier, whitespace (a line break inside a quote) folded."""
    raw = match.group(2) or match.group(3)
    return " ".join(raw.split()) if raw else None


def _section(seed_ref: re.Match[str]) -> str:
    seed = seed_ref.group(1)
    key = (seed.rjust(3, "0"), _qualifier(seed_ref))
    return SEED_SECTIONS.get(key) or SEED_SECTIONS[(key[0], None)]


def _open_paren(text: str, end: int) -> int:
    """Index of the unmatched ``(`` before ``end`` (-1 when none within 400 chars)."""
    depth = 0
    for i in range(end - 1, max(-1, end - 400), -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                return i
            depth -= 1
    return -1


def rewrite_spec(text: str) -> str:
    """``SPEC §N`` → ``docs/spec.md §N`` (a line break between stays); ``SPEC.md`` too."""
    text = SPEC_REF.sub(lambda m: SPEC + m.group(1), text)
    return SPEC_FILE.sub(SPEC, text)


def rewrite_seeds(text: str) -> str:
    """Drop a seed group that follows a docs/spec.md citation in the same parenthesis
    (or precedes one: ``(seed 001 ...; docs/spec.md §10)``); replace any other by the
    section that states its formula."""
    out: list[str] = []
    pos = 0
    for match in SEED_GROUP.finditer(text):
        start, end = match.start(), match.end()
        before = text[pos:start]
        opened = _open_paren(text, start)
        inside = text[opened:start] if opened >= 0 else ""
        separator = re.search(r"[;,]\s*$", before)
        following = re.match(r";\s*docs/spec\.md §", text[end:])
        if opened >= 0 and SPEC + " §" in inside and separator is not None:
            out.append(before[: separator.start()])
        elif following is not None:
            out.append(before)
            end += following.end() - len("docs/spec.md §")
        else:
            out.append(before + SPEC + " " + _section(_SEED_ONE.match(match.group(0))))  # type: ignore[arg-type]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def rewrite_issues(text: str) -> str:
    """Drop ``issue N`` with the punctuation that joined it to the sentence."""
    text = re.sub(rf"\s*\({ISSUE}\)", "", text)  # "... (issue 12)."
    text = re.sub(rf"\({ISSUE}[;,:]\s*", "(", text)  # "(issue 12; HippoRAG's ...)"
    text = re.sub(rf"[;,]\s+{ISSUE}(?=\))", "", text)  # "(... ; issue 15)"
    return text


def rewrite(text: str) -> str:
    """Every rule of this module, in order, then :func:`reflow`; idempotent."""
    new = text
    for old, replacement in EXPLICIT:
        new = new.replace(old, replacement)
    new = rewrite_issues(rewrite_seeds(rewrite_spec(new)))
    return reflow(text, new) if new != text else text


def _prose_lines(text: str) -> set[int]:
    """0-based numbers of the lines inside docstrings (module, class, function)."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
                and first.end_lineno is not None
            ):
                lines.update(range(first.lineno - 1, first.end_lineno))
    return lines


_PARAGRAPH_BREAK = re.compile(r'(?:[-*] |\d+\. |>>>|\.\. |"""|\'\'\'|[A-Z][a-z]+\n|-{3,}|$)')


def reflow(original: str, text: str) -> str:
    """Lines of docstrings and comments that the rewrite made longer than
    :data:`WIDTH` are cut at their last space that fits; the words cut off start
    the next line of the same paragraph (pushing its overflow on in turn), or a new
    line with the same indent. Lines that were as long before, code and string
    literals are left as they are."""
    before = set(original.splitlines())
    lines = text.splitlines()
    prose = _prose_lines(text)
    i = 0
    while i < len(lines):
        line = lines[i]
        comment = re.match(r"[ \t]*#:?[ \t]*", line)
        if len(line) <= WIDTH or line in before or not (comment or i in prose):
            i += 1
            continue
        prefix = comment.group(0) if comment else line[: len(line) - len(line.lstrip())]
        cut = line.rfind(" ", len(prefix) + 1, WIDTH + 1)
        if cut <= len(prefix):
            i += 1
            continue
        head, tail = line[:cut].rstrip(), line[cut + 1 :]
        lines[i] = head
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        same = (
            nxt is not None
            and nxt.startswith(prefix)
            and (comment is None) == (re.match(r"[ \t]*#", nxt) is None)
            and (comment is not None or i + 1 in prose)
            and nxt[len(prefix) :].strip() != ""
            and not nxt[len(prefix)].isspace()
            and not _PARAGRAPH_BREAK.match(nxt[len(prefix) :])
        )
        if same:
            lines[i + 1] = prefix + tail + " " + nxt[len(prefix) :]  # type: ignore[index]
        else:
            lines.insert(i + 1, prefix + tail)
            prose = {n + 1 if n > i else n for n in prose} | ({i + 1} if i in prose else set())
        i += 1
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")


#: Docs pages the ``--docs`` pass leaves alone: the specification itself, the dated
#: results log (history) and the generated configuration page (regenerate it instead).
DOCS_SKIPPED = frozenset({"spec.md", "benchmarks-log.md", "configuration.md", "README.md"})


def spec_anchors(spec_text: str) -> dict[str, str]:
    """Section number → the GitHub anchor of its heading in docs/spec.md."""
    anchors: dict[str, str] = {}
    for match in re.finditer(r"^#{2,4} (§(\d+(?:\.\d+)*)\b.*)$", spec_text, re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
        anchors[match.group(2)] = slug
    return anchors


def rewrite_docs_page(text: str, anchors: dict[str, str]) -> str:
    """In a docs page, ``SPEC §N`` becomes a link to the section of spec.md."""

    def link(match: re.Match[str]) -> str:
        number = match.group(1)
        anchor = anchors.get(number)
        return f"[spec §{number}](spec.md#{anchor})" if anchor else f"spec.md §{number}"

    return re.sub(r"\bSPEC §(\d+(?:\.\d+)*)", link, text)


def leftovers(text: str) -> list[str]:
    """The lines of ``text`` that still hold a ``SPEC``, ``seed 00N`` or ``issue N``."""
    return [line.strip() for line in text.splitlines() if LEFT.search(line)]


def _count(text: str) -> dict[str, int]:
    return {
        "SPEC §": len(SPEC_REF.findall(text)),
        "seed 00N": len(re.findall(r"[Ss]eed 00\d", text)),
        "issue N": len(re.findall(ISSUE, text)),
        "docs/spec.md §": text.count(SPEC + " §"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="rewrite nothing; report")
    parser.add_argument("--root", type=Path, default=ROOT / "graphmem")
    parser.add_argument(
        "--docs", action="store_true", help="also link docs pages' SPEC §N to docs/spec.md"
    )
    args = parser.parse_args(argv)
    if args.docs and not args.check:
        docs = args.root.parent / "docs"
        anchors = spec_anchors((docs / "spec.md").read_text(encoding="utf-8"))
        for page in sorted(docs.glob("*.md")):
            if page.name in DOCS_SKIPPED:
                continue
            old = page.read_text(encoding="utf-8")
            new = rewrite_docs_page(old, anchors)
            if new != old:
                page.write_text(new, encoding="utf-8")
                print(f"linked: docs/{page.name}")
    before: dict[str, int] = {}
    after: dict[str, int] = {}
    changed = 0
    left: list[str] = []
    for path in sorted(args.root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        new = text if args.check else rewrite(text)
        for key, value in _count(text).items():
            before[key] = before.get(key, 0) + value
        for key, value in _count(new).items():
            after[key] = after.get(key, 0) + value
        left.extend(f"{path.relative_to(args.root.parent)}: {line}" for line in leftovers(new))
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed += 1
    print(f"files changed: {changed}")
    for key in before:
        print(f"{key:>16}: {before[key]:4d} -> {after[key]:4d}")
    for line in left:
        print(f"left: {line}")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main())
