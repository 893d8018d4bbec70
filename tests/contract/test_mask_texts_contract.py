"""``mask_texts``: what name masking reads of each memory without hydrating it (docs/performance.md
"Recall on real input"), on both stores."""

from __future__ import annotations

import numpy as np

from graphmem.models import Memory
from graphmem.store.base import MaskText, MemoryStore, WriteBatch
from tests.contract.builders import embed, make_entity, make_memory


def write(store: MemoryStore, ns: str, *memories: Memory) -> None:
    ada, ben = make_entity(ns, "Ada", kind="Person"), make_entity(ns, "Ben", kind="Person")
    store.write(ns, WriteBatch(memories=list(memories), entities=[ada, ben], relations=[]))


def test_mask_texts_are_the_memories_text_vector_and_subjects_in_the_order_asked(
    store: MemoryStore, ns: str
) -> None:
    ada, ben = make_entity(ns, "Ada").id, make_entity(ns, "Ben").id
    turn = make_memory(
        ns, "Ada: I met Ben at the loom fair.", mentions=[(ada, "subject"), (ben, "object")]
    )
    claim = make_memory(ns, "Ben repairs looms", extractor="ner", mentions=[(ben, "subject")])
    plain = make_memory(ns, "the fair was on a Sunday")
    unembedded = make_memory(ns, "a memory without a vector", with_embedding=False)
    write(store, ns, turn, claim, plain, unembedded)

    got = store.mask_texts(ns, [plain.id, "no-such-id", turn.id, unembedded.id, claim.id])

    # written by hand: each memory's text, extractor and its subject entities; the one
    # without a vector is left out (masking compares vectors)
    assert [(t.memory_id, t.content, t.extractor, t.subjects) for t in got] == [
        (plain.id, "the fair was on a Sunday", "verbatim", frozenset()),
        (turn.id, "Ada: I met Ben at the loom fair.", "verbatim", frozenset({ada})),
        (claim.id, "Ben repairs looms", "ner", frozenset({ben})),
    ]
    for text, memory in zip(got, [plain, turn, claim], strict=True):
        assert isinstance(text, MaskText)
        vector = np.asarray(text.embedding, dtype=np.float32)
        assert vector.tolist() == embed(memory.content).astype(np.float32).tolist()
    assert store.mask_texts(ns, []) == []
