#!/usr/bin/env bash
# The distribution the container image copies, checked without a Docker engine: unpack the build's
# tarball into a clean folder and start it as the image's entrypoint does (bin/tributary run SPEC),
# on a copy of the quickstart (availableNow); expect exit code 0 and a Delta table. The class-data
# archive: the build's service/target/dist ships one its runs map; the tarball ships none, so the
# unpacked service's first run records one, which later runs map, and 'bin/tributary cds' (what the
# image runs at /opt/tributary) records one there.
set -euo pipefail
cd "$(dirname "$0")/.."
# whether the launcher of distribution $1 maps its lib/tributary.jsa: the JVM checks the archive
# against the launcher's own flags and class path, says whether it is valid and exits
maps_archive() {
  local out
  out="$(JAVA_TOOL_OPTIONS=-XX:+PrintSharedArchiveAndExit "$1/bin/tributary" --version 2>&1 || true)"
  grep -qx "Dynamic archive name: $1/lib/tributary.jsa" <<<"$out" && grep -qx "archive is valid" <<<"$out"
}
dist="$(pwd)/service/target/dist"
[ -f "$dist/lib/tributary.jsa" ] || { echo "check-dist: $dist/lib/tributary.jsa missing (built with -Dtributary.cds.skip?)"; exit 1; }
maps_archive "$dist" || { echo "check-dist: $dist/bin/tributary does not map its lib/tributary.jsa"; exit 1; }
tarball="$(ls service/target/tributary-*.tar.gz 2>/dev/null | head -1 || true)"
[ -n "$tarball" ] || { echo "check-dist: no service/target/tributary-*.tar.gz; build first (./mvnw -pl service -am package)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/opt" "$work/data"
tar -xzf "$tarball" -C "$work/opt"
home="$(ls -d "$work"/opt/tributary-*)"
[ -x "$home/bin/tributary" ] || { echo "check-dist: $home/bin/tributary missing or not executable"; exit 1; }
[ ! -e "$home/lib/tributary.jsa" ] || { echo "check-dist: the tarball ships lib/tributary.jsa, an archive for another folder"; exit 1; }
cp -r examples/quickstart "$work/data/"
# a clean environment, as in the image: no Maven, no checkout, only a JRE
(cd "$work" && env -i PATH="$PATH" HOME="$work" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} \
   "$home/bin/tributary" run "$work/data/quickstart/pipeline.yaml" > "$work/progress.jsonl" 2> "$work/stderr.log") \
  || { echo "check-dist: the unpacked service failed (exit $?)"; cat "$work/stderr.log"; exit 1; }
ls "$work/data/quickstart/out/_delta_log/00000000000000000000.json" >/dev/null \
  || { echo "check-dist: no Delta log written"; cat "$work/stderr.log"; exit 1; }
grep -q '"summary"' "$work/progress.jsonl" || { echo "check-dist: no summary line"; exit 1; }
maps_archive "$home" || { echo "check-dist: the unpacked service's first run recorded no class-data archive its later runs map"; exit 1; }
(env -i PATH="$PATH" HOME="$work" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "$home/bin/tributary" cds 2> "$work/cds.log") \
  || { echo "check-dist: 'bin/tributary cds' failed"; cat "$work/cds.log"; exit 1; }
maps_archive "$home" || { echo "check-dist: 'bin/tributary cds' recorded no archive the launcher maps"; exit 1; }
version="$("$home/bin/tributary" --version)"
[ "$version" = "tributary $(basename "$home" | sed 's/^tributary-//')" ] \
  || { echo "check-dist: 'tributary --version' printed '$version', not the tarball's version"; exit 1; }
echo "check-dist: ok ($version, $(basename "$tarball"), $(ls "$home/lib" | grep -c '\.jar$') jars, exit 0, Delta table written, class-data archives mapped)"
