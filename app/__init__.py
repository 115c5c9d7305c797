"""Rummy Hall: an online multiplayer Rummy server."""

from .compiled import check

__version__ = "0.1.0"

check()  # refuse to run a compiled engine built from other sources (app/compiled.py)
