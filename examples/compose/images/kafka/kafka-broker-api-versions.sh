#!/bin/bash
# The compose file's health check calls apache/kafka's tool by this path. This image has no Kafka
# scripts; it answers whether the client listener accepts connections (the broker opens it once
# started): `kafka-broker-api-versions.sh --bootstrap-server HOST:PORT`.
server="${2:-localhost:9092}"
[ "${1:-}" = "--bootstrap-server" ] || { echo "usage: $0 --bootstrap-server HOST:PORT" >&2; exit 2; }
exec 3<>"/dev/tcp/${server%:*}/${server##*:}"
