import Foundation
import LocationWire
import LocationWireConformance

/// Draws a ``TrackPicture`` as SVG: self-contained (no fonts, images or links to fetch), projected with a
/// ``MapProjection`` fitted to the picture. The plot sits left, the legend right, the scale bar and caption
/// below; the map itself is in a `g.viewport` that the HTML page's script pans and zooms.
public struct SVGMap: Sendable {
    /// The whole picture, pixels.
    public var width: Double
    public var height: Double
    /// Prefixes the ids inside the SVG, so several maps can share one HTML page.
    public var idPrefix = "map"
    /// With the xmlns attribute (a standalone .svg file) or without (inline in HTML, where it would be the only
    /// URL on the page).
    public var standalone = true

    /// Where one fix was drawn: the browser check looks for `color` at `x`, `y` (pixels of the picture).
    public struct ProjectedFix: Sendable, Equatable {
        public var index: Int
        public var x: Double
        public var y: Double
        public var color: String
    }

    public init(width: Double = 960, height: Double = 640) {
        self.width = max(width, 320)
        self.height = max(height, 240)
    }

    static let legendWidth = 200.0
    static let titleHeight = 40.0

    /// The plot rectangle for a caption of `captionLines` lines.
    func plot(captionLines: Int) -> MapProjection.Rect {
        let bottom = 40 + 15 * Double(captionLines)
        return MapProjection.Rect(
            x: 12, y: Self.titleHeight, width: width - Self.legendWidth - 24,
            height: max(height - Self.titleHeight - bottom, 40))
    }

    /// The projection this map uses for `picture`.
    public func projection(for picture: TrackPicture) -> MapProjection {
        let unwrap = TrackPicture.shouldUnwrap(picture.extent().map(\.longitude))
        let extent = picture.extent().map { (latitude: $0.latitude, longitude: Self.unwrapped($0.longitude, unwrap)) }
        // Fitted inside the frame with a margin, so the outermost fixes and circles are not cut by it.
        let frame = plot(captionLines: captionLines(picture).count)
        let inset = MapProjection.Rect(
            x: frame.x + 16, y: frame.y + 16, width: frame.width - 32, height: frame.height - 32)
        return MapProjection(fitting: extent, into: inset)
    }

    static func unwrapped(_ longitude: Double, _ unwrap: Bool) -> Double {
        unwrap && longitude < 0 ? longitude + 360 : longitude
    }

    /// At most this many caption lines; a longer caption ends in an ellipsis.
    static let maximumCaptionLines = 6

    /// The caption wrapped at word boundaries to the picture's width, less the corner the HTML page's zoom
    /// buttons take (about 6.5 px a character at 12 px sans-serif).
    func captionLines(_ picture: TrackPicture) -> [String] {
        var paragraphs = picture.caption
        if picture.skippedWithoutPosition > 0 {
            paragraphs.append("\(picture.skippedWithoutPosition) fixes without a position are not drawn")
        }
        let columns = max(Int((width - 150) / 6.5), 20)
        var lines: [String] = []
        for paragraph in paragraphs {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if !line.isEmpty && line.count + 1 + word.count > columns {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word.prefix(columns)
            }
            lines.append(line)
        }
        if lines.count > Self.maximumCaptionLines {
            lines = Array(lines.prefix(Self.maximumCaptionLines))
            lines[lines.count - 1] += " …"
        }
        return lines
    }

    /// The SVG text and where each fix landed.
    public func render(_ picture: TrackPicture) -> (svg: String, fixes: [ProjectedFix]) {
        let captions = captionLines(picture)
        let unwrap = TrackPicture.shouldUnwrap(picture.extent().map(\.longitude))
        let projection = projection(for: picture)
        let plot = plot(captionLines: captions.count)
        func place(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
            projection.project(latitude: latitude, longitude: Self.unwrapped(longitude, unwrap))
        }
        var out = "<svg"
        if standalone { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
        out +=
            " class=\"locwire-map\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        out += " font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<rect width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(Palette.background)\"/>\n"
        out += "<text x=\"12\" y=\"26\" font-size=\"17\" font-weight=\"bold\">\(text(picture.title))</text>\n"
        out +=
            "<clipPath id=\"\(idPrefix)-plot\"><rect x=\"\(n(plot.x))\" y=\"\(n(plot.y))\" width=\"\(n(plot.width))\""
        out += " height=\"\(n(plot.height))\"/></clipPath>\n"
        out += "<rect class=\"plot\" x=\"\(n(plot.x))\" y=\"\(n(plot.y))\" width=\"\(n(plot.width))\""
        out += " height=\"\(n(plot.height))\" fill=\"#ffffff\" stroke=\"#d0d0d0\"/>\n"
        out += "<g clip-path=\"url(#\(idPrefix)-plot)\"><g class=\"viewport\">\n"
        out += regions(picture, projection, place)
        let (track, fixes) = self.track(picture, place)
        out += track
        out += markers(picture, place)
        out += "</g></g>\n"
        out += legend(picture)
        out += scaleBar(projection)
        for (line, caption) in captions.enumerated() {
            out += "<text x=\"12\" y=\"\(n(height - 12 - 15 * Double(captions.count - 1 - line)))\" fill=\"#444\">"
            out += "\(text(caption))</text>\n"
        }
        return (out + "</svg>\n", fixes)
    }

    // MARK: Layers

    func regions(
        _ picture: TrackPicture, _ projection: MapProjection, _ place: (Double, Double) -> (x: Double, y: Double)
    ) -> String {
        // Larger levels first (country, then province, ...), so the smaller ones lie on top.
        let ordered = picture.regions.enumerated().sorted {
            ($0.element.level.rawValue, $0.offset) < ($1.element.level.rawValue, $1.offset)
        }.map(\.element)
        var out = "<g class=\"regions\">\n"
        for region in ordered {
            let style = Palette.regionStyle(region.level)
            let name = region.name.isEmpty ? region.id : "\(region.name) (\(region.id))"
            var details = ["region \(name)", "level \(Palette.label(region.level))"]
            if !region.parentId.isEmpty { details.append("parent \(region.parentId)") }
            let paint =
                "fill=\"\(style.fill)\" fill-opacity=\"\(style.opacity)\" stroke=\"\(style.stroke)\" stroke-width=\"1.2\" vector-effect=\"non-scaling-stroke\""
            if let circle = region.circle, let latitudeE7 = circle.centerLatitudeE7,
                let longitudeE7 = circle.centerLongitudeE7
            {
                let (latitude, longitude) = (Double(latitudeE7) * 1e-7, Double(longitudeE7) * 1e-7)
                let center = place(latitude, longitude)
                // The radius in pixels at the centre's latitude: metres over the ground metres per pixel there.
                let radius = Double(circle.radiusM) / projection.metresPerPixel(atLatitude: latitude)
                details.append("radius \(circle.radiusM) m")
                out +=
                    "<circle class=\"region\" cx=\"\(n(center.x))\" cy=\"\(n(center.y))\" r=\"\(n(radius))\" \(paint)"
                out +=
                    " data-info=\"\(attribute(details))\"><title>\(text(details.joined(separator: "\n")))</title></circle>\n"
            }
            let vertices = TrackPicture.vertices(region.polygon)
            if vertices.count >= 3 {
                let points = vertices.map { place($0.0, $0.1) }.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                out += "<polygon class=\"region\" points=\"\(points)\" \(paint) stroke-dasharray=\"4 2\""
                out += " data-info=\"\(attribute(details + ["polygon, \(vertices.count) vertices"]))\">"
                out += "<title>\(text(details.joined(separator: "\n")))</title></polygon>\n"
            }
            // The name sits just above the circle (or at the polygon's first vertex), haloed so it reads over the
            // track.
            var labelAt: (x: Double, y: Double)?
            if let circle = region.circle, let latitudeE7 = circle.centerLatitudeE7,
                let longitudeE7 = circle.centerLongitudeE7
            {
                let center = place(Double(latitudeE7) * 1e-7, Double(longitudeE7) * 1e-7)
                let radius = Double(circle.radiusM) / projection.metresPerPixel(atLatitude: Double(latitudeE7) * 1e-7)
                // A circle a few pixels across gets no label: at that scale the names would pile up unread;
                // hovering (or zooming into) the circle still names it.
                if radius >= 8 { labelAt = (center.x, center.y - min(radius, 4000) - 4) }
            } else if let first = vertices.first {
                labelAt = place(first.0, first.1)
            }
            if let at = labelAt {
                out +=
                    "<text class=\"label\" x=\"\(n(at.x))\" y=\"\(n(at.y))\" text-anchor=\"middle\" fill=\"\(style.stroke)\""
                out += " font-size=\"11\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">"
                out += "\(text(region.name.isEmpty ? region.id : region.name))</text>\n"
            }
        }
        return out + "</g>\n"
    }

    /// The most bytes the drawn track may take (its lines and its fixes with their hover details): a picture of
    /// a million fixes is thinned until it fits, so that a browser opens it at once.
    public static let trackByteBudget = 4_500_000

    /// The points of `picture` worth drawing at these pixel positions: a point is kept when it lies at least
    /// `cell` pixels from the point kept before it, and always the first and last point and the points on either
    /// side of a break. The points dropped lie within `cell` pixels of one drawn, so the path keeps its shape to
    /// that size; measuring from the last point kept, not snapping to a grid, keeps the drawn points spaced along
    /// the path rather than lined up on cell edges.
    static func thinned(
        _ projected: [(x: Double, y: Double)], breaks: Set<Int>, cell: Double
    ) -> [Int] {
        guard cell > 0, projected.count > 2 else { return Array(projected.indices) }
        var kept: [Int] = [0]
        var last = projected[0]
        let squared = cell * cell
        for index in projected.indices.dropFirst() {
            let here = projected[index]
            let dx = here.x - last.x
            let dy = here.y - last.y
            let edge = index == projected.count - 1 || breaks.contains(index) || breaks.contains(index + 1)
            if edge || dx * dx + dy * dy >= squared {
                kept.append(index)
                last = here
            }
        }
        return kept
    }

    func track(
        _ picture: TrackPicture, _ place: (Double, Double) -> (x: Double, y: Double)
    ) -> (
        String, [ProjectedFix]
    ) {
        let allProjected = picture.points.map { place($0.latitude, $0.longitude) }
        // One point per pixel of path, coarser cells while the fixes would take more than the budget (about 300
        // bytes a drawn fix with its details).
        var cell = 1.0
        var kept = Self.thinned(allProjected, breaks: picture.breaks, cell: cell)
        while kept.count * 300 > Self.trackByteBudget && cell < 64 {
            cell *= 2
            kept = Self.thinned(allProjected, breaks: picture.breaks, cell: cell)
        }
        let projected = kept.map { allProjected[$0] }
        let colors = kept.map { picture.color(ofPoint: $0) }
        // A break between two kept points: one among the points from the previous kept one to this one.
        var keptBreaks = Set<Int>()
        for (position, index) in kept.enumerated().dropFirst()
        where (kept[position - 1] + 1...index).contains(where: picture.breaks.contains) {
            keptBreaks.insert(position)
        }
        var out =
            "<g class=\"track\" fill=\"none\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        // Consecutive segments of one colour make one polyline: the file stays small on long tracks.
        // No line crosses a break of the trace (a new recording segment, or a long gap).
        var start = 0
        while start + 1 < projected.count {
            if keptBreaks.contains(start + 1) {
                start += 1
                continue
            }
            var end = start + 1
            while end + 1 < projected.count && colors[end + 1] == colors[end] && !keptBreaks.contains(end + 1) {
                end += 1
            }
            let points = projected[start...end].map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            out += "<polyline points=\"\(points)\" stroke=\"\(colors[end])\" vector-effect=\"non-scaling-stroke\"/>\n"
            start = end
        }
        out += "</g>\n<g class=\"fixes\">\n"
        var fixes: [ProjectedFix] = []
        for (position, number) in kept.enumerated() {
            let point = picture.points[number]
            let (x, y) = projected[position]
            let speed = number > 0 ? picture.segmentSpeedMS(endingAt: number) : point.speedMS
            let details = picture.details(ofPoint: point, speed: speed)
            out +=
                "<circle class=\"fix\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"3\" data-r=\"3\" fill=\"\(colors[position])\""
            out += " data-index=\"\(point.index)\" data-info=\"\(attribute(details))\"/>\n"
            fixes.append(ProjectedFix(index: point.index, x: x, y: y, color: colors[position]))
        }
        return (out + "</g>\n", fixes)
    }

    func markers(_ picture: TrackPicture, _ place: (Double, Double) -> (x: Double, y: Double)) -> String {
        var out = "<g class=\"markers\">\n"
        // Expected markers first and larger, so the implementation's sit inside them where the two agree.
        let ordered =
            picture.markers.filter { $0.layer == .expected } + picture.markers.filter { $0.layer != .expected }
        for marker in ordered {
            let at = place(marker.latitude, marker.longitude)
            let (shape, color) = Self.shape(marker.kind)
            let scale = marker.layer == .expected ? 1.5 : 1
            let paint =
                marker.layer == .expected
                ? "fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\""
                : "fill=\"\(color)\" stroke=\"#ffffff\" stroke-width=\"1\""
            out += "<g class=\"marker \(marker.kind.rawValue) \(marker.layer.rawValue)\" data-x=\"\(n(at.x))\""
            out +=
                " data-y=\"\(n(at.y))\" data-s=\"\(scale)\" transform=\"translate(\(n(at.x)) \(n(at.y))) scale(\(scale))\""
            out += " data-info=\"\(attribute(marker.details))\">"
            if marker.differs {
                out += "<circle r=\"10\" fill=\"none\" stroke=\"#ff00cc\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>"
            }
            out += "<path d=\"\(shape)\" \(paint)/><title>\(text(marker.details.joined(separator: "\n")))</title></g>\n"
        }
        return out + "</g>\n"
    }

    /// A marker kind's outline, centred on 0,0, and its colour.
    static func shape(_ kind: TrackPicture.MarkerKind) -> (path: String, color: String) {
        switch kind {
        case .enter: ("M0,-8 L7,5 L-7,5 Z", "#1a9641")
        case .exit: ("M0,8 L7,-5 L-7,-5 Z", "#d7191c")
        case .dwell: ("M-6,-6 H6 V6 H-6 Z", "#7b3294")
        case .state: ("M0,-7 L7,0 L0,7 L-7,0 Z", "#636363")
        case .recorded: ("M-5,0 A5,5 0 1,0 5,0 A5,5 0 1,0 -5,0 Z", "#111111")
        case .dropped: ("M-5,-5 L5,5 M5,-5 L-5,5", "#b15928")
        }
    }

    func legend(_ picture: TrackPicture) -> String {
        let x = width - Self.legendWidth
        var y = Self.titleHeight + 14
        var out = "<g class=\"legend\">\n<text x=\"\(n(x))\" y=\"\(n(y))\" font-weight=\"bold\">"
        out += picture.coloring == .speed ? "Speed" : "Fix reason"
        out += "</text>\n"
        for entry in picture.legend {
            y += 18
            out +=
                "<rect class=\"swatch\" x=\"\(n(x))\" y=\"\(n(y - 10))\" width=\"22\" height=\"10\" fill=\"\(entry.color)\"/>"
            out += "<text x=\"\(n(x + 28))\" y=\"\(n(y))\">\(text(entry.label))</text>\n"
        }
        var kinds: [(TrackPicture.MarkerKind, TrackPicture.Layer)] = []
        for marker in picture.markers where !kinds.contains(where: { $0 == (marker.kind, marker.layer) }) {
            kinds.append((marker.kind, marker.layer))
        }
        if !kinds.isEmpty {
            y += 26
            out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-weight=\"bold\">Markers</text>\n"
            for (kind, layer) in kinds {
                y += 18
                let (shape, color) = Self.shape(kind)
                let paint =
                    layer == .expected ? "fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"" : "fill=\"\(color)\""
                out += "<path transform=\"translate(\(n(x + 11)) \(n(y - 4)))\" d=\"\(shape)\" \(paint)/>"
                let side = layer == .events ? "" : layer == .expected ? " (expected)" : " (implementation)"
                out += "<text x=\"\(n(x + 28))\" y=\"\(n(y))\">\(kind.rawValue)\(side)</text>\n"
            }
            if picture.markers.contains(where: \.differs) {
                y += 18
                out += "<circle cx=\"\(n(x + 11))\" cy=\"\(n(y - 4))\" r=\"7\" fill=\"none\" stroke=\"#ff00cc\""
                out +=
                    " stroke-width=\"2\" stroke-dasharray=\"3 2\"/><text x=\"\(n(x + 28))\" y=\"\(n(y))\">differs</text>\n"
            }
        }
        let levels = Set(picture.regions.map(\.level.rawValue)).sorted()
        if !levels.isEmpty {
            y += 26
            out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-weight=\"bold\">Regions</text>\n"
            for raw in levels {
                y += 18
                let style = Palette.regionStyle(RegionLevel(rawValue: raw))
                out += "<rect x=\"\(n(x))\" y=\"\(n(y - 10))\" width=\"22\" height=\"10\" fill=\"\(style.fill)\""
                out += " fill-opacity=\"\(style.opacity * 2)\" stroke=\"\(style.stroke)\"/>"
                out += "<text x=\"\(n(x + 28))\" y=\"\(n(y))\">\(Palette.label(RegionLevel(rawValue: raw)))</text>\n"
            }
        }
        return out + "</g>\n"
    }

    /// A bar of a round distance, at most a quarter of the plot wide. `data-metres-per-pixel` lets the page's
    /// script redraw it for the zoom.
    func scaleBar(_ projection: MapProjection) -> String {
        let (metres, pixels) = projection.scaleBar(maximumPixels: projection.plot.width / 4)
        let x = projection.plot.x + 8
        let y = projection.plot.y + projection.plot.height - 12
        let metresPerPixel = projection.metresPerPixel(atLatitude: projection.centerLatitude)
        var out = "<g class=\"scalebar\" data-metres-per-pixel=\"\(metresPerPixel)\" data-max-pixels=\""
        out += "\(n(projection.plot.width / 4))\" data-x=\"\(n(x))\" data-y=\"\(n(y))\">"
        out +=
            "<rect x=\"\(n(x - 4))\" y=\"\(n(y - 16))\" width=\"\(n(pixels + 8))\" height=\"24\" fill=\"#ffffff\" fill-opacity=\"0.8\"/>"
        out += "<path d=\"M\(n(x)),\(n(y - 4)) V\(n(y)) H\(n(x + pixels)) V\(n(y - 4))\" fill=\"none\" stroke=\"#000\""
        out +=
            " stroke-width=\"2\"/><text x=\"\(n(x))\" y=\"\(n(y - 6))\">\(MapProjection.distanceLabel(metres))</text></g>\n"
        return out
    }

    // MARK: Text

    func n(_ value: Double) -> String { value.isFinite ? String(format: "%.2f", value) : "0" }
    func text(_ value: String) -> String { XMLText.escaped(value) }
    /// Hover details as one attribute, lines joined with a line feed (kept as a character reference, since
    /// attribute normalisation would turn a raw one into a space).
    func attribute(_ lines: [String]) -> String {
        lines.map { XMLText.escaped($0).replacingOccurrences(of: "\n", with: " ") }.joined(separator: "&#10;")
    }
}
