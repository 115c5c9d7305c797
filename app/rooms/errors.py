"""What a room refuses, and how a refusal travels to the client."""

from __future__ import annotations

from typing import Any

# An error message never carries more than this much of what the client sent (issue 9: a
# refusal must not echo 16 KB of input back, nor keep it in memory).
MAX_MESSAGE = 200


class RoomError(Exception):
    """A request the room refuses; ``code`` travels to the client unchanged, and so do the
    ``fields`` that let a client word the refusal itself (``options`` of a conflict)."""

    def __init__(self, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields or {}


def error_reply(client_id: str | int | None, code: str, message: str,
                fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The error reply; ``fields`` (a rule error's figures: ``card``, ``meld``, ``need``, …)
    travels beside the four fixed fields, which it never overrides."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 1] + "…"
    return {**(fields or {}), "type": "error", "id": client_id, "code": code, "message": message}
