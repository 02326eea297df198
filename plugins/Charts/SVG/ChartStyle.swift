/// The CSS every chart SVG uses: inside each standalone SVG file, once in the HTML page.
package enum ChartStyle {
    package static let css = """
    .hp-chart{font-family:"DejaVu Sans","Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1F2937}
    .hp-chart text{fill:#1F2937;font-size:11px}
    .hp-chart .t-title{font-size:17px;font-weight:700}
    .hp-chart .t-sub{font-size:12px;fill:#4B5563}
    .hp-chart .t-head{font-size:13px;font-weight:700}
    .hp-chart .t-big{font-size:20px;font-weight:700}
    .hp-chart .t-small{font-size:10px;fill:#4B5563}
    .hp-chart .t-muted{fill:#6B7280}
    .hp-chart .t-band{font-size:10.5px;font-weight:700}
    .hp-chart .t-band,.hp-chart .t-halo{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
    .hp-chart .grid{stroke:#9CA3AF;stroke-width:.7;stroke-dasharray:1.5 3}
    .hp-chart .frame{fill:none;stroke:#D1D5DB;stroke-width:1}
    .hp-chart .trace{fill:none;stroke:#0072B2;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
    .hp-chart .reading{fill:#0072B2}
    .hp-chart .reading.limit{fill:#fff;stroke:#0072B2;stroke-width:1.2}
    .hp-chart .check{fill:#1F2937;stroke:#fff;stroke-width:1.2}
    .hp-chart .forecast{fill:none;stroke:#C0172C;stroke-width:2.6;stroke-linecap:round;stroke-dasharray:0 5}
    .hp-chart .forecast-point{fill:#C0172C}
    .hp-chart .guide{stroke-width:1;stroke-dasharray:2 3;opacity:.55}
    .hp-chart .event,.hp-chart .axis-event{cursor:pointer}
    .hp-chart .event:hover .mark,.hp-chart .event:focus .mark,.hp-chart .axis-event:hover .mark,.hp-chart .axis-event:focus .mark{stroke:#1F2937;stroke-width:1.6}
    .hp-chart .side-sep{stroke:#fff;stroke-width:1.5}
    .hp-chart .bar-line{stroke:#1F2937;stroke-width:2}
    .hp-chart .bar-mean{fill:#1F2937;stroke:#fff;stroke-width:1.2}
    """
}
