"""Maps the top-level folders onto one import name, ``gridhall``.

The design card fixes ``protocol/``, ``server/`` and ``client/`` at the top level; they
install as ``gridhall.protocol``, ``gridhall.server`` and ``gridhall.client`` so nothing
else on a machine named ``server`` or ``client`` can collide with or shadow them.
Everything else about the distribution is in pyproject.toml.

The hard Gomoku engine's search core is a C extension built here
(``gridhall.server.games.gomoku.ai._core``); it is optional: without a compiler
the install still works and the engine runs in pure Python.
"""

from setuptools import Extension, find_packages, setup

FOLDERS = ("protocol", "server", "client")

setup(
    packages=[f"gridhall.{name}" for name in find_packages(include=[f"{f}*" for f in FOLDERS])],
    package_dir={f"gridhall.{folder}": folder for folder in FOLDERS},
    ext_modules=[
        Extension(
            "gridhall.server.games.gomoku.ai._core",
            ["server/games/gomoku/ai/_core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ],
)
