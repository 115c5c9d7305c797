"""The README's newcomer path: docs/play_against_bots.py plays a whole game against bots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT, running_server


def test_newcomer_script_plays_a_game_against_computer_players(tmp_path: Path) -> None:
    env = {"RUMMY_BOT_DELAY_SECONDS": "0.01", "RUMMY_NEXT_HAND_SECONDS": "0.05"}
    with running_server(tmp_path, env) as base_url:
        done = subprocess.run(  # noqa: S603 - our own interpreter and script
            [sys.executable, str(REPO_ROOT / "docs" / "play_against_bots.py"),
             "--url", base_url, "--bots", "2"],
            capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "game over; totals" in done.stdout
    assert "chips now" in done.stdout
