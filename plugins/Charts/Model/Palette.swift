/// Colours of every view, from the Okabe–Ito palette (safe for the common colour-vision
/// deficiencies). The seeds avoid red with green for readers with retinopathy: lows are purple,
/// highs orange, the target range stays light, and every band also carries a text label.
public enum Palette {
    // Okabe–Ito.
    public static let orange = "#E69F00"
    public static let skyBlue = "#56B4E9"
    public static let bluishGreen = "#009E73"
    public static let blue = "#0072B2"
    public static let vermillion = "#D55E00"
    public static let reddishPurple = "#CC79A7"
    public static let wine = "#882255"

    /// The glucose trace (the seeds' solid blue line) and the forecast (their dotted prediction).
    public static let trace = blue
    /// The seed's red dotted prediction: a true red, against the blue trace (never against green).
    public static let forecast = "#C0172C"
    /// Event markers: the seeds' orange meals, blue exercise and green insulin.
    public static let meal = orange
    public static let exercise = skyBlue
    public static let insulin = bluishGreen

    /// A finger-stick check: dark ink with a white rim, a diamond, so it stands out on the blue trace and every band.
    public static let check = "#1F2937"
    public static let ink = "#1F2937"
    public static let muted = "#6B7280"
    public static let grid = "#9CA3AF"
    public static let panel = "#F9FAFB"

    /// Band colours by distance from the target band: (background tint, strong colour for text and bars).
    static func band(level: Int) -> (fill: String, ink: String) {
        switch level {
        case ..<(-1): return ("#E9C9DD", wine)             // very low
        case -1: return ("#F6E1EE", "#A8457F")              // low
        case 0: return ("#FFFFFF", "#2F6F99")               // target
        case 1: return ("#FCEBC7", "#9A6700")               // high
        default: return ("#F8D2AE", vermillion)             // very high
        }
    }

    /// The AGP report's time-in-ranges bar (solid colours, labelled with text beside each part).
    static func rangeBar(level: Int) -> String {
        switch level {
        case ..<(-1): return wine
        case -1: return reddishPurple
        case 0: return blue
        case 1: return orange
        default: return vermillion
        }
    }
}
