"""The per-connection limits, with an explicit clock."""

from __future__ import annotations

from gridhall.server.core.limits import SlidingWindow, TokenBucket


def test_bucket_allows_a_burst_then_refuses_until_it_refills() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert not bucket.take(0.25)  # half a token back
    assert bucket.take(0.5)  # one whole token
    assert not bucket.take(0.5)


def test_bucket_never_holds_more_than_its_burst() -> None:
    bucket = TokenBucket(rate=10.0, burst=2, now=0.0)
    assert [bucket.take(100.0) for _ in range(3)] == [True, True, False]


def test_window_counts_events_in_the_last_window_and_says_when_to_retry() -> None:
    window = SlidingWindow(limit=2, window=10.0)
    assert window.allow(0.0) and window.allow(1.0)
    assert not window.allow(5.0)
    assert window.retry_after(5.0) == 5.0
    assert window.allow(10.0)  # the first event left the window
    assert not window.allow(10.5)
