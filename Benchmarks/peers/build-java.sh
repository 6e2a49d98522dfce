#!/usr/bin/env bash
# Builds bench_java, the protobuf-java harness (bench_java/BenchJava.java), into build-java/ (gitignored) next to
# this script. The generated message classes, the list of their outer classes, the library's version and the
# class path (protobuf.jar, protobuf-util.jar for JsonFormat, gson and guava) come from
# conformance/testees/java/build.sh, which this runs: one place generates and compiles the Java code. Writes the
# wrapper build-java/bench_java, which starts the JVM with the flags below. Prints nothing on stdout.
# Needs what that script needs (Debian: apt-get install -y protobuf-compiler default-jdk-headless libprotobuf-java
# libgoogle-gson-java libguava-java).
# Usage: Benchmarks/peers/build-java.sh && Benchmarks/peers/build-java/bench_java --workloads DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$here/build-java"
testee="$root/conformance/testees/java"
exec 3>&1 1>&2

# The testee's script prints, last, the command that runs it: `java FLAGS -cp CLASSES:JARS JavaTestee`, each word
# quoted by printf %q, so the shell can split it back into words.
command="$("$testee/build.sh" | tail -n 1)"
eval "words=($command)"
classpath=""
for ((i = 0; i + 1 < ${#words[@]}; i++)); do
  [[ "${words[i]}" == -cp ]] && classpath="${words[i + 1]}"
done
[[ "$classpath" == "$testee/build/classes:"* ]] || {
  echo "build-java.sh: cannot find the class path in the testee's run command: $command" >&2
  exit 1
}
jars="${classpath#"$testee/build/classes:"}"

# A copy of the generated classes, so that rebuilding the testee does not change a harness that is running.
rm -rf "$build"
mkdir -p "$build/classes"
cp -R "$testee/build/classes/locationwire" "$testee/build/classes/locationwire-v1-outer-classes.txt" \
  "$testee/build/classes/protobuf-java-version.txt" "$build/classes/"
javac -encoding UTF-8 --release 17 -Xlint:all -Werror -cp "$build/classes:$jars" -d "$build/classes" \
  "$here"/bench_java/*.java

# JVM flags, and why:
# - HotSpot's default JIT (tiered: C1, then C2 for hot code) and its default collector here (G1, which the JVM picks
#   on a machine with 2 or more CPUs and about 2 GB), as a server runs protobuf-java.
# - A heap of 1 GB that may grow to 4 GB (-Xms1g -Xmx4g): the benchmark's workloads keep about 150 MB live when
#   a coordinator prepares all of them, and 1 GB leaves a young generation that makes collections rare (a 1000-fix
#   batch decodes into about 0.5 MB of objects); the scaling workloads keep about 1.3 GB live when all are
#   prepared, which the heap grows for. G1 grows the heap at a collection that took too long, which happens while
#   prepare fills it, not once sampling runs. A fixed 4 GB heap gave the same times within the noise of a quick
#   coordinator run but a 2.5 GB resident set (G1 sizes the young generation from the heap; this one, 0.7 GB),
#   which peak_rss_kib reports.
{
  echo '#!/usr/bin/env bash'
  echo '# Written by build-java.sh: runs the protobuf-java benchmark harness (Benchmarks/peers/PROTOCOL.md).'
  printf 'exec java -Xms1g -Xmx4g -cp %q BenchJava "$@"\n' "$build/classes:$jars"
} >"$build/bench_java"
chmod +x "$build/bench_java"
echo "build-java.sh: built $build/bench_java" >&2
