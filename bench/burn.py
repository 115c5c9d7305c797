"""Run a command on a busy machine: ``python -m bench.burn N -- COMMAND ...``.

Starts N processes that spin on the CPU (a load of about N beside whatever else runs), runs
COMMAND, stops them, and prints the command's wall time, its exit status and the 1-minute load
average seen while it ran (lowest, median, highest, sampled every 5 s). Exits with the command's
status, so ``python -m bench.burn 8 -- make test`` is the suite at load 8 (docs/benchmarks.md,
"The test suite"): a test that holds only on a quiet machine fails here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time

# Marks the spinners in the process list (tests/bench/test_burn.py counts them by it).
SPINNER = "bench.burn-spinner"
SAMPLE_SECONDS = 5.0


def spin() -> subprocess.Popen[bytes]:
    """One spinning process; stopped by `stop`."""
    return subprocess.Popen([  # noqa: S603 - our own interpreter
        sys.executable, "-c", "while True: pass", SPINNER])


def stop(spinners: list[subprocess.Popen[bytes]]) -> None:
    for process in spinners:
        process.kill()
    for process in spinners:
        process.wait()


def sample_load(samples: list[float], done: threading.Event) -> None:
    while not done.wait(SAMPLE_SECONDS):
        samples.append(os.getloadavg()[0])


def run(load: int, command: list[str]) -> int:
    spinners = [spin() for _ in range(load)]
    samples: list[float] = []
    done = threading.Event()
    sampler = threading.Thread(target=sample_load, args=(samples, done), daemon=True)
    start = time.monotonic()
    sampler.start()
    try:
        status = subprocess.call(command)  # noqa: S603 - the operator's own command
    finally:
        done.set()
        stop(spinners)
    wall = time.monotonic() - start
    figures = (f"load {min(samples):.1f} / {statistics.median(samples):.1f} / {max(samples):.1f}"
               " (1-min average: lowest / median / highest)" if samples else "load not sampled")
    print(f"bench.burn: {load} spinners, wall {wall:.1f} s, exit {status}, {figures}",
          flush=True)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.burn",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("load", type=int, help="how many spinning processes to run beside it")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command to run")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.load < 0 or not command:
        parser.error("give a load of 0 or more and a command after --")
    return run(args.load, command)


if __name__ == "__main__":
    sys.exit(main())
