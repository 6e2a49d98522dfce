import Foundation
import Synchronization

/// A file a load run appends whole lines to, from all its devices at once: the ack journal and the request log.
///
/// Each ``append(_:)`` is written with write(2) before it returns, so the lines are in the kernel even when the
/// process dies a moment later; the lock keeps one call's lines together even when the kernel writes short.
final class LineFile: Sendable {
    private let descriptor: Mutex<Int32>
    /// The option that named the file, for error messages (`--ack-journal`).
    private let option: String

    /// Opens `path` for appending, creating it when absent.
    init(path: String, option: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LoadConfigurationError(
                description: "cannot open \(option) \(path): \(String(cString: strerror(errno)))")
        }
        self.descriptor = Mutex(descriptor)
        self.option = option
    }

    deinit { descriptor.withLock { _ = close($0) } }

    /// Writes `text` (whole lines, each ending in a newline) at the end of the file. Throws when the file cannot
    /// take it: a record with holes would make the verdicts drawn from it worthless, so the run stops instead.
    func append(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        try descriptor.withLock { descriptor in
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw LoadConfigurationError(description: "\(option): \(String(cString: strerror(errno)))")
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
