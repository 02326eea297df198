import Foundation

/// Round 3, class 6 — Excel workbooks: shared strings are held in one buffer and capped (a 1.2 MB
/// workbook inflating to 486 MB of strings took 3.4 GiB), a cell pointing at a missing shared
/// string refuses the workbook instead of importing nothing without a word, and a date serial in
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
        HostileCase("xlsx-whose-shared-strings-stop-after-the-header-is-refused",
                    Expectation(exit: 1, stderr: ["shared string 13", "13 shared strings", "damaged"])) { box in
            let path = box.path("truncated.xlsx")
            try xlsxVariant(at: path, """
                if name == 'xl/sharedStrings.xml':
                    head, rest = data.split(b'<si>', 1)
                    items = rest.split(b'<si>')[:13]
                    return head + b''.join(b'<si>' + i.replace(b'</sst>', b'') for i in items) + b'</sst>'
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
