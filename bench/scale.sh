#!/usr/bin/env bash
# How time and memory grow with the rows: `tributary bench raw` for the raw, windowed and upsert workloads
# at each row count, 10,000 rows a file, one timed run each after the first; prints a table of the bench's
# own figures and writes it as TSV (for bench/ScalePlot.java).
#   usage: bench/scale.sh [OUT.tsv]        (default /tmp/tributary-scale.tsv)
#   ROWS="1000000 2000000 5000000 10000000"  WORKLOADS="raw windowed upsert"  RUNS=1
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/tributary-scale.tsv}"
rows_list="${ROWS:-1000000 2000000 5000000 10000000}"
workloads="${WORKLOADS:-raw windowed upsert}"
runs="${RUNS:-1}"

settings() { # the workload's bench arguments, into the array args
  case "$1" in
    raw) args=() ;;
    windowed) args=(--set aggregate.eventTime=ts --set "aggregate.watermark=5 minutes" --set "aggregate.window=10 minutes"
      --set aggregate.groupBy=user --set "aggregate.select.t=sum(amt)") ;;
    upsert) args=(--repeated-ids 0.3 --set sink.delta.mode=upsert --set sink.delta.keys=id) ;;
    *) echo "scale.sh: unknown workload '$1' (raw, windowed, upsert)" >&2; exit 2 ;;
  esac
}

printf 'workload\trows\twall_s\tpeak_rss_mib\tcpu_s\n' > "$out"
for w in $workloads; do
  for rows in $rows_list; do
    log="$(mktemp)"
    settings "$w"
    ./tributary bench raw --rows "$rows" --files $((rows / 10000)) --runs "$runs" "${args[@]}" > "$log" 2>&1 \
      || { cat "$log"; echo "scale.sh: $w at $rows rows failed" >&2; exit 1; }
    line="$(grep "^median of" "$log")"
    wall="$(sed -E 's/.*wall ([0-9.]+) s.*/\1/' <<<"$line")"
    rss="$(sed -E 's/.*peak RSS ([0-9.]+) MiB.*/\1/' <<<"$line")"
    cpu="$(sed -E 's/.*CPU ([0-9.]+) s.*/\1/' <<<"$line")"
    printf '%s\t%s\t%s\t%s\t%s\n' "$w" "$rows" "$wall" "$rss" "$cpu" | tee -a "$out"
    grep -E "^(first run|run [0-9])" "$log" | sed 's/^/    /'
    rm -f "$log"
  done
done
echo "written: $out"
