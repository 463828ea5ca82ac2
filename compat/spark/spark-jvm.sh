# The JVM flags Spark 4.2 needs on Java 17 (the opens its own launcher adds), for check.sh and bench.sh.
# Usage: . spark-jvm.sh; spark_java_opts 2g    # sets the array java_opts, with -Xmx2g
spark_java_opts() {
  java_opts=(-XX:+IgnoreUnrecognizedVMOptions --add-modules=jdk.incubator.vector
    --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
    --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
    --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
    -Dio.netty.tryReflectionSetAccessible=true -Duser.timezone=UTC "-Xmx$1")
}
