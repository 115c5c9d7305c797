"""``python -m app.build``: compile the engine and the bots with mypyc (``make compiled``).

Needs mypy (the dev lock, or the small build lock requirements/build.txt) and a C compiler. It
removes the previous build's modules, compiles :func:`app.compiled.sources` into C extensions
beside them (one shared library, ``app/_compiled__mypyc.*.so``, and a small one per module)
and records their sources' digests in ``app/compiled.json`` for :func:`app.compiled.check`.
"""

from __future__ import annotations

import json
import os

from mypyc.build import mypycify
from setuptools import setup  # type: ignore[import-untyped]

from app.compiled import GROUP, INPUTS, MANIFEST, ROOT, compiled_files, digest, sources

BUILD_DIR = "build/mypyc"  # mypyc's C sources and the compiler's objects


def build() -> None:
    """Compile :func:`sources` in place and record their digests (after removing old output)."""
    os.chdir(ROOT)  # mypyc takes the sources' paths as module names
    modules = sources()
    for path in compiled_files():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)
    digests = {name: digest(name) for name in (*modules, *INPUTS)}  # what mypyc is about to read
    setup(name="rummy-hall-compiled", py_modules=[], packages=[],
          ext_modules=mypycify(modules, group_name=GROUP, target_dir=BUILD_DIR),
          script_args=["--quiet", "build_ext", "--inplace", "--build-temp", BUILD_DIR])
    MANIFEST.write_text(json.dumps({"sources": digests}, indent=1) + "\n")


if __name__ == "__main__":
    build()
