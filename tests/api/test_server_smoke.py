"""The real server starts, answers its health check and lists the games."""

import httpx

from tests.waits import DEADLINE


def test_games_lists_standard_with_its_options(live_server: str) -> None:
    with httpx.Client(base_url=live_server, trust_env=False, timeout=DEADLINE) as client:
        response = client.get("/api/games")

    assert response.status_code == 200
    games = {game["key"]: game for game in response.json()["games"]}
    standard = games["standard"]
    assert standard["options_defaults"]["call_rummy"] is False
    assert "target_score" in standard["options_schema"]["properties"]


def test_index_page_is_served(live_server: str) -> None:
    response = httpx.get(f"{live_server}/", trust_env=False, timeout=DEADLINE)

    assert response.status_code == 200
    assert "Rummy Hall" in response.text
