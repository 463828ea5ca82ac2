#!/usr/bin/env bash
# Records golden/kafka-source: Spark 4.2's own Kafka source reads topics written on Tributary's embedded broker.
# Usage: compat/spark/kafka-golden.sh [CASE...]      (DIST=path/to/dist to use a built distribution as it is)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
golden="$root/golden/kafka-source"
dist="${DIST:-$root/service/target/dist}"
[[ -d "$dist/lib" ]] || (cd "$root" && ./mvnw -q -o -pl service -am package -DskipTests -Dtributary.cds.skip)
(cd "$here" && "$root/mvnw" -q -o package)
. "$here/spark-jvm.sh"
spark_java_opts 2g
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=($(cd "$golden" && ls -d case-*))
for c in "${cases[@]}"; do
  work="$(mktemp -d /tmp/kafka-golden.XXXXXX)"
  mkfifo "$work/in"
  java -cp "$dist/lib/*" "$here/KafkaTopics.java" golden "$golden/$c" "$work/kafka" < "$work/in" > "$work/broker.out" 2> "$work/broker.err" &
  broker=$!
  exec 9> "$work/in"     # the broker runs until this closes
  for _ in $(seq 1 300); do grep -q '^BOOTSTRAP=' "$work/broker.out" 2>/dev/null && break; sleep 1; done
  bootstrap="$(sed -n 's/^BOOTSTRAP=//p' "$work/broker.out")"
  [[ -n "$bootstrap" ]] || { cat "$work/broker.err" >&2; kill "$broker"; exit 1; }
  echo "case $c: broker $bootstrap"
  java "${java_opts[@]}" -Dkafka.bootstrap="$bootstrap" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
    io.tributary.compat.spark.SparkKafkaSource "$golden" "$c" 2> "$work/spark.err" || { tail -50 "$work/spark.err" >&2; exec 9>&-; exit 1; }
  exec 9>&-
  wait "$broker" || true
  rm -rf "$work"
done
