#!/usr/bin/env python3
"""Runs every case of the QtTest suites on its own, each in a process of its own.

A case that passes in its suite but fails alone leans on state an earlier case left (a window, a
trace, a cache); this finds it. The suites, their arguments and their environment are read from
CTest (`ctest --show-only=json-v1`), so a case runs exactly as the suite would run it.

Usage: tests/run_each_case.py BUILD_DIR [--suites REGEX] [--jobs N]
Exit status 0 when every case passes alone; its last line is "N passed, N failed".
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time


def ctest_tests(build_dir):
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    return json.loads(listing)["tests"]


def properties(test):
    return {p["name"]: p["value"] for p in test.get("properties", [])}


def environment_of(test):
    env = dict(os.environ)
    for assignment in properties(test).get("ENVIRONMENT", []):
        name, _, value = assignment.partition("=")
        env[name] = value
    return env


def cases_of(test, env):
    """The test functions a CTest test runs: those it names, or all its suite has."""
    executable, *arguments = test["command"]
    named = [a for a in arguments if not a.startswith("-")]
    if named:
        return named
    listing = subprocess.run([executable, "-functions"], capture_output=True, text=True, env=env,
                             cwd=properties(test).get("WORKING_DIRECTORY"), timeout=60)
    return [line.removesuffix("()") for line in listing.stdout.split() if line.endswith("()")]


def run_case(test, case, env):
    props = properties(test)
    started = time.monotonic()
    try:
        result = subprocess.run([test["command"][0], case], capture_output=True, text=True, env=env,
                                cwd=props.get("WORKING_DIRECTORY"), timeout=props.get("TIMEOUT", 600))
        output, failed = result.stdout + result.stderr, result.returncode != 0
    except subprocess.TimeoutExpired as timeout:
        output, failed = f"{timeout}", True
    for pattern in props.get("FAIL_REGULAR_EXPRESSION", []):
        failed = failed or re.search(pattern, output) is not None
    return test["name"], case, failed, time.monotonic() - started, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--suites", default=".", help="a regular expression the CTest names must match")
    parser.add_argument("--jobs", type=int, default=1, help="cases run at once (timing cases want 1)")
    args = parser.parse_args()

    jobs = []
    for test in ctest_tests(args.build_dir):
        if not os.path.basename(test["command"][0]).startswith("tst_") or not re.search(args.suites, test["name"]):
            continue
        env = environment_of(test)
        jobs += [(test, case, env) for case in cases_of(test, env)]

    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, case, failed, seconds, output in pool.map(lambda job: run_case(*job), jobs):
            print(f"{'FAIL' if failed else 'ok  '} {name} {case} ({seconds:.1f} s)", flush=True)
            if failed:
                failures.append((name, case, output))
    for name, case, output in failures:
        print(f"\n--- {name} {case} alone ---\n{output[-4000:]}")
    print(f"\n{len(jobs) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
