@_exported import LocationWireHTTPBinding
import CompressNIO
import NIOCore

// The binding itself (paths, media types, the error body, what answers mean, Retry-After) is the root package's
// LocationWireHTTPBinding, re-exported here; this module adds what needs NIO: gzip request bodies.

extension UInt32 {
    /// The number whose little-endian bytes are `bytes` (exactly four).
    fileprivate init(littleEndianBytes bytes: ArraySlice<UInt8>) {
        self = bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// CRC-32 as gzip's trailer uses it (ISO 3309, the reflected polynomial 0xEDB88320), table-driven: zlib's own is
/// not exposed by the compression library, and these few lines are all a trailer check needs.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(~UInt32(0)) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
    }
}

/// `Content-Encoding: gzip` (`§http-gzip`).
public enum GzipCoding {
    /// Why a gzip body was refused.
    public enum Failure: Error, Sendable {
        /// The decompressed body would be over the limit; decompression stopped there.
        case tooLarge
        /// The bytes are not a gzip stream.
        case corrupt
    }

    /// Decompresses `body`, one whole gzip member (RFC 1952) and nothing after it, stopping with
    /// ``Failure/tooLarge`` as soon as the output would pass `limit` bytes, so that a small "zip bomb" never
    /// allocates more than the limit. A stream cut short (its 8-byte trailer missing, whole or in part), bytes after
    /// the member, or a second member are ``Failure/corrupt``: a body the client did not send whole is not stored.
    public static func decompress(_ body: ByteBuffer, limit: Int) throws(Failure) -> [UInt8] {
        var input = body
        let output: [UInt8]
        do {
            let buffer = try input.decompress(with: .gzip(), maxSize: limit + 1)
            guard buffer.readableBytes <= limit else { throw Failure.tooLarge }
            output = Array(buffer.readableBytesView)
        } catch let failure as Failure {
            throw failure
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw .tooLarge
        } catch {
            throw .corrupt
        }
        // zlib checks the trailer's CRC-32 and length when it reaches the end of the member, but takes input that
        // stops before the trailer as merely unfinished, and stops reading at the member's end. So the body must
        // be used up, and end with the trailer of what was decompressed: a stream cut inside its deflate data or
        // trailer matches that by chance with odds of 2^-64.
        guard input.readableBytes == 0, body.readableBytes >= 18 else { throw .corrupt }
        let trailer = Array(body.readableBytesView.suffix(8))
        let crc = UInt32(littleEndianBytes: trailer[0..<4])
        let size = UInt32(littleEndianBytes: trailer[4..<8])
        guard crc == CRC32.checksum(output), size == UInt32(truncatingIfNeeded: output.count) else {
            throw .corrupt
        }
        return output
    }

    /// `bytes` compressed as one gzip member.
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        // Compressing into a buffer the library sizes itself fails only for a broken zlib.
        guard let output = try? input.compress(with: .gzip()) else { preconditionFailure("zlib failed to compress") }
        return Array(output.readableBytesView)
    }
}
