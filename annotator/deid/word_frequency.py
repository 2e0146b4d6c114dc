"""How common a word is in English: the one measure the leak check and the surrogates share."""

from __future__ import annotations

from functools import cache

from wordfreq import zipf_frequency


@cache
def zipf(word: str) -> float:
    """How common a (lower-cased) word is in English, on wordfreq's Zipf scale."""
    return float(zipf_frequency(word, "en"))
