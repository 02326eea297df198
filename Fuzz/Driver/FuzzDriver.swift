import Foundation
import FuzzTargets

// libFuzzer driver, built only by scripts/fuzz.sh (-sanitize=fuzzer). SwiftPM links every
// executable with `main` aliased to `<product>_main`, so that is our entry point: it hands control
// to libFuzzer (LLVMFuzzerRunDriver). The target is chosen by HEALTHPIPE_FUZZ_TARGET, so one
// instrumented binary serves every target.

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

private let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["HEALTHPIPE_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        FileHandle.standardError.write(Data("set HEALTHPIPE_FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    _ = selected.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_cdecl("healthpipe_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    _ = selected
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzTestOneInput)
}
