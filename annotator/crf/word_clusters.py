"""Word classes learnt from public English: what kind of word a rare word is.

A CRF knows a word only by the features its training notes showed: a town or a surname named
once (``Randallstown``, ``Domenico``) looks like any rare word, and the name lists hold a few
thousand entries. ``resources/lexicons/word_clusters.tsv.gz`` gives each of about 316,000
English words (``wordfreq``'s list, and the entries of our name and place lists) two classes,
found by k-means over the words' sentence embeddings (all-MiniLM-L6-v2): words used alike fall
together (given names, surnames, towns, companies, drugs, symptoms), whether or not a list
names them. Made by ``python -m annotator.crf.build_word_clusters`` (see SOURCES.md); a class
is a number, so it names no word and a shared model stays shareable.
"""

from __future__ import annotations

import gzip
from functools import cache

from annotator.core.resources import resource_path
from annotator.errors import ModelError

CLUSTER_FILE = "word_clusters.tsv.gz"


@cache
def _clusters() -> dict[str, tuple[str, str]]:
    path = resource_path("lexicons", CLUSTER_FILE)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise ModelError(f"cannot read word clusters: {error}", path) from None
    # One tuple per pair of classes, shared by its words: a few thousand, not 316,000.
    pairs: dict[str, tuple[str, str]] = {}
    clusters = {}
    for line in text.splitlines():
        word, _, classes = line.partition("\t")
        pair = pairs.get(classes)
        if pair is None:
            coarse, _, fine = classes.partition("\t")
            pair = pairs[classes] = (coarse, fine)
        clusters[word] = pair
    return clusters


def word_classes(lower: str) -> tuple[str, str] | None:
    """The coarse and fine class of a lower-case word, or None for a word the list lacks."""
    return _clusters().get(lower)
