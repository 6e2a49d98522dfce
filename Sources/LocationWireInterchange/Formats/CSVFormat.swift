import Foundation
import LocationWire
import LocationWireFiles
import LocationWireTools
import SwiftCSV

/// A CSV file (RFC 4180, comma-separated, parsed by SwiftCSV) with a header row naming its columns with the
/// ``PointField`` names: `time`, `latitude` and `longitude` are required; `accuracy_m`, `altitude_m`,
/// `vertical_accuracy_m`, `speed_m_s`, `speed_accuracy_m_s`, `course_deg`, `course_accuracy_deg`,
/// `battery_percent`, `pressure_hpa`, `motion_confidence_pct`, `floor`, `age_ms`,
/// `ellipsoidal_height_m`, `is_mock`, `battery_state`, `motion_activity`, `reason` and `source` are optional, in any order. Header
/// names are matched without regard to case or surrounding spaces; a column of any other name is an error (a
/// misspelt column would otherwise be lost without a word).
///
/// `time` is ISO 8601 (`2024-05-01T10:00:00Z`) or Unix seconds (`1714557600`, fractions allowed). An empty cell
/// is an absent value. Line numbers in messages count the header as line 1 and assume no quoted field spans lines.
public enum CSVFormat {
    static let required: [PointField] = [.time, .latitude, .longitude]

    public static func read(_ data: Data, _ converter: inout PointConverter) throws(InterchangeError) -> [LocationFix] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw InterchangeError("", "not UTF-8 text")
        }
        let csv: EnumeratedCSV
        do {
            csv = try EnumeratedCSV(string: text, delimiter: .comma, loadColumns: false)
        } catch let error as CSVParseError {
            switch error {
            case .generic(let message), .quotation(let message): throw InterchangeError("", "not valid CSV: \(message)")
            }
        } catch {
            throw InterchangeError("", "not valid CSV: \(error)")
        }
        if csv.header.count == 1, let only = csv.header.first, only.contains(";") || only.contains("\t") {
            throw InterchangeError("line 1", "the header has no commas: columns are separated by commas, not ; or tabs")
        }
        var columns: [PointField?] = []
        for name in csv.header {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let field = PointField(rawValue: key) else {
                let known = PointField.allCases.map(\.rawValue).joined(separator: ", ")
                throw InterchangeError("line 1", "unknown column \"\(name.prefix(40))\"; the columns are \(known)")
            }
            guard !columns.contains(field) else { throw InterchangeError("line 1", "column \(key) appears twice") }
            columns.append(field)
        }
        for field in required where !columns.contains(field) {
            throw InterchangeError("line 1", "no \(field.rawValue) column (time, latitude and longitude are required)")
        }
        let times = ISO8601Time()
        var fixes: [LocationFix] = []
        for (index, row) in csv.rows.enumerated() {
            let location = "line \(index + 2)"
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            var point = TrackPoint(location: location)
            for (column, cell) in zip(columns, row) {
                guard let field = column else { continue }
                let value = cell.trimmingCharacters(in: .whitespaces)
                if value.isEmpty { continue }
                let cellLocation = "\(location), column \(field.rawValue)"
                if field == .time {
                    if let milliseconds = times.milliseconds(value) {
                        point.timeMs = Double(milliseconds)
                    } else if let seconds = Double(value), seconds.isFinite {
                        point.timeMs = seconds * 1000
                    } else {
                        throw InterchangeError(
                            cellLocation, "\"\(value.prefix(40))\" is neither ISO 8601 nor Unix seconds")
                    }
                } else if field.isEnum {
                    if !field.set(name: value.lowercased(), on: &point) { point.unmapped.append(field.rawValue) }
                } else {
                    guard let number = Double(value), number.isFinite else {
                        throw InterchangeError(cellLocation, "\"\(value.prefix(40))\" is not a finite number")
                    }
                    field.set(number, on: &point)
                }
            }
            if let fix = converter.convert(point) { fixes.append(fix) }
        }
        return fixes
    }
}
