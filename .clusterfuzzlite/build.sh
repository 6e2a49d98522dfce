#!/bin/bash -eu
# ClusterFuzzLite build: the same as OSS-Fuzz's (FuzzTesting/oss-fuzz/build.sh, which documents the outputs).
exec bash "${PROJECT_SRC:-$SRC/locationwire}/FuzzTesting/oss-fuzz/build.sh" "$@"
