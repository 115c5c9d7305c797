"""Lighthouse 12 on the home page and on a table page, desktop and mobile.

``python -m bench.lighthouse`` starts ``python -m app serve`` (SQLite in a temporary folder,
`bench.edge.server`), seats a guest at a started two-seat Standard Rummy room against a computer
player (a long grace, so no stand-in takes the seat while nobody is connected), and runs
Lighthouse 12 from the npm registry (``npx --yes lighthouse@12``) with Debian's Chromium four
times: the home page (a first visit: nobody signed in) and the table page, each with Lighthouse's
mobile defaults and with ``--preset=desktop``, ``--runs`` times each (5 by default: a busy
machine moves the performance score by several points from one run to the next, so the median
run is the figure, as Lighthouse's own docs advise). It prints, per page and form factor, the
median of the four category scores and of the cumulative layout shift, with the lowest and
highest performance score of the runs, and exits non-zero if a median misses a target
(performance ≥ 95, accessibility, best practices and SEO 100, CLS < 0.1).

The table page needs the guest's token in the page's localStorage, as a browser that signed in
has it. Lighthouse cannot set storage, so the table runs use a Chromium profile in which a
Playwright session opened the site and stored the token: Lighthouse is given that profile
(``--user-data-dir`` in its Chrome flags) and told not to clear the origin's storage
(``--disable-storage-reset``). Nothing in the client or the server is special for the bench.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from bench.edge import server

CHROMIUM = os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium")
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}
CLS_LIMIT = 0.1
ATTEMPTS = 3


def seated_guest(base: str) -> tuple[dict[str, Any], str]:
    """A guest at a started room whose next move is the guest's: the table is at rest (the
    computer player waits), as a player sees it while thinking."""
    def post(path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.post(base + path, json=body, headers=headers, timeout=30, trust_env=False)
        r.raise_for_status()
        return r.json()

    guest = post("/api/auth/guest", body={"name": "Lighthouse"})
    token = guest["token"]
    room = post("/api/rooms", token, {"game": "standard", "seats": 2, "grace_seconds": 3600})
    post(f"/api/rooms/{room['id']}/bots", token, {"count": 1})
    post(f"/api/rooms/{room['id']}/start", token)
    return guest, str(room["id"])


def signed_in_profile(base: str, guest: dict[str, Any], folder: Path) -> Path:
    """A Chromium profile whose localStorage for `base` holds the guest's session."""
    from playwright.sync_api import sync_playwright

    profile = folder / "profile"
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = ctx.new_page()
        page.goto(base + "/favicon.svg")
        page.evaluate("([t, p]) => { localStorage.setItem('rummy.token', t);"
                      " localStorage.setItem('rummy.player', p); }",
                      [guest["token"], json.dumps(guest["player"])])
        ctx.close()
    return profile


def lighthouse(url: str, desktop: bool, out: Path, profile: Path | None) -> dict[str, Any]:
    """One Lighthouse run; its report as JSON."""
    flags = "--headless=new --no-sandbox"
    if profile is not None:
        flags += f" --user-data-dir={profile}"
    cmd = ["npx", "--yes", "lighthouse@12", url, "--quiet", "--output=json",
           f"--output-path={out}", f"--chrome-path={CHROMIUM}", f"--chrome-flags={flags}",
           "--only-categories=" + ",".join(CATEGORIES)]
    if desktop:
        cmd.append("--preset=desktop")
    if profile is not None:
        cmd.append("--disable-storage-reset")
    for attempt in range(1, ATTEMPTS + 1):
        # Lighthouse gives up on a run now and then on a busy machine ("NO_NAVSTART: please run
        # Lighthouse again"): such a run is repeated, and said so.
        done = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)  # noqa: S603
        if done.returncode == 0:
            return dict(json.loads(out.read_text()))
        print(f"  (Lighthouse failed on {url}, attempt {attempt} of {ATTEMPTS})", file=sys.stderr)
    raise SystemExit(f"Lighthouse failed {ATTEMPTS} times on {url}")


def figures(report: dict[str, Any]) -> dict[str, float]:
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    return {**scores, "cls": report["audits"]["cumulative-layout-shift"]["numericValue"]}


def failures(runs: list[dict[str, Any]]) -> list[str]:
    """The audits that cost points in some run (score below 1, weighted in a category), each
    with its lowest score."""
    lowest: dict[str, float] = {}
    for report in runs:
        weighted = {ref["id"] for c in CATEGORIES for ref in report["categories"][c]["auditRefs"]
                    if ref["weight"] > 0}
        for a in report["audits"].values():
            if a["id"] in weighted and a.get("score") is not None and a["score"] < 1:
                lowest[a["id"]] = min(a["score"], lowest.get(a["id"], 1.0))
    return [f"{audit} ({score:.2f})" for audit, score in sorted(lowest.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list the audits that lost points")
    parser.add_argument("--reports", type=Path, help="keep the JSON reports in this folder")
    parser.add_argument("--runs", type=int, default=5, help="runs per page and form factor")
    args = parser.parse_args()
    missed = []
    with server() as base, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        reports = args.reports or folder
        reports.mkdir(parents=True, exist_ok=True)
        guest, room_id = seated_guest(base)
        profile = signed_in_profile(base, guest, folder)
        pages = [("home", base + "/", None), ("table", f"{base}/#/room/{room_id}", profile)]
        print(f"{'page':<6} {'form':<8} {'perf':>5} {'(range)':>9} {'a11y':>5} {'best':>5} "
              f"{'seo':>5} {'CLS':>7}")
        for name, url, prof in pages:
            for desktop in (False, True):
                form = "desktop" if desktop else "mobile"
                runs = [lighthouse(url, desktop, reports / f"{name}-{form}-{i}.json", prof)
                        for i in range(args.runs)]
                each = [figures(r) for r in runs]
                f = {k: statistics.median(x[k] for x in each) for k in each[0]}
                perf = sorted(x["performance"] for x in each)
                span = f"{perf[0]:.0f}-{perf[-1]:.0f}"
                print(f"{name:<6} {form:<8} {f['performance']:>5.0f} {span:>9} "
                      f"{f['accessibility']:>5.0f} {f['best-practices']:>5.0f} {f['seo']:>5.0f} "
                      f"{f['cls']:>7.3f}", flush=True)
                if args.verbose:
                    for line in failures(runs):
                        print("       ", line)
                missed += [f"{name} {form} {c} {f[c]} < {v}" for c, v in TARGETS.items()
                           if f[c] < v]
                if f["cls"] >= CLS_LIMIT:
                    missed.append(f"{name} {form} CLS {f['cls']:.3f} >= {CLS_LIMIT}")
    if missed:
        print("missed:", "; ".join(missed))
        sys.exit(1)


if __name__ == "__main__":
    main()
