"""How common a word is in public English: wordfreq's Zipf scale, read fast.

``wordfreq.zipf_frequency`` tokenises its argument with Unicode-aware regular expressions
before looking it up: about 50 microseconds a word, which a first pass over unseen notes
paid three times for every new word (a fifth of tagging time on a cold start). A plain
lower-case ASCII word is its own single token, so its value is read straight from the
frequency table, with wordfreq's own rounding; anything else goes through wordfreq.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache


@cache
def _english_table() -> tuple[dict[str, float], float]:
    from wordfreq import get_frequency_dict, zipf_to_freq

    return get_frequency_dict("en"), zipf_to_freq(0.0)


def _rounded_frequency(frequency: float, minimum: float) -> float:
    # wordfreq's _word_frequency for one token: the same operations, so the same float.
    frequency = 1.0 / (1.0 / frequency)
    unrounded = max(frequency, minimum)
    if unrounded == 0.0:
        return 0.0
    leading_zeroes = math.floor(-math.log(unrounded, 10))
    return round(unrounded, leading_zeroes + 3)


@lru_cache(maxsize=500_000)
def zipf(word: str) -> float:
    """``wordfreq.zipf_frequency(word, "en")``: 0 for a word public English never uses, up to 8."""
    if word.isascii() and word.isalpha() and word.islower():
        table, minimum = _english_table()
        frequency = table.get(word)
        if frequency is None:
            return 0.0
        return round(math.log(_rounded_frequency(frequency, minimum), 10) + 9, 2)
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, "en"))
