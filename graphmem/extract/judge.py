"""The chat model as judge (docs/spec.md §11: "It can also serve as the tier-3 dedup judge and
the consistency / faithfulness judge").

:class:`LLMJudge` implements the three judge protocols with one
:class:`~graphmem.extract.llm.ChatClient` (``GRAPHMEM_LLM_*``; the facade uses it
when ``GRAPHMEM_LLM_JUDGE=true``):

- :class:`~graphmem.write.dedup.DedupJudge` — tier 3: whether an ambiguous
  candidate (cosine in ``[dedup_escalate, dedup_duplicate]``) states the same claim
  as the stored memory;
- :class:`~graphmem.guards.judge.PairJudge` — whether two similar memories about one
  subject contradict (the consistency scan);
- :class:`~graphmem.guards.judge.ClaimJudge` — whether one of the given memories
  entails an answer's claim (read-time faithfulness).

Each is one request with a small JSON schema; a failed request raises
:class:`~graphmem.errors.ExtractionError` (the write or check stops, nothing written).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from graphmem.extract.llm import ChatClient, ChatReply
from graphmem.guards.judge import ClaimVerdict, PairVerdict
from graphmem.models import Memory, MemoryCandidate

if TYPE_CHECKING:  # pragma: no cover
    from graphmem.settings import Settings

__all__ = ["LLMJudge"]


def _schema(verdicts: tuple[str, ...], *, memory: bool = False) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "verdict": {"type": "string", "enum": list(verdicts)},
        "reason": {"type": "string", "description": "one short sentence"},
    }
    if memory:
        properties["memory"] = {
            "type": ["integer", "null"],
            "description": "index of the memory that entails the claim, else null",
        }
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


_SAME = _schema(("same", "different"))
_PAIR = _schema(("conflict", "compatible", "unsure"))
_CLAIM = _schema(("supported", "unsupported"), memory=True)

_SAME_PROMPT = (
    "You decide whether two memories of an AI agent state the same claim (one is a"
    " restatement of the other) or different claims (other facts, other times, other"
    " values, or one contradicts the other). Answer 'same' only when merging them"
    " loses nothing."
)
_PAIR_PROMPT = (
    "You decide whether two memories about the same subject contradict each other:"
    " 'conflict' when both cannot be true now, 'compatible' when both can, 'unsure'"
    " when the text does not tell."
)
_CLAIM_PROMPT = (
    "You decide whether a claim from an answer is supported by memories: 'supported'"
    " when one memory entails it (give that memory's index), else 'unsupported'."
    " Numbers, dates and names must match."
)


class _Verdict(BaseModel):
    model_config = ConfigDict(extra="ignore")
    verdict: str
    reason: str = ""
    memory: int | None = None


class LLMJudge:
    """Dedup, pair and claim judge backed by a chat model (see the module docstring)."""

    def __init__(self, client: ChatClient) -> None:
        self.client = client
        self.name = f"llm:{client.model}"

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMJudge:
        """The judge on the chat model ``GRAPHMEM_LLM_*`` configure (no I/O here).

        Raises
        ------
        ConfigurationError
            ``GRAPHMEM_LLM_MODEL`` is not set.
        """
        return cls(ChatClient.from_settings(settings))

    def _ask(
        self, system: str, user: str, schema: dict[str, Any], allowed: tuple[str, ...]
    ) -> _Verdict:
        def validate(data: dict[str, Any], reply: ChatReply) -> _Verdict:
            verdict = _Verdict.model_validate(data)
            if verdict.verdict not in allowed:
                raise ValueError(f"verdict must be one of {', '.join(allowed)}")
            return verdict

        return self.client.complete_json(
            system, user, schema=schema, name="verdict", validate=validate
        )

    def same(self, candidate: MemoryCandidate, existing: Memory, similarity: float) -> bool:
        """Tier 3 (docs/spec.md §2.7): True when the model says the two state the same claim."""
        user = (
            f"Stored memory: {existing.content}\nNew memory: {candidate.content}\n"
            f"(cosine similarity {similarity:.2f})"
        )
        return self._ask(_SAME_PROMPT, user, _SAME, ("same", "different")).verdict == "same"

    def judge_pair(self, first: Memory, second: Memory, similarity: float) -> PairVerdict:
        """The consistency scan's verdict on two memories (docs/spec.md §10)."""
        user = (
            f"Memory A ({first.last_observed_at.date()}): {first.content}\n"
            f"Memory B ({second.last_observed_at.date()}): {second.content}\n"
            f"(cosine similarity {similarity:.2f})"
        )
        found = self._ask(_PAIR_PROMPT, user, _PAIR, ("conflict", "compatible", "unsure"))
        verdict: Literal["conflict", "compatible", "unsure"] = found.verdict  # type: ignore[assignment]
        return PairVerdict(verdict=verdict, reason=found.reason or f"{self.name} says {verdict}")

    def judge_claim(self, claim: str, memories: Sequence[Memory]) -> ClaimVerdict:
        """Read-time faithfulness (docs/spec.md §10): the memory that entails ``claim``, if any."""
        listed = "\n".join(f"[{i}] {m.content}" for i, m in enumerate(memories))
        user = f"Claim: {claim}\nMemories:\n{listed or '(none)'}"
        found = self._ask(_CLAIM_PROMPT, user, _CLAIM, ("supported", "unsupported"))
        supported = found.verdict == "supported"
        index = found.memory
        memory_id = (
            memories[index].id
            if supported and index is not None and 0 <= index < len(memories)
            else None
        )
        if supported and memory_id is None and memories:
            supported = False  # a verdict that names no given memory supports nothing
        return ClaimVerdict(
            supported=supported,
            memory_id=memory_id,
            reason=found.reason or f"{self.name} says {found.verdict}",
        )
