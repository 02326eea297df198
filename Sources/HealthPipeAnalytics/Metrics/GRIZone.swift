/// The Glycemia Risk Index's five zones (Klonoff et al., J Diabetes Sci Technol 2023;17:1226):
/// A 0–20 (lowest risk), B 21–40, C 41–60, D 61–80, E 81–100 — a value between two integers
/// belongs to the higher zone.
public enum GRIZone {
    public static func letter(_ gri: Double) -> String {
        gri <= 20 ? "A" : gri <= 40 ? "B" : gri <= 60 ? "C" : gri <= 80 ? "D" : "E"
    }
}
