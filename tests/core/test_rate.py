"""The progress line's work words: counts in full below ten million, a rate once the first count is old enough."""

from __future__ import annotations

from mipgames.core.rate import RATE_AFTER_S, WorkRate, amount


def test_counts_and_rates_in_words() -> None:
    assert (amount(141_694), amount(9_999_999), amount(2.134e10)) == ("141,694", "9,999,999", "2.13e+10")
    rate = WorkRate()
    assert rate.words({"playouts": 4_900}, now=10.0) == "4,900 playouts"  # no rate yet: one count
    assert rate.words({"playouts": 9_900}, now=10.0 + RATE_AFTER_S / 2) == "9,900 playouts"
    # the rate counts from the first count, not from zero: the work before it (loading, a warm start) is not in it
    assert rate.words({"playouts": 34_900}, now=11.0) == "34,900 playouts (30,000/s)"
    both = rate.words({"playouts": 64_900, "nodes": 5}, now=12.0)
    assert both == "5 nodes, 64,900 playouts (30,000/s)"
