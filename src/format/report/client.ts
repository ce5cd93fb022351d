// The report's only script, inlined: the offset/time axis switch and the details panel. Plain DOM,
// no framework. It reads the data-* attributes lane-svg.ts writes and writes text only through
// textContent, so no data string is ever parsed as HTML. The page is complete without it.
export const REPORT_JS = `(function () {
  'use strict';
  var W = 1000;
  function place(time) {
    document.body.classList.toggle('time', time);
    var lanes = document.querySelectorAll('svg.lane');
    for (var i = 0; i < lanes.length; i++) {
      var d = lanes[i].dataset;
      var min = Number(time ? d.tmin : d.omin), max = Number(time ? d.tmax : d.omax);
      var span = max - min > 0 ? max - min : 1;
      var els = lanes[i].querySelectorAll('[data-o0]');
      for (var j = 0; j < els.length; j++) {
        var e = els[j], ed = e.dataset;
        var a = time ? ed.t0 : ed.o0, b = time ? ed.t1 : ed.o1;
        if (a === undefined || b === undefined || (time && d.tmin === undefined)) { e.setAttribute('visibility', 'hidden'); continue; }
        e.removeAttribute('visibility');
        var x0 = Math.max(0, Math.min(W, (Number(a) - min) / span * W));
        var x1 = Math.max(0, Math.min(W, (Number(b) - min) / span * W));
        if (e.tagName === 'line') { e.setAttribute('x1', x0); e.setAttribute('x2', x0); }
        else if (e.tagName === 'text') { e.setAttribute('x', x0); }
        else { e.setAttribute('x', x0); e.setAttribute('width', Math.max(Number(ed.mw || 2), x1 - x0)); }
      }
    }
  }
  var radios = document.querySelectorAll('input[name=axis]');
  for (var r = 0; r < radios.length; r++) radios[r].addEventListener('change', function (ev) { place(ev.target.value === 'time'); });
  var LABELS = [['kind', 'kind'], ['outcome', 'outcome'], ['state', 'state'], ['producerId', 'producer id'], ['producerEpoch', 'producer epoch'],
    ['firstOffset', 'first offset'], ['lastOffset', 'last offset'], ['lastDataOffset', 'last data offset'], ['offset', 'offset'], ['marker', 'marker'], ['markerOffset', 'marker offset'],
    ['coordinatorEpoch', 'coordinator epoch'], ['records', 'records'], ['batches', 'batches'], ['committed', 'committed txns'], ['aborted', 'aborted txns'],
    ['committedRecords', 'committed records'], ['abortedRecords', 'aborted records'], ['plainRecords', 'plain records'], ['commitMarkers', 'COMMIT markers'],
    ['abortMarkers', 'ABORT markers'], ['controlType', 'control type'], ['firstTimestamp', 'first timestamp'], ['lastTimestamp', 'last timestamp'],
    ['minTimestamp', 'min timestamp'], ['maxTimestamp', 'max timestamp'], ['blocking', 'blocks the LSO'], ['seeded', 'from producer snapshot']];
  var panel = document.getElementById('detail'), pinned = null;
  function iso(v) { var n = Number(v); return isFinite(n) && Math.abs(n) < 8.64e15 && n >= 0 ? ' (' + new Date(n).toISOString() + ')' : ''; }
  function show(el) {
    if (!panel) return;
    while (panel.firstChild) panel.removeChild(panel.firstChild);
    var lane = el.closest('svg.lane');
    var h = document.createElement('strong');
    h.textContent = (lane ? lane.dataset.partition + ': ' : '') + (el.dataset.kind || '');
    panel.appendChild(h);
    var dl = document.createElement('dl');
    for (var i = 0; i < LABELS.length; i++) {
      var k = LABELS[i][0], v = el.dataset[k];
      if (v === undefined || k === 'kind') continue;
      var dt = document.createElement('dt'); dt.textContent = LABELS[i][1];
      var dd = document.createElement('dd'); dd.textContent = v + (/imestamp/.test(k) ? iso(v) : '');
      dl.appendChild(dt); dl.appendChild(dd);
    }
    panel.appendChild(dl);
    panel.hidden = false;
  }
  function target(ev) { return ev.target && ev.target.closest ? ev.target.closest('[data-kind]') : null; }
  document.addEventListener('mouseover', function (ev) { var t = target(ev); if (t && !pinned) show(t); });
  document.addEventListener('focusin', function (ev) { var t = target(ev); if (t) show(t); });
  document.addEventListener('click', function (ev) {
    var t = target(ev);
    pinned = t && pinned !== t ? t : null;
    if (t) show(t); else if (panel) panel.hidden = true;
  });
})();
`
