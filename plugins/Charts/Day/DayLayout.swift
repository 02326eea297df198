/// Where the day view's parts go. `wide` is the seeds' bifocal display (the three days before and
/// after at the sides); `compact` is the same day laid out for a phone's width in its own user
/// units — at 390 px its text is drawn at its full size, not shrunk to a third — with the side days
/// left to the page (a strip under the chart) and the bands named in a key under the axis.
public struct DayLayout: Sendable, Equatable {
    public var width: Double, height: Double
    public var plotLeft: Double, plotRight: Double, plotTop: Double, plotBottom: Double
    public var laneTop: Double, laneHeight: Double
    /// 0: no side views.
    public var sideWidth: Double
    /// The legend's row and the room between its items.
    public var legendY: Double, legendGap: Double
    /// Element ids get this suffix, so both layouts of one day can sit on one page.
    public var idSuffix: String

    public var hasSides: Bool { sideWidth > 0 }

    public static let wide = DayLayout(width: 1000, height: 440, plotLeft: 204, plotRight: 828, plotTop: 104, plotBottom: 384,
                                       laneTop: 44, laneHeight: 18, sideWidth: 142, legendY: 24, legendGap: 22, idSuffix: "")
    /// 360 units drawn over a phone's 366–370 px: text at its full size.
    public static let compact = DayLayout(width: 360, height: 426, plotLeft: 58, plotRight: 350, plotTop: 118, plotBottom: 378,
                                          laneTop: 56, laneHeight: 18, sideWidth: 0, legendY: 42, legendGap: 12, idSuffix: "c")
}
