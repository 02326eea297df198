/// The page's one small inline script. Everything is readable without it; with it: day
/// navigation (previous/next by keyboard too, a date picker, back to today), details on tap
/// (the SVG <title> text in a bubble) and the table filters kept in the address (#days?hypo&last=7;
/// any N of days there, the buttons offer 7, 14, 30 and 90); on a narrow screen the day chart, wider than
/// the screen in its own scrolling box, opens at the evening: the latest readings and the forecast).
enum PageScript {
    static let js = """
    (function(){
    var d=document,root=d.documentElement;root.classList.add('js');
    var views=[].slice.call(d.querySelectorAll('.dayview')),picker=d.getElementById('day-picker'),current=d.querySelector('.dayview.current');
    function showDay(id){var hit=null;views.forEach(function(v){var on=v.id===id;v.classList.toggle('shown',on);if(on)hit=v});
      if(!hit&&current){current.classList.add('shown');hit=current}
      if(hit&&picker)picker.value=hit.getAttribute('data-date');if(hit)toEvening(hit);return hit}
    function toEvening(v){var b=v.querySelector('.chart-scroll');if(b&&b.scrollWidth>b.clientWidth+1)b.scrollLeft=Math.max(0,b.scrollWidth*0.86-b.clientWidth)}
    var customLast=0;
    function filters(){var rows=[].slice.call(d.querySelectorAll('#day-table tr.day-row')),need=[];
      ['hypo','hyper','exercise','stress','illness','fav'].forEach(function(f){var b=d.getElementById('f-'+f);if(b&&b.checked)need.push(f)});
      var last=d.querySelector('input[name=last]:checked'),n=last&&last.value?parseInt(last.value,10):customLast,shown=0;
      rows.forEach(function(r){var ok=need.every(function(f){return r.classList.contains(f)})&&(!n||parseInt(r.getAttribute('data-age'),10)<n);
        if(ok){r.removeAttribute('hidden');shown++}else r.setAttribute('hidden','')});
      var out=d.getElementById('days-count');if(out)out.textContent=shown+(shown===1?' day':' days')+' of '+rows.length;return need.concat(n?['last='+n]:[])}
    function route(){var h=decodeURIComponent(location.hash.slice(1));
      if(h.indexOf('days?')===0){h.slice(5).split('&').forEach(function(p){var kv=p.split('=');
          if(kv[0]==='last'){var r=d.getElementById('f-last-'+kv[1]);if(r)r.checked=true;else{customLast=parseInt(kv[1],10)||0;[].forEach.call(d.querySelectorAll('input[name=last]'),function(x){x.checked=false})}}else{var b=d.getElementById('f-'+(kv[0]==='favourites'?'fav':kv[0]));if(b)b.checked=true}});
        filters();var s=d.getElementById('days');if(s)s.scrollIntoView();return}
      if(h.indexOf('reports-')===0){var r=d.getElementById(h);if(r){r.open=true;r.scrollIntoView()}}
      if(h.indexOf('day-')===0)showDay(h);else if(!d.querySelector('.dayview.shown'))showDay(current?current.id:'')}
    window.addEventListener('hashchange',route);route();filters();
    var form=d.getElementById('day-filters');if(form)form.addEventListener('change',function(e){if(e.target.name==='last')customLast=0;var f=filters();
      history.replaceState(null,'',f.length?'#days?'+f.join('&'):'#days')});
    if(picker)picker.addEventListener('change',function(){if(!picker.value)return;var id='day-'+picker.value;
      if(d.getElementById(id))location.hash=id;else{var best=null;views.forEach(function(v){if(v.getAttribute('data-date')<=picker.value)best=v});location.hash=(best||views[0]).id}});
    var imp=d.getElementById('importance-filter');if(imp)imp.addEventListener('change',function(){var n=parseInt(imp.value,10);
      [].forEach.call(d.querySelectorAll('td.has-reports'),function(c){c.classList.toggle('dim',parseInt(c.getAttribute('data-importance'),10)<n)});
      [].forEach.call(d.querySelectorAll('details.report-day'),function(x){if(parseInt(x.getAttribute('data-importance'),10)<n)x.setAttribute('hidden','');else x.removeAttribute('hidden')})});
    var today=d.getElementById('go-today');if(today)today.addEventListener('click',function(){if(current)location.hash=current.id});
    d.addEventListener('keydown',function(e){if(e.target.tagName==='INPUT'||e.altKey||e.ctrlKey||e.metaKey)return;
      var v=d.querySelector('.dayview.shown');if(!v)return;var a=v.querySelector(e.key==='ArrowLeft'?'a.prev':e.key==='ArrowRight'?'a.next':'');if(a){location.hash=a.getAttribute('href')}});
    var bubble=d.getElementById('bubble');
    function tip(el,x,y){var t=el.querySelector('title');if(!t||!bubble)return false;bubble.textContent=t.textContent;bubble.hidden=false;
      bubble.style.left=Math.min(x+12,d.documentElement.clientWidth+window.scrollX-330)+'px';bubble.style.top=(y+14)+'px';return true}
    d.addEventListener('click',function(e){var el=e.target.closest&&e.target.closest('.event,.axis-event,.check-point,.reading,.range-bar,.forecast-point,.tir-part,.history-bar,.daily-profile,.side-day,.trend-point');
      if(el&&tip(el,e.pageX,e.pageY)){e.preventDefault();return}if(bubble)bubble.hidden=true});
    d.addEventListener('focusin',function(e){var el=e.target;if(el.classList&&(el.classList.contains('event')||el.classList.contains('axis-event'))){var r=el.getBoundingClientRect();tip(el,r.left+window.scrollX,r.bottom+window.scrollY)}});
    d.addEventListener('keydown',function(e){if(e.key==='Escape'&&bubble)bubble.hidden=true});
    })();
    """
}
