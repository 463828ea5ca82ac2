#!/usr/bin/env bash
# The compose stack started for real and checked as a user would, on the images offline-images.sh
# built (or, with CHECK_STACK_OVERRIDE=none, on whatever images docker-compose.yml names):
#   1. up -d with a file waiting in data/in: /health/ready answers 200 through the mapped port, the
#      file's rows are in the table (measured: up to ready, up to the first committed version);
#   2. 20 files dropped one at a time: each one's rows in the table (measured: p50 and max);
#   3. docker-compose restart, and a kill -9 while files arrive: after each, the table exact;
#   4. --profile monitoring: Prometheus scrapes the service (up == 1);
#   5. --scale tributary=3: three ready instances, each its own instance.id and state volume and
#      port; one killed with -9 while files arrive: the table exact; docker-compose stop: exit 0;
#   6. --profile s3: a file uploaded to s3a://landing/orders/ reaches s3a://lake/bronze/orders/.
# "Exact" is the Delta log's row count (each add's numRecords; the stack only appends) equal to
# the rows dropped. Runs in a temporary copy of the compose files as project tributary-check and
# always ends with down -v. On Podman, which runs no health checks here (no systemd timers), a
# background loop runs them (podman healthcheck run), as compose's service_healthy waits on them.
# Needs docker-compose and DOCKER_HOST (or the default socket). Prints one line:
#   compose stack: ok (...)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
project=tributary-check
engine="${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}"
wait_s="${CHECK_STACK_WAIT:-120}"   # the bound of every wait below
work="$(mktemp -d)"
mkdir -p "$work/examples" "$work/data/in" "$work/data/tables" "$work/docs"
cp "$repo/docker-compose.yml" "$work/"
cp -r "$repo/examples/compose" "$work/examples/"
cp -r "$repo/docs/grafana" "$work/docs/" 2>/dev/null || true
chmod 777 "$work/data/in" "$work/data/tables"   # the image's user (uid 10001) writes there
files=(-f docker-compose.yml)
[ "${CHECK_STACK_OVERRIDE:-}" = none ] || files+=(-f examples/compose/offline.yml)
dc() { (cd "$work" && docker-compose -p $project "${files[@]}" --profile monitoring --profile s3 "$@"); }

health_loop=""
if [ "$engine" = podman ]; then
  ( while true; do
      for c in $(podman ps --filter label=com.docker.compose.project=$project --format '{{.Names}}'); do
        podman healthcheck run "$c" >/dev/null 2>&1 || true
      done
      sleep 2
    done ) &
  health_loop=$!
fi
ok=no
cleanup() {
  if [ "$ok" != yes ]; then
    echo "compose stack: FAILED; the containers' logs:"
    dc ps || true
    dc logs --no-color --tail=60 || true
  fi
  [ -n "$health_loop" ] && kill "$health_loop" 2>/dev/null
  dc down -v --remove-orphans >/dev/null 2>&1 || echo "compose stack: warning: down -v failed"
  rm -rf "$work"
}
trap cleanup EXIT

fail() { echo "compose stack: error: $*" >&2; exit 1; }
now_ms() { date +%s%3N; }
# until CONDITION holds, at most $wait_s seconds; else fail with WHAT
await() { local what="$1"; shift; local deadline=$((SECONDS + wait_s))
  until "$@"; do [ $SECONDS -lt $deadline ] || fail "waited ${wait_s} s for $what"; sleep 0.2; done; }
ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://$1/health/ready")" = 200 ]; }
# the Delta table's row count from its log's statistics; fails the check on a remove action (the stack appends only)
log="$work/data/tables/quickstart/_delta_log"
sum_rows() { { grep -o '\\"numRecords\\":[0-9]*' || true; } | awk -F: '{ n += $2 } END { print n + 0 }'; }
rows() { cat "$log"/*.json 2>/dev/null | sum_rows; }
has_rows() { [ "$(rows)" -ge "$1" ]; }
dropped=0
# a file of one row with a new id, written beside data/in and moved in whole
drop() { dropped=$((dropped + 1))
  printf '{"id": %d, "user": "u%d", "amt": 1.0, "ts": "2026-01-01T10:00:00Z"}\n' $dropped $((dropped % 7)) > "$work/data/.part"
  mv "$work/data/.part" "$work/data/in/part-$(printf %05d $dropped).json"; }
exact() { await "$dropped rows in the table ($1)" has_rows $dropped
  [ "$(rows)" -eq $dropped ] || fail "the table has $(rows) rows, $dropped were dropped ($1)"
  ! grep -q '"remove"' "$log"/*.json || fail "the table has remove actions; the stack appends only ($1)"; }
step() { echo "compose stack: $* ($SECONDS s)"; }
port() { dc port --index="${2:-1}" "$1" 8080 | tail -1; }
container() { dc ps -q "$1" | sed -n "${2:-1}p"; }

# 1. up, with one file waiting
drop
start=$(now_ms)
dc up -d kafka tributary >/dev/null 2>&1 || { dc up -d kafka tributary; fail "up -d failed"; }
address="$(port tributary)"
await "/health/ready on $address" ready "$address"
ready_ms=$(( $(now_ms) - start ))
await "the first committed table version" test -f "$work/data/tables/quickstart/_delta_log/00000000000000000000.json"
first_commit_ms=$(( $(now_ms) - start ))
exact "after up"

# 2. file to commit, 20 files one at a time
step "up, ready, first commit"
latencies=()
for _ in $(seq 20); do
  t=$(now_ms); drop
  await "file $dropped in the table" has_rows $dropped
  latencies+=($(( $(now_ms) - t )))
done
exact "after 20 files"
p50=$(printf '%s\n' "${latencies[@]}" | sort -n | sed -n 10p)   # the 10th of 20 (the lower median)
max=$(printf '%s\n' "${latencies[@]}" | sort -n | tail -1)

# 3. restart, then kill -9 while files arrive: the table exact after each
step "20 files"
drop
dc restart tributary >/dev/null 2>&1
address="$(port tributary)"; await "/health/ready after restart" ready "$address"
drop; exact "after restart"
for _ in 1 2 3 4 5; do drop; done
$engine kill -s KILL "$(container tributary)" >/dev/null
dc up -d tributary >/dev/null 2>&1
address="$(port tributary)"; await "/health/ready after kill -9" ready "$address"
exact "after kill -9 and up"

# 4. Prometheus scrapes the service
step "restart, kill -9"
dc up -d prometheus >/dev/null 2>&1
scraped() { curl -s --max-time 3 'http://127.0.0.1:9090/api/v1/query?query=up%7Bjob%3D%22tributary%22%7D' | grep -q '"value":\[[0-9.]*,"1"\]'; }
await "Prometheus to scrape tributary:8080 (up == 1)" scraped

# 5. three instances (the engine picks each one's port), one killed with -9
step "Prometheus"
TRIBUTARY_PORT= dc up -d --scale tributary=3 tributary >/dev/null 2>&1
addresses=(); for i in 1 2 3; do addresses+=("$(port tributary $i)"); done
[ "$(printf '%s\n' "${addresses[@]}" | sort -u | wc -l)" = 3 ] || fail "three instances, ports ${addresses[*]}"
for a in "${addresses[@]}"; do await "/health/ready of the instance on $a" ready "$a"; done
instance_ids="$(for a in "${addresses[@]}"; do curl -s "http://$a/instance" | grep -o '"instance":"[^"]*"'; done | sort -u | wc -l)"
[ "$instance_ids" = 3 ] || fail "three instances with $instance_ids distinct instance.id"
volumes="$(for c in $(container tributary 1) $(container tributary 2) $(container tributary 3); do
  $engine inspect --format '{{range .Mounts}}{{if eq .Destination "/data/state"}}{{.Name}}{{end}}{{end}}' "$c"; done | sort -u | grep -c . || true)"
[ "$volumes" = 3 ] || fail "three instances with $volumes distinct state volumes"
drop; exact "three instances"
victim="$(container tributary 2)"
for _ in 1 2 3 4 5; do drop; done
$engine kill -s KILL "$victim" >/dev/null
for _ in 1 2 3 4 5; do drop; done
exact "three instances, one killed with -9"
scaled_rows=$(rows)
# SIGTERM (docker-compose stop): the batch in flight finishes and each instance exits 0
survivors="$(dc ps -q tributary | grep -v "^$victim")"
dc stop tributary >/dev/null 2>&1
for c in $survivors; do
  code="$($engine inspect --format '{{.State.ExitCode}}' "$c")"
  [ "$code" = 0 ] || fail "docker-compose stop tributary: exit code $code, not 0"
done

# 6. the s3 profile's pipeline
step "three instances, one killed, stop"
dc up -d tributary-s3 >/dev/null 2>&1
await "/health/ready of tributary-s3" ready 127.0.0.1:8081
dc run --rm -T --entrypoint sh minio-buckets -c \
  'mc alias set local http://minio:9000 tributary tributary-secret && mc cp /dev/stdin local/landing/orders/part-0001.json' \
  < "$repo/examples/quickstart/in/part-0001.json" >/dev/null 2>&1 || fail "uploading to s3a://landing/orders/ failed"
s3_rows() { dc exec -T minio sh -c 'cat /data/lake/bronze/orders/_delta_log/*.json 2>/dev/null' \
  | sum_rows; }
s3_has_rows() { [ "$(s3_rows)" -ge 2 ]; }
await "the 2 rows of the uploaded file in s3a://lake/bronze/orders/" s3_has_rows
[ "$(s3_rows)" = 2 ] || fail "s3a://lake/bronze/orders/ has $(s3_rows) rows, not 2"

step "s3 profile"
ok=yes
s() { awk -v ms="$1" 'BEGIN { printf "%.1f s", ms / 1000 }'; }
echo "compose stack: ok (up to ready $(s $ready_ms), to the first commit $(s $first_commit_ms); file to commit p50 $(s $p50), max $(s $max) over 20 files; the table exact after restart, kill -9, and 3 instances with one killed ($scaled_rows rows); stop: exit 0; Prometheus scrapes; s3 profile: 2 rows)"
