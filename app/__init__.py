"""Rummy Hall: an online multiplayer Rummy server."""

__version__ = "0.1.0"
