"""Schemathesis hooks for tests/api/test_schema_fuzz.py (loaded by the fuzzer's process through
``SCHEMATHESIS_HOOKS``): every request carries the bearer token in ``RUMMY_FUZZ_TOKEN``, except
``POST /api/auth/logout``, which gets a new guest's token each time (it revokes the token it is
sent, and the run goes on with the other)."""

from __future__ import annotations

import os

import httpx
import schemathesis

LOGOUT = "/api/auth/logout"


def _bearer(case: schemathesis.Case, token: str) -> None:
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@schemathesis.auth(refresh_interval=None).skip_for(path=LOGOUT)
class RunToken:
    def get(self, case: schemathesis.Case, ctx: schemathesis.AuthContext) -> str:
        return os.environ["RUMMY_FUZZ_TOKEN"]

    def set(self, case: schemathesis.Case, data: str, ctx: schemathesis.AuthContext) -> None:
        _bearer(case, data)


@schemathesis.auth(refresh_interval=None).apply_to(path=LOGOUT)
class FreshGuest:
    def get(self, case: schemathesis.Case, ctx: schemathesis.AuthContext) -> str:
        answer = httpx.post(f"{os.environ['RUMMY_FUZZ_URL']}/api/auth/guest", trust_env=False,
                            json={"name": "Leaving"}, timeout=30)
        answer.raise_for_status()
        return str(answer.json()["token"])

    def set(self, case: schemathesis.Case, data: str, ctx: schemathesis.AuthContext) -> None:
        _bearer(case, data)
