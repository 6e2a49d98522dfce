#!/usr/bin/env bash
# Builds the Java testee (Google's protobuf-java, with protobuf-java-util's JsonFormat) from the project's .proto
# files into build/ (gitignored) next to this script. Progress goes to stderr; the last thing printed, on stdout, is
# the command that runs the testee (one JVM per conformance run or fuzz session: the protocol keeps it running).
# Needs: protoc, a JDK, and Debian's Java protobuf with JsonFormat's run-time dependencies
#   (Debian: apt-get install -y protobuf-compiler default-jdk-headless libprotobuf-java libgoogle-gson-java libguava-java).
# JARS (default /usr/share/java) names the folder that holds protobuf.jar, protobuf-util.jar, gson.jar and guava.jar.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
proto="$root/proto"
build="$here/build"
jars="${JARS:-/usr/share/java}"
install="apt-get install -y protobuf-compiler default-jdk-headless libprotobuf-java libgoogle-gson-java libguava-java"

for tool in protoc javac java; do
  command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: '$tool' not found; install it with: $install" >&2; exit 1; }
done
# protobuf-util.jar holds JsonFormat; it needs gson (its JSON reader) and guava at run time. Debian's
# libprotobuf-java ships both protobuf jars but does not depend on gson or guava, so they are named here.
classpath=""
for jar in protobuf protobuf-util gson guava; do
  [[ -f "$jars/$jar.jar" ]] || { echo "build.sh: $jars/$jar.jar not found; install it with: $install" >&2; exit 1; }
  classpath+="${classpath:+:}$jars/$jar.jar"
done

# The library's version: Debian's jar manifest does not carry it, and protobuf-java 3.21 has no run-time version
# constant, so it is read from the versioned file name the jar links to (protobuf-3.21.12.jar).
version="$(basename "$(readlink -f "$jars/protobuf.jar")" .jar)"
version="${version#protobuf-}"
[[ "$version" =~ ^[0-9] ]] || version="$(dpkg-query -W -f='${Version}' libprotobuf-java 2>/dev/null || echo unknown)"

rm -rf "$build/gen" "$build/classes"
mkdir -p "$build/gen" "$build/classes"
echo "java: $(protoc --version), protobuf-java $version, $(javac -version 2>&1)" >&2
protoc -I "$proto" --java_out="$build/gen" \
  "$proto"/locationwire/v1/*.proto "$proto"/locationwire/conformance/v1/testee.proto

# Java has no registry of generated types by name: list the outer classes protoc wrote for locationwire/v1 (one
# per .proto file); the testee finds the message classes inside them by reflection.
(cd "$build/gen" && for source in locationwire/v1/*.java; do
  name="${source%.java}"
  echo "${name//\//.}"
done) >"$build/classes/locationwire-v1-outer-classes.txt"
[[ -s "$build/classes/locationwire-v1-outer-classes.txt" ]] || { echo "build.sh: protoc wrote no Java for locationwire/v1" >&2; exit 1; }
echo "$version" >"$build/classes/protobuf-java-version.txt"
echo "java: $(wc -l <"$build/classes/locationwire-v1-outer-classes.txt") locationwire/v1 outer classes" >&2

find "$build/gen" -name '*.java' >"$build/sources.txt"
echo "$here/JavaTestee.java" >>"$build/sources.txt"
javac -nowarn -encoding UTF-8 --release 17 -cp "$classpath" -d "$build/classes" @"$build/sources.txt"

echo "java: built $build/classes" >&2
# Serial GC: the testee is one thread, and the machines it runs on share their cores.
printf 'java -XX:+UseSerialGC -cp %q JavaTestee\n' "$build/classes:$classpath"
