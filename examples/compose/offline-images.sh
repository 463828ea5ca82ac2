#!/usr/bin/env bash
# Builds the compose stack's images on a machine with Podman (or Docker) and Debian's mirror but no
# image registry, all under localhost/ (examples/compose/offline.yml names them):
#   localhost/debian:bookworm-min   debootstrap --variant=minbase, imported
#   localhost/jre:17                the base + Debian's openjdk-17-jre-headless
#   localhost/kafka:<kafka>         the JRE + the Kafka jars of the distribution's lib/, configured from KAFKA_*
#   localhost/prometheus:bookworm   the base + Debian's prometheus
#   localhost/s3proxy:<version>     the JRE + S3Proxy from the local Maven repository, as the s3 profile's "minio"
#   localhost/tributary:<version>   the Dockerfile on the JRE, from the distribution in service/target/dist
# An image that exists by its tag is reused (the Tributary image is rebuilt, from cached layers when the
# distribution did not change); REBUILD=1 builds them all again. The Debian mirror is the one this
# machine's apt uses (or MIRROR=...). Needs the distribution: ./mvnw -pl service -am package -DskipTests.
# Usage: examples/compose/offline-images.sh [base|jre|kafka|prometheus|s3proxy|tributary ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
here=examples/compose/images
engine="${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}"
dist=service/target/dist

log() { echo "offline-images: $*"; }
fail() { echo "offline-images: error: $*" >&2; exit 1; }
exists() { [ -z "${REBUILD:-}" ] && $engine image inspect "$1" >/dev/null 2>&1; }
size() { $engine image inspect --format '{{.Size}}' "$1" | awk '{printf "%.0f MB", $1 / 1e6}'; }
need_dist() { [ -x "$dist/bin/tributary" ] || fail "no distribution in $dist; build it first: ./mvnw -pl service -am package -DskipTests"; }

# the Debian mirror apt uses here: the first deb source (one-line or deb822) of this release's suite
mirror() {
  [ -n "${MIRROR:-}" ] && { echo "$MIRROR"; return; }
  local suite; suite="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
      | awk -v s="$suite" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++; if ($(i + 1) == s) print $i }'
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] && awk -v s="$suite" 'BEGIN { RS = ""; FS = "\n" }
        { uri = ""; ok = 0; deb = 0
          for (j = 1; j <= NF; j++) {
            if ($j ~ /^URIs:/) { split($j, a, " "); uri = a[2] }
            if ($j ~ /^Types:/ && $j ~ /[ \t]deb([ \t]|$)/) deb = 1
            if ($j ~ /^Suites:/) { n = split($j, b, " "); for (k = 2; k <= n; k++) if (b[k] == s) ok = 1 } }
          if (ok && deb && uri != "") print uri }' "$f"
    done; } | head -1 | grep . || fail "no deb source for '$suite' in /etc/apt/sources.list*; set MIRROR"
}

base() {
  local tag=localhost/debian:bookworm-min
  if ! exists $tag; then
    command -v debootstrap >/dev/null || fail "debootstrap is missing (apt-get install debootstrap)"
    local url rootfs; url="$(mirror)"; rootfs="$(mktemp -d)"
    log "debootstrap bookworm (minbase) from this machine's apt mirror"
    debootstrap --variant=minbase bookworm "$rootfs" "$url" > "$rootfs.log" 2>&1 \
      || { tail -20 "$rootfs.log"; rm -rf "$rootfs" "$rootfs.log"; fail "debootstrap failed"; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs.log"
    tar -C "$rootfs" -c . | $engine import --change 'CMD ["/bin/bash"]' - $tag >/dev/null 2>&1 || fail "importing the base image failed"
    rm -rf "$rootfs"
  fi
  log "$tag $(size $tag)"
}

build() { # TAG CONTEXT [build args...]
  local tag="$1" context="$2"; shift 2
  $engine build -q "$@" -t "$tag" "$context" >/dev/null || fail "building $tag failed"
}

jre() {
  local tag=localhost/jre:17
  exists $tag || { base >/dev/null; log "building $tag"; build $tag $here/jre; }
  log "$tag $(size $tag)"
}

kafka() {
  need_dist
  local version; version="$(ls $dist/lib | sed -n 's/^kafka_2\.13-\(.*\)\.jar$/\1/p')"
  local tag=localhost/kafka:$version
  if ! exists $tag; then
    jre >/dev/null; log "building $tag"
    local context; context="$(mktemp -d)"
    # the jars only: the distribution's class-data archive is Tributary's, for its own folder
    cp -r $here/kafka/. "$context/" && mkdir "$context/lib" && cp $dist/lib/*.jar "$context/lib/"
    build $tag "$context"; rm -rf "$context"
  fi
  log "$tag $(size $tag)"
}

prometheus() {
  local tag=localhost/prometheus:bookworm
  exists $tag || { base >/dev/null; log "building $tag"; build $tag $here/prometheus; }
  log "$tag $(size $tag)"
}

s3proxy() {
  local version=2.6.0 tag=localhost/s3proxy:2.6.0
  if ! exists $tag; then
    local jar="$HOME/.m2/repository/org/gaul/s3proxy/$version/s3proxy-$version-jar-with-dependencies.jar"
    [ -f "$jar" ] || ./mvnw -q dependency:get -Dartifact=org.gaul:s3proxy:$version:jar:jar-with-dependencies >/dev/null \
      || fail "S3Proxy $version is not in the local Maven repository and could not be fetched"
    jre >/dev/null; log "building $tag"
    local context; context="$(mktemp -d)"
    cp -r $here/s3/. "$context/" && cp "$jar" "$context/s3proxy.jar"
    build $tag "$context"; rm -rf "$context"
  fi
  log "$tag $(size $tag)"
}

tributary() {
  need_dist
  local version; version="$("$dist/bin/tributary" --version | awk '{print $2}')"
  local tag=localhost/tributary:$version
  jre >/dev/null; log "building $tag from $dist"
  build $tag $dist -f Dockerfile --build-arg DIST=context --build-arg RUNTIME_IMAGE=localhost/jre:17
  $engine tag $tag localhost/tributary:latest
  log "$tag $(size $tag) (distribution $(du -sb $dist | awk '{printf "%.0f MB", $1 / 1e6}'), JRE image $(size localhost/jre:17))"
}

for image in "${@:-base jre kafka prometheus s3proxy tributary}"; do
  for i in $image; do
    case "$i" in base|jre|kafka|prometheus|s3proxy|tributary) "$i" ;; *) fail "unknown image '$i'" ;; esac
  done
done
