"""One room gateway (issue 19): whether this process is alone or one of several is decided once,
at start-up (`app.main`), and known to `app.cluster`, which implements it. Every other module
reaches rooms through `app.api.gateway.Gateway` and never asks which deployment it is in."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
START_UP = (APP / "main.py", APP / "cluster")

# Attributes that only the deployment's wiring has (``app.state.relay``, ``.cluster``, ...).
DEPLOYMENT_ATTRIBUTES = {"relay", "cluster", "is_cluster"}
# Names whose being None, or not, would tell one deployment from the other.
DEPLOYMENT_NAMES = DEPLOYMENT_ATTRIBUTES | {"gateway"}
# The gateway's implementations and their parts: asking for one is asking the deployment.
GATEWAY_TYPES = {"LocalGateway", "ClusterGateway", "LocalLink", "Link", "Relay", "Cluster",
                 "RemoteConnection"}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def deployment_tests(tree: ast.AST) -> list[str]:
    """Each place in ``tree`` that asks which deployment this is, as ``line: what``."""
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app.cluster"):
            found.append(f"{line}: imports {node.module}")
        elif isinstance(node, ast.Import):
            found += [f"{line}: imports {a.name}" for a in node.names
                      if a.name.startswith("app.cluster")]
        elif isinstance(node, ast.Attribute) and node.attr in DEPLOYMENT_ATTRIBUTES:
            found.append(f"{line}: reads .{node.attr}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Constant) and s.value is None for s in sides):
                names = {_name(s) for s in sides} & DEPLOYMENT_NAMES
                found += [f"{line}: compares {n} with None" for n in sorted(names)]
        elif (isinstance(node, ast.Call) and _name(node.func) in {"isinstance", "issubclass"}
              and len(node.args) == 2):
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            found += [f"{line}: isinstance of {n}" for n in sorted(
                {_name(k) for k in kinds} & GATEWAY_TYPES)]
    return found


def _outside_start_up() -> list[Path]:
    return [p for p in sorted(APP.rglob("*.py"))
            if not any(p == s or s in p.parents for s in START_UP)]


def test_no_module_outside_start_up_tests_for_the_deployment() -> None:
    found = {str(p.relative_to(APP.parent)): hits for p in _outside_start_up()
             if (hits := deployment_tests(ast.parse(p.read_text(), str(p))))}
    assert found == {}


def test_the_scan_sees_the_forks_it_forbids() -> None:
    """What the code did before the gateway: each of these is found."""
    for fork in ("if request.app.state.relay is not None: pass",
                 "if gateway is None: pass",
                 "from app.cluster.relay import Link",
                 "isinstance(target, (Room, LocalGateway))",
                 "if settings.is_cluster: pass"):
        assert deployment_tests(ast.parse(fork)), fork


def test_the_scan_reads_the_modules_that_reach_rooms() -> None:
    names = {p.relative_to(APP).as_posix() for p in _outside_start_up()}
    assert {"api/rooms.py", "api/ws.py", "api/auth.py", "api/health.py"} <= names
    assert not any(n.startswith("cluster/") or n == "main.py" for n in names)
