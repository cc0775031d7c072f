"""What a server announces on the LAN and a client browses for (mDNS/DNS-SD).

Every server announces one service of type ``_gridhall._tcp.local.``; clients list
what they hear of that type. Two settings from the environment scope discovery on
both sides alike:

- ``$GRIDHALL_DISCOVERY_INTERFACES`` (comma-separated IPv4 addresses): the interfaces
  announced and browsed on (the tests: ``127.0.0.1``, so no packet leaves the machine).
- ``$GRIDHALL_DISCOVERY_TAG`` (1 to 6 letters and digits): a separate hall. Servers
  and clients with the same tag use the type ``_gridhall-TAG._tcp.local.`` and hear
  only each other. The tests take a new tag each run, so a real server on the same
  machine (or another run's test servers) is never listed in a test, and the tests'
  servers never appear on a real client's list.

Kept here because both sides must agree on it and clients never import the server.
"""

from __future__ import annotations

import os
import re
import secrets
import string
from collections.abc import Mapping

SERVICE_TYPE = "_gridhall._tcp.local."
"""The DNS-SD service type of the untagged (default) hall."""
INTERFACES_ENV = "GRIDHALL_DISCOVERY_INTERFACES"
TAG_ENV = "GRIDHALL_DISCOVERY_TAG"
MAX_TAG = 6
"""``gridhall-`` and the tag must fit DNS-SD's 15-byte service name (RFC 6763 7.2)."""
_TAG = re.compile(rf"[a-z0-9]{{1,{MAX_TAG}}}")


class BadTag(ValueError):
    """A discovery tag that cannot be part of a service type."""


def check_tag(tag: str) -> str:
    """``tag`` lower-cased, or :class:`BadTag` saying what a tag may be ("" is none)."""
    tag = tag.strip().lower()
    if tag and not _TAG.fullmatch(tag):
        raise BadTag(
            f"{TAG_ENV}={tag!r}: a discovery tag is 1 to {MAX_TAG} letters (a-z) and digits"
        )
    return tag


def service_type(tag: str = "") -> str:
    """The service type of hall ``tag``: ``_gridhall._tcp.local.`` when there is none."""
    tag = check_tag(tag)
    return f"_gridhall-{tag}._tcp.local." if tag else SERVICE_TYPE


def tag_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The tag ``$GRIDHALL_DISCOVERY_TAG`` names ("" for the default hall)."""
    return check_tag((os.environ if environ is None else environ).get(TAG_ENV, ""))


def interfaces_from_env(environ: Mapping[str, str] | None = None) -> list[str]:
    """The addresses ``$GRIDHALL_DISCOVERY_INTERFACES`` names ([] when it is unset)."""
    raw = (os.environ if environ is None else environ).get(INTERFACES_ENV, "")
    return [part.strip() for part in raw.split(",") if part.strip()]


def new_tag() -> str:
    """A random tag (what a test run uses: about 2 billion of them)."""
    return "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(MAX_TAG))
