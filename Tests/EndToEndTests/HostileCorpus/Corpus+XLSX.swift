import Foundation

/// Round 3, class 6 — Excel workbooks: shared strings are held in one buffer and capped (a 1.2 MB
/// workbook inflating to 486 MB of strings took 3.4 GiB), a cell pointing at a missing shared
/// string quarantines its row (a workbook without its strings part is refused), and a date serial in
/// 1899 is quarantined (`RecordGate`), never stored.
extension HostileCorpus {
    static let clarityXLSX = E2E.samples.appendingPathComponent("dexcom-clarity/clarity_eu_mmol.xlsx")

    /// The Clarity workbook rewritten by Python: `edit` is the body of `def edit(name, data): return data`
    /// (return None to leave the part out).
    static func xlsxVariant(at path: String, _ edit: String) throws {
        let script = """
            import zipfile, sys
            def edit(name, data):
            \(edit.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                return data
            src = zipfile.ZipFile(sys.argv[1]); dst = zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED)
            for info in src.infolist():
                data = edit(info.filename, src.read(info.filename))
                if data is not None: dst.writestr(info.filename, data)
            dst.close()
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, clarityXLSX.path, path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    static let xlsx: [HostileCase] = [
        HostileCase("xlsx-shared-strings-inflating-to-140-mb-are-refused",
                    Expectation(exit: 1, stderr: ["shared strings", "MiB", "refused"])) { box in
            let path = box.path("bomb.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/sharedStrings.xml':
                    return data.replace(b'</sst>', b'<si><t>' + b'A' * 140000000 + b'</t></si></sst>')
                """)
            return Invocation(arguments: box.importing([path]))
        },
        // Every data row points past the 13 strings left: each is quarantined with the reason.
        HostileCase("xlsx-whose-shared-strings-stop-after-the-header-quarantines-every-row",
                    Expectation(exit: 3, measurements: 0,
                                quarantined: [.line(2, "cell C2 refers to shared string 13, but the workbook has 13 shared strings")]
                                    + (3...137).map { .line($0, "refers to shared string") })) { box in
            let path = box.path("truncated.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/sharedStrings.xml':
                    head, rest = data.split(b'<si>', 1)
                    items = rest.split(b'<si>')[:13]
                    return head + b''.join(b'<si>' + i.replace(b'</sst>', b'') for i in items) + b'</sst>'
                """)
            return Invocation(arguments: box.importing([path]))
        },
        // Issue 36: four rows pointing at strings that do not exist are quarantined; the two good rows land.
        HostileCase("xlsx-rows-with-missing-shared-strings-are-quarantined-and-the-good-rows-land",
                    Expectation(exit: 3, measurements: 2,
                                quarantined: [.line(9, "cell C9 refers to shared string 999, but the workbook has 36 shared strings"),
                                              .line(10, "shared string 999"), .line(12, "shared string 999"), .line(14, "shared string 999")],
                                check: { box in
                                    let lines = try String(contentsOfFile: box.quarantine, encoding: .utf8)
                                        .split(separator: "\n")
                                    return lines.count == 4 ? [] : ["expected 4 quarantined rows, found \(lines.count)"]
                                })) { box in
            let path = box.path("four.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/worksheets/sheet1.xml':
                    import re
                    head, rest = data.split(b'<row ', 1)
                    rows = re.findall(rb'<row .*?</row>', b'<row ' + rest, re.S)
                    tail = rest[rest.rindex(b'</row>') + 6:]
                    keep = rows[:14]
                    for i in (8, 9, 11, 13): keep[i] = keep[i].replace(b'<v>23</v>', b'<v>999</v>')
                    data = head + b''.join(keep) + tail
                """)
            return Invocation(arguments: box.importing([path]))
        },
        HostileCase("xlsx-without-its-shared-strings-is-refused-when-forced",
                    Expectation(exit: 1, stderr: ["shared string", "missing"])) { box in
            let path = box.path("nostrings.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/sharedStrings.xml':
                    return None
                """)
            return Invocation(arguments: box.importing([path], ["--format", "dexcom-clarity-xlsx"]))
        },
        HostileCase("xlsx-dates-in-1899-and-1900-are-quarantined",
                    Expectation(exit: 3, quarantined: [.any("1899-12-31 is outside the plausible dates"),
                                                       .any("1900-01-01 is outside the plausible dates")])) { box in
            let path = box.path("old.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/worksheets/sheet1.xml':
                    data = data.replace(b'<v>45047.00880787037</v>', b'<v>0.5</v>').replace(b'<v>45047.01228009259</v>', b'<v>1.25</v>')
                """)
            return Invocation(arguments: box.importing([path]))
        },
        // Issue 36: a rejected row's raw text is CSV that reads back as its cells (`CSVText`); a cell
        // with a comma and quotes was written bare and read back as two cells.
        HostileCase("xlsx-rejected-row-keeps-a-cell-with-a-comma-and-quotes-whole",
                    Expectation(exit: 3, quarantined: [.any("glucose value 'not a number' is not a number")], check: { box in
                        let raws = box.quarantinedRows().compactMap { $0["raw"] as? String }
                        return raws.contains { $0.contains(#","android, ""G6""","#) } ? [] : ["raw texts: \(raws)"]
                    })) { box in
            let path = box.path("comma.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/sharedStrings.xml':
                    data = data.replace(b'<t>android G6</t>', b'<t>android, "G6"</t>')
                if name == 'xl/worksheets/sheet1.xml':
                    data = data.replace(b'<c r="H11"><v>6.7</v></c>', b'<c r="H11" t="inlineStr"><is><t>not a number</t></is></c>')
                """)
            return Invocation(arguments: box.importing([path]))
        },
    ]
}
