# The release image: the runnable jar that './mvnw package' leaves in loadgen-cli/target, on a Java 17 JRE.
#   ./mvnw -B -DskipTests package && docker build -t loadgen .
#   docker run --rm loadgen run --driver mockdb -p mockdb.delay=4ms --target 1000 --duration 10s
#   docker run --rm -v "$PWD:/work" loadgen run --driver noop --target 1000 --duration 5s --json run.json
# Outputs given as relative paths land in /work (mount a directory there to keep them); the shipped workloads are
# in /opt/loadgen/workloads (-P /opt/loadgen/workloads/workloada). ./mvnw verify builds it (ReleaseArtifactIT) where a Docker
# daemon runs, and ReleaseArtifactTest checks that the jar named here is the one the build makes.
FROM eclipse-temurin:17-jre
COPY loadgen-cli/target/loadgen.jar /opt/loadgen/loadgen.jar
COPY workloads /opt/loadgen/workloads
WORKDIR /work
ENTRYPOINT ["java", "-jar", "/opt/loadgen/loadgen.jar"]
