"""Analysis of finished matches (PROTOCOL.md §10): each decision judged from its seat's view.

Pure like the engine and the bots (no I/O, no clock); the server runs it off the event loop
(:mod:`app.services.analysis`).
"""

from .report import Analysis, Decision, SeatSummary, analyse

__all__ = ["Analysis", "Decision", "SeatSummary", "analyse"]
