#!/usr/bin/env bash
# Loops the crash point ingest.afterCommit (CrashPointsTest.killedRightAfterTheIngestCommitNeverDuplicates)
# LOOPS times against the distribution: each loop runs the quickstart pipeline on one file, halts it right
# after the ingest's commitTransaction() returned, runs it again and checks the strict outcome (the restart
# exits 0, finds the file in the ingest log, the sink writes its 2 rows once). Prints one line per loop and
# a summary with the restart times.   usage: bench/crash-after-commit.sh [LOOPS] [CRASH_POINT]
set -uo pipefail
cd "$(dirname "$0")/.."
loops="${1:-20}"
point="${2:-ingest.afterCommit}"
./mvnw -q -B -DskipTests -pl service -am package || exit 1
launcher="$PWD/service/target/dist/bin/tributary"
work="$(mktemp -d "${TMPDIR:-/tmp}/tributary-crash-after-commit.XXXXXX")"
ok=0
times=()
for i in $(seq 1 "$loops"); do
  d="$work/$i"
  mkdir -p "$d/in"
  cat > "$d/pipeline.yaml" <<'SPEC'
name: quickstart
source:
  files:
    path: in/
    format: json
    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
sink:
  delta:
    path: out/
trigger: availableNow
SPEC
  printf '%s\n' '{"id": 1, "user": "a", "amt": 5.0, "ts": "2026-01-01T10:01:00Z"}' \
    '{"id": 2, "user": "b", "amt": 7.0, "ts": "2026-01-01T10:05:00Z"}' > "$d/in/part-0001.json"
  (cd "$d" && TRIBUTARY_HTTP_PORT=0 TRIBUTARY_CRASH_AT="$point" "$launcher" run pipeline.yaml > crash.out 2> crash.err)
  crash=$?
  t0=$(date +%s%N)
  (cd "$d" && TRIBUTARY_HTTP_PORT=0 timeout 180 "$launcher" run pipeline.yaml > restart.out 2> restart.err)
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  verdict=FAIL
  if [ "$crash" = 137 ] && [ "$rc" = 0 ] && grep -q "1 files already ingested, next batch 1" "$d/restart.err" \
      && grep -q "version 0 committed, batch 0 of tributary-quickstart-sink: 2 rows" "$d/restart.err" \
      && ! grep -q "version 1 committed" "$d/restart.err"; then
    verdict=ok
    ok=$((ok + 1))
    times+=("$ms")
  fi
  echo "loop $i: crash exit $crash, restart exit $rc in $ms ms: $verdict$( [ "$verdict" = FAIL ] && echo " (see $d)")"
done
sorted=$(printf '%s\n' "${times[@]:-}" | sort -n)
median=$(echo "$sorted" | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}')
echo "crash point $point: $ok of $loops restarts exact; restart (whole run, one file) median ${median} ms; load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$ok" = "$loops" ]
