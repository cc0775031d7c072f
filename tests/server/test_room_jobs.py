"""A room's job slot alone: one job in flight, tickets, stale answers, and a restart."""

from __future__ import annotations

import pytest

from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.server.core.effects import Outbox, Work
from gridhall.server.core.identity import Identity
from gridhall.server.core.room.jobs import BUSY_RETRY, JobSlot, Pending
from gridhall.server.games.jobs import Job

ANN = Identity(id="ann", token_hash="t", name="Ann", address="10.0.0.7")


def works(out: Outbox) -> list[Work]:
    return [e for e in out.effects if isinstance(e, Work)]


def test_a_job_leaves_with_its_ticket_charged_to_whoever_asked() -> None:
    slot, out = JobSlot("R", "10.0.0.1"), Outbox()
    slot.launch(out, Job(sorted, ([2, 1],), kind="hint"), Pending("move", "a hint", ANN))
    [work] = works(out)
    assert (work.room, work.ticket, work.address) == ("R", 1, "10.0.0.7")
    assert slot.pending is not None and slot.pending.ticket == 1


def test_a_job_nobody_asked_for_counts_against_the_room_s_creator() -> None:
    slot, out = JobSlot("R", "10.0.0.1"), Outbox()
    slot.launch(out, Job(sorted), Pending("new-game", "the board"))
    assert works(out)[0].address == "10.0.0.1"


def test_a_second_job_is_refused_as_busy_and_changes_nothing() -> None:
    slot, out = JobSlot("R", ""), Outbox()
    slot.launch(out, Job(sorted), Pending("new-game", "the board"))
    with pytest.raises(ProtocolError) as refused:
        slot.launch(out, Job(sorted), Pending("move", "a hint", ANN, re=7))
    assert refused.value.code is ErrorCode.SERVER_BUSY and refused.value.request_id == 7
    assert refused.value.retry_after == BUSY_RETRY and "the board" in refused.value.message
    assert len(works(out)) == 1 and slot.tickets == 1


def test_only_the_answer_with_the_current_ticket_is_taken() -> None:
    slot, out = JobSlot("R", ""), Outbox()
    slot.launch(out, Job(sorted), Pending("new-game", "the board"))
    assert slot.answered(2) is None and slot.pending is not None  # stale: ignored
    pending = slot.answered(1)
    assert pending is not None and pending.kind == "new-game" and slot.pending is None
    assert slot.answered(1) is None  # answered once only


def test_after_a_restart_a_job_is_asked_again_but_a_password_check_is_dropped() -> None:
    slot, out = JobSlot("R", ""), Outbox()
    slot.launch(out, Job(sorted), Pending("new-game", "the board"))
    again = Outbox()
    slot.resume(again)
    assert [w.ticket for w in works(again)] == [1]
    guess, later = JobSlot("R", ""), Outbox()
    guess.launch(later, Job(sorted), Pending("join", "a password", ANN))
    guess.start_queued = True
    guess.resume(later)
    assert guess.pending is None and not guess.start_queued and len(works(later)) == 1


def test_a_replayed_job_has_no_work_to_send() -> None:
    """While a journal replays, the job's answer is the next entry: no Work goes out."""
    slot, out = JobSlot("R", ""), Outbox()
    slot.launch(out, None, Pending("move", "a hint", ANN))
    assert out.effects == [] and slot.pending is not None and slot.pending.ticket == 1
