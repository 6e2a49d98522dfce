import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place outside a device where its bearer token is kept in clear: a JSON file
/// `{"device-1": "TOKEN", ...}` that only its owner can read (mode 0600), for the operator's scripts.
///
/// The database keeps only digests, so a token can be shown only when it is made. `serve --tokens-file` uses
/// this file to show the same tokens at every start: it keeps each token of the file that still belongs to its
/// device and issues one for each device that has none in the file.
public struct TokensFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The tokens in the file; empty when there is no file.
    ///
    /// - Throws: ``TokensFileError`` when the file cannot be read or is not a JSON object of strings.
    public func read() throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TokensFileError(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw TokensFileError(path: path, reason: "is not a JSON object of device ids and tokens")
        }
        return object
    }

    /// Whether anyone but the owner may read, write or run the file (a copy may already have been taken).
    public func isOpenToOthers() -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? Int
        else { return false }
        return mode & 0o077 != 0
    }

    /// Replaces the file with `tokens`, readable and writable by its owner only.
    ///
    /// The new content goes to a file created with mode 0600 beside it and is renamed over the old one, so the
    /// tokens are never readable by others, not even for a moment, and a crash leaves the old file or the new.
    public func write(_ tokens: [String: String]) throws {
        let data = try JSONSerialization.data(withJSONObject: tokens, options: [.sortedKeys, .prettyPrinted])
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokensFileError(path: temporary, reason: "cannot be created (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw TokensFileError(path: temporary, reason: "cannot be written (\(error.localizedDescription))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TokensFileError(path: path, reason: "cannot replace it (\(reason))")
        }
    }
}

/// A tokens file that cannot be used, said with its path.
public struct TokensFileError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "tokens file \(path) \(reason)" }
}

/// What `serve` knows of each device's token when it starts.
public struct DeviceTokens: Sendable, Equatable {
    /// The tokens in clear: made now, or kept in the tokens file and still valid.
    public var shown: [String: String]
    /// Devices that have a token already that cannot be shown: only its digest is kept.
    public var issuedEarlier: [String]

    /// Gives every device in `deviceIds` a token, issuing only what is missing.
    ///
    /// Without a file, a device with no token gets its first one (shown now, and never again); a device that
    /// has one is listed in ``issuedEarlier``. With a file, each of its tokens still belonging to its device is
    /// kept; every other device gets a token (its first, or one more when the first was shown before and is not
    /// in the file), and the file is rewritten with them (and any other device's it held).
    public static func prepare(
        deviceIds: [String], storage: some ServerStorage & BearerTokenAuthenticator, nowMs: Int64,
        file: TokensFile?
    ) async throws -> DeviceTokens {
        let kept = try file?.read() ?? [:]
        var tokens = DeviceTokens(shown: [:], issuedEarlier: [])
        var missing: [String] = []
        for deviceId in deviceIds {
            if let token = kept[deviceId], try await storage.deviceId(forToken: token) == deviceId {
                tokens.shown[deviceId] = token
            } else {
                missing.append(deviceId)
            }
        }
        for (deviceId, token) in zip(missing, try await storage.issueFirstTokens(forDevices: missing, nowMs: nowMs)) {
            if let token {
                tokens.shown[deviceId] = token
            } else if file != nil {
                tokens.shown[deviceId] = try await storage.issueToken(forDevice: deviceId, nowMs: nowMs)
            } else {
                tokens.issuedEarlier.append(deviceId)
            }
        }
        // Tokens of devices not asked about this time stay in the file: they still work.
        let merged = kept.merging(tokens.shown) { _, new in new }
        if let file, merged != kept || file.isOpenToOthers() { try file.write(merged) }
        return tokens
    }
}
