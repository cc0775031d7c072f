"""Folding typed room events into our copy of the room (no sockets): what each event
changes, when a fresh snapshot is needed, and that no copy is ever changed in place."""

from __future__ import annotations

import copy

from gridhall import protocol as p
from gridhall.client.room import CHAT_KEEP, RoomCopy, apply
from tests.client.helpers import make_state, room_of

EV = {"room": "AB12CD"}


def test_moved_takes_view_and_turn_from_the_server() -> None:
    room = room_of(make_state(turn="a", view={"moves": []}))
    moved = p.Moved(**EV, seq=6, by="a", move={"x": 7, "y": 7}, view={"moves": [[7, 7]]}, turn="b")
    after = apply(room, moved, "a", now=100.0)
    assert not after.sync and after.room is not None and after.room.state is not None
    assert after.room.state.view == {"moves": [[7, 7]]} and after.room.state.turn == "b"
    assert after.room.seq == 6 and after.room.view_at == 100.0
    assert after.room.last_actions == {"a": {"x": 7, "y": 7}}


def test_moved_from_an_older_server_without_turn_means_nobody_in_particular() -> None:
    frame = p.encode_map(
        {
            "type": "moved",
            **EV,
            "seq": 6,
            "by": "a",
            "move": {"x": 7, "y": 7},
            "view": {"moves": [[7, 7]]},
        }
    )
    moved = p.decode(frame, "server")
    assert isinstance(moved, p.Moved) and moved.turn is None
    after = apply(room_of(make_state(turn="a")), moved, "a", now=0.0)
    assert after.room is not None and after.room.state is not None
    assert after.room.state.turn is None and after.room.state.view == {"moves": [[7, 7]]}


def test_folding_never_changes_an_earlier_copy() -> None:
    room = room_of(
        make_state(
            view={"moves": [], "pending": {"kind": "draw", "from": "b"}},
            chat=[{"from": "a", "name": "ann", "text": "hi", "ts": 1.0}],
        )
    )
    frozen = copy.deepcopy(room)
    events = [
        p.ChatEvent(**EV, seq=6, sender="b", name="bob", text="yo", ts=2.0),
        p.PlayerInfoEvent(**EV, seq=7, player="b", name="Bobby", color="#ff0000", connected=False),
        p.AnswerEvent(**EV, seq=8, sender="a", kind="draw", accept=False),
        p.OfferEvent(**EV, seq=9, sender="b", kind="takeback"),
        p.Moved(**EV, seq=10, by="a", move={"x": 1, "y": 1}, view={"moves": [[1, 1]]}, turn="b"),
        p.GameOver(**EV, seq=11, result={"winner": "a", "reason": "resign"}),
    ]
    now = room
    for event in events:
        result = apply(now, event, "a", now=5.0)
        assert result.room is not None and not result.sync
        now = result.room
    assert room == frozen  # the first copy is exactly as it was
    assert now.state is not None and now.state.status == "over" and now.state.turn is None
    assert [c["text"] for c in now.state.chat] == ["hi", "yo"]
    assert now.state.players[1] == {
        "player": "b",
        "name": "Bobby",
        "seat": 1,
        "connected": False,
        "color": "#ff0000",
    }


def test_offers_and_answers_show_as_the_views_pending() -> None:
    room = room_of(make_state(view={"moves": []}))
    offered = apply(room, p.OfferEvent(**EV, seq=6, sender="b", kind="draw"), "a", 0.0).room
    assert offered is not None and offered.state is not None
    assert offered.state.view["pending"] == {"kind": "draw", "from": "b"}
    answered = apply(
        offered, p.AnswerEvent(**EV, seq=7, sender="a", kind="draw", accept=False), "a", 0.0
    ).room
    assert answered is not None and answered.state is not None
    assert "pending" not in answered.state.view


def test_a_skipped_seq_asks_for_a_snapshot_and_a_repeat_is_ignored() -> None:
    room = room_of(make_state())  # seq 5
    gap = apply(room, p.ChatEvent(**EV, seq=7, sender="b", name="bob", text="x", ts=0.0), "a", 0)
    assert gap.sync and gap.room is not None and gap.room.syncing
    repeat = apply(room, p.ChatEvent(**EV, seq=5, sender="b", name="bob", text="x", ts=0.0), "a", 0)
    assert repeat.room is room and not repeat.sync
    other_room = apply(
        room, p.ChatEvent(room="ZZZZZZ", seq=6, sender="b", name="b", text="x", ts=0.0), "a", 0
    )
    assert other_room.room is room


def test_others_coming_and_going_from_an_older_server_ask_for_a_fresh_roster() -> None:
    room = room_of(make_state(spectators=["sy"]))
    joined = apply(room, p.Joined(**EV, seq=6, role="player", player="c", name="cy"), "a", 0)
    assert joined.sync and joined.room is not None and joined.room.syncing
    left = apply(room, p.Left(**EV, seq=6, player="s"), "a", 0)  # a spectator, no name
    assert left.sync
    stranger = apply(room, p.PlayerInfoEvent(**EV, seq=6, player="z", name="zed"), "a", 0)
    assert stranger.sync


def test_others_coming_and_going_fold_into_the_roster_without_a_sync() -> None:
    room = room_of(make_state(spectators=["sy"]))
    events = [
        p.Joined(**EV, seq=6, role="spectator", player="c", name="cy", connected=True),
        p.Joined(
            **EV,
            seq=7,
            role="player",
            seat=2,
            player="d",
            name="Computer (easy)",
            connected=True,
            bot="easy",
        ),
        p.PlayerInfoEvent(**EV, seq=8, player="c", name="cyd", previous="cy"),
        p.Left(**EV, seq=9, player="s", name="sy"),
        p.Left(**EV, seq=10, player="b", name="bob"),
        p.Joined(
            **EV,
            seq=11,
            role="player",
            seat=1,
            player="e",
            name="eve",
            connected=True,
            color="teal",
        ),
    ]
    now = room
    for event in events:
        result = apply(now, event, "a", now=5.0)
        assert result.room is not None and not result.sync and not result.room.syncing
        now = result.room
    assert now.state is not None and now.seq == 11
    assert now.state.spectators == ["cyd"]
    assert [(pl["player"], pl["seat"]) for pl in now.state.players] == [
        ("a", 0),
        ("e", 1),
        ("d", 2),
    ]
    assert now.state.players[1] == {
        "player": "e",
        "name": "eve",
        "seat": 1,
        "connected": True,
        "color": "teal",
    }
    assert now.state.players[2]["bot"] == "easy"


def test_a_player_who_asked_for_another_game_leaving_drops_the_request() -> None:
    room = room_of(make_state(status="over", pending_again=["b"]), again=("b",))
    after = apply(room, p.Left(**EV, seq=6, player="b", name="bob"), "a", 0)
    assert after.room is not None and after.room.again == () and not after.sync


def test_our_own_join_and_leave_open_and_close_the_copy() -> None:
    joined = apply(
        None, p.Joined(**EV, seq=1, role="player", seat=0, player="a", name="ann"), "a", 0
    )
    assert joined.room == RoomCopy(room="AB12CD", seq=1, syncing=True) and not joined.sync
    snapshot = apply(joined.room, make_state(seq=1), "a", now=3.0)
    assert snapshot.room is not None and snapshot.room.state is not None
    assert not snapshot.room.syncing and snapshot.room.view_at == 3.0
    assert apply(snapshot.room, p.Left(**EV, seq=2, player="a"), "a", 0).room is None


def test_a_new_game_forgets_the_last_ones_handshake_and_clicks() -> None:
    over = room_of(
        make_state(status="over", round=0),
        again=("b",),
        declined=("c",),
        last_actions={"b": {"x": 1}},
    )
    fresh = apply(over, make_state(seq=9, status="playing", round=1), "a", 0).room
    assert fresh is not None and (fresh.again, fresh.declined, fresh.last_actions) == ((), (), {})
    pending = apply(
        over, make_state(seq=9, status="over", round=0, pending_again=["b", "a"]), "a", 0
    ).room
    assert pending is not None and pending.again == ("b", "a")
    asked = apply(over, p.PlayAgainEvent(**EV, seq=6, sender="a"), "a", 0).room
    assert asked is not None and asked.again == ("b", "a")
    declined = apply(over, p.DeclineAgainEvent(**EV, seq=6, sender="b"), "a", 0).room
    assert declined is not None and declined.declined == ("c", "b")


def test_chat_keeps_the_latest_lines() -> None:
    room = room_of(
        make_state(
            chat=[{"from": "a", "name": "ann", "text": str(i), "ts": 0.0} for i in range(CHAT_KEEP)]
        )
    )
    after = apply(
        room, p.ChatEvent(**EV, seq=6, sender="b", name="bob", text="new", ts=1.0), "a", 0
    ).room
    assert after is not None and after.state is not None
    assert len(after.state.chat) == CHAT_KEEP and after.state.chat[-1]["text"] == "new"
    assert after.state.chat[0]["text"] == "1"
