"""numpy's mean and standard deviation, reproduced bit for bit (the official tables print them)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.evaluation import float_sums

# Per-document precision and recall: ratios of small counts, 0 and 1 most often.
ratio = st.one_of(
    st.sampled_from([0.0, 1.0, 0.5]),
    st.builds(lambda a, b: a / (a + b), st.integers(0, 60), st.integers(1, 60)),
    st.floats(0, 1, allow_nan=False),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ratio, max_size=700))
def test_mean_and_std_are_numpys_to_the_last_bit(values: list[float]) -> None:
    array = np.asarray(values, dtype=float)
    if values:
        assert float_sums.mean(values) == float(np.mean(array))
        assert float_sums.std(values) == float(np.std(array))
    else:
        assert math.isnan(float_sums.mean(values)) and math.isnan(float_sums.std(values))


@pytest.mark.parametrize("size", [1, 7, 8, 9, 127, 128, 129, 255, 256, 257, 936, 1309, 5000, 20001])
def test_every_branch_of_the_pairwise_sum(size: int) -> None:
    # Values whose sum depends on the order they are added in: only numpy's order gives its bits.
    values = [1 / (3 + (i * 7919) % 101) for i in range(size)]
    assert float_sums.pairwise_sum(values) == float(np.add.reduce(np.asarray(values)))
    assert float_sums.std(values) == float(np.std(np.asarray(values)))
