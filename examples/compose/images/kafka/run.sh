#!/bin/bash
# The broker's entrypoint: KAFKA_FOO_BAR=v becomes foo.bar=v in server.properties, as in apache/kafka
# (a double underscore stands for "_", a triple one for "-"); the log folder is formatted on the first
# start with CLUSTER_ID; then kafka.Kafka runs in the foreground and SIGTERM stops it cleanly.
set -euo pipefail
config=/opt/kafka/config/server.properties
: > "$config"
while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP_OPTS|KAFKA_OPTS|KAFKA_JVM_OPTS) continue ;;
    KAFKA_*) key="${name#KAFKA_}"; key="${key,,}"; key="${key//___/-}"; key="${key//__/@}"; key="${key//_/.}"; key="${key//@/_}"
             printf '%s=%s\n' "$key" "$value" >> "$config" ;;
  esac
done < <(env)
grep -q '^log\.dirs=' "$config" || echo "log.dirs=/var/lib/kafka/data" >> "$config"
log_dir="$(sed -n 's/^log\.dirs=//p' "$config" | cut -d, -f1)"
classpath='/opt/kafka/libs/*'
jvm=(java -Dlogback.configurationFile=/opt/kafka/config/logback.xml -cp "$classpath")
if [ ! -f "$log_dir/meta.properties" ]; then
  "${jvm[@]}" kafka.tools.StorageTool format -t "${CLUSTER_ID:-5L6g3nShT-eMCtK--X86sw}" -c "$config" --ignore-formatted
fi
# shellcheck disable=SC2086
exec "${jvm[@]}" ${KAFKA_HEAP_OPTS:--Xmx768m -Xms128m} ${KAFKA_JVM_OPTS:--XX:+UseParallelGC -XX:TieredStopAtLevel=1} ${KAFKA_OPTS:-} kafka.Kafka "$config"
