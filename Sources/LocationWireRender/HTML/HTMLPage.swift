import LocationWireConformance

/// A single self-contained HTML page: inline CSS, inline SVG maps and inline script, nothing fetched (no CDN,
/// no fonts, no tiles), so it opens offline and in CI. The script pans (drag) and zooms (wheel, buttons) every
/// `svg.locwire-map`, redraws its scale bar for the zoom, and shows an element's `data-info` on hover.
public enum HTMLPage {
    /// A page around `body` (already escaped HTML).
    public static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLText.escaped(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        <div id="locwire-tip" role="tooltip"></div>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// One map with its zoom buttons, for placing in a page.
    public static func map(_ svg: String) -> String {
        """
        <div class="map">\(svg)<div class="zoom"><button type="button" data-zoom="in" title="Zoom in">+</button>\
        <button type="button" data-zoom="out" title="Zoom out">−</button>\
        <button type="button" data-zoom="reset" title="Fit">fit</button></div></div>
        """
    }

    /// A page showing one map: the map at the page's top-left corner, so its pixels are the page's.
    public static func mapPage(title: String, svg: String) -> String {
        page(title: title, body: map(svg))
    }

    static let style = """
        html,body{margin:0;padding:0;background:#fbfbf8;color:#222;font:14px/1.4 sans-serif}
        .map{position:relative;display:inline-block;line-height:0}
        .map svg{display:block;touch-action:none;cursor:grab}
        .map svg.dragging{cursor:grabbing}
        .zoom{position:absolute;right:8px;bottom:8px;line-height:1}
        .zoom button{width:36px;height:28px;margin-left:2px;font-size:15px;border:1px solid #999;background:#fff;border-radius:3px}
        #locwire-tip{position:fixed;display:none;pointer-events:none;white-space:pre;background:#222;color:#fff;
        padding:6px 8px;border-radius:4px;font-size:12px;line-height:1.35;z-index:10;max-width:420px}
        .report{padding:16px 24px}
        .report table{border-collapse:collapse;margin:8px 0 16px}
        .report th,.report td{border:1px solid #ccc;padding:3px 8px;text-align:right}
        .report th:first-child,.report td:first-child{text-align:left}
        .report td.bad{background:#fde0dd;font-weight:bold}
        .report td.good{background:#e5f5e0}
        .report pre{white-space:pre-wrap;word-break:break-all;background:#f1f1ec;padding:8px;border:1px solid #ddd;
        max-height:320px;overflow:auto}
        .report .verdict-pass{color:#1a7f37}.report .verdict-fail{color:#c62828}
        .report pre.diff del{display:block;text-decoration:none;background:#fde0dd;color:#8a1c1c}
        .report pre.diff ins{display:block;text-decoration:none;background:#e5f5e0;color:#1a5e20}
        .report pre.diff .skip{color:#888}
        .report section.vector{margin:18px 0;padding-top:8px;border-top:1px solid #ddd}
        """

    /// The page's whole script. It only reads the document: no network, no storage, no eval.
    static let script = """
        (function () {
          "use strict";
          var tip = document.getElementById("locwire-tip");
          function roundDistance(limit) {
            if (!(limit >= 1)) { return 1; }
            var power = Math.pow(10, Math.floor(Math.log10(limit)));
            var steps = [5, 2, 1];
            for (var i = 0; i < steps.length; i++) { if (steps[i] * power <= limit) { return steps[i] * power; } }
            return power;
          }
          function label(metres) {
            return metres >= 1000 ? (metres / 1000) + " km" : metres + " m";
          }
          function setUp(svg) {
            var viewport = svg.querySelector("g.viewport");
            if (!viewport) { return; }
            var state = { k: 1, x: 0, y: 0 };
            var bar = svg.querySelector("g.scalebar");
            function apply() {
              viewport.setAttribute("transform", "translate(" + state.x + " " + state.y + ") scale(" + state.k + ")");
              // Dots and markers keep their size on screen: their own scale undoes the zoom.
              svg.querySelectorAll("circle[data-r]").forEach(function (dot) {
                dot.setAttribute("r", String(Number(dot.getAttribute("data-r")) / state.k));
              });
              svg.querySelectorAll("g.marker").forEach(function (marker) {
                var s = Number(marker.getAttribute("data-s")) / state.k;
                marker.setAttribute("transform", "translate(" + marker.getAttribute("data-x") + " " +
                  marker.getAttribute("data-y") + ") scale(" + s + ")");
              });
              if (bar) {
                var perPixel = Number(bar.getAttribute("data-metres-per-pixel")) / state.k;
                var metres = roundDistance(Number(bar.getAttribute("data-max-pixels")) * perPixel);
                var pixels = metres / perPixel;
                var x = Number(bar.getAttribute("data-x")), y = Number(bar.getAttribute("data-y"));
                bar.querySelector("path").setAttribute("d", "M" + x + "," + (y - 4) + " V" + y + " H" + (x + pixels) +
                  " V" + (y - 4));
                bar.querySelector("rect").setAttribute("width", String(pixels + 8));
                bar.querySelector("text").textContent = label(metres);
              }
            }
            function point(event) {
              var matrix = svg.getScreenCTM();
              if (!matrix) { return { x: 0, y: 0 }; }
              var p = svg.createSVGPoint();
              p.x = event.clientX; p.y = event.clientY;
              return p.matrixTransform(matrix.inverse());
            }
            function zoom(factor, at) {
              var k = Math.min(Math.max(state.k * factor, 0.25), 512);
              state.x = at.x - (at.x - state.x) * (k / state.k);
              state.y = at.y - (at.y - state.y) * (k / state.k);
              state.k = k;
              apply();
            }
            svg.addEventListener("wheel", function (event) {
              event.preventDefault();
              zoom(event.deltaY < 0 ? 1.25 : 0.8, point(event));
            }, { passive: false });
            var drag = null;
            svg.addEventListener("pointerdown", function (event) {
              drag = { start: point(event), x: state.x, y: state.y };
              svg.classList.add("dragging");
              svg.setPointerCapture(event.pointerId);
            });
            svg.addEventListener("pointermove", function (event) {
              if (!drag) { return; }
              var now = point(event);
              state.x = drag.x + now.x - drag.start.x;
              state.y = drag.y + now.y - drag.start.y;
              apply();
            });
            function endDrag() { drag = null; svg.classList.remove("dragging"); }
            svg.addEventListener("pointerup", endDrag);
            svg.addEventListener("pointercancel", endDrag);
            var buttons = svg.parentNode.querySelectorAll("button[data-zoom]");
            buttons.forEach(function (button) {
              button.addEventListener("click", function () {
                var box = svg.viewBox.baseVal;
                var middle = { x: box.width / 2, y: box.height / 2 };
                var kind = button.getAttribute("data-zoom");
                if (kind === "in") { zoom(1.5, middle); }
                else if (kind === "out") { zoom(1 / 1.5, middle); }
                else { state = { k: 1, x: 0, y: 0 }; apply(); }
              });
            });
          }
          document.querySelectorAll("svg.locwire-map").forEach(setUp);
          document.addEventListener("mouseover", function (event) {
            var target = event.target.closest ? event.target.closest("[data-info]") : null;
            if (!target) { tip.style.display = "none"; return; }
            tip.textContent = target.getAttribute("data-info");
            tip.style.display = "block";
          });
          document.addEventListener("mousemove", function (event) {
            if (tip.style.display !== "block") { return; }
            tip.style.left = (event.clientX + 14) + "px";
            tip.style.top = (event.clientY + 14) + "px";
          });
        })();
        """
}
