#!/usr/bin/env bash
# CI, after the build: the container image, the compose stack and the container tests for real, on
# Podman from Debian (no image registry: every image is built here, and kept by tag for the next run
# on this machine). Where the engine cannot be installed or started, a warning and nothing else; once
# it runs, every check must pass. Stops the Docker API service it started; the stack check always
# brings the stack down with its volumes.
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "warning: $*; the container image, the compose stack and the container tests are not checked"; exit 0; }

if ! command -v podman >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap docker-compose >/dev/null; } 2>/dev/null \
    || skip "podman, runc, debootstrap or docker-compose could not be installed"
fi
# what Podman needs on these machines: no default ulimits (crun cannot set RLIMIT_NPROC, runc cannot
# raise RLIMIT_NOFILE past the hard limit), runc, cgroupfs (no systemd)
if [ ! -f /etc/containers/containers.conf ]; then
  mkdir -p /etc/containers
  cat > /etc/containers/containers.conf <<'CONF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"

[network]
network_backend = "netavark"
CONF
fi
podman info >/dev/null 2>&1 || skip "podman does not run here"

# the Docker API, for docker-compose and Testcontainers
sock=/run/podman/podman.sock
service=""
if ! curl -s --max-time 3 --unix-socket "$sock" http://d/_ping 2>/dev/null | grep -q OK; then
  mkdir -p /run/podman
  podman system service --time=0 "unix://$sock" > "${TMPDIR:-/tmp}/podman-service.log" 2>&1 &
  service=$!
  trap 'kill "$service" 2>/dev/null; wait "$service" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    curl -s --max-time 3 --unix-socket "$sock" http://d/_ping 2>/dev/null | grep -q OK && break
    kill -0 "$service" 2>/dev/null || break
    sleep 0.1
  done
  curl -s --max-time 3 --unix-socket "$sock" http://d/_ping 2>/dev/null | grep -q OK \
    || { cat "${TMPDIR:-/tmp}/podman-service.log"; skip "podman's Docker API service did not answer on $sock"; }
fi
export DOCKER_HOST="unix://$sock"
export TESTCONTAINERS_RYUK_DISABLED=true   # Ryuk's image cannot be pulled; the tests close their containers

# the images (reused by tag; the Tributary image from the distribution the build left)
start=$SECONDS
examples/compose/offline-images.sh
echo "container images: $((SECONDS - start)) s"

# the container tests: Testcontainers on those images
start=$SECONDS
kafka="$(ls service/target/dist/lib | sed -n 's/^kafka_2\.13-\(.*\)\.jar$/\1/p')"
./mvnw -pl tests -am verify -Pcontainers -Dcontainers.kafka.image="localhost/kafka:$kafka" \
  -Dcontainers.tributary.image=localhost/tributary:latest
# with an engine there, a skipped container test (Testcontainers found no Docker API) is a failure
summary=tests/target/failsafe-reports/failsafe-summary.xml
completed="$(sed -n 's:.*<completed>\([0-9]*\)</completed>.*:\1:p' "$summary")"
skipped="$(sed -n 's:.*<skipped>\([0-9]*\)</skipped>.*:\1:p' "$summary")"
[ "${completed:-0}" -gt 0 ] && [ "${skipped:-0}" = 0 ] \
  || { echo "container tests: $completed run, $skipped skipped: Testcontainers did not use the engine at $DOCKER_HOST"; exit 1; }
echo "container tests: $((SECONDS - start)) s"

# the compose stack, checked as a user would
start=$SECONDS
examples/compose/check-stack.sh
echo "compose stack check: $((SECONDS - start)) s"
