#!/usr/bin/env bash
# The whole test suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset asan
cmake --build --preset asan
# Test programs and the rematlens processes they start inherit this.
# Sanitized cases run several times slower than QtTest's 300 s per test function allows.
export QTEST_FUNCTION_TIMEOUT=1200000
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan-suppressions.txt:print_suppressions=0"
QT_QPA_PLATFORM=offscreen ctest --preset asan -E fuzz_smoke # the fuzzers are sanitized builds already
