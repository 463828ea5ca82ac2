#!/usr/bin/env bash
# Writes the Spark-made Delta tables that delta-sink's tests use (deletion vectors, a V2 checkpoint with
# a sidecar, a multi-part checkpoint; see SparkFixtures) and replaces them in
# delta-sink/src/test/resources/spark-tables, and records Spark's DELETE, UPDATE, MERGE and OPTIMIZE commits
# that the upsert sink's tests replay at its commit point (SparkConcurrentCommits) in spark-tables/concurrent.
# Takes a few minutes (Spark local[1]).
# Usage: compat/spark/fixtures.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d -t tributary-spark-fixtures-XXXXXX)"
trap 'rm -rf "$work"' EXIT
(cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package)
. "$here/spark-jvm.sh"
spark_java_opts 2g
java "${java_opts[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  io.tributary.compat.spark.SparkFixtures "$work/out" 2> "$work/spark.log" || { tail -40 "$work/spark.log"; exit 1; }
java "${java_opts[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  io.tributary.compat.spark.SparkConcurrentCommits "$work/out/concurrent" 2>> "$work/spark.log" || { tail -40 "$work/spark.log"; exit 1; }
find "$work/out" -type d -empty -delete
target="$root/delta-sink/src/test/resources/spark-tables"
rm -rf "$target/dv-v2-checkpoint" "$target/dv-multipart-checkpoint" "$target"/*.actions "$target/concurrent"
mkdir -p "$target"
cp -r "$work/out"/. "$target/"
echo "fixtures written to $target"
