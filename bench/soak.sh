#!/usr/bin/env bash
# The fresh-run soak: RUNS first runs of a new two-file pipeline (a fresh folder, embedded broker,
# availableNow), each a process of its own, while BUSY threads keep the CPUs busy; every run must exit
# 0 with the four rows in its table. The stderr of a failed run is kept in tests/target/soak/.
#   usage: bench/soak.sh [RUNS] [BUSY]      (defaults: 100 runs, one busy thread per core)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-100}"
busy=()
if [ -n "${2:-}" ]; then
  busy=(-Dtributary.soak.busyThreads="$2")
fi
# -am builds the modules the tests need in this reactor, the distribution included (nothing is installed into ~/.m2)
./mvnw -B -pl tests -am verify -Psoak -Dtributary.soak.runs="$runs" "${busy[@]}" | grep -E "fresh-run soak|Tests run: [1-9]|FAIL|run [0-9]+ \("
