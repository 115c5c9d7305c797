"""The fair-play review (PROTOCOL.md §9, docs/fairplay.md): pure scoring of pairs of players
(`score`) and the seating that keeps flagged pairs apart (`apart`). No I/O: the server gathers
the facts (`app.services.fairplay`), the benchmark simulates them (bench/fairplay.py)."""
