"""The language floor: English rules the write and read paths share, below both.

What a claim says and whether two claims agree (:mod:`~graphmem.language.claims`), the
attributes, endings and voice of a statement, what a question asks
(:mod:`~graphmem.language.question_type`, :mod:`~graphmem.language.questions`,
:mod:`~graphmem.language.answer_type`), time expressions
(:mod:`~graphmem.language.timeparse`), the word tables, the one stop-word list and the
one stemmer (:mod:`~graphmem.language.words`), and the spaCy loader
(:mod:`~graphmem.language.nlp`). It imports nothing of graphmem but ``graphmem.text``
(docs/structure.md "Rooms").
"""
