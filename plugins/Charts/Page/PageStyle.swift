/// The page's stylesheet: screen layout, the no-JavaScript day switching (`:target`), the basal
/// toggle and table filters (`:has`), print (A4, the AGP alone on one page), and phones: the page
/// never scrolls sideways; below 700 px the day chart is its compact layout (DayLayout.compact: text
/// at full size, the side days a strip under it), the AGP keeps its A4 layout at a legible size
/// (text ≥ 10 px) inside its own sideways-scrolling box, as the day table does, and the day navigation wraps.
package enum PageStyle {
    package static let css = """
    *{box-sizing:border-box}
    html{background:#EEF1F4}
    body{margin:0;font-family:"DejaVu Sans","Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1F2937;font-size:14px;line-height:1.45}
    a{color:#0B5C91}
    .top{background:#0B3D66;color:#fff;padding:14px 24px 0}
    .top .wrap{max-width:1120px;margin:0 auto}
    .brand{font-size:12px;letter-spacing:.12em;text-transform:uppercase;opacity:.8}
    .top h1{margin:2px 0 2px;font-size:24px}
    .top p{margin:0 0 10px;opacity:.9}
    .tabs{display:flex;gap:4px;flex-wrap:wrap}
    .tabs a{color:#fff;text-decoration:none;padding:8px 14px;border-radius:8px 8px 0 0;background:rgba(255,255,255,.12);font-weight:600}
    .tabs a:hover,.tabs a:focus{background:rgba(255,255,255,.25)}
    main{max-width:1120px;margin:0 auto;padding:16px 24px 32px}
    .card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08),0 1px 2px rgba(0,0,0,.05);padding:16px 20px;margin:0 0 20px}
    .card>h2{margin:0 0 4px;font-size:19px}
    .card>.lead{margin:0 0 12px;color:#4B5563}
    svg.hp-chart{display:block;width:100%;height:auto}
    .controls{display:flex;flex-wrap:wrap;align-items:center;gap:10px 18px;margin:4px 0 10px}
    .switch{display:inline-flex;align-items:center;gap:6px;font-weight:600;cursor:pointer}
    .switch input{width:18px;height:18px;accent-color:#0072B2}
    .js-only{display:none}
    .js .js-only{display:inline-flex;align-items:center;gap:8px}
    .controls input[type=date]{font:inherit;padding:4px 6px;border:1px solid #CBD5E1;border-radius:6px}
    .btn{font:inherit;font-weight:600;padding:5px 12px;border-radius:6px;border:1px solid #0072B2;background:#fff;color:#0B5C91;cursor:pointer;text-decoration:none}
    .btn:hover{background:#E8F1F8}
    .page-span{margin:4px 0 8px;color:#4B5563;font-size:14px}.page-span code{overflow-wrap:anywhere;background:#F3F4F6;padding:1px 4px;border-radius:3px}
    .daynav{display:flex;align-items:center;justify-content:space-between;gap:8px;margin:6px 0 4px}
    .daynav h3{margin:0;font-size:17px;text-align:center;flex:1}
    .daynav .nav{min-width:150px}
    .daynav .nav.next{text-align:right}
    .daynav .off{color:#9CA3AF}
    .facts{margin:6px 2px 0;color:#374151}
    .period-notice{margin:0 0 12px;padding:8px 12px;border-radius:8px;background:#F3F4F6;border:1px solid #E5E7EB}
    .period-notice.insufficient{background:#FDF2F8;border:2px solid #882255;color:#5B1238}
    .facts b{font-weight:700}
    .day-record{margin:8px 2px 0;color:#374151}
    .day-record summary{cursor:pointer;font-weight:600}
    .day-record ol{list-style:none;margin:6px 0 0;padding:0;columns:2 320px;column-gap:24px}
    .day-record li{padding:2px 0;break-inside:avoid}
    .day-record small{color:#6B7280}
    .episode{display:inline-block;padding:1px 8px;border-radius:10px;background:#5B4B8A;color:#fff;font-size:12px;margin-right:6px}
    .dayview{display:none}
    .dayview.current{display:block}
    .dayviews:has(.dayview:target) .dayview.current:not(:target){display:none}
    .dayviews .dayview:target{display:block}
    .js .dayviews .dayview{display:none}
    .js .dayviews .dayview.shown{display:block}
    body:has(#show-basal:not(:checked)) .event.basal,body:has(#show-basal:not(:checked)) .basal-rate,body:has(#show-basal:not(:checked)) .legend-basal{display:none}
    .all-days{margin-top:10px}
    .all-days summary{cursor:pointer;color:#0B5C91;font-weight:600}
    .all-days ol{columns:4;margin:8px 0 0;padding-left:20px}
    .sheet{max-width:840px;margin-left:auto;margin-right:auto}
    .filters{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:flex-end;margin:0 0 10px}
    .filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:6px;align-items:center}
    .filters legend{font-size:12px;color:#4B5563;padding:0;margin-bottom:4px;width:100%}
    .chip{display:inline-flex;align-items:center;gap:4px;border:1px solid #CBD5E1;border-radius:16px;padding:3px 10px;cursor:pointer;background:#fff;user-select:none}
    .chip:has(input:checked){background:#E8F1F8;border-color:#0072B2;font-weight:600}
    #days-count{margin-left:auto;font-weight:700;color:#0B3D66}
    .table-wrap{overflow-x:auto}
    .metrics-table{border-collapse:collapse;font-size:14px}.metrics-table th,.metrics-table td{padding:4px 8px;border-bottom:1px solid #E5E7EB;text-align:right;white-space:nowrap}.metrics-table th[scope=row],.metrics-table thead th:first-child{text-align:left}
    .day-table{width:100%;border-collapse:collapse}
    .day-table th,.day-table td{padding:5px 8px;border-bottom:1px solid #E5E7EB;text-align:left;white-space:nowrap}
    .day-table thead th{font-size:12px;color:#4B5563;font-weight:600;border-bottom:2px solid #CBD5E1}
    .day-table tbody tr:hover{background:#F3F7FB}
    .day-table .num{text-align:right;font-variant-numeric:tabular-nums}
    .day-table small.checks{display:block;font-size:11px;font-weight:400;color:#4B5563}
    .day-table .avg{font-weight:700}
    .day-table .bar-col{width:200px}
    .day-table .unit{font-weight:400;color:#6B7280}
    .mini-bar{width:190px}
    .day-table .empty{color:#6B7280;text-align:center;padding:18px}
    .flag{display:inline-block;font-size:11px;padding:1px 7px;margin-right:3px;border-radius:9px;border:1px solid #D1D5DB;color:#9CA3AF}
    .flag.on{color:#fff;font-weight:600}
    .flag-hypo.on{background:#882255;border-color:#882255}
    .flag-hyper.on{background:#B35C00;border-color:#B35C00}
    .flag-exercise.on{background:#0072B2;border-color:#0072B2}
    .flag-stress.on{background:#5B4B8A;border-color:#5B4B8A}
    .flag-illness.on{background:#4B5563;border-color:#4B5563}
    .star{font-size:16px;color:#9CA3AF}
    .star.on{color:#E69F00}
    .fav-col{text-align:center}
    .history-grid{display:grid;gap:12px}
    #bubble{position:absolute;z-index:10;max-width:320px;background:#1F2937;color:#fff;padding:7px 10px;border-radius:8px;font-size:13px;box-shadow:0 4px 12px rgba(0,0,0,.25);pointer-events:none}
    footer{max-width:1120px;margin:0 auto;padding:0 24px 24px;color:#6B7280;font-size:12px}
    .chart-scroll{overflow-x:auto;overflow-y:hidden}
    .agp-key{display:none;margin:4px 0 10px}
    .agp-ranges{list-style:none;margin:0 0 8px;padding:0}
    .agp-ranges li{padding:3px 0 3px 8px;border-left:5px solid #0072B2;margin:2px 0}
    .agp-ranges b{font-size:16px}.agp-ranges small{color:#4B5563}
    .agp-stats{display:grid;grid-template-columns:1fr 1fr;gap:6px 12px;margin:0}
    .agp-stats dt{font-size:12px;color:#4B5563}.agp-stats dd{margin:0;font-weight:700;font-size:16px}
    .day-compact{display:none}
    .side-strip{list-style:none;display:grid;grid-template-columns:repeat(6,1fr);gap:3px;padding:0;margin:2px 0 6px;font-size:12px;text-align:center}
    .side-strip li{background:#F3F4F6;border-radius:6px;padding:3px 0;display:flex;flex-direction:column;line-height:1.25}
    .side-strip li.after{background:#EEF2FF}
    .side-strip a{color:inherit;text-decoration:none;display:flex;flex-direction:column}
    .side-strip span{font-weight:700}.side-strip small{color:#4B5563;font-size:11px}
    @media (max-width:700px){main{padding:10px}.card{padding:12px}.all-days ol{columns:2}
      .top{padding:10px 12px 0}
      .daynav{flex-wrap:wrap;row-gap:2px}
      .daynav h3{order:-1;flex-basis:100%}
      .daynav .nav{min-width:0}
      .chart-scroll{margin:0 -12px;padding:0 12px}
      .day-wide{display:none}
      .day-compact{display:block;margin:0 -12px}
      .day-compact svg.day-chart{width:100%;height:auto}
      .day-compact .side-strip{margin:2px 8px 6px}
      .chart-scroll svg.agp-chart{width:850px;max-width:none}
      .agp-key{display:block}
      .controls input[type=date]{max-width:150px}
      .day-table th,.day-table td{padding:4px 5px}
      .day-table .bar-col{width:96px}
      .mini-bar{width:90px}
    }
    @page{size:A4;margin:10mm}
    @media print{
      html,body{background:#fff}
      .top{background:#fff;color:#1F2937;padding:0}
      .tabs,.controls,.all-days,.filters,#bubble,footer{display:none}
      main{padding:0;max-width:none}
      .card{box-shadow:none;border-radius:0;padding:0;margin:0 0 8mm}
      #agp{break-before:page;break-after:page;margin:0}
      #agp>h2,#agp>.lead,#agp>.period-notice{display:none}
      #agp svg{width:190mm;height:auto;margin:0 auto}
      #days,#history{break-before:page}
      .day-table tr{break-inside:avoid}
    }
    """
}
