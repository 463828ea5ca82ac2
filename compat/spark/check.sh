#!/usr/bin/env bash
# Spark reader check: Tributary's Delta tables must read as ordinary Delta tables in Apache Spark 4.2
# with Delta 4.4 (batch, history, statistics, checkpoint, streaming). Builds the tables with the
# project's own launcher in temp copies of the examples, then runs SparkRead on them.
# Usage: compat/spark/check.sh            (KEEP=1 keeps the temp folder; prints PASS or FAIL last)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d -t tributary-spark-check-XXXXXX)"
log="$work/runs.log"
started=$SECONDS
cleanup() { if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT
fail() { echo "spark compat check: FAIL ($*) [$((SECONDS - started)) s]"; [ -f "$log" ] && tail -40 "$log"; exit 1; }
say() { echo "[$((SECONDS - started)) s] $*"; }

# The project's launcher builds the distribution when needed. The check then runs a private copy of
# that distribution, so that other work in the tree rebuilding it meanwhile cannot swap jars under a run.
launcher="$root/tributary"
dist="$work/dist/bin/tributary"
copy_distribution() {
  local try
  for try in 1 2 3; do
    "$launcher" --version >>"$log" 2>&1 || { sleep 20; continue; }
    rm -rf "$work/dist" && cp -r "$root/service/target/dist" "$work/dist" 2>>"$log" || { sleep 20; continue; }
    local ok=1 jar
    for jar in "$work/dist"/lib/*.jar; do unzip -tq "$jar" >/dev/null 2>&1 || { ok=0; break; }; done
    [ "$ok" = 1 ] && return 0
    echo "distribution copy incomplete (a concurrent build?), retrying" >>"$log"; sleep 20
  done
  fail "could not build or copy the distribution with $launcher"
}
run_pipeline() { # dir
  # a bounded run: an availableNow pipeline over a few rows takes seconds
  (cd "$1" && timeout 300 "$dist" run pipeline.yaml) >>"$log" 2>&1 || fail "tributary run $1/pipeline.yaml exited $?"
}
row() { # file id user amt minute
  printf '{"id": %d, "user": "%s", "amt": %s, "ts": "2026-01-01T%s:00Z"}\n' "$2" "$3" "$4" "$5" >"$1"
}

say "building the Spark reader (first run downloads Spark 4.2 + Delta 4.4, about 270 MB)"
(cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package) >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; fail "could not build compat/spark"; }

say "distribution: $launcher (builds it if needed), copied to the temp folder"
copy_distribution
say "quickstart: first run"
cp -r "$root/examples/quickstart" "$work/quickstart"
rm -rf "$work/quickstart/out" "$work/quickstart/.tributary"
run_pipeline "$work/quickstart"
say "quickstart: second run with one new file"
row "$work/quickstart/in/part-0002.json" 3 c 2.5 10:07
run_pipeline "$work/quickstart"

say "revenue: windowed aggregation"
cp -r "$root/examples/revenue" "$work/revenue"
rm -rf "$work/revenue/agg" "$work/revenue/.tributary"
run_pipeline "$work/revenue"

say "many commits: quickstart run 12 times, one new file each (Kernel checkpoints at version 10)"
cp -r "$root/examples/quickstart" "$work/many"
rm -rf "$work/many/out" "$work/many/.tributary"
for i in $(seq 1 12); do
  [ "$i" -gt 1 ] && row "$work/many/in/part-$(printf %04d $((i + 1))).json" $((i + 1)) u$i "$i.5" "$(printf '11:%02d' "$i")"
  run_pipeline "$work/many"
done
ckpt="$work/many/out/_delta_log/00000000000000000010.checkpoint.parquet"
[ -f "$ckpt" ] || fail "no Kernel checkpoint $ckpt after 12 commits: $(ls "$work/many/out/_delta_log")"
# A copy whose log starts at the checkpoint (as after log cleanup): Spark must read the checkpoint
# because the commits before it are gone.
cp -r "$work/many/out" "$work/from-checkpoint"
for v in $(seq 0 10); do rm -f "$work/from-checkpoint/_delta_log/$(printf %020d "$v").json"; done

say "reading the tables with Spark"
schema="id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
java_opts=(-XX:+IgnoreUnrecognizedVMOptions --add-modules=jdk.incubator.vector
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  -Dio.netty.tryReflectionSetAccessible=true -Duser.timezone=UTC -Xmx2g)
spark_ok=0
SPARK_LOCAL_IP=127.0.0.1 java "${java_opts[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  io.tributary.compat.spark.SparkRead \
  --table "$work/quickstart/out" --count 3 --versions 2 --schema "$schema" \
    --row '{"id":1,"user":"a","amt":5.0,"ts":"2026-01-01T10:01:00.000Z"}' \
    --row '{"id":2,"user":"b","amt":7.0,"ts":"2026-01-01T10:05:00.000Z"}' \
    --row '{"id":3,"user":"c","amt":2.5,"ts":"2026-01-01T10:07:00.000Z"}' \
  --table "$work/revenue/agg" --count 2 \
    --schema "window struct<start:timestamp,end:timestamp>, user string, t double" \
    --row '{"window":{"start":"2026-01-01T10:00:00.000Z","end":"2026-01-01T10:10:00.000Z"},"user":"a","t":8.0}' \
    --row '{"window":{"start":"2026-01-01T10:00:00.000Z","end":"2026-01-01T10:10:00.000Z"},"user":"b","t":7.0}' \
  --table "$work/many/out" --count 13 --versions 12 --schema "$schema" \
  --table "$work/from-checkpoint" --count 13 --schema "$schema" \
  || spark_ok=$?
[ "$spark_ok" = 0 ] || fail "SparkRead exited $spark_ok, see above"
echo "spark compat check: PASS (Spark 4.2.0 + Delta 4.4.0 read 4 Tributary tables: quickstart 2 versions, revenue windows, 12 commits with a Kernel checkpoint, log starting at the checkpoint) [$((SECONDS - started)) s]"
