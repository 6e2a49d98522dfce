import CSystemZlib

/// gzip through the system's zlib, to measure what a batch costs on a link that compresses it (HTTP's
/// `Content-Encoding: gzip`, `proto/HTTP.md`). Only sizes are needed, but the bytes are a complete gzip member, so
/// the figure is what `gzip -6` would write, header and trailer included.
public enum Gzip {
    /// zlib's default level, the one HTTP stacks use unless told otherwise.
    public static let defaultLevel: Int32 = 6

    /// The gzip member of `bytes` at `level` (0 to 9).
    public static func compress(_ bytes: [UInt8], level: Int32 = defaultLevel) -> [UInt8] {
        var stream = z_stream()
        // 15 window bits + 16 asks zlib for a gzip wrapper instead of its own; memory level 8 is zlib's default.
        let initialized = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        precondition(initialized == Z_OK, "deflateInit2 failed: \(initialized)")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        // deflateBound is an upper bound for one Z_FINISH call, so the stream always ends here.
        precondition(status == Z_STREAM_END, "deflate did not finish: \(status)")
        return Array(output.prefix(Int(stream.total_out)))
    }
}
