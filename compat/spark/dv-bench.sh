#!/usr/bin/env bash
# Upserts with deletion vectors, Tributary beside Spark 4.2's MERGE, on the same table and batches: a table of ROWS
# rows (files of 100,000 rows by id), then BATCHES batches that change 1% of its keys (half updates, a tenth deletes,
# the rest new keys). Tributary: delta-sink's DeletionVectorBench (deletion vectors, then copy-on-write); Spark:
# SparkDvBench (MERGE into a table with delta.enableDeletionVectors). Each prints per batch the process CPU and wall
# seconds and a RESULT line with the median CPU per batch and the table's row count against the expected one.
# BENCH=history runs the same batches as history upserts (SCD type 2, sequenceBy lsn): Tributary's HistoryUpsertBench
# (deletion vectors, then copy-on-write) beside SparkHistoryBench (Databricks' SCD type 2 MERGE, deletion vectors).
# Usage: compat/spark/dv-bench.sh
#   ROWS=10000000 BATCHES=3 SIDES="tributary spark"   what to run
#   BENCH=upsert                                     upsert, or history
#   BENCH_DIR=/tmp/dv-bench                          where the tables go (removed first)
#   XMX=6g                                           both JVMs' -Xmx; SPARK_MASTER=local[2]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rows="${ROWS:-10000000}"
batches="${BATCHES:-3}"
sides="${SIDES:-tributary spark}"
base="${BENCH_DIR:-/tmp/dv-bench}"
case "${BENCH:-upsert}" in
  upsert) tributary_main=DeletionVectorBench spark_main=SparkDvBench ;;
  history) tributary_main=HistoryUpsertBench spark_main=SparkHistoryBench ;;
  *) echo "dv-bench.sh: unknown BENCH ${BENCH} (upsert or history)" >&2; exit 1 ;;
esac
xmx="${XMX:-6g}"
status=0
say() { echo "[$(date -u +%H:%M:%S)] $*"; }
rm -rf "$base" && mkdir -p "$base"
say "$(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in $sides; do
  case "$side" in
    tributary)
      say "building delta-sink's tests and their class path"
      (cd "$root" && ./mvnw -q -B -pl delta-sink -am -Dtributary.cds.skip test-compile dependency:build-classpath \
        -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test) >"$base/build-tributary.log" 2>&1 \
        || { cat "$base/build-tributary.log"; exit 1; }
      say "tributary: $tributary_main $rows rows, $batches batches"
      (cd "$root/delta-sink" && /usr/bin/time -f "tributary process: %e s wall, %U s user, %S s sys, %M KiB peak RSS" \
        java "-Xmx$xmx" -cp "target/test-classes:target/classes:$(cat target/cp.txt)" "io.tributary.sink.internal.$tributary_main" \
        "$base/tributary" "$batches" "$rows" 1) >"$base/tributary.log" 2>&1 || status=1
      grep -E '^(  |RESULT|tributary process)' "$base/tributary.log"
      ;;
    spark)
      say "building compat/spark"
      (cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package) >"$base/build-spark.log" 2>&1 \
        || { cat "$base/build-spark.log"; exit 1; }
      . "$here/spark-jvm.sh" && spark_java_opts "$xmx"
      say "spark: $spark_main $rows rows, $batches batches (${SPARK_MASTER:-local[2]})"
      (cd "$here" && SPARK_LOCAL_IP=127.0.0.1 /usr/bin/time -f "spark process: %e s wall, %U s user, %S s sys, %M KiB peak RSS" \
        java "${java_opts[@]}" "-Dspark.master=${SPARK_MASTER:-local[2]}" -cp "target/classes:$(cat target/classpath.txt)" \
        "io.tributary.compat.spark.$spark_main" "$base/spark" "$rows" "$batches") >"$base/spark.log" 2>&1 || status=1
      grep -E '^(  |RESULT|spark process)' "$base/spark.log"
      ;;
    *) echo "dv-bench.sh: unknown side $side" >&2; exit 1 ;;
  esac
done
grep -q 'EXPECTED' "$base"/*.log 2>/dev/null && { echo "a table does not hold the expected rows"; status=1; }
say "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
