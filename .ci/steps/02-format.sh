# tier: quick
# what: Format: swift format lint --strict (.swift-format: 4 spaces, 120 columns) over every package
source .ci/lib.sh
swift format lint --strict --recursive Sources Tests Package.swift FuzzTesting/Sources FuzzTesting/Package.swift \
  Benchmarks/Sources Benchmarks/Package.swift Server/Sources Server/Tests Server/Package.swift
