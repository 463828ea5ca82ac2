# Tributary's service image: a slim JRE 17 running the distribution (bin/, lib/) as a non-root user.
# Two ways to build it with this one file:
#   docker build -t tributary .                      the Maven build below, on public images
#   docker build -f Dockerfile --build-arg DIST=context --build-arg RUNTIME_IMAGE=localhost/jre:17 \
#       -t tributary service/target/dist             an already-built distribution as the build context
#                                                    (examples/compose/offline-images.sh, no registry)
ARG BUILD_IMAGE=maven:3.9-eclipse-temurin-17
ARG RUNTIME_IMAGE=eclipse-temurin:17-jre
# build: the Maven build stage; context: the build context is the distribution itself
ARG DIST=build

FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY . .
# no class-data archive here: it would fit only this stage's java and /src/service/target/dist
RUN ./mvnw -q -B -DskipTests -Dtributary.cds.skip -pl service -am package && mv service/target/dist /dist

FROM scratch AS context
COPY . /dist/

# the stage named by DIST; builders skip the stage not named (BuildKit, Buildah)
FROM ${DIST} AS dist

# the class-data archive (lib/tributary.jsa), recorded by a training run at /opt/tributary with the
# runtime image's java: the JVM maps an archive only for the java and the jar paths it was recorded
# with, so the one a distribution brings along from its build is replaced. A stage of its own, so
# the image holds one archive, not that one too
FROM ${RUNTIME_IMAGE} AS cds
COPY --from=dist /dist/ /opt/tributary/
RUN /opt/tributary/bin/tributary cds

FROM ${RUNTIME_IMAGE}
RUN useradd --system --uid 10001 --home-dir /var/lib/tributary tributary \
 && mkdir -p /opt/tributary /data/in /data/state /data/tables \
 && chown -R tributary /data
# COPY keeps the files' times, which the archive was recorded with; lib/ stays root's, so no run
# records another archive
COPY --from=cds /opt/tributary/ /opt/tributary/
USER tributary
VOLUME ["/data/in", "/data/state", "/data/tables"]
# the HTTP endpoints (/health/live, /health/ready, /metrics, /progress) reachable from outside the container
ENV TRIBUTARY_HTTP_HOST=0.0.0.0
EXPOSE 8080
# SIGTERM finishes the batch in flight and exits 0 (give it up to 60 s: docker stop -t 60)
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/tributary/bin/tributary"]
CMD ["run", "/etc/tributary/pipeline.yaml"]
