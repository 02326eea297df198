import Foundation

/// Inputs that cannot be read, or read only through a pipe: every refusal names the OS reason or
/// what the file is instead; pipes, FIFOs and standard input are read whole.
extension HostileCorpus {
    static let inputs: [HostileCase] = [
        HostileCase("missing-file", Expectation(exit: 1, noDatabase: true, stderr: ["nope.csv", "No such file or directory"], writes: [])) { box in
            Invocation(arguments: box.importing([box.path("nope.csv")]))
        },
        HostileCase("permission-denied", Expectation(exit: 1, noDatabase: true, stderr: ["secret.csv", "Permission denied"], writes: [])) { box in
            let p = try box.write("secret.csv", CorpusData.clarity)
            chmod(p, 0o600)
            return Invocation(arguments: box.importing([p]), unprivileged: true)
        },
        HostileCase("symlink-loop", Expectation(exit: 1, noDatabase: true, stderr: ["loop-a.csv", "symbolic link"], writes: [])) { box in
            try FileManager.default.createSymbolicLink(atPath: box.path("loop-a.csv"), withDestinationPath: "loop-b.csv")
            try FileManager.default.createSymbolicLink(atPath: box.path("loop-b.csv"), withDestinationPath: "loop-a.csv")
            return Invocation(arguments: box.importing([box.path("loop-a.csv")]))
        },
        // A folder stands for the files in it (an unpacked account export): none readable here, so nothing is imported.
        HostileCase("directory-as-input", Expectation(exit: 1, noDatabase: true, stderr: ["folder/x.csv", "no format HealthPipe reads"],
                                                      writes: [])) { box in
            try box.write("folder/x.csv", "x")
            return Invocation(arguments: box.importing([box.path("folder")]))
        },
        HostileCase("empty-directory-as-input", Expectation(exit: 1, noDatabase: true, stderr: ["empty", "a folder with no file"], writes: [])) { box in
            try FileManager.default.createDirectory(atPath: box.path("empty"), withIntermediateDirectories: true)
            return Invocation(arguments: box.importing([box.path("empty")]))
        },
        HostileCase("empty-file", Expectation(exit: 1, noDatabase: true, stderr: ["empty.csv", "the file is empty"], stderrNot: ["unknown format"], writes: [])) { box in
            Invocation(arguments: box.importing([try box.write("empty.csv", Data())]))
        },
        HostileCase("binary-garbage", Expectation(exit: 1, noDatabase: true, stderr: ["garbage.bin", "binary data"], stderrNot: ["unknown format"], writes: [])) { box in
            var g = SystemRandomNumberGenerator()
            let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &g) }
            return Invocation(arguments: box.importing([try box.write("garbage.bin", Data([0x7F, 0x45, 0x4C, 0x46, 0, 0] + bytes))]))
        },
        HostileCase("utf16le-without-bom-is-named", Expectation(exit: 1, noDatabase: true, stderr: ["UTF-16LE", "byte-order mark"], stderrNot: ["unknown format"], writes: [])) { box in
            let text = CorpusData.text(CorpusData.clarity.dropFirst(3))
            return Invocation(arguments: box.importing([try box.write("u16.csv", text.data(using: .utf16LittleEndian)!)]))
        },
        HostileCase("utf16le-with-bom-imports", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            let text = CorpusData.text(CorpusData.clarity.dropFirst(3))
            return Invocation(arguments: box.importing([try box.write("u16.csv", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!)]))
        },
        HostileCase("utf16be-with-bom-imports", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            let text = CorpusData.text(CorpusData.clarity.dropFirst(3))
            return Invocation(arguments: box.importing([try box.write("u16be.csv", Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)!)]))
        },
        HostileCase("utf32-is-named", Expectation(exit: 1, noDatabase: true, stderr: ["UTF-32"], stderrNot: ["unknown format"], writes: [])) { box in
            let text = CorpusData.text(CorpusData.clarity.dropFirst(3))
            return Invocation(arguments: box.importing([try box.write("u32.csv", Data([0xFF, 0xFE, 0, 0]) + text.data(using: .utf32LittleEndian)!)]))
        },
        HostileCase("truncated-zip-says-truncated", Expectation(exit: 1, noDatabase: true, stderr: ["cut.zip", "truncated"], stderrNot: ["unknown format"], writes: [])) { box in
            let zip = try Data(contentsOf: CorpusData.appleZipURL)
            return Invocation(arguments: box.importing([try box.write("cut.zip", zip.prefix(zip.count / 2))]))
        },
        HostileCase("corrupt-zip-says-corrupt", Expectation(exit: 1, stderr: ["bad.zip", "corrupt"], stderrNot: ["unknown format"], writes: Sandbox.defaultOutputs)) { box in
            let xml = try Data(contentsOf: CorpusData.appleXMLURL)
            try CorpusData.zip([("apple_health_export/export.xml", xml)], at: box.path("bad.zip"))
            var zip = try Data(contentsOf: URL(fileURLWithPath: box.path("bad.zip")))
            for i in 80..<400 where i < zip.count - 200 { zip[i] ^= 0x5A }  // inside the deflated data
            return Invocation(arguments: box.importing([try box.write("bad.zip", zip)]))
        },
        // A zip of CSV exports is read file by file (export-zip, ExportZipTests); a zip of neither is refused before any work.
        HostileCase("zip-without-a-health-export", Expectation(exit: 1, noDatabase: true, stderr: ["other.zip", "without an Apple Health export"],
                                                               stderrNot: ["unknown format"], writes: [])) { box in
            try CorpusData.zip([("notes.txt", Data("shopping list: milk, bread\n".utf8))], at: box.path("other.zip"))
            return Invocation(arguments: box.importing([box.path("other.zip")]))
        },
        HostileCase("fifo-input-is-read-whole", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            let source = try box.write("in.csv", CorpusData.clarity)
            mkfifo(box.path("pipe.csv"), 0o644)
            return Invocation(arguments: ["cat \(source) > \(box.path("pipe.csv")) &", "$HEALTHPIPE"] + box.importing([box.path("pipe.csv")]),
                              shell: true)
        },
        HostileCase("standard-input-dash", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            Invocation(arguments: box.importing(["-"]), stdin: CorpusData.clarity)
        },
        HostileCase("process-substitution", Expectation(exit: 0, measurements: CorpusData.clarityReadings)) { box in
            let source = try box.write("in.csv", CorpusData.clarity)
            return Invocation(arguments: ["$HEALTHPIPE", "import", "<(cat \(source))", "--db", box.db, "--timezone", "UTC"], shell: true)
        },
        HostileCase("libreview-on-standard-input-needs-no-date-order", Expectation(exit: 0, measurements: 4620)) { box in
            Invocation(arguments: box.importing(["-"]), stdin: try Data(contentsOf: CorpusData.libreURL))
        },
        HostileCase("apple-zip-on-standard-input", Expectation(exit: 0, measurements: 14, events: 1)) { box in
            Invocation(arguments: box.importing(["-"]), stdin: try Data(contentsOf: CorpusData.appleZipURL))
        },
        HostileCase("forced-format-that-does-not-fit", Expectation(exit: 1, stderr: ["not a LibreView export"])) { box in
            Invocation(arguments: box.importing([try box.write("in.csv", CorpusData.clarity)], ["--format", "libreview"]))
        },
        HostileCase("one-unreadable-file-does-not-stop-the-others",
                    Expectation(exit: 1, measurements: CorpusData.clarityReadings, stderr: ["missing.csv", "No such file"])) { box in
            Invocation(arguments: box.importing([box.path("missing.csv"), try box.write("in.csv", CorpusData.clarity)]))
        },
    ]
}
