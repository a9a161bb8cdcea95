"""How numbers read: no negative zero, a tiny value never shown as zero, the true minus sign."""

import pytest

from stb_core.sources.words import a_roll, number, percent, points, share


@pytest.mark.parametrize(("show", "value", "text"), [
    (number(5, signed=True), -1e-12, "0.00000"),
    (number(5), -1e-12, "0.00000"),
    (number(3), -0.0, "0.000"),
    (points(2, signed=True), -1e-15, "0.00 pp"),  # a float's rounding of an equality
    (points(2, signed=True), -1e-9, ">\u22120.01 pp"),  # a real gap below the digits
    (points(3), 3.7e-7, "<0.001 pp"),
    (share(1), -0.0, "0.0%"),
    (number(2), -0.5, "\u22120.50"),
    (number(2, signed=True), 0.5, "+0.50"),
    (points(2, signed=True), -0.0123, "\u22121.23 pp"),
    (percent(2), 1e-9, "<0.01%"),
    (percent(2), -1e-9, ">\u22120.01%"),
    (percent(2), -0.0, "0%"),
    (number(0), -1234.4, "\u22121,234"),
])
def test_a_number_reads_as_its_value_at_its_decimals(show, value, text):
    assert show(value) == text


@pytest.mark.parametrize(("roll", "words"), [(7, "a 7"), (8, "an 8"), (11, "an 11"), (18, "an 18"), ("5", "a 5"),
                                             ("3,4", "a 3 and a 4"), ("1,8", "a 1 and an 8")])
def test_a_roll_in_words(roll, words):
    assert a_roll(roll) == words
