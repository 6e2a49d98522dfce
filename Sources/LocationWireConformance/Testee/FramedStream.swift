#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import LocationWire

/// The testee protocol's framing over file descriptors: a 4-byte little-endian length, then that many bytes.
public struct FramedStream: Sendable {
    /// Frames larger than this are refused: no vector is that large, and a garbage length must not make the
    /// reader allocate gigabytes.
    public static let maxFrameBytes = 256 << 20

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The other side closed the stream where a frame was expected: a clean end.
        case endOfStream
        /// The stream ended inside a frame, or a read or write failed.
        case broken(String)
        /// The length prefix exceeds ``FramedStream/maxFrameBytes``.
        case frameTooLarge(Int)
        /// No frame arrived within the time limit.
        case timedOut

        public var description: String {
            switch self {
            case .endOfStream: "end of stream"
            case .broken(let reason): "broken stream: \(reason)"
            case .frameTooLarge(let size): "frame of \(size) bytes exceeds the limit"
            case .timedOut: "timed out"
            }
        }
    }

    public let input: Int32
    public let output: Int32

    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Reads one frame. `timeoutMilliseconds` nil waits forever.
    public func readFrame(timeoutMilliseconds: Int? = nil) throws(Failure) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 4)
        let deadline = timeoutMilliseconds.map { Self.now() + $0 }
        let got = try readFully(&header, deadline: deadline, allowCleanEnd: true)
        if got == 0 { throw .endOfStream }
        let length = Int(header[0]) | Int(header[1]) << 8 | Int(header[2]) << 16 | Int(header[3]) << 24
        guard length <= Self.maxFrameBytes else { throw .frameTooLarge(length) }
        var body = [UInt8](repeating: 0, count: length)
        _ = try readFully(&body, deadline: deadline, allowCleanEnd: false)
        return body
    }

    /// Writes one frame.
    public func writeFrame(_ body: [UInt8]) throws(Failure) {
        let length = UInt32(body.count)
        var frame: [UInt8] = [
            UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24),
        ]
        frame.append(contentsOf: body)
        var written = 0
        while written < frame.count {
            let start = written
            written += try Self.retryingInterrupted("write") {
                frame.withUnsafeBytes { write(output, $0.baseAddress! + start, frame.count - start) }
            }
        }
    }

    /// Fills `buffer`; returns the bytes read, 0 only for a clean end before the first byte.
    private func readFully(_ buffer: inout [UInt8], deadline: Int?, allowCleanEnd: Bool) throws(Failure) -> Int {
        var filled = 0
        while filled < buffer.count {
            if let deadline {
                guard deadline - Self.now() > 0 else { throw .timedOut }
                var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                // An interrupted poll waits again for what is left of the time, not for all of it.
                let ready = try Self.retryingInterrupted("poll") {
                    Int(poll(&descriptor, 1, Int32(clamping: max(deadline - Self.now(), 0))))
                }
                if ready == 0 { throw .timedOut }
            }
            let count = buffer.count
            let result = try Self.retryingInterrupted("read") {
                buffer.withUnsafeMutableBytes { read(input, $0.baseAddress! + filled, count - filled) }
            }
            if result == 0 {
                if filled == 0 && allowCleanEnd { return 0 }
                throw .broken("stream ended inside a frame")
            }
            filled += result
        }
        return filled
    }

    /// Runs a system call until a signal does not interrupt it (EINTR); returns its non-negative result, and
    /// turns any other failure into a broken stream.
    private static func retryingInterrupted(_ name: String, _ call: () -> Int) throws(Failure) -> Int {
        while true {
            let result = call()
            if result >= 0 { return result }
            if errno != EINTR { throw .broken("\(name) failed: errno \(errno)") }
        }
    }

    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}

/// Serves the testee protocol on stdin and stdout until the runner closes stdin.
public enum TesteeServer {
    /// Deliberate faults, so that runners (ours and others') can test how they handle a testee that crashes or
    /// hangs on one vector.
    public struct Misbehaviour: Sendable {
        public var crashOn: String?
        public var hangOn: String?
        public init() {}
    }

    /// Returns the process exit status: 0 after a clean end of input, 1 on a broken stream.
    public static func serve(
        _ testee: BuiltinTestee = BuiltinTestee(), misbehaviour: Misbehaviour = Misbehaviour()
    ) -> Int32 {
        let stream = FramedStream(input: 0, output: 1)
        while true {
            let frame: [UInt8]
            do {
                frame = try stream.readFrame()
            } catch .endOfStream {
                return 0
            } catch {
                writeDiagnostic("locwire conformance testee: \(error)")
                return 1
            }
            let response: TesteeResponse
            do {
                let request = try TesteeRequest(serializedBytes: frame)
                if case .vector(let vector) = request.kind {
                    if vector.vectorId == misbehaviour.crashOn { exit(3) }
                    if vector.vectorId == misbehaviour.hangOn { while true { sleep(60) } }
                }
                response = testee.handle(request)
            } catch {
                response = .runtimeError("request does not decode: \(error)")
            }
            do {
                try stream.writeFrame(response.serializedBytes())
            } catch {
                writeDiagnostic("locwire conformance testee: \(error)")
                return 1
            }
        }
    }
}

/// Writes a line to standard error (file descriptor 2) without touching C's shared `stderr` stream.
func writeDiagnostic(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
