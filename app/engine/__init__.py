"""The pure rules engine: cards, melds, games and options, state, legality, scoring, views, replay.

Standard library and pydantic only: no I/O, no clock, no global random (STYLE habit 1).
"""
