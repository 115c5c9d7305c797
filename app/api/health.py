"""Liveness check."""

from fastapi import APIRouter

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health() -> dict[str, str]:
    """Answers while the server is up."""
    return {"status": "ok"}
