#!/usr/bin/env bash
# The crash harness's long mode: SIGKILL the pipeline at random moments KILLS times per pipeline
# (raw, upsert and windowed, over files and over a topic), then check the tables row by row. Prints kills survived, rows checked and
# the time from each restart to its first batch.   usage: bench/crash.sh [KILLS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-200}"
seed="${2:-42}"
# -am builds the modules the tests need in this reactor (nothing is installed into ~/.m2)
./mvnw -B -pl tests -am verify -Psoak -Dit.test=CrashAnywhereTest -Dtributary.crash.kills="$kills" -Dtributary.crash.seed="$seed" \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false | grep -E "crash harness|Tests run:|FAIL"
