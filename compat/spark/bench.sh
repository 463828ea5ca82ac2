#!/usr/bin/env bash
# Spark benchmark: Apache Spark 4.2 + Delta 4.4 (local[2], Trigger.AvailableNow) on the workloads of
# `tributary bench`, on the machine it runs on, a new JVM per run (SparkBench).
# Usage: compat/spark/bench.sh
#   RUNS=3                                          runs per scenario (the medians are printed)
#   SCENARIOS="raw upsert upsert10 windowed empty"  which ones, in this order; also select (where + selectExpr),
#                                                   dedup (dropDuplicatesWithinWatermark over the upsert input)
#                                                   and join (a left join with a 100,000-row Delta table)
#   INPUT=/tmp/sparkbench/p3/input                  raw / windowed input (generated when absent)
#   UPINPUT=/tmp/sparkbench/up/input                upsert input, 30% repeated ids (generated when absent)
#   BENCH_DIR=/tmp/sparkbench                       where the generator's copy and the run folders go
#   DIMS=/tmp/sparkbench/dims                       join's Delta table (written by SparkBench dims when absent)
#   SPARK_XMX=2g                                    the JVM's -Xmx (check.sh's); KEEP=1 keeps each run's tables
#   JAVA_EXTRA="..."                                more JVM flags, e.g. -Dspark.sql.shuffle.partitions=2 (Spark reads
#                                                   spark.* system properties; default: none, 200 partitions)
# Per run: the process's wall, CPU (user + sys) and peak RSS from /usr/bin/time (JVM start to exit,
# including the untimed read-back of the table), then SparkBench's line: wall_in_job_ms (SparkSession
# creation to the query's end) and readback_ms (counting the table's rows afterwards).
# The input is Tributary's own bench input, same generator and arguments as `tributary bench raw
# --rows 1000000 --files 100` (and `--repeated-ids 0.3`), made with the built distribution
# service/target/dist (not rebuilt here; a private copy is run, so a concurrent rebuild cannot break it).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${RUNS:-3}"
scenarios="${SCENARIOS:-raw upsert upsert10 windowed empty}"
base="${BENCH_DIR:-/tmp/sparkbench}"
input="${INPUT:-$base/p3/input}"
upinput="${UPINPUT:-$base/up/input}"
xmx="${SPARK_XMX:-2g}"
rows=1000000
files=100
status=0
mkdir -p "$base"

say() { echo "[$(date -u +%H:%M:%S)] $*"; }
die() { echo "bench.sh: $*" >&2; exit 1; }

say "building compat/spark (the first build downloads Spark 4.2 + Delta 4.4, about 270 MB)"
(cd "$root" && ./mvnw -q -B -f compat/spark/pom.xml package) >"$base/build.log" 2>&1 \
  || { cat "$base/build.log"; die "could not build compat/spark"; }
cp="$here/target/classes:$(cat "$here/target/classpath.txt")"

# --- input: Tributary's generator, through a private copy of the built distribution ---------------
complete() { # dir: the generator's full output (100 files, 1M lines)?
  [ -d "$1" ] && [ "$(find "$1" -maxdepth 1 -name 'part-*.json' | wc -l)" = "$files" ] \
    && [ "$(cat "$1"/part-*.json | wc -l)" = "$rows" ]
}
private_dist() {
  local dist="$base/dist" try ok jar
  [ -x "$dist/bin/tributary" ] && return 0
  for try in 1 2 3 4 5; do
    rm -rf "$dist"
    if cp -r "$root/service/target/dist" "$dist" 2>/dev/null; then
      ok=1
      for jar in "$dist"/lib/*.jar; do unzip -tq "$jar" >/dev/null 2>&1 || { ok=0; break; }; done
      [ "$ok" = 1 ] && [ -x "$dist/bin/tributary" ] && return 0
    fi
    echo "distribution copy incomplete (a concurrent build?), retrying in 20 s"; sleep 20
  done
  die "could not copy $root/service/target/dist"
}
generate() { # target gendir extra-args...
  local target="$1" gen="$2"; shift 2
  if complete "$target"; then
    say "input $target: present ($(du -sh "$target" | cut -f1))"
    return 0
  fi
  [ -e "$target" ] && die "$target exists but is not the generator's complete output; remove it"
  private_dist
  say "generating $target: tributary bench raw --rows $rows --files $files --runs 1 --dir $gen $*"
  rm -rf "$gen"
  # TRIBUTARY_CDS=off: the launcher neither records nor maps a class-data archive (nothing written
  # beside the jars). The bench writes the input first, then times a Tributary run of it (not used
  # here; its exit code does not matter once the input is complete).
  TRIBUTARY_CDS=off "$base/dist/bin/tributary" bench raw --rows "$rows" --files "$files" --runs 1 \
    --dir "$gen" "$@" >"$gen.log" 2>&1 || echo "  (the Tributary run after the generation exited $?; see $gen.log)"
  grep -m1 '^input:' "$gen.log" | sed 's/^/  /'
  complete "$gen/input" || die "the generator did not write $rows rows in $files files into $gen/input; see $gen.log"
  mkdir -p "$(dirname "$target")"
  mv "$gen/input" "$target"
  rm -rf "$gen"
}
needs_p3=0; needs_up=0
for s in $scenarios; do
  case "$s" in
    raw|windowed|select|join) needs_p3=1 ;;
    upsert|upsert10|dedup) needs_up=1 ;;
    empty) ;;
    *) die "unknown scenario '$s'; the ones there are: raw upsert upsert10 windowed empty select dedup join" ;;
  esac
done
[ "$needs_p3" = 1 ] && generate "$input" "$base/gen-p3"
[ "$needs_up" = 1 ] && generate "$upinput" "$base/gen-up" --repeated-ids 0.3
rm -rf "$base/dist"

# --- runs ------------------------------------------------------------------------------------------
. "$here/spark-jvm.sh"
spark_java_opts "$xmx"
# shellcheck disable=SC2206
[ -n "${JAVA_EXTRA:-}" ] && java_opts+=(${JAVA_EXTRA})

expected_rows() {
  case "$1" in
    raw|select|join) echo "$rows" ;;
    upsert|upsert10|dedup) echo $((rows * 7 / 10)) ;; # 30% of the rows repeat an earlier id
    windowed) echo 999600 ;;                     # 1,666 closed 10-minute windows x 600 users (the last one stays open)
    empty) echo 0 ;;
  esac
}
median() { # numbers on stdin -> the median
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
load() { uptime | sed 's/.*load average: //'; }

dims="${DIMS:-$base/dims}"
if [[ " $scenarios " == *" join "* ]] && [ ! -d "$dims/_delta_log" ]; then
  say "writing join's table $dims (SparkBench dims: 100,000 rows)"
  (cd "$base" && SPARK_LOCAL_IP=127.0.0.1 java "${java_opts[@]}" -cp "$cp" io.tributary.compat.spark.SparkBench dims "$base" "$dims") \
    >"$base/dims.log" 2>&1 || { tail -15 "$base/dims.log"; die "could not write $dims"; }
fi
java_opts+=("-Dbench.dims=$dims")

summary="$base/summary.txt"
: >"$summary"
say "java: $(java -version 2>&1 | head -1); $(nproc) cores; JVM flags: check.sh's --add-opens list, -Xmx$xmx ${JAVA_EXTRA:-}; Spark local[2]"
for s in $scenarios; do
  case "$s" in
    raw|windowed|select|join) in="$input" ;;
    upsert|upsert10|dedup) in="$upinput" ;;
    empty) in="" ;;
  esac
  before="$(load)"
  say "$s: $runs runs, input ${in:-an empty folder}; load average before: $before"
  results="$base/runs/$s.results"
  mkdir -p "$base/runs"; : >"$results"
  for i in $(seq 1 "$runs"); do
    dir="$base/runs/$s-$i"
    rm -rf "$dir"; mkdir -p "$dir/work"
    run_in="$in"
    if [ "$s" = empty ]; then run_in="$dir/empty-input"; mkdir -p "$run_in"; fi
    # cwd = the run folder: anything Spark writes relative to it (spark-warehouse, derby) stays there
    (cd "$dir" && SPARK_LOCAL_IP=127.0.0.1 exec /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" \
        java "${java_opts[@]}" -cp "$cp" io.tributary.compat.spark.SparkBench "$s" "$run_in" "$dir/work") \
      >"$dir/stdout.log" 2>"$dir/stderr.log"
    rc=$?
    line="$(grep '^SPARKBENCH ' "$dir/stdout.log" | tail -1)"
    read -r wall user sys rss_kb < <(tail -1 "$dir/time.txt")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    rss=$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }')
    note=""
    if [ "$rc" != 0 ] || [ -z "$line" ]; then
      note=" FAILED (exit $rc; see $dir/stderr.log)"; status=1
      tail -15 "$dir/stderr.log"
    else
      got="$(sed -n 's/.* rows_in_table=\([0-9]*\).*/\1/p' <<<"$line")"
      want="$(expected_rows "$s")"
      if [ "$got" != "$want" ]; then note=" UNEXPECTED rows_in_table $got, expected $want"; status=1; fi
      job=$(sed -n 's/.* wall_in_job_ms=\([0-9]*\).*/\1/p' <<<"$line")
      back=$(sed -n 's/.* readback_ms=\([0-9]*\).*/\1/p' <<<"$line")
      echo "$wall $cpu $rss $(awk -v j="$job" -v b="$back" 'BEGIN { printf "%.2f %.2f", j / 1000, b / 1000 }')" >>"$results"
    fi
    printf '%s run %d: wall %.2f s, CPU %.2f s (user %.2f + sys %.2f), peak RSS %d MiB%s\n  %s\n' \
      "$s" "$i" "$wall" "$cpu" "$user" "$sys" "$rss" "$note" "$line"
    [ "${KEEP:-0}" = 1 ] || rm -rf "$dir/work"
  done
  after="$(load)"
  n=$(wc -l <"$results")
  m_wall=$(cut -d' ' -f1 "$results" | median)
  m_cpu=$(cut -d' ' -f2 "$results" | median)
  m_rss=$(cut -d' ' -f3 "$results" | median)
  m_job=$(cut -d' ' -f4 "$results" | median)
  m_back=$(cut -d' ' -f5 "$results" | median)
  msg="$(printf '%s: median of %d: wall %s s, CPU %s s, peak RSS %s MiB (in job %s s, read-back %s s); load average before %s, after %s' \
    "$s" "$n" "$m_wall" "$m_cpu" "$m_rss" "$m_job" "$m_back" "$before" "$after")"
  say "$msg"
  echo "$msg" >>"$summary"
done
echo
echo "=== medians (Spark 4.2.0 + Delta 4.4.0, local[2], new JVM per run) ==="
cat "$summary"
exit "$status"
