#!/usr/bin/env python3
"""Refresh the web client's vendored files from the npm registry (maintainers only).

Nothing at run time or in CI downloads: the files this writes are committed. For each
package pinned in ``vendor.json`` it fetches the release tarball with ``npm pack``
(npm's own client, so the registry configured for npm is used), checks the tarball
against the pinned ``integrity`` (SHA-512, as npm records it), and copies the one file
the client loads plus its licence next to this script (or in the package's ``dir``, from
the top of the checkout: axe-core, for the tests only, goes to ``tests/web/vendor`` and
stays out of the wheel); then it records each file's SHA-256, which the test suite checks
against the committed file.

    python3 client/web/vendor/refresh.py            # re-fetch the pinned versions
    python3 client/web/vendor/refresh.py --latest   # move each pin to the newest release

Needs npm (any recent version); the server and the browser never need Node.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TOP = HERE.parents[2]
MANIFEST = HERE / "vendor.json"

MIT = """MIT License

{copyright}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""


def npm(*args: str, cwd: Path | None = None) -> Any:
    """Run an npm command that prints JSON, and parse it."""
    out = subprocess.run(
        ["npm", *args, "--json"], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out)


def latest(name: str) -> tuple[str, str]:
    """The newest release of ``name`` and its integrity string."""
    info = npm("view", f"{name}@latest", "version", "dist.integrity")
    return str(info["version"]), str(info["dist.integrity"])


def fetch(name: str, version: str, integrity: str) -> tarfile.TarFile:
    """The release tarball, after checking it against the pinned integrity."""
    with tempfile.TemporaryDirectory() as tmp:
        packed = npm("pack", f"{name}@{version}", cwd=Path(tmp))
        data = (Path(tmp) / packed[0]["filename"]).read_bytes()
    algo, _, want = integrity.partition("-")
    if algo != "sha512":
        raise SystemExit(f"{name}: unsupported integrity algorithm {algo!r}")
    got = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got != want:
        raise SystemExit(f"{name}@{version}: the tarball does not match the pinned integrity")
    return tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")


def member(tar: tarfile.TarFile, path: str) -> bytes:
    handle = tar.extractfile(f"package/{path}")
    if handle is None:
        raise SystemExit(f"{path} is not a file in the tarball")
    return handle.read()


def header_licence(body: bytes, name: str) -> str:
    """For packages that ship no licence file: the MIT text with the file header's
    copyright line (refuses to guess if the header does not say MIT)."""
    head = body[:2000].decode("utf-8", "replace")
    holder = re.search(r"Copyright \(c\) [^\n]+", head)
    if "MIT license" not in head or holder is None:
        raise SystemExit(f"{name}: the file header no longer states the MIT licence")
    return MIT.format(copyright=holder.group(0).strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--latest", action="store_true", help="move every pin to the newest release first"
    )
    args = parser.parse_args(argv)
    manifest = json.loads(MANIFEST.read_text("utf-8"))
    for pkg in manifest["packages"]:
        if args.latest:
            version, integrity = latest(pkg["name"])
            if version != pkg["version"]:
                print(f"{pkg['name']}: {pkg['version']} -> {version}")
            pkg["version"], pkg["integrity"] = version, integrity
        tar = fetch(pkg["name"], pkg["version"], pkg["integrity"])
        body = member(tar, pkg["file"])
        licence = (
            member(tar, pkg["license_file"]).decode("utf-8")
            if pkg["license_file"]
            else header_licence(body, pkg["name"])
        )
        where = TOP / pkg["dir"] if "dir" in pkg else HERE
        (where / pkg["save_as"]).write_bytes(body)
        (where / pkg["license_as"]).write_text(licence, "utf-8")
        pkg["sha256"] = hashlib.sha256(body).hexdigest()
        print(f"{pkg['name']}@{pkg['version']}: {pkg['save_as']} ({len(body)} bytes)")
    MANIFEST.write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
