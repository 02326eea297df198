/// The app's one script (allowed by the response's nonce; everything works without it). With it:
/// - moving between days (arrows, ←/→, a swipe on the day, the date picker) and screens redraws in
///   place, keeping the address and history right;
/// - forms post with `X-Form-Token` and redraw what they changed, showing the command's message;
/// - the app polls `/api/app/version` and redraws when the database changed (a form in another
///   tab, an `import` or `stream` beside the server) — not while someone is typing in a form;
/// - the page's details on tap, the day table's count, the calendar's importance filter.
enum AppScript {
    static let js = """
    (function(){
    var d=document,root=d.documentElement;root.classList.add('js');
    var token=(d.querySelector('meta[name=form-token]')||{}).content||'',bubble=d.getElementById('bubble'),version=null,pending=false,busy=false;
    function flash(text,bad){var f=d.getElementById('flash');if(!f)return;f.textContent=text||'';f.className='flash'+(text?'':' empty')+(bad?' bad':'')}
    function swap(html,url,push){var doc=new DOMParser().parseFromString(html,'text/html'),m=doc.getElementById('main');if(!m)return false;
      var open=[].map.call(d.querySelectorAll('#main details[open][id]'),function(x){return x.id});
      d.getElementById('main').innerHTML=m.innerHTML;d.title=doc.title;
      var s=doc.getElementById('subtitle');if(s)d.getElementById('subtitle').textContent=s.textContent;
      var h=doc.querySelector('header.top h1');if(h)d.querySelector('header.top h1').textContent=h.textContent;
      var p=doc.getElementById('people'),q=d.getElementById('people');if(p&&q&&!q.contains(d.activeElement))q.outerHTML=p.outerHTML;
      var tabs=doc.querySelector('nav.tabs');if(tabs)d.querySelector('nav.tabs').innerHTML=tabs.innerHTML;
      open.forEach(function(id){var x=d.getElementById(id);if(x)x.open=true});
      if(push)history.pushState(null,'',url);root.setAttribute('data-loaded',url);counts();return true}
    // Only the latest load is drawn: pressing → three times quickly lands three days on, not on whichever answered last.
    var seq=0,wanted=null;
    function load(url,push){var my=++seq;busy=true;return fetch(url,{headers:{Accept:'text/html'},credentials:'same-origin'}).then(function(r){
        if(my!==seq)return;if(!r.ok||r.redirected){location.href=url;return}
        return r.text().then(function(t){if(my!==seq)return;wanted=null;if(!swap(t,url,push))location.href=url})})
      .catch(function(){location.href=url}).then(function(){if(my===seq)busy=false})}
    // The person of the address goes on with the day: /day/2024-03-05?person=…
    function dayURL(iso){var p=new URLSearchParams(location.search).get('person');return '/day/'+iso+(p?'?person='+encodeURIComponent(p):'')}
    function shift(iso,n){var t=new Date(iso+'T00:00:00Z');t.setUTCDate(t.getUTCDate()+n);return t.toISOString().slice(0,10)}
    function internal(a){return a&&a.origin===location.origin&&!a.hasAttribute('download')&&/^\\/(day\\/|now|agp|days|reports|settings|$)/.test(a.pathname)}
    d.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a');
      if(a&&a.hash&&a.pathname===location.pathname&&a.search===location.search){var t=d.getElementById(a.hash.slice(1));if(t&&t.tagName==='DETAILS')t.open=true;return}
      if(a&&internal(a)&&!e.ctrlKey&&!e.metaKey&&!e.shiftKey&&e.button===0){e.preventDefault();load(a.href,true).then(function(){if(a.hash){var t=d.getElementById(a.hash.slice(1));if(t){if(t.tagName==='DETAILS')t.open=true;t.scrollIntoView()}}});return}
      var el=e.target.closest&&e.target.closest('.event,.axis-event,.check-point,.reading,.range-bar,.forecast-point,.tir-part,.history-bar,.daily-profile,.side-day,.trend-point');
      if(el&&tip(el,e.pageX,e.pageY)){e.preventDefault();return}if(bubble)bubble.hidden=true});
    window.addEventListener('popstate',function(){load(location.href,false)});
    function go(rel){var day=d.querySelector('#main .app-day');if(!day)return;wanted=shift(wanted||day.getAttribute('data-day'),rel==='prev'?-1:1);load(dayURL(wanted),true)}
    d.addEventListener('keydown',function(e){if(e.key==='Escape'&&bubble){bubble.hidden=true;return}
      if(/INPUT|SELECT|TEXTAREA|BUTTON/.test(e.target.tagName)||e.altKey||e.ctrlKey||e.metaKey||e.shiftKey)return;
      if(e.key==='ArrowLeft')go('prev');else if(e.key==='ArrowRight')go('next')});
    var sx=null,sy=0;
    d.addEventListener('touchstart',function(e){var day=e.target.closest&&e.target.closest('.app-day');sx=null;if(!day||e.touches.length!==1)return;
      var box=e.target.closest('.chart-scroll');if(box&&box.scrollWidth>box.clientWidth+1)return;sx=e.touches[0].clientX;sy=e.touches[0].clientY},{passive:true});
    d.addEventListener('touchend',function(e){if(sx===null)return;var t=e.changedTouches[0],dx=t.clientX-sx,dy=t.clientY-sy;sx=null;
      if(Math.abs(dx)>60&&Math.abs(dx)>2*Math.abs(dy))go(dx>0?'prev':'next')},{passive:true});
    d.addEventListener('change',function(e){var t=e.target;
      if(t.id==='day-picker'&&t.value&&/^\\d{4}-\\d\\d-\\d\\d$/.test(t.value))load(dayURL(t.value),true);
      if(t.closest&&t.closest('#day-filters'))counts();
      if(t.id==='importance-filter'){var n=parseInt(t.value,10);
        [].forEach.call(d.querySelectorAll('td.has-reports'),function(c){c.classList.toggle('dim',parseInt(c.getAttribute('data-importance'),10)<n)});
        [].forEach.call(d.querySelectorAll('details.report-day'),function(x){if(parseInt(x.getAttribute('data-importance'),10)<n)x.setAttribute('hidden','');else x.removeAttribute('hidden')})}});
    function counts(){var out=d.getElementById('days-count');if(!out)return;var rows=[].slice.call(d.querySelectorAll('#day-table tr.day-row')),shown=rows.filter(function(r){return r.offsetParent!==null}).length;
      out.textContent=shown+(shown===1?' day':' days')+' of '+rows.length}
    d.addEventListener('submit',function(e){var f=e.target;if(!f.classList.contains('app-form'))return;e.preventDefault();
      var b=f.querySelector('button[type=submit]:focus')||e.submitter,body=new URLSearchParams(new FormData(f));if(b&&b.name)body.set(b.name,b.value);
      busy=true;flash('Saving…');
      fetch(f.action,{method:'POST',credentials:'same-origin',headers:{Accept:'application/json','X-Form-Token':token,'Content-Type':'application/x-www-form-urlencoded'},body:body.toString()})
      .then(function(r){return r.json().catch(function(){return {ok:false,message:r.status===403?'This page is out of date: reload it.':'Error '+r.status}})})
      .then(function(j){if(!j.ok){flash(j.message||(j.error&&j.error.message)||'refused',true);busy=false;return}
        // The version after this write, then the redraw: the poll redraws again only for a later change.
        return current().then(function(){return load(location.href,false)}).then(function(){flash(j.message,false)})})
      .catch(function(){flash('The server did not answer.',true);busy=false})});
    function typing(){var a=d.activeElement;return (a&&a.closest&&a.closest('#main form')&&/INPUT|SELECT|TEXTAREA/.test(a.tagName))||d.querySelector('#main details.edit[open]')}
    function poll(){if(d.hidden||busy)return;fetch('/api/app/version',{credentials:'same-origin'}).then(function(r){return r.ok?r.json():null}).then(function(j){
        if(!j)return;
        if(version!==null&&j.version!==version)pending=true;version=j.version;
        if(pending&&!typing()&&!busy){pending=false;load(location.href,false)}}).catch(function(){})}
    function current(){return fetch('/api/app/version',{credentials:'same-origin'}).then(function(r){return r.ok?r.json():null}).then(function(j){if(j){version=j.version;pending=false}}).catch(function(){})}
    poll();setInterval(poll,2000);
    // The Now screen's ages ("12 min ago") move with the clock, not only with the database.
    setInterval(function(){if(d.getElementById('now')&&!d.hidden&&!busy&&!typing())load(location.href,false)},60000);
    function tip(el,x,y){var t=el.querySelector('title');if(!t||!bubble)return false;bubble.textContent=t.textContent;bubble.hidden=false;
      bubble.style.left=Math.max(4,Math.min(x+12,root.clientWidth+window.scrollX-330))+'px';bubble.style.top=(y+14)+'px';return true}
    d.addEventListener('focusin',function(e){var el=e.target;if(el.classList&&(el.classList.contains('event')||el.classList.contains('axis-event'))){var r=el.getBoundingClientRect();tip(el,r.left+window.scrollX,r.bottom+window.scrollY)}});
    if(location.hash){var t=d.getElementById(location.hash.slice(1));if(t&&t.tagName==='DETAILS')t.open=true}
    counts();root.setAttribute('data-loaded',location.pathname+location.search);
    })();
    """
}
