#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each for SECONDS (default 20), seeded with
# the traces in traces/ (and the public ones when ../shared is there). Exit status 0 when no
# fuzzer found a crash, a hang or a sanitizer report.
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
seconds="${1:-20}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${2:-$root/build/fuzz}"
cmake -S "$here" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j 2 > "$build.build.log" 2>&1 || { tail -30 "$build.build.log"; exit 1; }

corpus="$build/corpus"
mkdir -p "$corpus"
# Seeds: small traces whole, and the first lines of bigger ones (libFuzzer works on short inputs).
for trace in "$root"/traces/*.log "$root"/../shared/traces/dtr-2020/*.log; do
  [ -f "$trace" ] || continue
  head -c 3000 "$trace" > "$corpus/$(basename "$trace").head"
done
for fuzzer in fuzz_trace_reader fuzz_replay; do
  mkdir -p "$corpus/$fuzzer"
  echo "running $fuzzer for $seconds s"
  "$build/$fuzzer" "$corpus/$fuzzer" "$corpus" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 > "$build/$fuzzer.log" 2>&1 \
    || { tail -40 "$build/$fuzzer.log"; echo "$fuzzer found a problem (see $build/$fuzzer.log)"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$fuzzer.log" | sed "s/^/  $fuzzer /"
done
echo "fuzzers: no crash, hang or sanitizer report"
