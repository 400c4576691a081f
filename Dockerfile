# The release image, built from a clean clone alone: the first stage builds the runnable jar with the Maven wrapper
# (it downloads Maven and the dependencies), the second runs it on a Java 17 JRE. No local build is needed:
#   git clone <this repository> loadgen && cd loadgen && docker build -t loadgen .
#   docker run --rm loadgen run --driver mockdb -p mockdb.delay=4ms --threads 8 --target 1000 --duration 10s
#   docker run --rm -v "$PWD:/work" loadgen run --driver noop --target 1000 --duration 5s --json run.json
# Outputs given as relative paths land in /work (mount a directory there to keep them); the shipped workloads are
# in /opt/loadgen/workloads (-P /opt/loadgen/workloads/workloada). The build reads .git (.dockerignore keeps it)
# for the commit `loadgen --version` names. ./mvnw verify builds the image (ReleaseArtifactIT) where a Docker daemon
# runs, and ReleaseArtifactTest checks that the jar copied here is the one the build makes.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
# A git worktree's .git is a file naming a directory outside the context, which the build cannot read: without it,
# the version line says "commit unknown" (build from a clone to have it name the commit).
RUN if [ -f .git ]; then rm .git; fi
RUN ./mvnw -B -DskipTests package -pl loadgen-cli -am

FROM eclipse-temurin:17-jre
COPY --from=build /src/loadgen-cli/target/loadgen.jar /opt/loadgen/loadgen.jar
COPY --from=build /src/workloads /opt/loadgen/workloads
WORKDIR /work
ENTRYPOINT ["java", "-jar", "/opt/loadgen/loadgen.jar"]
