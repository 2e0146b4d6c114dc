"""The fast Zipf reading agrees with wordfreq's own function on every kind of word."""

from __future__ import annotations

import pytest
from wordfreq import get_frequency_dict, zipf_frequency

from annotator.core.english import zipf

# Plain words at every frequency, words no table holds, and words the fast path must not
# take (capitals, accents, digits, apostrophes, hyphens, other scripts).
ODD_WORDS = [
    "the", "of", "foley", "kimbrough", "zzqxv", "a", "i", "schwarz", "doesn't", "Smith",
    "SMITH", "lefèvre", "straße", "x-ray", "3rd", "1977", "co2", "", " ", "naïve", "日本",
    "ﬁne", "o'brien", "well-known",
]  # fmt: skip


@pytest.mark.parametrize("word", ODD_WORDS)
def test_odd_words_read_as_wordfreq_reads_them(word: str) -> None:
    assert zipf(word) == zipf_frequency(word, "en")


def test_every_thousandth_word_of_the_english_table_agrees() -> None:
    words = list(get_frequency_dict("en"))[::1000]
    assert len(words) > 300
    assert [zipf(w) for w in words] == [zipf_frequency(w, "en") for w in words]
