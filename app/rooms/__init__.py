"""The live authority: rooms in memory, one writer each, pushing each seat its own view."""
