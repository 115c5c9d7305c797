"""Errors of the service layer, with the snake_case codes the API and rooms pass on."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused request; ``code`` travels to the client unchanged."""

    code = "service_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
