"""The pure rules engine: cards, melds, games, state, legality, scoring, views, match logs.

Standard library and pydantic only: no I/O, no clock, no global random (STYLE habit 1).
"""
