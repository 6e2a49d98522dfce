/// Deliberately wrong choices on the settled points of proto/HTTP.md and proto/README.md, one rule each, for the
/// tests that show the probe catches a server that chose otherwise (a judge that cannot fail proves nothing).
/// Package-only: `serve` never sets one, and no public API reaches it.
package enum PlantedMutant: String, CaseIterable, Sendable {
    case twoContentTypesTaken, xGzipRefused, emptyGzipTaken, emptyDeviceIdToLedger, operatorActsForBody
    case mediaTypeBeforeToken, notOfferedAsNotFound, allowMissing, headAsNotFound, smallHeaderLimit
    case plusSignInQuery, geoJSONWithoutDeviceId, ledgerWithoutLost
    case offsetOneLate, pathWithoutIndices, jsonOffsetOneLate, unknownJSONMembersDropped
    case bodyLimitIn413, jsonMeasuredInBinary
    case assignmentVersionRestarts, deltaAsPrevious, planWithoutFix
    case policyNeverInAcks, retentionNotStated, compactWrongTypeAsAbsent, revisionZeroServed

    /// The rules the mutant breaks: every probe check it fails must name one of them. Most break one rule; a
    /// wrong offset or path also breaks `§http-error-body`, which asks for the decoder's own.
    package var rules: Set<String> {
        switch self {
        case .offsetOneLate, .pathWithoutIndices, .jsonOffsetOneLate: [rule, "§http-error-body"]
        default: [rule]
        }
    }

    /// The rule the mutant is planted for.
    package var rule: String {
        switch self {
        case .twoContentTypesTaken: "§http-content-type"
        case .xGzipRefused: "§http-content-coding"
        case .emptyGzipTaken: "§http-gzip"
        case .emptyDeviceIdToLedger: "§http-empty-device-id"
        case .operatorActsForBody: "§http-operator-token"
        case .mediaTypeBeforeToken: "§http-check-order"
        case .notOfferedAsNotFound: "§http-endpoints"
        case .allowMissing: "§http-allow"
        case .headAsNotFound: "§http-head"
        case .smallHeaderLimit: "§http-header-size"
        case .plusSignInQuery: "§http-read-back-query"
        case .geoJSONWithoutDeviceId: "§http-read-back-geojson"
        case .ledgerWithoutLost: "§http-ledger"
        case .offsetOneLate: "§decode-error-offset"
        case .pathWithoutIndices: "§decode-error-path"
        case .jsonOffsetOneLate: "§json-error-offset"
        case .unknownJSONMembersDropped: "§json-unknown-members"
        case .bodyLimitIn413: "§http-size"
        case .jsonMeasuredInBinary: "§http-size"
        case .assignmentVersionRestarts: "§http-erase-assignments"
        case .deltaAsPrevious: "§http-regions-held"
        case .planWithoutFix: "§http-regions-position"
        case .policyNeverInAcks: "§policy-in-acks"
        case .retentionNotStated: "§http-retention-stated"
        case .compactWrongTypeAsAbsent: "§compact-column-wire-type"
        case .revisionZeroServed: "§revision-zero"
        }
    }
}
