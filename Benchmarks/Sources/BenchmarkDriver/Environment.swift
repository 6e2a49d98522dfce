import Foundation

/// What the results were measured on, for the head of RESULTS.md.
enum Environment {
    /// The LocationWire checkout measured: its short commit, "+changes" when the tree differs from it.
    nonisolated(unsafe) static var checkout = "unknown"

    static func describe(root: URL) {
        let commit = run("git", ["-C", root.path, "rev-parse", "--short", "HEAD"]) ?? "unknown"
        let dirty = !(run("git", ["-C", root.path, "status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
        checkout = commit + (dirty ? "+changes" : "")
    }

    /// The checkout this program was built from, for the Swift harness's `hello` (it does not know the coordinator's
    /// `--root`): the git commit of the directory four levels above the executable (Benchmarks/.build/CONFIG/).
    static var checkoutOfExecutable: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var root = URL(fileURLWithPath: executable)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        describe(root: root)
        return checkout
    }

    static var machine: String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memory =
            meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
            .map { String(format: "%.0f GiB", Double($0) / 1_048_576) } ?? "?"
        let kernel = run("uname", ["-sr"]) ?? "?"
        return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory), \(kernel)"
    }

    static var swiftVersion: String {
        run("swift", ["--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown"
    }

    /// The load average when the run started: a busy machine makes every figure slower.
    static var loadAverage: String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(
            separator: " ")
    }

    /// Runs a command and returns its trimmed standard output, nil when it fails.
    static func run(_ command: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
