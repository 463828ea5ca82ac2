#!/usr/bin/env bash
# Spark reader check: Tributary's Delta tables must read as ordinary Delta tables in Apache Spark 4.2
# with Delta 4.4 (batch, history, statistics, checkpoint, streaming). Builds the tables with the
# project's own launcher in temp copies of the examples, then runs SparkRead on them.
# Usage: compat/spark/check.sh            (KEEP=1 keeps the temp folder; prints PASS or FAIL last)
#   COMMITS=1000 (default): also a table of that many sink commits, built by the service; 0: skip it
#   TIME_OPEN=5 (default): timed Spark opens of the 12- and 1,000-commit tables (median printed); 0: none
#   S3=1 (default): also the quickstart with its input and table on an S3 server (S3Proxy, started here),
#     read by Spark through its own s3a connector; 0: skip it. LOCAL=0: only that table on S3.
#   CONCURRENT=1 (default): also Tributary's upsert committed inside Spark's open DELETE, UPDATE, MERGE and
#     OPTIMIZE transactions (SparkOpenTransactions); each table must equal a serial result; the outcomes are
#     recorded in golden/concurrency/open-transaction. 0: skip it. CASES="delete-dv-upsert ...": only those.
#   DV=1 (default): also the tables delta-sink's upsert wrote with deletion vectors (DeletionVectorUpsertTest,
#     SparkDeletionVectorsTest, DeletionVectorPartitionedUpsertTest run with -Dtributary.dv.keep), each read for its
#     exact rows (NAME.args), and the history tables (SCD type 2) HistoryGoldenTest wrote with deletion vectors and the
#     change data feed from golden/scd2 case-1 and case-2, read for Spark's versions and their feed; 0: skip them
#   CONNECT=FOLDER: also the tables the Kafka Connect Delta sink wrote there, each with its NAME.args
#     (SparkRead's arguments, one a line), as connect's ConnectIT leaves them with -Dconnect.it.keep=FOLDER
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d -t tributary-spark-check-XXXXXX)"
log="$work/runs.log"
started=$SECONDS
commits="${COMMITS:-1000}"
time_open="${TIME_OPEN:-5}"
s3="${S3:-1}"
local_tables="${LOCAL:-1}"
connect_tables="${CONNECT:-}"
concurrent="${CONCURRENT:-1}"
dv_tables="${DV:-1}"
[ "$local_tables" = 1 ] || commits=0
s3proxy_pid=""
cleanup() {
  if [ -n "$s3proxy_pid" ]; then kill "$s3proxy_pid" 2>/dev/null; wait "$s3proxy_pid" 2>/dev/null; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
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
line() { # id user amt minute: one JSON row on stdout
  printf '{"id": %d, "user": "%s", "amt": %s, "ts": "2026-01-01T%s:00Z"}\n' "$1" "$2" "$3" "$4"
}
row() { # file id user amt minute: a one-row file
  local file="$1"; shift
  line "$@" >"$file"
}

say "building the Spark reader (first run downloads Spark 4.2 + Delta 4.4, about 270 MB)"
(cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package) >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; fail "could not build compat/spark"; }

if [ "$local_tables" = 1 ] || [ "$commits" -gt 0 ] || [ "$s3" = 1 ] || [ "$concurrent" = 1 ]; then
  say "distribution: $launcher (builds it if needed), copied to the temp folder"
  copy_distribution
fi
if [ "$local_tables" = 1 ]; then
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

  say "upsert: mode upsert, keys [id]; 6 rows with id 3 twice, then an update of id 2 and a new id 6, then no new file"
  cp -r "$root/examples/quickstart" "$work/upsert"
  rm -rf "$work/upsert/out" "$work/upsert/.tributary" "$work/upsert/in"/*
  sed -i 's|^    path: out/$|    path: out/\n    mode: upsert\n    keys: [id]|' "$work/upsert/pipeline.yaml"
  grep -q 'mode: upsert' "$work/upsert/pipeline.yaml" || fail "could not make the upsert spec from examples/quickstart"
  {
    line 1 a 5.0 10:01; line 2 b 7.0 10:02; line 3 c 1.0 10:03
    line 3 c 2.0 10:04; line 4 d 3.0 10:05; line 5 e 4.0 10:06
  } >"$work/upsert/in/batch-1.json"
  run_pipeline "$work/upsert"
  { line 2 b 70.0 11:00; line 6 f 6.0 11:01; } >"$work/upsert/in/batch-2.json"
  run_pipeline "$work/upsert"
  run_pipeline "$work/upsert"

  say "nested: ARRAY, MAP and their nesting, JSON lines in"
  mkdir -p "$work/nested/in"
  cat >"$work/nested/pipeline.yaml" <<'SPEC'
name: nested
source:
  files:
    path: in/
    schema: "id INT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, items ARRAY<STRUCT<sku: STRING, qty: INT, opts: MAP<STRING, ARRAY<DOUBLE>>>>, ts TIMESTAMP"
sink:
  delta:
    path: out/
trigger: availableNow
SPEC
  cat >"$work/nested/in/a.json" <<'ROWS'
{"id": 1, "tags": ["x", null, "y"], "attrs": {"k": 1, "n": null}, "items": [{"sku": "s1", "qty": 2, "opts": {"w": [1.5, null]}}, null], "ts": "2026-01-01T10:00:00Z"}
{"id": 2, "tags": [], "attrs": {}, "items": []}
{"id": 3}
ROWS
  run_pipeline "$work/nested"

  say "widening: INT, FLOAT and DATE columns grown to BIGINT, DOUBLE and TIMESTAMP_NTZ (delta.enableTypeWidening)"
  mkdir -p "$work/widening/in"
  widening_spec() { # schema
    printf '%s\n' "name: widening" "source:" "  files:" "    path: in/" "    schema: \"$1\"" "sink:" "  delta:" "    path: out/" \
      "    mergeSchema: true" "    properties:" '      delta.enableTypeWidening: "true"' "trigger: availableNow" >"$work/widening/pipeline.yaml"
  }
  widening_spec "id INT, amt FLOAT, day DATE, name STRING"
  printf '%s\n' '{"id": 1, "amt": 1.5, "day": "2026-01-01", "name": "a"}' '{"id": 2, "amt": 2.25, "day": "2026-01-02", "name": "b"}' \
    >"$work/widening/in/a.json"
  run_pipeline "$work/widening"
  widening_spec "id BIGINT, amt DOUBLE, day TIMESTAMP_NTZ, name STRING"
  echo '{"id": 3000000000, "amt": 0.1, "day": "2026-01-03T10:30:00", "name": "c"}' >"$work/widening/in/b.json"
  run_pipeline "$work/widening"
fi


thousand=()
if [ "$commits" -gt 0 ]; then
  say "$commits commits: the quickstart as a service (processingTime=10 ms, maxFilesPerTrigger 1) over $commits one-row files"
  cp -r "$root/examples/quickstart" "$work/thousand"
  rm -rf "$work/thousand/out" "$work/thousand/.tributary" "$work/thousand/in"/*
  for i in $(seq 1 "$commits"); do
    row "$work/thousand/in/part-$(printf %05d "$i").json" "$i" "u$((i % 7))" "$i.5" "$(printf '%02d:%02d' $((i / 60 % 24)) $((i % 60)))"
  done
  # processingTime runs the ingest and then the sink, one round per trigger: one file, one commit.
  # (Without a trigger the stages run side by side and a sink batch may take several files.)
  (cd "$work/thousand" && exec timeout 1200 "$dist" run pipeline.yaml --trigger "processingTime=10 ms" \
      --set http.port=0 --set source.files.maxFilesPerTrigger=1) >>"$work/thousand.log" 2>&1 &
  service=$!
  last="$work/thousand/out/_delta_log/$(printf %020d $((commits - 1))).json"
  while [ ! -f "$last" ] && kill -0 "$service" 2>/dev/null; do sleep 2; done
  kill -TERM "$service" 2>/dev/null
  wait "$service"; rc=$?
  [ -f "$last" ] || { tail -20 "$work/thousand.log"; fail "the service stopped (exit $rc) before version $((commits - 1))"; }
  [ "$rc" = 0 ] || { tail -20 "$work/thousand.log"; fail "the service exited $rc on SIGTERM"; }
  versions=$(ls "$work/thousand/out/_delta_log" | grep -c '^[0-9]*\.json$')
  rows=$(cat "$work/thousand/in"/*.json | wc -l)
  say "service stopped with SIGTERM: $versions versions, $rows input rows"
  thousand=(--table "$work/thousand/out" --count "$rows" --versions "$versions" --schema "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
    --operation "STREAMING UPDATE" --time-open "$time_open")
fi

s3_tables=()
s3_props=()
if [ "$s3" = 1 ]; then
  say "S3: the quickstart with its input and table in a bucket of an S3 server (S3Proxy over $work/s3), run twice"
  s3port=""
  for try in $(seq 1 20); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then s3port=$p; break; fi
  done
  [ -n "$s3port" ] || fail "no free port for the S3 server"
  mkdir -p "$work/s3/data/lake/landing"
  printf '%s\n' "s3proxy.endpoint=http://127.0.0.1:$s3port" "s3proxy.authorization=aws-v2-or-v4" \
    "s3proxy.identity=compat-access" "s3proxy.credential=compat-secret" \
    "jclouds.provider=filesystem" "jclouds.filesystem.basedir=$work/s3/data" >"$work/s3/s3proxy.conf"
  java -Xmx512m -jar "$here/target/s3proxy/s3proxy.jar" --properties "$work/s3/s3proxy.conf" >"$work/s3/s3proxy.log" 2>&1 &
  s3proxy_pid=$!
  code=000
  for try in $(seq 1 120); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$s3port/" 2>/dev/null)
    [ -n "$code" ] && [ "$code" != 000 ] && break
    kill -0 "$s3proxy_pid" 2>/dev/null || { cat "$work/s3/s3proxy.log"; fail "S3Proxy exited at start"; }
    sleep 1
  done
  [ -n "$code" ] && [ "$code" != 000 ] || fail "S3Proxy did not answer on 127.0.0.1:$s3port"
  # a bucket of the folder store is a folder: the input objects are files in it
  cp "$root/examples/quickstart/in"/*.json "$work/s3/data/lake/landing/"
  mkdir -p "$work/s3quick"
  sed -e 's|^    path: in/$|    path: s3a://lake/landing/|' -e 's|^    path: out/$|    path: s3a://lake/quickstart/|' \
    "$root/examples/quickstart/pipeline.yaml" >"$work/s3quick/pipeline.yaml"
  printf '%s\n' "storage:" "  fs.s3a.endpoint: http://127.0.0.1:$s3port" '  fs.s3a.path.style.access: "true"' \
    "  fs.s3a.access.key: compat-access" "  fs.s3a.secret.key: compat-secret" >>"$work/s3quick/pipeline.yaml"
  grep -q 's3a://lake/quickstart/' "$work/s3quick/pipeline.yaml" && grep -q 's3a://lake/landing/' "$work/s3quick/pipeline.yaml" \
    || fail "could not make the S3 spec from examples/quickstart"
  run_pipeline "$work/s3quick"
  row "$work/s3/data/lake/landing/part-0002.json" 3 c 2.5 10:07
  run_pipeline "$work/s3quick"
  [ -f "$work/s3/data/lake/quickstart/_delta_log/00000000000000000001.json" ] \
    || fail "no version 1 in the table on S3: $(ls -R "$work/s3/data/lake" | head -20)"
  [ -z "$(ls -d "$work/s3quick/out" 2>/dev/null)" ] || fail "the S3 run wrote a local out/ folder"
  s3_tables=(--table "s3a://lake/quickstart" --count 3 --versions 2 --schema "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
    --row '{"id":1,"user":"a","amt":5.0,"ts":"2026-01-01T10:01:00.000Z"}'
    --row '{"id":2,"user":"b","amt":7.0,"ts":"2026-01-01T10:05:00.000Z"}'
    --row '{"id":3,"user":"c","amt":2.5,"ts":"2026-01-01T10:07:00.000Z"}')
  # Spark's own s3a connector (hadoop-aws of Spark's Hadoop version) with the same endpoint and keys
  s3_props=(-Dspark.hadoop.fs.s3a.endpoint="http://127.0.0.1:$s3port" -Dspark.hadoop.fs.s3a.endpoint.region=us-east-1
    -Dspark.hadoop.fs.s3a.path.style.access=true -Dspark.hadoop.fs.s3a.connection.ssl.enabled=false
    -Dspark.hadoop.fs.s3a.access.key=compat-access -Dspark.hadoop.fs.s3a.secret.key=compat-secret
    -Dspark.hadoop.fs.s3a.aws.credentials.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider)
fi

. "$here/spark-jvm.sh"
spark_java_opts 2g
if [ "$concurrent" = 1 ]; then
  say "concurrent: tributary upserts committed inside Spark's open DELETE, UPDATE, MERGE and OPTIMIZE transactions"
  # shellcheck disable=SC2086 # CASES is a list of case names
  SPARK_LOCAL_IP=127.0.0.1 java "${java_opts[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
    io.tributary.compat.spark.SparkOpenTransactions "$dist" "$work/concurrent" "$work/concurrent-out" ${CASES:-} \
    2>"$work/concurrent.log" || { tail -40 "$work/concurrent.log"; fail "SparkOpenTransactions: a table is not a serial result, see above"; }
  recorded="$root/golden/concurrency/open-transaction"
  [ -z "${CASES:-}" ] && rm -rf "$recorded"
  mkdir -p "$recorded" && cp -r "$work/concurrent-out"/. "$recorded/"
  say "concurrent: every table a serial result; outcomes recorded in $recorded"
fi

say "reading the tables with Spark"
schema="id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
spark_ok=0
local_args=()
if [ "$local_tables" = 1 ]; then
  local_args=(
  --table "$work/quickstart/out" --count 3 --versions 2 --schema "$schema"
    --row '{"id":1,"user":"a","amt":5.0,"ts":"2026-01-01T10:01:00.000Z"}'
    --row '{"id":2,"user":"b","amt":7.0,"ts":"2026-01-01T10:05:00.000Z"}'
    --row '{"id":3,"user":"c","amt":2.5,"ts":"2026-01-01T10:07:00.000Z"}'
  --table "$work/revenue/agg" --count 2
    --schema "window struct<start:timestamp,end:timestamp>, user string, t double"
    --row '{"window":{"start":"2026-01-01T10:00:00.000Z","end":"2026-01-01T10:10:00.000Z"},"user":"a","t":8.0}'
    --row '{"window":{"start":"2026-01-01T10:00:00.000Z","end":"2026-01-01T10:10:00.000Z"},"user":"b","t":7.0}'
  --table "$work/nested/out" --count 3
    --schema "id int, tags array<string>, attrs map<string,int>, items array<struct<sku:string,qty:int,opts:map<string,array<double>>>>, ts timestamp"
    --row '{"id":1,"tags":["x",null,"y"],"attrs":{"k":1,"n":null},"items":[{"sku":"s1","qty":2,"opts":{"w":[1.5,null]}},null],"ts":"2026-01-01T10:00:00.000Z"}'
    --row '{"id":2,"tags":[],"attrs":{},"items":[]}'
    --row '{"id":3}'
  --table "$work/widening/out" --count 3 --versions 2 --schema "id bigint, amt double, day timestamp_ntz, name string"
    --row '{"id":1,"amt":1.5,"day":"2026-01-01T00:00:00.000","name":"a"}'
    --row '{"id":2,"amt":2.25,"day":"2026-01-02T00:00:00.000","name":"b"}'
    --row '{"id":3000000000,"amt":0.1,"day":"2026-01-03T10:30:00.000","name":"c"}'
  --table "$work/many/out" --count 13 --versions 12 --schema "$schema" --time-open "$time_open"
  --table "$work/from-checkpoint" --count 13 --schema "$schema"
  --table "$work/upsert/out" --count 6 --versions 2 --schema "$schema" --operation "STREAMING UPDATE"
    --as-of 0:5 --as-of 1:6 --stream-skipping-changes 5
    --row '{"id":1,"user":"a","amt":5.0,"ts":"2026-01-01T10:01:00.000Z"}'
    --row '{"id":2,"user":"b","amt":70.0,"ts":"2026-01-01T11:00:00.000Z"}'
    --row '{"id":3,"user":"c","amt":2.0,"ts":"2026-01-01T10:04:00.000Z"}'
    --row '{"id":4,"user":"d","amt":3.0,"ts":"2026-01-01T10:05:00.000Z"}'
    --row '{"id":5,"user":"e","amt":4.0,"ts":"2026-01-01T10:06:00.000Z"}'
    --row '{"id":6,"user":"f","amt":6.0,"ts":"2026-01-01T11:01:00.000Z"}')
fi
connect_args=()
connect_names=()
if [ -n "$connect_tables" ]; then
  for args in "$connect_tables"/*.args; do
    [ -f "$args" ] || fail "no NAME.args in CONNECT=$connect_tables (run connect's ConnectIT with -Dconnect.it.keep=$connect_tables)"
    mapfile -t one <"$args"
    connect_args+=("${one[@]}")
    connect_names+=("$(basename "$args" .args)")
  done
  say "Kafka Connect Delta sink tables: ${connect_names[*]}"
fi
dv_names=()
if [ "$dv_tables" = 1 ]; then
  say "tables with deletion vectors: delta-sink's upsert tests keep them (with their expected rows) in $work/dv"
  (cd "$root" && ./mvnw -q -B -pl delta-sink -am verify -Dtributary.cds.skip \
    -Dtest='DeletionVectorUpsertTest,SparkDeletionVectorsTest,DeletionVectorPartitionedUpsertTest,HistoryGoldenTest#withDeletionVectorsAndTheChangeFeedTheHistoryIsSparks' \
    -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=NONE -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dtributary.dv.keep="$work/dv") >>"$log" 2>&1 || fail "delta-sink's deletion vector tests failed, see $log"
  for args in "$work/dv"/*.args; do
    [ -f "$args" ] || fail "the deletion vector tests left no NAME.args in $work/dv"
    mapfile -t one <"$args"
    connect_args+=("${one[@]}")
    dv_names+=("$(basename "$args" .args)")
  done
fi
[ ${#local_args[@]} -gt 0 ] || [ ${#s3_tables[@]} -gt 0 ] || [ ${#connect_args[@]} -gt 0 ] || [ "$concurrent" = 1 ] \
  || fail "no table to read (LOCAL=0, S3=0, CONCURRENT=0, no CONNECT)"
if [ ${#local_args[@]} -gt 0 ] || [ ${#s3_tables[@]} -gt 0 ] || [ ${#connect_args[@]} -gt 0 ]; then
  SPARK_LOCAL_IP=127.0.0.1 java "${java_opts[@]}" "${s3_props[@]}" -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
    io.tributary.compat.spark.SparkRead "${local_args[@]}" "${thousand[@]}" "${s3_tables[@]}" "${connect_args[@]}" \
    || spark_ok=$?
fi
[ "$spark_ok" = 0 ] || fail "SparkRead exited $spark_ok, see above"
read_tables=()
[ "$concurrent" = 1 ] && read_tables+=("upserts committed inside Spark's open transactions, each a serial result")
[ "$local_tables" = 1 ] && read_tables+=("quickstart 2 versions, revenue windows, nested arrays and maps, widened column types, 12 commits with a Kernel checkpoint, log starting at the checkpoint, upsert with change commits")
[ "$commits" -gt 0 ] && read_tables+=("$commits commits from the service")
[ "$s3" = 1 ] && read_tables+=("the quickstart on S3 (S3Proxy) through Spark's s3a")
[ ${#connect_names[@]} -gt 0 ] && read_tables+=("the Kafka Connect Delta sink's ${connect_names[*]} tables")
[ ${#dv_names[@]} -gt 0 ] && read_tables+=("the upsert's tables with deletion vectors (history ones with the change data feed) ${dv_names[*]}")
summary="$(printf '%s, ' "${read_tables[@]}")"
echo "spark compat check: PASS (Spark 4.2.0 + Delta 4.4.0 read Tributary tables: ${summary%, }) [$((SECONDS - started)) s]"
