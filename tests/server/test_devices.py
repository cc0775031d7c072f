"""A player's devices (issue 41, item 6): listed with their kinds and platforms (or an
older client's name) and last seen, signed out one by one (the token stops working at once, a connection of it is closed), and at
most MAX_DEVICES tokens per identity. The hub and store, without sockets."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridhall import protocol as p
from gridhall.protocol.devices import KIND, Description
from gridhall.server.core.bans import Ban
from gridhall.server.core.devices import MAX_DEVICES, SIGNED_OUT
from gridhall.server.core.effects import SaveDevice
from gridhall.server.core.identity import token_hash
from gridhall.server.io.link_store import LinkTables
from gridhall.server.io.store import Store
from tests.server.helpers import T0, Client, FakeServer


def device(
    server: FakeServer,
    name: str = "Ann",
    now: float = T0,
    peer: str = "10.0.0.1",
    **hello: Any,
) -> Client:
    """A welcomed client whose ``hello`` carries ``hello`` (``device``, ``token``, ``link``)."""
    client = Client(server, now, peer)
    client.send("hello", now, protocol=1, name=name, **hello)
    assert client.last(p.Welcome)
    return client


def devices(client: Client, now: float = T0) -> list[dict[str, object]]:
    client.send("list-devices", now)
    listed: p.Devices = client.last(p.Devices)
    return listed.devices


LAPTOP = {"kind": "tk", "platform": "Linux"}
PHONE = {"kind": "browser", "platform": "Android"}
"""What gridhall's Tk client on Linux and its page in a phone's browser say they are."""


def link(server: FakeServer, owner: Client, now: float, name: Any) -> Client:
    """Carry ``owner``'s identity to a new device (``hello.device`` ``name``) with a
    link code."""
    owner.send("link-code", now)
    code = owner.last(p.LinkCodeIssued).code
    return device(server, "x", now, "10.0.0.2", link=code, device=name)


def resumes(server: FakeServer, token: str, player: str, now: float = T0) -> bool:
    client = device(server, "Someone", now, "10.0.0.9", token=token)
    return bool(client.last(p.Welcome).player == player)


def test_devices_are_listed_with_their_kinds_platforms_and_when_they_were_last_seen() -> None:
    server = FakeServer()
    laptop = device(server, device=LAPTOP)
    assert "devices" in (laptop.last(p.Welcome).features or [])
    phone = link(server, laptop, T0 + 60, PHONE)
    listed = devices(phone, T0 + 61)
    assert [(d["kind"], d["platform"], d["current"], d["last_seen"]) for d in listed] == [
        ("browser", "Android", True, T0 + 60),
        ("tk", "Linux", False, T0 + 60),  # its connection was replaced then (4000)
    ]
    # the English name an older client of the list shows
    assert [d["name"] for d in listed] == ["Browser · Android", "Tk · Linux"]
    assert listed[1]["created_at"] == T0 and all(len(str(d["device"])) == 16 for d in listed)
    assert laptop.last(p.Welcome).token not in str(listed)  # ids, never tokens or hashes
    assert token_hash(laptop.last(p.Welcome).token) not in str(listed)


def test_an_older_client_without_a_device_name_is_listed_unnamed() -> None:
    server = FakeServer()
    ann = device(server)
    [mine] = devices(ann)
    assert mine["name"] is mine["kind"] is mine["platform"] is None and mine["current"] is True


def test_an_older_clients_own_name_is_listed_as_it_gave_it_without_a_kind() -> None:
    server = FakeServer()
    ann = device(server, device=" Tk · Linux ")
    [mine] = devices(ann)
    assert (mine["name"], mine["kind"], mine["platform"]) == ("Tk · Linux", None, None)


@pytest.mark.parametrize(
    ("about", "listed"),
    [
        ({"kind": "gridhall-ios", "platform": "iPadOS"}, ("gridhall-ios", "iPadOS")),
        ({"kind": "tk"}, ("tk", None)),
        ({"kind": "tk", "platform": "  "}, ("tk", None)),
        ({"kind": "terminal", "platform": " Linux ", "model": "x"}, ("terminal", "Linux")),
    ],
)
def test_a_kind_of_another_make_or_without_a_platform_is_listed_as_given(
    about: dict[str, Any], listed: tuple[str, str | None]
) -> None:
    server = FakeServer()
    [mine] = devices(device(server, device=about))
    assert (mine["kind"], mine["platform"]) == listed
    english = {"gridhall-ios": "gridhall-ios · iPadOS", "tk": "Tk", "terminal": "Terminal · Linux"}
    assert mine["name"] == english[listed[0]]


def test_a_later_hello_with_the_token_says_what_the_device_is_now() -> None:
    server = FakeServer()
    first = device(server, device="Old name")
    token = first.last(p.Welcome).token
    first.drop(T0 + 1)
    again = device(server, "Ann", T0 + 2, token=token, device=LAPTOP)
    [mine] = devices(again, T0 + 3)
    assert (mine["name"], mine["kind"], mine["platform"]) == ("Tk · Linux", "tk", "Linux")
    again.drop(T0 + 4)
    silent = device(server, "Ann", T0 + 5, token=token)  # no device: it stays as it was
    assert devices(silent, T0 + 6)[0]["kind"] == "tk"


@pytest.mark.parametrize(
    ("about", "field"),
    [
        ({"platform": "Linux"}, "device.kind"),
        ({"kind": ""}, "device.kind"),
        ({"kind": "Tk"}, "device.kind"),
        ({"kind": "tk browser"}, "device.kind"),
        ({"kind": "<b>tk</b>"}, "device.kind"),
        ({"kind": 3}, "device.kind"),
        ({"kind": "x" * 17}, "device.kind"),
        ({"kind": "tk", "platform": "Linux\x1b[31m"}, "device.platform"),
        ({"kind": "tk", "platform": "x" * 33}, "device.platform"),
        ({"kind": "tk", "platform": ["Linux"]}, "device.platform"),
        ([], "device"),
        (7, "device"),
    ],
)
def test_a_device_whose_kind_is_no_code_or_platform_no_short_text_is_refused(
    about: object, field: str
) -> None:
    server = FakeServer()
    client = Client(server, T0)
    client.send("hello", T0, protocol=1, name="Ann", device=about, id=4)
    [error] = client.errors()
    assert error.code == "bad-message" and error.re == 4 and f"'{field}'" in error.message
    assert not [m for m in client.received() if isinstance(m, p.Welcome)]
    assert len(server.hub.identities) == 0


def test_signing_out_another_device_stops_its_token_at_once() -> None:
    server = FakeServer()
    laptop = device(server, device="Tk · Linux")
    first = laptop.last(p.Welcome)
    phone = link(server, laptop, T0 + 1, "Phone")
    token = phone.last(p.Welcome).token
    other = next(d for d in devices(phone, T0 + 2) if not d["current"])
    phone.clear()
    phone.send("sign-out-device", T0 + 3, device=other["device"])
    answer = phone.last(p.Devices)
    assert answer.re is not None and [d["name"] for d in answer.devices] == ["Phone"]
    assert not phone.link.closed  # its own connection stays
    assert not resumes(server, first.token, first.player, T0 + 4)  # a stranger now
    assert resumes(server, token, first.player, T0 + 5)


def test_signing_out_this_device_answers_then_closes_the_connection() -> None:
    server = FakeServer()
    laptop = device(server, device="Tk · Linux")
    first = laptop.last(p.Welcome)
    [mine] = devices(laptop, T0 + 1)
    laptop.send("sign-out-device", T0 + 2, device=mine["device"])
    assert laptop.last(p.Devices).devices == []
    assert laptop.link.close_code == SIGNED_OUT
    assert "signed out" in laptop.link.close_reason
    laptop.drop(T0 + 2)
    assert not resumes(server, first.token, first.player, T0 + 3)


def test_an_unknown_device_is_a_bad_message_and_changes_nothing() -> None:
    server = FakeServer()
    ann = device(server, device="Tk")
    token = ann.last(p.Welcome).token
    for bad in ("0123456789abcdef", "x"):
        ann.send("sign-out-device", T0, device=bad)
        error = ann.errors()[-1]
        assert error.code == "bad-message" and "no device" in error.message
    ann.send("sign-out-device", T0, device="")
    assert ann.errors()[-1].code == "bad-message"
    assert len(devices(ann)) == 1 and not ann.link.closed
    assert resumes(server, token, ann.last(p.Welcome).player)


def test_a_device_name_with_control_characters_or_too_long_is_refused() -> None:
    server = FakeServer()
    for bad in ("Tk\x1b[31m", "x" * 49, ""):
        client = Client(server, T0)
        client.send("hello", T0, protocol=1, name="Ann", device=bad)
        assert client.errors()[-1].code == "bad-message"
        assert not [m for m in client.received() if isinstance(m, p.Welcome)]
    assert len(server.hub.identities) == 0


def test_an_identity_keeps_at_most_max_devices_the_oldest_unused_go() -> None:
    """Twelve devices linked one after another: the first two (seen longest ago) are
    signed out; the ten latest work."""
    server = FakeServer()
    first = device(server, device="Device 0")
    welcome = first.last(p.Welcome)
    tokens, holder = [welcome.token], first
    for n in range(1, MAX_DEVICES + 2):
        holder = link(server, holder, T0 + n, f"Device {n}")
        tokens.append(holder.last(p.Welcome).token)
    ident = server.hub.identities.by_id[welcome.player]
    assert len(ident.tokens()) == MAX_DEVICES
    names = sorted(str(d["name"]) for d in devices(holder, T0 + 50))
    assert names == sorted(f"Device {n}" for n in range(2, MAX_DEVICES + 2))
    assert [resumes(server, t, welcome.player, T0 + 60) for t in tokens[:3]] == [
        False,
        False,
        True,
    ]


def test_a_ban_still_holds_after_its_first_device_was_signed_out() -> None:
    server = FakeServer()
    laptop = device(server, device="Laptop")
    first = laptop.last(p.Welcome)
    phone = link(server, laptop, T0 + 1, "Phone")
    old = next(d for d in devices(phone, T0 + 2) if not d["current"])
    phone.send("sign-out-device", T0 + 3, device=old["device"])
    ban = Ban(1, None, first.player, token_hash(first.token), "Ann", T0 + 3600, "")
    server.hub.bans.add(ban)
    phone.drop(T0 + 4)
    again = Client(server, T0 + 5, "10.0.0.2")
    again.send("hello", T0 + 5, protocol=1, name="x", token=phone.last(p.Welcome).token)
    assert again.errors()[-1].code == "banned"


ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(),
    st.text(max_size=40),
    st.lists(st.text()),
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["kind", "platform", "x"]), ANY | st.from_regex(KIND, fullmatch=True)
    )
)
def test_any_device_map_is_welcomed_as_it_says_or_refused_changing_nothing(
    about: dict[str, Any],
) -> None:
    server = FakeServer()
    client = Client(server, T0)
    client.send("hello", T0, protocol=1, name="Ann", device=about)
    if client.errors():
        assert client.errors()[-1].code == "bad-message" and len(server.hub.identities) == 0
        return
    [mine] = devices(client)
    assert mine["kind"] == about["kind"] and KIND.fullmatch(str(mine["kind"]))
    platform = mine["platform"]
    assert platform is None or (platform == about["platform"].strip() and len(platform) <= 32)


def test_devices_and_sign_outs_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    laptop = device(server, device=LAPTOP)
    first = laptop.last(p.Welcome)
    phone = link(server, laptop, T0 + 1, "Phone")
    tablet = link(server, phone, T0 + 2, "Tablet")
    gone = next(d for d in devices(tablet, T0 + 3) if d["name"] == "Phone")
    tablet.send("sign-out-device", T0 + 4, device=gone["device"])
    tablet.drop(T0 + 5)
    again = FakeServer(store=Store(path))
    again.restore(T0 + 10, T0 + 6)
    assert not resumes(again, phone.last(p.Welcome).token, first.player, T0 + 11)
    back = device(again, "x", T0 + 12, token=tablet.last(p.Welcome).token)
    listed = devices(back, T0 + 13)
    assert [(d["name"], d["last_seen"]) for d in listed] == [
        ("Tablet", T0 + 12),
        ("Tk · Linux", T0 + 1),  # replaced by the phone then
    ]
    assert (listed[1]["kind"], listed[1]["platform"]) == ("tk", "Linux")
    assert listed[0]["kind"] is None  # the tablet's older client named it itself


def test_a_devices_table_from_before_kinds_gains_them_and_keeps_its_names() -> None:
    db = sqlite3.connect(":memory:")
    db.execute(
        "CREATE TABLE devices (token_hash TEXT PRIMARY KEY, player TEXT NOT NULL,"
        " name TEXT NOT NULL, created_at REAL NOT NULL, last_seen REAL NOT NULL)"
    )
    db.execute("INSERT INTO devices VALUES ('h1', 'p1', 'Tk · Linux', 1.0, 2.0)")
    tables = LinkTables(db)
    tables.apply(SaveDevice("p1", "h2", Description("browser", "Android"), 3.0, 4.0))
    assert sorted(tables.devices(), key=lambda row: row[1]) == [
        ("p1", "h1", Description(name="Tk · Linux"), 1.0, 2.0),
        ("p1", "h2", Description("browser", "Android"), 3.0, 4.0),
    ]
    LinkTables(db)  # opened again: nothing more to add
