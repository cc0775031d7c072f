"""Maps the top-level folders onto one import name, ``gridhall``.

The design card fixes ``protocol/``, ``server/`` and ``client/`` at the top level; they
install as ``gridhall.protocol``, ``gridhall.server`` and ``gridhall.client`` so nothing
else on a machine named ``server`` or ``client`` can collide with or shadow them.
Everything else about the distribution is in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = ("protocol", "server", "client")

setup(
    packages=[f"gridhall.{name}" for name in find_packages(include=[f"{f}*" for f in FOLDERS])],
    package_dir={f"gridhall.{folder}": folder for folder in FOLDERS},
)
