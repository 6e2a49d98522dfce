import Crypto
import Foundation
import LocationWire

/// The load run's record of every fix a server acknowledged as stored (ACCEPTED or DUPLICATE), for the crash
/// soak to check the database against.
///
/// One line per fix, comma-separated, no header:
/// `device_id,install_id,sequence,sha256` where install_id and sequence are the wire's UInt64 values as the same
/// 64 bits in a signed integer (the reference server's columns), and sha256 is the lowercase hex SHA-256 of the
/// fix's canonical encoding as sent in the batch (the bytes the server keeps in `fix.body`). Device ids are
/// `device-N`, so no field needs quoting.
///
/// Lines are written with write(2) before ``append(deviceId:installId:fixes:)`` returns, that is before the
/// device sends its next batch: the soak kills the server, not the load run, so the kernel has them even when
/// the server's death comes a microsecond later. A fix can appear on several lines (a resend answered DUPLICATE);
/// readers treat the file as a set.
public final class AckJournal: Sendable {
    private let file: LineFile

    /// Opens `path` for appending, creating it when absent.
    public init(path: String) throws {
        file = try LineFile(path: path, option: "--ack-journal")
    }

    /// Appends one line per fix. Throws when the file cannot take them: a journal with holes would make the
    /// soak's verdict worthless, so the run stops instead.
    public func append(deviceId: String, installId: UInt64, fixes: [LocationFix]) throws {
        guard !fixes.isEmpty else { return }
        var text = ""
        text.reserveCapacity(fixes.count * 100)
        for fix in fixes {
            text += "\(deviceId),\(Int64(bitPattern: installId)),\(Int64(bitPattern: fix.sequence)),"
            text += Self.digest(fix)
            text += "\n"
        }
        try file.append(text)
    }

    /// Lowercase hex SHA-256 of the fix's canonical encoding.
    static func digest(_ fix: LocationFix) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: fix.serializedBytes()) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
