import CSystemZlib
import Foundation
import LocationWireFiles

#if canImport(Glibc)
    import Glibc
#endif

/// What an import reads: a file, read as a stream from the start as often as a reader needs (never held whole
/// unless a reader needs the whole document), or bytes in memory. A gzip file (`.gz`, found by its magic bytes) is
/// decompressed as it is read, so a compressed track needs no step of its own and no cap.
public struct ImportInput: @unchecked Sendable {
    enum Source {
        case file(String)
        case bytes(Data)
    }

    let source: Source
    /// The bytes start with gzip's magic number (1f 8b): everything read is decompressed.
    public let isGzip: Bool

    public init(_ data: Data) {
        source = .bytes(data)
        isGzip = data.starts(with: [0x1F, 0x8B])
    }

    /// The file at `path`; throws now when it cannot be read (no such file, a directory, permission).
    public static func file(_ path: String) throws(FileAccessError) -> ImportInput {
        let head = try FileAccess.readPrefix(path, count: 2)
        return ImportInput(source: .file(path), isGzip: head.starts(with: [0x1F, 0x8B]))
    }

    private init(source: Source, isGzip: Bool) {
        self.source = source
        self.isGzip = isGzip
    }

    /// A new stream of the (decompressed) bytes from the start, or from byte `offset`.
    public func stream(droppingFirst offset: Int = 0) -> InputStream {
        let raw: any ByteSource
        switch source {
        case .file(let path): raw = FileBytes(path: path)
        case .bytes(let data): raw = MemoryBytes(data: data)
        }
        let stream = PullStream(isGzip ? GzipBytes(raw) : raw)
        if offset > 0 {
            stream.open()
            var skipped = [UInt8](repeating: 0, count: offset)
            var done = 0
            while done < offset {
                let read = skipped.withUnsafeMutableBufferPointer {
                    stream.read($0.baseAddress! + done, maxLength: offset - done)
                }
                if read <= 0 { break }
                done += read
            }
        }
        return stream
    }

    /// The white space before the first other byte (in the first 64 KiB): how many bytes, and how many lines they
    /// end. XML readers start after it (white space before `<?xml` is not well-formed, but common).
    public func leadingWhitespace() -> (bytes: Int, lines: Int) {
        let head = prefix(64 << 10)
        let bytes = head.prefix { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return (bytes.count, bytes.count { $0 == 0x0A })
    }

    /// The first `count` (decompressed) bytes, or all when there are fewer.
    public func prefix(_ count: Int) -> Data {
        if case .bytes(let data) = source, !isGzip { return data.prefix(count) }
        let stream = stream()
        stream.open()
        defer { stream.close() }
        var result = Data()
        var buffer = [UInt8](repeating: 0, count: min(count, 64 << 10))
        while result.count < count {
            let read = buffer.withUnsafeMutableBufferPointer {
                stream.read($0.baseAddress!, maxLength: min($0.count, count - result.count))
            }
            if read <= 0 { break }
            result.append(contentsOf: buffer[0..<read])
        }
        return result
    }

    /// Every (decompressed) byte, for the readers that parse a whole document: a plain file is mapped, not copied.
    public func bytes() throws(InterchangeError) -> Data {
        switch (source, isGzip) {
        case (.bytes(let data), false): return data
        case (.file(let path), false):
            do {
                return try FileAccess.mapped(path)
            } catch {
                throw InterchangeError("", error.description)
            }
        default:
            let stream = stream()
            stream.open()
            defer { stream.close() }
            var result = Data()
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let read = buffer.withUnsafeMutableBufferPointer { stream.read($0.baseAddress!, maxLength: $0.count) }
                if read < 0 {
                    throw InterchangeError("", (stream.streamError as? InterchangeError)?.message ?? "cannot be read")
                }
                if read == 0 { break }
                result.append(contentsOf: buffer[0..<read])
            }
            return result
        }
    }
}

/// Bytes pulled a buffer at a time: fewer than asked only at the end (0), -1 for a failure (``failure`` says it).
protocol ByteSource: AnyObject {
    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int
    var failure: InterchangeError? { get }
}

final class MemoryBytes: ByteSource {
    let data: Data
    var offset = 0
    var failure: InterchangeError? { nil }
    init(data: Data) { self.data = data }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        let taken = min(count, data.count - offset)
        guard taken > 0 else { return 0 }
        data.withUnsafeBytes { raw in
            let start = raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            buffer.update(from: start, count: taken)
        }
        offset += taken
        return taken
    }
}

final class FileBytes: ByteSource {
    let path: String
    private var descriptor: Int32 = -1
    private(set) var failure: InterchangeError?

    init(path: String) { self.path = path }
    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        if descriptor < 0 {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                failure = InterchangeError("", FileAccessError(reading: path, errno: errno).description)
                return -1
            }
        }
        while true {
            let read = Glibc.read(descriptor, buffer, count)
            if read < 0 && errno == EINTR { continue }
            if read < 0 { failure = InterchangeError("", FileAccessError(reading: path, errno: errno).description) }
            return read
        }
    }
}

/// gzip members decompressed by the system's zlib as they are read; several members follow on as one stream
/// (as `gzip -d` reads them). A member that is cut short or corrupt is a failure naming it.
final class GzipBytes: ByteSource {
    private let source: any ByteSource
    private var stream = z_stream()
    /// Compressed bytes read but not yet inflated; a buffer of its own, so that zlib's pointer into it stays valid.
    private let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256 << 10)
    private var inputEnd = false
    private var finished = false
    private(set) var failure: InterchangeError?

    init(_ source: any ByteSource) {
        self.source = source
        // 15 window bits + 16: a gzip wrapper.
        inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// Reads the next compressed bytes into `input`; false (and ``failure``) when the source fails.
    private func refill() -> Bool {
        let read = source.read(input.baseAddress!, input.count)
        if read < 0 {
            failure = source.failure ?? InterchangeError("", "the compressed input cannot be read")
            return false
        }
        if read == 0 { inputEnd = true }
        stream.next_in = input.baseAddress
        stream.avail_in = UInt32(read)
        return true
    }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        guard !finished, failure == nil else { return failure == nil ? 0 : -1 }
        stream.next_out = buffer
        stream.avail_out = UInt32(min(count, Int(UInt32.max)))
        while stream.avail_out > 0 {
            if stream.avail_in == 0 && !inputEnd {
                guard refill() else { return -1 }
            }
            let status = inflate(&stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                // Another member may follow: look for more input before deciding that this was the last.
                if stream.avail_in == 0 && !inputEnd {
                    guard refill() else { return -1 }
                }
                if stream.avail_in == 0 && inputEnd {
                    finished = true
                    break
                }
                inflateReset(&stream)
                continue
            }
            if status == Z_BUF_ERROR && stream.avail_in == 0 && inputEnd {
                failure = InterchangeError("", "the gzip data is cut short")
                return -1
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                failure = InterchangeError("", "the gzip data is corrupt (zlib error \(status))")
                return -1
            }
        }
        return count - Int(stream.avail_out)
    }
}

/// An InputStream over a ``ByteSource``, for the readers that take one (XMLParser, CSV.swift). It reads ahead a
/// buffer, so that ``hasBytesAvailable`` is exact: false once every byte has been read, as CSV.swift expects.
final class PullStream: InputStream {
    private let source: any ByteSource
    private var status: Stream.Status = .notOpen
    private let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 << 10)
    private var start = 0
    private var end = 0
    private var ended = false

    init(_ source: any ByteSource) {
        self.source = source
        super.init(data: Data())
    }

    deinit { buffer.deallocate() }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { source.failure }

    override var hasBytesAvailable: Bool {
        fill()
        return start < end
    }

    /// Reads the next buffer from the source when this one is used up.
    private func fill() {
        guard start == end, !ended else { return }
        let read = source.read(buffer.baseAddress!, buffer.count)
        start = 0
        end = max(read, 0)
        if read <= 0 {
            ended = true
            status = read < 0 ? .error : .atEnd
        }
    }

    override func read(_ destination: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        fill()
        if start == end { return status == .error ? -1 : 0 }
        let count = min(length, end - start)
        destination.update(from: buffer.baseAddress! + start, count: count)
        start += count
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
    ) -> Bool { false }
}
