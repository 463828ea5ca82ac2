#!/usr/bin/env bash
# The crash harness's long mode: SIGKILL the pipeline at random moments KILLS times per pipeline
# (raw and windowed), then check the tables row by row. Prints kills survived, rows checked and
# the time from each restart to its first batch.   usage: bench/crash.sh [KILLS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-200}"
seed="${2:-42}"
./mvnw -q -B -DskipTests -pl service -am install
./mvnw -B -pl tests verify -Dit.test=CrashAnywhereTest -Dtributary.crash.kills="$kills" -Dtributary.crash.seed="$seed" \
  -Dsurefire.failIfNoSpecifiedTests=false -Dtest=none | grep -E "crash harness|Tests run:|FAIL"
