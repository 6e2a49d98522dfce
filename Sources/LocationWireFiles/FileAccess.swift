import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls under names of their own: inside FileAccess, `read` and `write` are its own functions.
private let systemRead = read
private let systemWrite = write
@discardableResult private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }

/// Reading and writing whole files with errors a person can act on: "is a directory", "no such file", "permission
/// denied", "the disk is full", never Foundation's "The operation could not be completed". Each failure is a
/// ``FileAccessError`` that names the path and says what is wrong in plain words, from `errno` and `fstat`.
///
/// Reads are capped at ``maxReadBytes`` so a wrong argument (a disk image, `/dev/zero`) costs an error, not the
/// machine's memory; pipes and character devices are read as streams up to the same cap, so process substitution
/// (`<(…)`) and `/dev/stdin` work.
public enum FileAccess {
    /// The largest file a read accepts: 256 MiB. A day of 1 Hz fixes is about 86,400 GPX points, some 15 MB; the
    /// largest conformance vector file is about 7 MB; a LocationBatch is far smaller still.
    public static let maxReadBytes = 256 << 20

    /// The whole file at `path`, at most `limit` bytes.
    public static func read(_ path: String, limit: Int = maxReadBytes) throws(FileAccessError) -> [UInt8] {
        let (descriptor, status) = try openForReading(path)
        defer { close(descriptor) }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFREG && Int(status.st_size) > limit {
            throw FileAccessError(path: path, reason: tooLarge(size: Int(status.st_size), limit: limit))
        }
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// Standard input to its end, at most `limit` bytes; `name` is what an error calls it.
    public static func readStandardInput(
        limit: Int = maxReadBytes, name: String = "standard input"
    ) throws(FileAccessError) -> [UInt8] {
        try readAll(STDIN_FILENO, path: name, limit: limit)
    }

    /// Writes `bytes` to `path`, replacing what is there. A write that fails part way removes the partial file so
    /// no truncated output is left looking complete.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileAccessError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileAccessError(writing: path, errno: errno) }
        var failure = writeAll(bytes, to: descriptor)
        // On network and some local file systems the disk-full error arrives only at close.
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure != 0 {
            var status = stat()
            if stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG { unlink(path) }
            throw FileAccessError(writing: path, errno: failure)
        }
    }

    /// The file at `path` opened for reading, with its status, once it is known to be something a reader can read
    /// (not a directory or socket); the caller closes it.
    private static func openForReading(_ path: String) throws(FileAccessError) -> (Int32, stat) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            // A socket refuses open with "no such device or address": say what the path is instead.
            var status = stat()
            if stat(path, &status) == 0 { try checkReadable(status, path: path) }
            throw FileAccessError(reading: path, errno: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw FileAccessError(reading: path, errno: code)
        }
        do {
            try checkReadable(status, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, status)
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter), with the usual errors: for a
    /// reader that looks at a file's start before it streams the rest.
    public static func readPrefix(_ path: String, count: Int) throws(FileAccessError) -> [UInt8] {
        let (descriptor, _) = try openForReading(path)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + filled, count - filled) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { throw FileAccessError(reading: path, errno: errno) }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes.prefix(filled))
    }

    /// A regular file of any size, mapped into memory rather than read (its pages come from the file as they are
    /// touched, and need no copy); a pipe, character device or standard input (`path` nil or `-`) is read to its
    /// end, at most ``maxReadBytes``. For the commands that stream a large file through a parser.
    public static func mapped(_ path: String?) throws(FileAccessError) -> Data {
        guard let path, path != "-" else { return Data(try readStandardInput()) }
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileAccessError(reading: path, errno: errno) }
        try checkReadable(status, path: path)
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return Data(try read(path)) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            // Permission and the like were checked above; what is left is the read itself.
            return Data(try read(path, limit: Int.max))
        }
    }

    /// A file written in pieces as they are made, so that no output is held whole: ``write(_:)`` buffers about
    /// 1 MiB and hands it to the file; ``close()`` writes the rest. A failure (the disk is full) removes the
    /// partial file, as ``write(_:to:)`` does, and is thrown by the write that meets it or by ``close()``.
    /// `path` nil or `-` is standard output.
    public final class Writer {
        private let descriptor: Int32
        private let path: String?
        private var buffer: [UInt8] = []
        private var closed = false
        static let pieceBytes = 1 << 20

        public init(path: String?) throws(FileAccessError) {
            if let path, path != "-" {
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw FileAccessError(writing: path, errno: errno) }
                self.descriptor = descriptor
                self.path = path
            } else {
                descriptor = STDOUT_FILENO
                self.path = nil
            }
            buffer.reserveCapacity(Self.pieceBytes + (64 << 10))
        }

        deinit {
            if !closed, let path {
                closeDescriptor(descriptor)
                unlink(path)
            }
        }

        public func write(_ text: String) throws(FileAccessError) {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.pieceBytes { try drain() }
        }

        public func write(_ bytes: some Sequence<UInt8>) throws(FileAccessError) {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.pieceBytes { try drain() }
        }

        /// Writes what is buffered and closes the file.
        public func close() throws(FileAccessError) {
            guard !closed else { return }
            try drain()
            closed = true
            guard let path else { return }
            if closeDescriptor(descriptor) != 0 {
                let code = errno
                unlink(path)
                throw FileAccessError(writing: path, errno: code)
            }
        }

        private func drain() throws(FileAccessError) {
            let failure = writeAll(buffer, to: descriptor)
            buffer.removeAll(keepingCapacity: true)
            guard failure != 0 else { return }
            closed = true
            if let path {
                closeDescriptor(descriptor)
                unlink(path)
            }
            throw FileAccessError(writing: path ?? "standard output", errno: failure)
        }
    }

    /// Writes every byte to `descriptor`, again after an interrupted write; the errno of a failure, or 0.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        return failure
    }

    /// Checks, before a long run, that `path` could be written at its end: it is opened for writing without
    /// truncating it (created and removed again when it was not there), so every reason a later ``write(_:to:)``
    /// would fail for except a full disk shows now.
    public static func checkWritable(_ path: String) throws(FileAccessError) {
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            close(descriptor)
            unlink(path)
            return
        }
        if errno != EEXIST { throw FileAccessError(writing: path, errno: errno) }
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(writing: path, errno: errno) }
        close(descriptor)
    }

    /// Creates the directory at `path` and any missing parents; a directory already there is fine.
    public static func createDirectory(_ path: String) throws(FileAccessError) {
        var status = stat()
        if stat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw FileAccessError(path: path, reason: "exists and is not a directory", writing: true)
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != path { try createDirectory(parent) }
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw FileAccessError(writing: path, errno: errno, creatingDirectory: true)
        }
    }

    /// The names in the directory at `path` (not `.` and `..`), sorted.
    public static func contentsOfDirectory(_ path: String) throws(FileAccessError) -> [String] {
        guard let directory = opendir(path) else {
            let code = errno
            if code == ENOTDIR { throw FileAccessError(path: path, reason: "is a file, not a directory") }
            if code == ENOENT { throw FileAccessError(path: path, reason: "no such directory") }
            throw FileAccessError(reading: path, errno: code)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Directories and sockets are refused by name; regular files, pipes and character devices are read.
    private static func checkReadable(_ status: stat, path: String) throws(FileAccessError) {
        let kind = status.st_mode & S_IFMT
        switch kind {
        case S_IFDIR: throw FileAccessError(path: path, reason: "is a directory, not a file")
        case S_IFREG, S_IFIFO, S_IFCHR: return
        default: throw FileAccessError(path: path, reason: "is not a regular file (\(describe(kind)))")
        }
    }

    private static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(FileAccessError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileAccessError(reading: path, errno: errno)
            }
            if count == 0 { return bytes }
            // Checked before appending: a stream is never held beyond the cap plus one chunk.
            guard bytes.count + count <= limit else {
                throw FileAccessError(path: path, reason: tooLarge(size: nil, limit: limit))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    static func tooLarge(size: Int?, limit: Int) -> String {
        let what = size.map { "is \(megabytes($0))" } ?? "is longer than that"
        return "is too large: locwire reads files up to \(megabytes(limit)) and this one \(what)"
    }

    static func megabytes(_ count: Int) -> String {
        count < 1 << 20
            ? "\(count) bytes"
            : count % (1 << 20) == 0
                ? "\(count >> 20) MiB" : String(format: "%.1f MiB", Double(count) / Double(1 << 20))
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFSOCK: return "a socket"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "file type \(String(kind, radix: 8))"
        }
    }
}

/// A file that could not be read or written, in words: "cannot read notes/: is a directory, not a file".
public struct FileAccessError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The path as the user gave it.
    public let path: String
    /// What is wrong, a phrase that follows the path: "does not exist", "is a directory, not a file".
    public let reason: String
    /// True when the failure was writing (or creating a directory), false when reading.
    public let writing: Bool

    public var description: String { "cannot \(writing ? "write" : "read") \(path): \(reason)" }

    public init(path: String, reason: String, writing: Bool = false) {
        self.path = path
        self.reason = reason
        self.writing = writing
    }

    public init(reading path: String, errno code: Int32) {
        let reason: String
        switch code {
        case ENOENT:
            let parent = (path as NSString).deletingLastPathComponent
            reason =
                !parent.isEmpty && !FileAccessError.isDirectory(parent)
                ? "no such file (the directory \(parent) does not exist either)" : "no such file"
        case EACCES, EPERM: reason = "permission denied (the file or a directory on its path is not readable by you)"
        case EISDIR: reason = "is a directory, not a file"
        default: reason = FileAccessError.eitherWay(code)
        }
        self.init(path: path, reason: reason)
    }

    init(writing path: String, errno code: Int32, creatingDirectory: Bool = false) {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "the current directory" : "the directory \(parent)"
        let reason: String
        switch code {
        case ENOENT:
            reason =
                parent.isEmpty || FileAccessError.isDirectory(parent)
                ? "cannot be created there (the file system has no such entry)" : "\(folder) does not exist"
        case EISDIR: reason = "is a directory; give a file name"
        case EACCES, EPERM:
            reason =
                FileAccessError.exists(path) && !creatingDirectory
                ? "permission denied (the file is not writable by you)"
                : "permission denied (you cannot create files in \(folder))"
        case ENOSPC: reason = "the disk is full"
        case EDQUOT: reason = "your disk quota is used up"
        case EROFS: reason = "the file system is read-only"
        case ETXTBSY: reason = "the file is a program that is running"
        case EFBIG: reason = "the file would be larger than the file system allows"
        default: reason = FileAccessError.eitherWay(code)
        }
        self.init(path: path, reason: reason, writing: true)
    }

    /// What the failures that mean the same for reading and writing say; the system's text for the rest.
    private static func eitherWay(_ code: Int32) -> String {
        switch code {
        case ENOTDIR: return "a part of the path is a file, not a directory"
        case ELOOP: return "too many symbolic links (a link loop?)"
        case ENAMETOOLONG: return "the path is too long"
        case EIO: return "input/output error from the device"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
