"""The library cites only documents the repository holds (docs/spec.md, intro).

Code, docstrings and help texts of ``graphmem/`` cite the specification as
``docs/spec.md §N`` and other pages as ``docs/<page>.md``. Nothing may point at a
document outside the repository ("SPEC", the seeds) or at the tracker ("issue N":
history belongs in git log), and every reference must land on an existing page and,
with a section number, on an existing section heading of it — with a quoted name
after it (``docs/spec.md §3 "Fusion"``), on a section that says that name.
``scripts/rewrite_citations.py`` rewrites the old forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "graphmem"

#: A page reference, the section numbers that follow it (``§4, §9.4–§9.5``) and an
#: optional quoted name (``"Query planner"``).
PAGE_REF = re.compile(
    r"docs/(?P<page>[A-Za-z0-9_-]+)\.md"
    r"(?P<sections>(?:(?:\s*(?:,|/|–|-|and)\s*|\s+)§\d+(?:\.\d+)*)*)"
    r"(?:'s)?(?:\s+(?P<name>\"[^\"\n]+\"|'[^'\n]+'))?"
)
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
#: Any other document a section number may belong to on the same line.
OTHER_DOC = re.compile(r"\b[A-Za-z0-9_-]+\.md\b")


def _lines() -> Iterator[tuple[str, int, str]]:
    for path in sorted(LIBRARY.rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield rel, number, line


def _texts() -> Iterator[tuple[str, str]]:
    for path in sorted(LIBRARY.rglob("*.py")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def _sections(page: str) -> dict[str, str]:
    """Section number → its text (heading and body, subsections included) of a docs page
    whose headings are numbered ``## §N Title``."""
    text = (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    heads = list(re.finditer(r"^(#{2,4}) §(\d+(?:\.\d+)*)\b.*$", text, re.MULTILINE))
    out: dict[str, str] = {}
    for i, head in enumerate(heads):
        number = head.group(2)
        end = len(text)
        for later in heads[i + 1 :]:
            if not later.group(2).startswith(number + "."):
                end = later.start()
                break
        out[number] = text[head.start() : end]
    return out


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


@pytest.mark.parametrize(
    ("what", "pattern"),
    [
        ("the specification outside the repository (SPEC)", r"\bSPEC\b"),
        ("a seed document outside the repository", r"(?i)\bseeds? 00\d"),
        ("an issue of the tracker (history belongs in git log)", r"(?i)\bissue\s"),
    ],
)
def test_no_citation_outside_the_repository(what: str, pattern: str) -> None:
    found = [f"{rel}:{n}: {line.strip()}" for rel, n, line in _lines() if re.search(pattern, line)]
    assert not found, f"{len(found)} lines cite {what}:\n" + "\n".join(found[:40])


def test_spec_keeps_the_numbering_the_code_cites() -> None:
    """One heading per section of the specification the code was written to: §1–§11,
    the write pipeline's steps §2.1–§2.12 and the decisions §9.1–§9.16, each once."""
    text = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    numbers = re.findall(r"^#{2,4} §(\d+(?:\.\d+)*)\b", text, re.MULTILINE)
    expected = (
        [str(i) for i in range(1, 12)]
        + [f"2.{i}" for i in range(1, 13)]
        + [f"9.{i}" for i in range(1, 17)]
    )
    assert sorted(numbers) == sorted(expected)


def test_every_docs_reference_resolves() -> None:
    """``docs/<page>.md``: the page exists; ``§N`` after it: the page has that section;
    a quoted name after that: the section says it (or, without a section, the page)."""
    problems: list[str] = []
    seen = 0
    for rel, text in _texts():
        for match in PAGE_REF.finditer(text):
            seen += 1
            line = text.count("\n", 0, match.start()) + 1
            where = f"{rel}:{line}: {match.group(0)!r}"
            page = match.group("page")
            path = ROOT / "docs" / f"{page}.md"
            if not path.is_file():
                problems.append(f"{where}: no page docs/{page}.md")
                continue
            numbers = SECTION.findall(match.group("sections"))
            sections = _sections(page) if numbers else {}
            for number in numbers:
                if number not in sections:
                    problems.append(f"{where}: docs/{page}.md has no section §{number}")
            name = match.group("name")
            if name:
                body = sections.get(numbers[-1], "") if numbers else path.read_text("utf-8")
                if _folded(name[1:-1]) not in _folded(body):
                    problems.append(f"{where}: the section does not say {name}")
    assert seen > 300, f"only {seen} docs references found: the pattern is broken"
    assert not problems, "\n".join(problems)


def test_bare_section_numbers_are_spec_sections() -> None:
    """A ``§N`` with no page before it on its line continues a docs/spec.md citation
    (``docs/spec.md §4 ... (§9.5)``): it must be a section of docs/spec.md too."""
    sections = _sections("spec")
    problems = []
    for rel, n, line in _lines():
        for match in SECTION.finditer(line):
            pages = OTHER_DOC.findall(line[: match.start()])
            if pages and pages[-1] != "spec.md":
                continue  # docs/benchmarks.md "Speed and scale", another page's section
            if match.group(1) not in sections:
                problems.append(f"{rel}:{n}: §{match.group(1)} is no section of docs/spec.md")
    assert not problems, "\n".join(problems)


#: Pages that may still say "SPEC": the dated results log (history), the generated
#: configuration page (from the settings' descriptions, checked by
#: test_docs_config.py) and the index, which says what "SPEC" meant.
DOCS_HISTORY = frozenset({"benchmarks-log.md", "configuration.md", "README.md"})


def test_docs_pages_link_the_spec_sections() -> None:
    """The docs pages cite the specification as links to its sections
    (``[spec §9.9](spec.md#99-updates-win-ties)``), and every such link lands on a
    heading of docs/spec.md."""
    spec = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    anchors = {
        re.sub(r"[^\w\- ]", "", head.strip().lower()).replace(" ", "-")
        for head in re.findall(r"^#{1,4} (.+)$", spec, re.MULTILINE)
    }
    problems = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        if page.name not in DOCS_HISTORY and page.name != "spec.md":
            problems += [f"docs/{page.name}: {m}" for m in re.findall(r"SPEC §[\d.]+", text)]
        for anchor in re.findall(
            r"\]\((?:spec\.md)?#([^)]+)\)" if page.name == "spec.md" else r"\]\(spec\.md#([^)]+)\)",
            text,
        ):
            if anchor not in anchors:
                problems.append(f"docs/{page.name}: no heading for spec.md#{anchor}")
    assert not problems, "\n".join(problems)
