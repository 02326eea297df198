import Foundation
import Hummingbird

/// Nightscout's `sgv` is mg/dL: cgm-remote-monitor stores it so, and xDrip+, AndroidAPS, Loop and
/// Trio send it so whatever unit their user reads. An entry may say otherwise with `units`
/// (`mmol`), which the import believes. An uploader that sends mmol/L in `sgv` without saying so
/// would store 15.0 as 15 mg/dL (a severe hypo that never happened) or see 4.8 refused as a CGM
/// status code; the rule here recognises such a batch and refuses it whole (422, with the reason):
/// every unlabelled `sgv` of the request is below 35 and at least one has a fractional part — no CGM
/// reports a fraction of a mg/dL, and no mg/dL batch stays below 35 (CGMs read from 39/40).
enum SGVUnits {
    static let mmolCeiling = 35.0

    static func refuseUnlabelledMmol(_ documents: [Any]) throws {
        var values: [Double] = []
        for case let doc as [String: Any] in documents where doc["units"] == nil {
            if let n = doc["sgv"] as? NSNumber, !(n is Bool) { values.append(n.doubleValue) }
        }
        guard !values.isEmpty, values.allSatisfy({ $0 < mmolCeiling }),
              values.contains(where: { $0.isFinite && $0 != $0.rounded() }) else { return }
        let low = values.min()!, high = values.max()!
        throw HTTPError(.unprocessableContent, message: "sgv values \(low) … \(high) look like mmol/L (all below \(Int(mmolCeiling)), some with decimals); "
                        + "Nightscout's sgv is mg/dL: send mg/dL, or add \"units\": \"mmol\" to each entry. Nothing was stored")
    }
}
