"""The garbage-collector policy (server/io/runtime/collector.py): full walks are rare, garbage is
still found."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from gridhall.server.io.runtime.collector import YOUNG, Collector


class Node:
    """A cycle's member: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def clock() -> list[float]:
    return [1000.0]  # the policy's monotonic clock, moved by hand


@pytest.fixture
def policy(clock: list[float]) -> Iterator[Collector]:
    before = gc.get_threshold()
    policy = Collector(full_walk_every=600, clock=lambda: clock[0]).install()
    try:
        yield policy
    finally:
        policy.uninstall()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_survivors_of_a_full_collection_are_frozen_and_young_collections_are_rarer(
    policy: Collector,
) -> None:
    assert gc.get_threshold()[0] == YOUNG
    gc.collect()
    assert gc.get_freeze_count() > 0  # the next full collection skips them


def test_garbage_among_frozen_objects_is_found_at_the_next_full_walk(
    policy: Collector, clock: list[float]
) -> None:
    node = Node()
    gc.collect()  # node survives (it is referenced) and is frozen
    gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is not None  # frozen: a collection does not look at it
    clock[0] += 600  # time for a full walk: this collection unfreezes, the next walks all
    gc.collect()
    gc.collect()
    assert gone() is None and policy.full_walks >= 1
    assert gc.get_freeze_count() > 0  # and frozen again after it


def test_uninstall_gives_python_its_collector_back(clock: list[float]) -> None:
    policy = Collector(clock=lambda: clock[0]).install()
    node = Node()
    gc.collect()
    gone = weakref.ref(node)
    del node
    policy.uninstall()
    gc.collect()
    assert gone() is None and gc.get_freeze_count() == 0
