#!/usr/bin/env bash
# Tributary's Kafka source against Spark 4.2's (spark-sql-kafka-0-10), on the same topic and machine:
# ROWS JSON records on a PARTITIONS-partition topic of Tributary's embedded broker (KafkaTopics.java bench),
# then RUNS runs of each side, each a new process under /usr/bin/time, each into a new Delta table, availableNow:
#   tributary: bin/tributary run --trigger availableNow (source.kafka, schema "id INT, user STRING, amt DOUBLE,
#              ts TIMESTAMP", sink.delta), from a private copy of service/target/dist
#   spark:     SparkKafkaBench (local[2], readStream.format("kafka") + from_json into Delta, Trigger.AvailableNow)
# Prints per run the wall, CPU (user + sys) and peak RSS, then the medians and the load average.
# Usage: compat/spark/kafka-bench.sh      ROWS=1000000 PARTITIONS=6 RUNS=3 SIDES="tributary spark" BENCH_DIR=/tmp/kafkabench
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rows="${ROWS:-1000000}"; partitions="${PARTITIONS:-6}"; runs="${RUNS:-3}"; sides="${SIDES:-tributary spark}"
base="${BENCH_DIR:-/tmp/kafkabench}"
say() { echo "[$(date -u +%H:%M:%S)] $*"; }
die() { echo "kafka-bench.sh: $*" >&2; exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
load() { uptime | sed 's/.*load average: //'; }

rm -rf "$base"; mkdir -p "$base"
(cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package) >"$base/build.log" 2>&1 || { cat "$base/build.log"; die "could not build compat/spark"; }
[ -x "$root/service/target/dist/bin/tributary" ] || die "no service/target/dist: build it (./mvnw -pl service -am package -DskipTests)"
cp -r "$root/service/target/dist" "$base/dist" || die "could not copy the distribution"
. "$here/spark-jvm.sh"; spark_java_opts 2g

mkfifo "$base/broker.in"
java -cp "$base/dist/lib/*" "$here/KafkaTopics.java" bench "$rows" "$partitions" "$base/kafka" <"$base/broker.in" >"$base/broker.out" 2>"$base/broker.err" &
broker=$!
exec 9>"$base/broker.in"
trap 'exec 9>&-; wait $broker 2>/dev/null' EXIT
say "writing $rows records on $partitions partitions"
for _ in $(seq 1 900); do grep -q '^BOOTSTRAP=' "$base/broker.out" 2>/dev/null && break; kill -0 $broker 2>/dev/null || break; sleep 1; done
bootstrap="$(sed -n 's/^BOOTSTRAP=//p' "$base/broker.out")"
[ -n "$bootstrap" ] || { cat "$base/broker.err"; die "the broker did not start"; }
grep KafkaTopics "$base/broker.err"
say "broker $bootstrap; java: $(java -version 2>&1 | head -1); $(nproc) cores; load $(load)"

for side in $sides; do
  : >"$base/$side.times"
  for r in $(seq 1 "$runs"); do
    w="$base/$side-$r"; mkdir -p "$w"
    l0="$(load)"
    if [ "$side" = tributary ]; then
      cat >"$w/pipeline.yaml" <<YAML
name: bench$r
source:
  kafka:
    topics: [orders]
    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
sink:
  delta:
    path: out/
kafka:
  bootstrap.servers: "$bootstrap"
YAML
      (cd "$w" && /usr/bin/time -f "%e %U %S %M" -o "$w/time" "$base/dist/bin/tributary" run pipeline.yaml --trigger availableNow >"$w/log" 2>&1) \
        || { tail -20 "$w/log"; die "tributary run $r failed"; }
      got="$("$base/dist/bin/tributary" describe "$w/out" 2>/dev/null | grep -m1 -E '^[[:space:]]*rows[[:space:]]' | sed 's/(.*//' | tr -dc '0-9')"
    else
      /usr/bin/time -f "%e %U %S %M" -o "$w/time" java "${java_opts[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
        io.tributary.compat.spark.SparkKafkaBench "$bootstrap" orders "$w" >"$w/log" 2>"$w/err" || { tail -30 "$w/err"; die "spark run $r failed"; }
      got="$(sed -n 's/.*rows_in_table=\([0-9]*\).*/\1/p' "$w/log")"
    fi
    read -r wall user sys rss <"$w/time"
    cpu="$(echo "$user + $sys" | bc)"
    echo "$wall $cpu $rss" >>"$base/$side.times"
    say "$side run $r: wall ${wall}s cpu ${cpu}s rss $((rss / 1024))MB rows $got (load before $l0)"
    [ "$got" = "$rows" ] || die "$side run $r: the table has '$got' rows, expected $rows"
    rm -rf "$w/out" "$w/ck"
  done
  say "$side median of $runs: wall $(cut -d' ' -f1 "$base/$side.times" | median)s cpu $(cut -d' ' -f2 "$base/$side.times" | median)s rss $(( $(cut -d' ' -f3 "$base/$side.times" | median | cut -d. -f1) / 1024 ))MB; load $(load)"
done
