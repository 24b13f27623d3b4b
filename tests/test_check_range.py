"""savanna.errors.check_range: a value passes exactly when it is a finite real number (no
bool, no NaN, no infinity) within the bounds, and is otherwise refused with one line naming it
and the range."""
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from savanna.errors import check_range

VALUES = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10, 10),
                   st.booleans(), st.text(max_size=3), st.none())


@given(VALUES, st.integers(-3, 3), st.one_of(st.none(), st.integers(-3, 6)), st.booleans())
def test_passes_exactly_the_numbers_in_range(value, low, high, above):
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    inside = number and math.isfinite(value) \
        and (value > low if above else value >= low) and (high is None or value <= high)
    if inside:
        assert check_range("x", value, low, high, above) is value
    else:
        with pytest.raises(ValueError) as err:
            check_range("x", value, low, high, above)
        assert str(err.value).startswith("x must be ") and "\n" not in str(err.value)


@pytest.mark.parametrize("low, high, above, words", [
    (0, None, False, "x must be >= 0, got -1"),
    (0, None, True, "x must be > 0, got -1"),
    (0, 1, False, "x must be in [0, 1], got -1"),
])
def test_the_message_words_the_range(low, high, above, words):
    with pytest.raises(ValueError) as err:
        check_range("x", -1, low, high, above)
    assert str(err.value) == words


def test_numpy_numbers_are_numbers():
    assert check_range("x", np.float32(0.5), 0, 1) == 0.5
    assert check_range("x", np.int64(3), 0) == 3
