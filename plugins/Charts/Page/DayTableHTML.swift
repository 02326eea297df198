import HealthPipeCore

/// The day table on the page: an HTML table whose rows carry their flags as classes, so the
/// filters work with CSS alone (JavaScript off) and the page's script only mirrors them.
package struct DayTableHTML {
    let table: DayTable
    let bands: ChartBands
    /// Where a day's date links to (the seed's "View" button): its day view on the page, or in the
    /// app; nil for a day without one.
    let link: (Int64) -> String?
    /// The star cell's content where the star can be changed (the app's form); nil: the star alone.
    let star: ((inout Markup, DayLogRow) -> Void)?

    package init(table: DayTable, bands: ChartBands, link: @escaping (Int64) -> String?, star: ((inout Markup, DayLogRow) -> Void)? = nil) {
        self.table = table
        self.bands = bands
        self.link = link
        self.star = star
    }

    /// The "last N days" choices; each row gets a class `lN` when it falls within the last N days.
    package static let recentChoices = [7, 14, 30, 90]

    package func render(_ m: inout Markup) {
        let unit = table.unit
        m.raw("<form class=\"filters\" id=\"day-filters\" aria-controls=\"day-table\"><fieldset><legend>Show only days with</legend>")
        for f in DayTable.Flag.allCases {
            m.raw("<label class=\"chip chip-\(f.rawValue)\"><input type=\"checkbox\" id=\"f-\(f.rawValue)\" name=\"\(f.rawValue)\"> \(f.title)</label>")
        }
        m.raw("<label class=\"chip chip-fav\"><input type=\"checkbox\" id=\"f-fav\" name=\"fav\"> ★ Favourites</label></fieldset>")
        m.raw("<fieldset><legend>Period</legend><label class=\"chip\"><input type=\"radio\" name=\"last\" id=\"f-last-all\" value=\"\" checked> All</label>")
        for n in Self.recentChoices {
            m.raw("<label class=\"chip\"><input type=\"radio\" name=\"last\" id=\"f-last-\(n)\" value=\"\(n)\"> Last \(n) days</label>")
        }
        m.raw("</fieldset><output id=\"days-count\" for=\"day-filters\">\(table.rows.count) day\(table.rows.count == 1 ? "" : "s")</output></form>")

        m.raw("<div class=\"table-wrap\"><table class=\"day-table\" id=\"day-table\"><thead><tr><th scope=\"col\">Day</th>")
        m.raw("<th scope=\"col\" class=\"num\">Low</th><th scope=\"col\" class=\"num\">Avg</th><th scope=\"col\" class=\"num\">High</th>")
        m.raw("<th scope=\"col\" class=\"bar-col\">Range <span class=\"unit\">0–\(Fmt.fixed(unit.axisMax, 0)) \(unit.rawValue)</span></th>")
        m.raw("<th scope=\"col\">Hypo · Hyper · Exercise · Stress · Illness</th><th scope=\"col\" class=\"fav-col\">★</th></tr></thead><tbody>")
        if table.rows.isEmpty {
            m.raw("<tr><td colspan=\"7\" class=\"empty\">No daily summaries in this period.</td></tr>")
        }
        for r in table.rows {
            var classes = ["day-row"]
            for f in DayTable.Flag.allCases where r.has(f) { classes.append(f.rawValue) }
            if r.favourite { classes.append("fav") }
            let age = table.lastDay - r.day
            for n in Self.recentChoices where age < Int64(n) { classes.append("l\(n)") }
            let iso = CivilDate.isoDate(fromDays: r.day)
            m.raw("<tr class=\"\(classes.joined(separator: " "))\" data-date=\"\(iso)\" data-age=\"\(age)\"><th scope=\"row\">")
            if let href = link(r.day) {
                m.raw("<a href=\"")
                m.escaped(href)
                m.raw("\" title=\"View this day\">")
                m.escaped(Fmt.shortDate(r.day))
                m.raw("</a>")
            } else {
                m.escaped(Fmt.shortDate(r.day))
            }
            // A meter user's day: its numbers are the finger-stick checks', and it says so.
            if r.rangeFromChecks { m.raw("<small class=\"checks\">\(r.checks) BG check\(r.checks == 1 ? "" : "s")</small>") }
            m.raw("</th><td class=\"num\">\(r.low.map { unit.text($0) } ?? "–")</td><td class=\"num avg\">\(r.avg.map { unit.text($0) } ?? "–")</td>")
            m.raw("<td class=\"num\">\(r.high.map { unit.text($0) } ?? "–")</td><td class=\"bar-col\">")
            m.raw("<svg class=\"hp-chart mini-bar\" viewBox=\"0 0 190 14\" role=\"img\"><title>")
            m.escaped(r.low == nil ? "No glucose readings" : "Low \(unit.text(r.low!)), average \(unit.text(r.avg!)), high \(unit.text(r.high!)) \(unit.rawValue), "
                      + (r.rangeFromChecks ? "\(r.checks) finger-stick checks (no CGM readings)" : "\(r.readings) readings"))
            m.raw("</title>")
            MiniRangeBar.draw(&m, x: 1, y: 1, width: 188, height: 12, row: r, bands: bands, unit: unit)
            m.raw("</svg></td><td class=\"flags\">")
            for f in DayTable.Flag.allCases {
                let on = r.has(f)
                m.raw("<span class=\"flag flag-\(f.rawValue)\(on ? " on" : "")\" title=\"\(f.title): \(on ? "yes" : "no")\">\(f.title)</span>")
            }
            m.raw("</td><td class=\"fav-col\">")
            if let star {
                star(&m, r)
            } else {
                Self.star(&m, r)
            }
            m.raw("</td></tr>")
        }
        m.raw("</tbody></table></div>")
    }

    /// ★ with the favourite's note as its title, or ☆.
    package static func star(_ m: inout Markup, _ r: DayLogRow) {
        if r.favourite {
            m.raw("<span class=\"star on\" title=\"Favourite")
            if let note = r.note, !note.isEmpty { m.raw(": "); m.escaped(note) }
            m.raw("\">★</span>")
        } else {
            m.raw("<span class=\"star\" title=\"Not a favourite\">☆</span>")
        }
    }

    /// CSS that applies the filters with JavaScript off: a checked box hides the rows without its class.
    package static var filterCSS: String {
        var css = ""
        for f in DayTable.Flag.allCases.map(\.rawValue) + ["fav"] {
            css += "#days:has(#f-\(f):checked) tr.day-row:not(.\(f)){display:none}\n"
        }
        for n in recentChoices { css += "#days:has(#f-last-\(n):checked) tr.day-row:not(.l\(n)){display:none}\n" }
        return css
    }
}
