"""A model trained with private features is scored with private features (it keeps its names)."""

from __future__ import annotations

from annotator.core.document import Document
from annotator.crf.tagger import CrfTagger

# Rare words of one shape, prefix and suffix in the same place; only one of them is a name.
# Context alone says "not a name" (untagged three times out of four), so only the word's own
# identity, which a shareable model leaves out, can find it.
NAME = "Zorkaqwint"
OTHERS = ("Zorkamwint", "Zorkapwint", "Zorkalwint")


def _note(doc_id: str, word: str, tagged: bool) -> Document:
    text = f"Seen {word} today.\n"
    document = Document(doc_id, text)
    if tagged:
        start = text.index(word)
        document.add(document.make_annotation("NAME", "PATIENT", start, start + len(word)))
    return document


def _corpus() -> list[Document]:
    documents = []
    for index in range(12):
        documents.append(_note(f"{100 + index}-01", NAME, True))
        for other_index, other in enumerate(OTHERS):
            documents.append(_note(f"{100 + index}-{other_index + 2:02d}", other, False))
    return documents


def test_private_model_finds_the_name_only_its_identity_gives_away() -> None:
    private = CrfTagger(max_iterations=50, private_features=True, postprocess=False)
    private.train(_corpus())
    found = private.predict_spans([_note("900-01", NAME, False)])["900-01"]
    assert [(p.type, p.start) for p in found] == [("PATIENT", len("Seen "))]
    # The shareable default cannot tell the rare words apart: whatever it tags there (its
    # SGD run varies with the order features are met in), it is less sure than the model
    # that knows the word.
    public = CrfTagger(max_iterations=50, postprocess=False)
    public.train(_corpus())
    guessed = public.predict_spans([_note("900-01", NAME, False)])["900-01"]
    assert all(p.confidence < found[0].confidence for p in guessed)
