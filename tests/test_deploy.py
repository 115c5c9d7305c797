"""deploy/ holds together: the Prometheus configuration, its alert rules and the rules' unit tests
pass promtool (Debian's `prometheus` package: skipped without it, failed instead under
RUMMY_REQUIRE_PROMTOOL=1, as in CI); the dashboard and the alerts name only metrics the server
serves, the dashboard every one of them; and docker-compose.yml, prometheus.yml and nginx.conf
agree on the app processes, readiness and who may read /metrics. Compose restarts every
long-running service and holds no password (.env.example lists what it needs); nginx leaves a
process out only after several failures, not on one 503.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client import REGISTRY

from app import metrics
from app.refusals import Code, Fault
from tests.conftest import REPO_ROOT

DEPLOY = REPO_ROOT / "deploy"
PROMETHEUS = DEPLOY / "prometheus"
GRAFANA = DEPLOY / "grafana"
DASHBOARD = GRAFANA / "dashboards" / "rummy-hall.json"

def _served() -> dict[str, str]:
    """Every metric the server serves, by the name its queries use (a counter with its
    `_total`), with its type: read from app.metrics as a scrape reads it (with a snapshot of
    levels, leases included, so that the gauges read at each scrape are there too)."""
    metrics.watch(lambda: metrics.Snapshot(leases_held=0))
    try:
        families = list(REGISTRY.collect())
    finally:
        metrics.watch(None)
    return {f"{f.name}_total" if f.type == "counter" else f.name: f.type
            for f in families if f.name.startswith("rummy_")}


SERVED = _served()
HISTOGRAMS = frozenset(name for name, kind in SERVED.items() if kind == "histogram")
METRICS = frozenset(SERVED)
SERIES = re.compile(r"\brummy_[a-z0-9_]+")
HISTOGRAM_SERIES = re.compile(r"^(?P<name>.+)_(?:bucket|sum|count)$")


def _promtool(*args: str) -> str:
    """Run promtool in deploy/prometheus; its output, or the test fails with it."""
    promtool = shutil.which("promtool")
    if promtool is None:
        reason = "promtool is not installed (Debian: apt-get install prometheus)"
        if os.environ.get("RUMMY_REQUIRE_PROMTOOL", "") not in ("", "0"):
            pytest.fail(f"{reason}, and RUMMY_REQUIRE_PROMTOOL=1")
        pytest.skip(reason)
    done = subprocess.run(  # noqa: S603 - a fixed tool with our own arguments
        [promtool, *args], cwd=PROMETHEUS, capture_output=True, text=True, timeout=120,
        check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"promtool {' '.join(args)}:\n{output}"
    return output


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text())


def _alerts() -> list[dict[str, Any]]:
    groups = _yaml(PROMETHEUS / "alerts.yml")["groups"]
    return [rule for group in groups for rule in group["rules"]]


def _dashboard() -> dict[str, Any]:
    dashboard: dict[str, Any] = json.loads(DASHBOARD.read_text())
    return dashboard


def _panels() -> list[dict[str, Any]]:
    """The dashboard's panels, those inside collapsed rows too."""
    panels = []
    for panel in _dashboard()["panels"]:
        panels.append(panel)
        panels.extend(panel.get("panels", []))
    return panels


def _dashboard_exprs() -> list[str]:
    return [target["expr"] for panel in _panels() for target in panel.get("targets", [])]


def _metric_names(exprs: list[str]) -> set[str]:
    """The metrics that PromQL expressions read: a histogram's series by the histogram's name."""
    names = set()
    for series in SERIES.findall("\n".join(exprs)):
        histogram = HISTOGRAM_SERIES.match(series)
        if histogram and histogram["name"] in HISTOGRAMS:
            names.add(histogram["name"])
        else:
            assert series not in HISTOGRAMS, f"{series} is a histogram: read its _bucket series"
            names.add(series)
    return names


def _compose() -> dict[str, Any]:
    compose: dict[str, Any] = _yaml(REPO_ROOT / "docker-compose.yml")
    return compose


def _app_services() -> set[str]:
    """The compose services that run the server (`python -m app serve`)."""
    return {name for name, service in _compose()["services"].items()
            if service.get("command", [])[:4] == ["python", "-m", "app", "serve"]}


# --- promtool --------------------------------------------------------------------------------

def test_promtool_accepts_the_configuration_and_its_rule_files() -> None:
    output = _promtool("check", "config", "prometheus.yml")
    assert "1 rule files found" in output


def test_promtool_accepts_the_alert_rules() -> None:
    output = _promtool("check", "rules", "alerts.yml")
    assert f"{len(_alerts())} rules found" in output


def test_each_alert_fires_when_it_should_and_only_then() -> None:
    _promtool("test", "rules", "alerts_test.yml")


def test_the_dashboards_queries_are_promql(tmp_path: Path) -> None:
    """Each panel's query, with Grafana's variables filled in, as a recording rule for promtool."""
    filled = [expr.replace("$__rate_interval", "1m").replace("$instance", ".*")
              for expr in _dashboard_exprs()]
    rules = [{"record": f"dashboard:query_{n}", "expr": expr} for n, expr in enumerate(filled)]
    path = tmp_path / "dashboard_rules.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}))
    output = _promtool("check", "rules", str(path))
    assert f"{len(rules)} rules found" in output


# --- the metrics -------------------------------------------------------------------------------

def test_the_alerts_and_the_dashboard_read_only_the_servers_metrics() -> None:
    used = _metric_names([rule["expr"] for rule in _alerts()] + _dashboard_exprs())
    assert used - METRICS == set()


def test_the_dashboard_shows_every_metric() -> None:
    assert METRICS - _metric_names(_dashboard_exprs()) == set()


def test_actions_failing_counts_exactly_the_server_faults() -> None:
    """RummyActionsFailing names each code of app/refusals.py that is the server's doing, and
    HTTP 5xx without a code: a server fault added there must be added to the alert. Except
    `not_ready`: it answers a balancer's readiness check, and RummyProcessNotReady covers it."""
    [rule] = [rule for rule in _alerts() if rule["alert"] == "RummyActionsFailing"]
    [codes] = re.findall(r'rummy_errors_total\{code=~"([^"]+)"\}', rule["expr"])
    server_faults = {code.value for code in Code
                     if code.fault is Fault.SERVER and code is not Code.NOT_READY}
    assert set(codes.split("|")) == server_faults | {"http_5.."}


# --- the alerts ----------------------------------------------------------------------------------

def test_each_alert_waits_says_how_bad_and_what_happened() -> None:
    for rule in _alerts():
        assert re.fullmatch(r"\d+[sm]", rule.get("for", "")), rule["alert"]
        assert rule["labels"]["severity"] in ("critical", "warning"), rule["alert"]
        assert set(rule["annotations"]) == {"summary", "description"}, rule["alert"]


def test_each_alert_is_tested_firing_and_silent() -> None:
    cases: dict[str, set[bool]] = {}
    for test in _yaml(PROMETHEUS / "alerts_test.yml")["tests"]:
        for case in test["alert_rule_test"]:
            cases.setdefault(case["alertname"], set()).add(bool(case.get("exp_alerts")))
    assert {rule["alert"]: {True, False} for rule in _alerts()} == cases


# --- Grafana -------------------------------------------------------------------------------------

def test_the_dashboard_is_a_grafana_dashboard_on_the_provisioned_datasource() -> None:
    [source] = _yaml(GRAFANA / "provisioning" / "datasources" / "prometheus.yml")["datasources"]
    dashboard = _dashboard()
    assert isinstance(dashboard["schemaVersion"], int) and dashboard["uid"] and dashboard["title"]
    panels = _panels()
    assert len({panel["id"] for panel in panels}) == len(panels)
    for panel in panels:
        grid = panel["gridPos"]
        assert all(isinstance(grid[key], int) for key in "hwxy") and grid["x"] + grid["w"] <= 24
        if panel["type"] == "row":
            continue
        assert panel["title"] and panel["targets"], panel
        for target in [panel, *panel["targets"]]:
            assert target["datasource"] == {"type": "prometheus", "uid": source["uid"]}, panel
        assert all(target["expr"] and target["refId"] for target in panel["targets"]), panel


def test_no_two_panels_overlap() -> None:
    cells: dict[tuple[int, int], str] = {}
    for panel in _dashboard()["panels"]:
        grid = panel["gridPos"]
        for x in range(grid["x"], grid["x"] + grid["w"]):
            for y in range(grid["y"], grid["y"] + grid["h"]):
                assert (x, y) not in cells, f"{panel['title']} covers {cells[x, y]}"
                cells[x, y] = panel["title"]


def test_grafana_loads_the_dashboard_from_where_compose_mounts_it() -> None:
    [provider] = _yaml(GRAFANA / "provisioning" / "dashboards" / "rummy.yml")["providers"]
    grafana = _compose()["services"]["grafana"]
    mounts = dict(volume.rsplit(":", 1)[0].split(":") for volume in grafana["volumes"]
                  if volume.startswith("./"))
    assert mounts["./deploy/grafana/provisioning"] == "/etc/grafana/provisioning"
    assert mounts["./deploy/grafana/dashboards"] == provider["options"]["path"]
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home == f"{provider['options']['path']}/{DASHBOARD.name}"


# --- docker-compose.yml and nginx ----------------------------------------------------------------

def test_prometheus_scrapes_each_app_process_of_compose() -> None:
    config = _yaml(PROMETHEUS / "prometheus.yml")
    [job] = [job for job in config["scrape_configs"] if job["job_name"] == "rummy"]
    targets = {target for group in job["static_configs"] for target in group["targets"]}
    assert targets == {f"{name}:8000" for name in _app_services()}
    assert len(_app_services()) >= 2
    prometheus = _compose()["services"]["prometheus"]
    assert "./deploy/prometheus:/etc/prometheus:ro" in prometheus["volumes"]


def test_nginx_balances_the_same_processes_and_hides_their_metrics() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert set(re.findall(r"^\s*server (\S+:\d+)", nginx, re.MULTILINE)) == {
        f"{name}:8000" for name in _app_services()}
    assert re.search(r"location = /metrics \{\s*return 404;\s*\}", nginx)


def test_the_app_processes_admit_scrapes_from_the_compose_network_and_check_readiness() -> None:
    compose = _compose()
    [subnet] = [ipaddress.ip_network(pool["subnet"])
                for pool in compose["networks"]["hall"]["ipam"]["config"]]
    for name in _app_services():
        service = compose["services"][name]
        allowed = [ipaddress.ip_network(text.strip())
                   for text in service["environment"]["RUMMY_METRICS_ALLOW"].split(",")]
        assert any(subnet[0] in network and subnet[-1] in network for network in allowed), name
        assert "/api/ready" in " ".join(service["healthcheck"]["test"]), name
    assert "/api/ready" in " ".join(compose["services"]["proxy"]["healthcheck"]["test"])


def _nginx_servers() -> dict[str, dict[str, str]]:
    """The upstream's `server` lines: address -> parameters (`max_fails` -> `3`, ...)."""
    nginx = (DEPLOY / "nginx.conf").read_text()
    return {address: dict(p.split("=", 1) for p in params.split())
            for address, params in re.findall(r"^\s*server (\S+:\d+)([^;]*);", nginx,
                                              re.MULTILINE)}


def _nginx_directive(name: str) -> list[str]:
    nginx = (DEPLOY / "nginx.conf").read_text()
    [found] = re.findall(rf"^\s*{name}\s+([^;]+);", nginx, re.MULTILINE)
    return found.split()


def _seconds(text: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(s|m)?", text).groups()  # type: ignore[union-attr]
    return int(number) * (60 if unit == "m" else 1)


def test_nginx_does_not_leave_a_healthy_process_out_on_one_503() -> None:
    """A failure is a connection error, a timeout, a 502 or a 503 (`proxy_next_upstream`):
    several within `fail_timeout` leave a process out, never one; the retries are bounded."""
    servers = _nginx_servers()
    assert servers
    for address, params in servers.items():
        assert int(params.get("max_fails", "1")) >= 3, address
        assert 5 <= _seconds(params.get("fail_timeout", "10s")) <= 30, address
    assert set(_nginx_directive("proxy_next_upstream")) == {"error", "timeout", "http_502",
                                                           "http_503"}  # no non_idempotent
    assert 0 < _seconds(_nginx_directive("proxy_next_upstream_timeout")[0]) <= 30
    assert 0 < _seconds(_nginx_directive("proxy_connect_timeout")[0]) <= 10


def _one_shots(compose: dict[str, Any]) -> set[str]:
    """Services others wait to have finished (`service_completed_successfully`): migrations."""
    waits = [service.get("depends_on") or {} for service in compose["services"].values()]
    return {name for depends_on in waits if isinstance(depends_on, dict)  # not a plain list
            for name, wait in depends_on.items()
            if wait.get("condition") == "service_completed_successfully"}


def test_every_long_running_service_restarts() -> None:
    compose = _compose()
    one_shots = _one_shots(compose)
    assert one_shots == {"migrate"}
    for name, service in compose["services"].items():
        if name not in one_shots:
            assert service.get("restart") in ("always", "unless-stopped"), name
    assert {"db", "redis", "proxy"} <= set(compose["services"])


PASSWORD_IN_URL = re.compile(r"://[^:/@]+:([^@]+)@")
VARIABLE = re.compile(r"\$\{(\w+)(:?[?-][^}]*)?\}")


def test_compose_holds_no_password_and_env_example_lists_what_it_needs() -> None:
    """Every password and key is a variable (from the environment or `.env`), never a value in
    the file; .env.example names each variable compose requires, and `.env` stays out of git and
    of the image."""
    compose = _compose()
    for name, service in compose["services"].items():
        environment = service.get("environment") or {}
        for key, text in environment.items():
            text = str(text)
            if re.search(r"PASSWORD|SECRET|_KEY$", key):
                assert VARIABLE.fullmatch(text), f"{name}: {key} is written in the file"
            for password in PASSWORD_IN_URL.findall(text):
                assert VARIABLE.fullmatch(password), f"{name}: {key} holds a password"
    text = (REPO_ROOT / "docker-compose.yml").read_text()
    required = {m[0] for m in VARIABLE.findall(text) if m[1].startswith(":?")}
    assert {"RUMMY_SECRET_KEY", "POSTGRES_PASSWORD"} <= required
    example = (REPO_ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^(\w+)=$", example, re.MULTILINE))
    assert {m[0] for m in VARIABLE.findall(text)} == listed  # every one, each left blank
    for ignore in (".gitignore", ".dockerignore"):
        assert ".env" in (REPO_ROOT / ignore).read_text().split(), ignore
    db = compose["services"]["db"]["environment"]
    [url] = {str(s["environment"]["RUMMY_DATABASE_URL"]) for s in compose["services"].values()
             if "RUMMY_DATABASE_URL" in (s.get("environment") or {})}
    assert VARIABLE.fullmatch(PASSWORD_IN_URL.findall(url)[0])[1] == \
        VARIABLE.fullmatch(db["POSTGRES_PASSWORD"])[1]  # type: ignore[index]


def test_docker_compose_accepts_the_file() -> None:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("docker is not installed")
    version = subprocess.run(  # noqa: S603 - a fixed tool with fixed arguments
        [docker, "compose", "version"], capture_output=True, check=False, timeout=30)
    if version.returncode != 0:
        pytest.skip("docker has no compose plugin (`docker compose version` fails)")
    done = subprocess.run(  # noqa: S603 - a fixed tool with fixed arguments
        [docker, "compose", "config", "-q"], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=60, check=False, env={**os.environ, "RUMMY_SECRET_KEY": "x" * 64,
                                      "POSTGRES_PASSWORD": "p" * 32})
    assert done.returncode == 0, done.stderr
