# Tributary's service image: the Maven build, then a slim JRE 17 running as a non-root user.
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN ./mvnw -q -B -DskipTests -pl service -am package

FROM eclipse-temurin:17-jre
RUN useradd --system --uid 10001 --home-dir /var/lib/tributary tributary \
 && mkdir -p /opt/tributary /data/in /data/state /data/tables \
 && chown -R tributary /data
COPY --from=build /src/service/target/dist/ /opt/tributary/
USER tributary
VOLUME ["/data/in", "/data/state", "/data/tables"]
# the HTTP endpoints (/health/live, /health/ready, /metrics, /progress) reachable from outside the container
ENV TRIBUTARY_HTTP_HOST=0.0.0.0
EXPOSE 8080
# SIGTERM finishes the batch in flight and exits 0 (give it up to 60 s: docker stop -t 60)
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/tributary/bin/tributary"]
CMD ["run", "/etc/tributary/pipeline.yaml"]
