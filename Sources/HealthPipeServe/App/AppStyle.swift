/// The app's additions to the page's style sheet: the forms, switches and lists the page has no
/// need of, the active tab, the message line; phones first (fields stack, buttons are thumb-sized).
/// Printed (the clinic's copy), a screen is its report alone on A4: the person and period, no
/// navigation, switcher, date controls, forms or buttons (a day's star stays, as a mark); the AGP
/// sheet (A4-shaped) a little narrower than the page so that it fits one page under the header.
enum AppStyle {
    static let css = """
    .tabs a[aria-current=page]{background:#fff;color:#0B3D66}
    .star-form{margin:0}.star-toggle{font:inherit;font-size:18px;background:none;border:0;padding:4px 8px;min-height:34px;cursor:pointer;color:inherit}
    .star-toggle:focus-visible{outline:2px solid #0072B2;border-radius:6px}
    form.people{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:4px 0;font-size:14px}
    form.people select{font:inherit;font-size:15px;padding:4px 6px;border-radius:6px;border:1px solid #CBD5E1;max-width:60vw}
    form.people .btn{min-height:30px;padding:2px 10px}
    .tabs form.signout{margin-left:auto}.tabs form.signout button{font:inherit;color:#fff;background:none;border:0;padding:8px 10px;cursor:pointer;text-decoration:underline}
    .flash{margin:0 0 12px;padding:8px 12px;border-radius:8px;background:#ECFDF5;border:1px solid #A7F3D0;color:#065F46;white-space:pre-line}
    .flash.bad{background:#FEF2F2;border-color:#FCA5A5;color:#7F1D1D}.flash.empty{display:none}
    .controls form.goto{display:inline-flex;align-items:center;gap:8px}
    .app-day .dayview{display:block}
    .card h3{margin:0 0 6px;font-size:15px}
    .entries{list-style:none;margin:0 0 12px;padding:0}
    .entries li{padding:8px 0;border-bottom:1px solid #E5E7EB;display:flex;flex-wrap:wrap;align-items:center;gap:6px 10px}
    .entries li.empty{color:#6B7280}
    .entries details.edit{flex-basis:100%}.entries details.edit>summary{cursor:pointer;color:#0B5C91;font-weight:600;display:inline}
    .entries li>details.edit{flex-basis:auto}.entries li>details.edit[open]{flex-basis:100%}
    .read-only{margin:0 0 12px;padding:8px 12px;border-radius:8px;background:#F1F5F9;border:1px solid #CBD5E1;color:#334155}
    .switch-state{margin:0}
    .entries details.confirm-delete>summary,details.confirm-delete>summary{display:inline-flex;align-items:center;list-style:none;cursor:pointer;color:#B91C1C}
    details.confirm-delete>summary::-webkit-details-marker{display:none}
    .entries li>details.confirm-delete[open],details.confirm-delete[open]{flex-basis:100%;background:#FEF2F2;border:1px solid #FCA5A5;border-radius:8px;padding:8px 10px}
    .confirm-question{margin:6px 0 8px;color:#7F1D1D}
    .now-value{font-size:56px;font-weight:800;margin:0;line-height:1.1}.now-value .unit{font-size:18px;font-weight:600;color:#4B5563}
    .now-value .arrow{font-size:46px;margin-left:6px}.now-sub{margin:4px 0 12px;color:#374151;font-size:16px}
    .now-stale{font-size:18px;padding:12px;border:2px solid #B45309;background:#FFFBEB;border-radius:8px;margin:0 0 12px}
    .now-alert{padding:8px 12px;border-radius:8px;background:#FFFBEB;border:1px solid #F59E0B;font-weight:700}
    .now-alert.urgent{background:#FEF2F2;border-color:#B91C1C;color:#7F1D1D}
    .now-facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:10px;margin:12px 0}
    .now-facts>div{background:#F8FAFC;border:1px solid #E5E7EB;border-radius:10px;padding:8px 12px}
    .now-facts dt{font-size:13px;color:#4B5563;font-weight:600}.now-facts dd{margin:2px 0 0}
    .add-forms{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:14px}
    .add{background:#F8FAFC;border:1px solid #E5E7EB;border-radius:10px;padding:10px 12px}
    .app-form{display:flex;flex-wrap:wrap;gap:8px 10px;align-items:flex-end}
    .app-form.inline{display:inline-flex}
    .field{display:flex;flex-direction:column;gap:2px;font-size:13px;color:#374151;min-width:0}
    .field>span{font-weight:600}
    .field input,.field select{font:inherit;font-size:15px;padding:6px 8px;border:1px solid #CBD5E1;border-radius:6px;background:#fff;min-width:0;max-width:100%}
    .field input[type=number]{width:7em}.field input[type=text]{width:12em}
    .field.check{flex-direction:row;align-items:center;gap:6px;font-size:14px}.field.check input{width:18px;height:18px;flex:none}
    .btn.primary{background:#0072B2;color:#fff}.btn.primary:hover{background:#0B5C91}
    .btn.danger{border-color:#B91C1C;color:#B91C1C}.btn.danger:hover{background:#FEF2F2}
    .btn{min-height:34px}
    .switches{display:flex;flex-wrap:wrap;gap:12px 24px;margin:0 0 14px}
    .switch-form{align-items:center}
    .toggle{display:inline-flex;align-items:center;gap:8px;font:inherit;font-weight:700;font-size:15px;padding:6px 14px 6px 6px;border-radius:20px;border:1px solid #CBD5E1;background:#F3F4F6;cursor:pointer;color:#374151}
    .toggle .knob{width:34px;height:20px;border-radius:10px;background:#9CA3AF;position:relative}
    .toggle .knob::after{content:"";position:absolute;left:2px;top:2px;width:16px;height:16px;border-radius:50%;background:#fff;transition:left .15s}
    .toggle.on{background:#EDE9FE;border-color:#5B4B8A;color:#3B2F66}.toggle.on .knob{background:#5B4B8A}.toggle.on .knob::after{left:16px}
    .favourite{align-items:center}.star.big{font-size:30px;line-height:1}
    .due{border:2px solid #B45309;background:#FFFBEB}.due ul{margin:0;padding-left:18px}.due li{margin:4px 0}.due .snooze{margin-left:8px}
    .period{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 10px}.period input{font:inherit;padding:4px 6px;border:1px solid #CBD5E1;border-radius:6px}
    .monthnav h2{margin:0;text-align:center;flex:1;font-size:19px}
    .alert-settings h3{margin:18px 0 6px}.alert-settings .add{margin-top:10px}.alert-settings .add h3{margin-top:0}
    .value-rows{display:flex;flex-direction:column;gap:6px;flex-basis:100%}
    .value-row{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:flex-end}
    @media (max-width:700px){
      .tabs a{padding:8px 9px;font-size:13px}
      .tabs .tab-more{display:none}
      .add-forms{grid-template-columns:1fr}
      .field input[type=text]{width:100%}
      .app-form>.field{flex:1 1 40%}
      .app-form .btn{min-height:40px}
      .controls form.goto{flex-wrap:wrap}
    }
    @media (max-width:420px){.tabs a{padding:8px 6px}}
    @media print{.add-forms,.app-form,#flash,.due,.confirm-delete,.read-only,form.people,form.period,.controls,.tabs,.btn{display:none}
      form.star-form{display:inline}
      .top .brand{display:none}.top h1{font-size:18px;margin:0}.top p{margin:0 0 4mm}
      #agp,#days{break-before:auto;break-after:auto}
      #agp svg{width:182mm}
      .day-table a{color:inherit;text-decoration:none}}
    """
}
