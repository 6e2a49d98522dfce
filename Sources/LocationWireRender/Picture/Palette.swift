import Foundation
import LocationWire

/// What the track's colour says.
public enum TrackColoring: String, Sendable, CaseIterable {
    case speed, reason
}

/// One legend entry: a colour (CSS hex) and what it stands for.
public struct LegendEntry: Sendable, Equatable {
    public var color: String
    public var label: String
}

/// The track's colours. Speed uses fixed bands in km/h so two pictures compare; reasons a categorical palette.
/// Every colour here is opaque and differs from the page's background, so a browser check can find the track.
public enum Palette {
    /// Speed bands: upper bound (km/h, exclusive) and colour; the last band is open.
    public static let speedBands: [(upperKmH: Double, color: String)] = [
        (2, "#2c7bb6"), (6, "#00a6ca"), (12, "#00b39b"), (25, "#5aae3c"), (50, "#e0a100"), (90, "#f26c21"),
        (.infinity, "#d7191c"),
    ]
    /// A segment whose speed is unknown (no speed field and no time between its fixes).
    public static let unknownColor = "#7f7f7f"
    /// The page background.
    public static let background = "#fbfbf8"

    /// The colour of a speed in m/s, or of an unknown speed.
    public static func color(speedMS: Double?) -> String {
        guard let speedMS, speedMS.isFinite, speedMS >= 0 else { return unknownColor }
        let kmH = speedMS * 3.6
        return speedBands.first { kmH < $0.upperKmH }!.color
    }

    /// The speed legend: every band, lower–upper km/h, then unknown.
    public static var speedLegend: [LegendEntry] {
        var lower = 0.0
        var entries: [LegendEntry] = []
        for band in speedBands {
            let label =
                band.upperKmH.isInfinite
                ? "≥ \(MapProjection.formatted(lower)) km/h"
                : "\(MapProjection.formatted(lower))–\(MapProjection.formatted(band.upperKmH)) km/h"
            entries.append(LegendEntry(color: band.color, label: label))
            lower = band.upperKmH
        }
        entries.append(LegendEntry(color: unknownColor, label: "speed unknown"))
        return entries
    }

    /// One colour per fix reason (index = raw value); unknown values share the last.
    static let reasonColors = [
        "#7f7f7f", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
        "#bcbd22", "#393b79", "#ad494a", "#637939", "#000000",
    ]

    public static func color(reason: FixReason) -> String {
        let index = Int(reason.rawValue)
        return reasonColors.indices.contains(index) && index < reasonColors.count - 1
            ? reasonColors[index] : reasonColors.last!
    }

    /// "periodic" for FIX_REASON_PERIODIC; the number for an unnamed value.
    public static func label(_ reason: FixReason) -> String {
        guard let name = reason.name else { return "reason \(reason.rawValue)" }
        return name.replacingOccurrences(of: "FIX_REASON_", with: "").lowercased().replacingOccurrences(
            of: "_", with: " ")
    }

    /// The reason legend: the reasons present, in enum order.
    public static func reasonLegend(_ reasons: Set<FixReason>) -> [LegendEntry] {
        reasons.sorted { $0.rawValue < $1.rawValue }.map { LegendEntry(color: color(reason: $0), label: label($0)) }
    }

    /// Region fill by level: a darker, more opaque shade for the smaller levels, so nested regions read as a
    /// hierarchy (country lightest, site darkest).
    public static func regionStyle(_ level: RegionLevel) -> (fill: String, opacity: Double, stroke: String) {
        switch level {
        case .country: ("#9ecae1", 0.10, "#6baed6")
        case .province: ("#6baed6", 0.13, "#4292c6")
        case .city: ("#4292c6", 0.16, "#2171b5")
        case .district: ("#2171b5", 0.20, "#08519c")
        case .site: ("#08519c", 0.26, "#08306b")
        default: ("#969696", 0.15, "#636363")
        }
    }

    /// "city" for REGION_LEVEL_CITY.
    public static func label(_ level: RegionLevel) -> String {
        (level.name ?? "level \(level.rawValue)").replacingOccurrences(of: "REGION_LEVEL_", with: "").lowercased()
    }
}
