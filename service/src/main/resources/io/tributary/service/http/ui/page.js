// Tributary's live page: polls /ui/data every 2 s and draws the progress records as SVG charts.
// No library, no build step: everything here is served from the jar.
'use strict';

(function () {
  const POLL_MS = 2000;
  const KEEP = 100; // batches per stage, as the server keeps
  const HOUR_MS = 3600 * 1000;
  const COLORS = ['#0969da', '#bf3989', '#1a7f37', '#bc4c00', '#8250df', '#57606a', '#d4a72c', '#0a7b83'];
  const SVG = 'http://www.w3.org/2000/svg';
  const W = 600, H = 190, L = 58, R = 10, T = 10, B = 24;

  const state = { since: 0, lagSince: 0, stages: [], batches: {}, lag: [], hour: null, data: null,
    view: 'pipeline', range: 'batches', selected: null, spec: null };

  // a JavaScript error is shown on the page and kept in <body data-js-errors> (the browser test reads it)
  function recordError(message) {
    const errors = JSON.parse(document.body.dataset.jsErrors || '[]');
    errors.push(String(message));
    document.body.dataset.jsErrors = JSON.stringify(errors);
    const div = el('div', { class: 'alert' }, 'page error: ' + message);
    document.getElementById('alerts').appendChild(div);
  }
  window.addEventListener('error', e => recordError(e.message + (e.filename ? ' (' + e.filename + ':' + e.lineno + ')' : '')));
  window.addEventListener('unhandledrejection', e => recordError('unhandled: ' + (e.reason && e.reason.stack || e.reason)));

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const pad = n => String(n).padStart(2, '0');
  function clock(ms) { const d = new Date(ms); return pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds()); }
  function num(v) {
    if (v === undefined || v === null || isNaN(v)) return '–';
    const a = Math.abs(v);
    const digits = a >= 100 || Number.isInteger(v) ? 0 : a >= 10 ? 1 : 2;
    return v.toLocaleString('en-US', { maximumFractionDigits: digits });
  }
  function short(v) {
    const a = Math.abs(v);
    if (a >= 1e9) return num(v / 1e9) + 'G';
    if (a >= 1e6) return num(v / 1e6) + 'M';
    if (a >= 1e4) return num(v / 1e3) + 'k';
    return num(v);
  }
  function span(ms) {
    if (ms === undefined || ms === null) return '–';
    const s = Math.abs(ms) / 1000, sign = ms < 0 ? '−' : '';
    if (s < 1) return sign + Math.round(Math.abs(ms)) + ' ms';
    if (s < 120) return sign + num(s) + ' s';
    if (s < 7200) return sign + Math.floor(s / 60) + ' min ' + pad(Math.floor(s % 60)) + ' s';
    if (s < 172800) return sign + Math.floor(s / 3600) + ' h ' + pad(Math.floor(s % 3600 / 60)) + ' min';
    return sign + num(s / 86400) + ' d';
  }
  const stageLabel = name => name.includes('/') ? name.slice(name.indexOf('/') + 1) : name;

  // ---- data ----

  let timer = null, busy = false;
  function schedule(ms) { clearTimeout(timer); timer = setTimeout(tick, ms); }

  async function tick() {
    if (busy) return;
    busy = true;
    let data;
    try {
      const q = 'since=' + state.since + '&lagSince=' + state.lagSince + (state.range === 'hour' ? '&hour=1' : '');
      const r = await fetch('/ui/data?' + q, { cache: 'no-store' });
      if (!r.ok) throw new Error('HTTP ' + r.status);
      data = await r.json();
    } catch (e) {
      setStatus('down', 'no answer from the service (' + e.message + '); trying again');
      return;
    } finally {
      busy = false;
      schedule(POLL_MS); // before drawing: a drawing bug is reported, and the page still refreshes
    }
    if (!merge(data)) return;
    render();
  }

  // false when the answer cannot be merged: the service restarted, and the next poll starts over
  function merge(data) {
    if (data.seq < state.since) {
      state.batches = {}; state.lag = []; state.lagSince = 0; state.since = 0;
      schedule(0);
      return false;
    }
    state.data = data;
    state.stages = data.stages;
    if (data.spec) state.spec = data.spec;
    for (const b of data.batches) {
      if (b.seq <= state.since) continue;
      const list = state.batches[b.progress.name] || (state.batches[b.progress.name] = []);
      list.push(b);
      if (list.length > KEEP) list.shift();
    }
    state.since = data.seq;
    for (const s of data.lag) state.lag.push(s);
    if (state.lag.length) state.lagSince = state.lag[state.lag.length - 1].t;
    state.lag = state.lag.filter(s => s.t > data.nowMs - HOUR_MS);
    state.hour = data.hour || null;
    return true;
  }

  // the points of a stage in the current range: one per batch, or one per 10-second bucket of the last hour
  function points(stage) {
    if (state.range === 'hour') return (state.hour && state.hour[stage]) || [];
    return (state.batches[stage] || []).map(b => b.summary);
  }

  function domain() {
    const now = state.data.nowMs;
    if (state.range === 'hour') return [now - HOUR_MS, now];
    let min = now;
    for (const st of state.stages) for (const p of points(st)) min = Math.min(min, p.t);
    return [Math.min(min, now - 10000), now];
  }

  // ---- rendering ----

  function setStatus(kind, text) {
    const s = document.getElementById('status');
    s.className = 'status ' + kind;
    s.textContent = text;
  }

  function render() {
    const d = state.data;
    document.title = d.pipeline + ' · Tributary';
    document.getElementById('pipeline').textContent = d.pipeline;
    document.getElementById('trigger').textContent = 'trigger ' + d.trigger;
    const facts = document.getElementById('facts');
    facts.replaceChildren(
      el('span', {}, 'instance ' + d.instance.host + ' (pid ' + d.instance.pid + ')'),
      el('span', { id: 'uptime' }, 'up ' + span(d.nowMs - d.startedMs)),
      el('span', {}, 'refreshed ' + clock(d.nowMs)));
    if (d.ready) setStatus('ready', 'ready'); else setStatus('waiting', 'not ready: ' + d.notReady);
    const alerts = document.getElementById('alerts');
    alerts.querySelectorAll('.retrying').forEach(a => a.remove());
    for (const [stage, r] of Object.entries(d.retrying)) {
      alerts.appendChild(el('div', { class: 'alert retrying', 'data-stage': stage },
        'stage ' + stage + ' is retrying a failed batch since ' + clock(r.sinceMs) + ' (' + r.attempts + ' failures): ' + r.error));
    }
    renderTabs();
    renderCharts();
    renderBatches();
    renderSpec();
  }

  function renderTabs() {
    const tabs = document.getElementById('tabs');
    const names = ['pipeline'].concat(state.stages);
    if (tabs.childElementCount !== names.length) {
      tabs.replaceChildren(...names.map(n => {
        const b = el('button', { type: 'button', 'data-view': n }, n === 'pipeline' ? 'Whole pipeline' : stageLabel(n));
        b.addEventListener('click', () => { state.view = n; render(); });
        return b;
      }));
    }
    tabs.querySelectorAll('button').forEach(b => b.classList.toggle('on', b.dataset.view === state.view));
    document.querySelectorAll('#range button').forEach(b => b.classList.toggle('on', b.dataset.range === state.range));
  }

  // a series: {name, color, points: [[t, value, label]]}
  function series(key, f, stages) {
    return stages.map(st => ({ name: stageLabel(st), stage: st, color: COLORS[state.stages.indexOf(st) % COLORS.length],
      points: points(st).map(p => [p.t, f(p), p]).filter(x => x[1] !== undefined && x[1] !== null) }))
      .filter(s => s.points.length > 0 || key === 'always');
  }

  function renderCharts() {
    const main = document.getElementById('charts');
    const stages = state.view === 'pipeline' ? state.stages : [state.view];
    const dom = domain();
    const last = s => s.points.length ? s.points[s.points.length - 1][1] : undefined;
    const cards = [];
    // one series: its last value beside the title; several: each in the legend
    const line = (id, title, unit, list, fmt, valueText) => {
      const show = v => (fmt || num)(v) + unit;
      for (const s of list) s.now = show(last(s));
      cards.push(lineCard(id, title, list, dom, fmt || short,
        valueText !== undefined ? valueText : list.length === 1 ? list[0].now : ''));
    };
    line('inputRate', 'Input rate', ' rows/s', series('always', p => p.inputRowsPerSecond, stages));
    line('processRate', 'Process rate', ' rows/s', series('always', p => p.processedRowsPerSecond, stages));
    line('inputRows', 'Input rows', '', series('always', p => p.inputRows, stages));
    for (const st of stages) cards.push(durationCard(st));
    const lag = stages.filter(st => state.lag.some(s => s.byStage[st] !== undefined)).map(st => ({ name: stageLabel(st), stage: st,
      color: COLORS[state.stages.indexOf(st) % COLORS.length],
      points: state.lag.filter(s => s.byStage[st] !== undefined && s.t >= dom[0]).map(s => [s.t, s.byStage[st], null]) }));
    if (lag.length) line('lag', 'Kafka lag', ' records', lag);
    const gap = series('gap', p => p.watermarkGapMs, stages);
    if (gap.length) {
      const wm = gap.map(s => s.points[s.points.length - 1][2].watermarkMs)[0];
      line('watermarkGap', 'Event-time gap: batch start − watermark', '', gap, span);
      cards[cards.length - 1].appendChild(el('div', { class: 'note' }, 'watermark ' + new Date(wm).toISOString()));
    }
    const stateRows = series('state', p => p.stateRows, stages);
    if (stateRows.length) {
      line('stateRows', 'State rows (open windows × groups)', '', stateRows);
      line('dropped', 'Rows dropped by watermark', '', series('always', p => p.droppedByWatermark, stateRows.map(s => s.stage)));
    }
    const ingest = stages.filter(st => points(st).some(p => p.deadLetterRows > 0 || p.badRowsDropped > 0 || p.badRows > 0));
    if (ingest.length) {
      const list = [];
      for (const s of series('bad', p => p.deadLetterRows, ingest)) list.push(Object.assign(s, { name: s.name + ' dead-lettered' }));
      for (const s of series('bad', p => p.badRowsDropped, ingest)) list.push(Object.assign(s, { name: s.name + ' dropped', color: '#cf222e' }));
      line('deadLetters', 'Bad rows: dead-lettered / dropped', '', list);
    }
    const version = series('version', p => p.deltaVersion, stages);
    if (version.length) {
      line('deltaVersion', 'Delta table version', '', version);
      const files = version.map(s => {
        let total = 0;
        return Object.assign({}, s, { points: points(s.stage).filter(p => p.deltaVersion !== undefined)
          .map(p => { total += p.filesWritten; return [p.t, total, p]; }) });
      });
      line('files', 'Files written (in this range)', ' files', files);
    }
    main.replaceChildren(...cards);
  }

  function card(id, title, valueText) {
    const c = el('div', { class: 'card', 'data-chart': id });
    const h = el('h3', {}, title);
    h.appendChild(el('span', { class: 'value' }, valueText));
    c.appendChild(h);
    return c;
  }

  function axes(g, yMax, fmt, dom, xLabels) {
    for (let i = 0; i <= 4; i++) {
      const y = T + (H - T - B) * (1 - i / 4);
      g.appendChild(svg('line', { class: 'grid-line', x1: L, x2: W - R, y1: y, y2: y }));
      g.appendChild(svg('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmt(yMax * i / 4)));
    }
    g.appendChild(svg('line', { class: 'axis', x1: L, x2: W - R, y1: H - B, y2: H - B }));
    for (const [x, label, anchor] of xLabels) g.appendChild(svg('text', { x: x, y: H - 6, 'text-anchor': anchor }, label));
  }

  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
    return 10 * p;
  }

  function lineCard(id, title, list, dom, fmt, valueText) {
    const c = card(id, title, valueText);
    const all = list.flatMap(s => s.points);
    if (!all.length) {
      c.appendChild(el('div', { class: 'empty' }, 'no batch yet'));
      return c;
    }
    const yMax = niceMax(Math.max(...all.map(p => p[1])));
    const x = t => L + (W - L - R) * (t - dom[0]) / Math.max(1, dom[1] - dom[0]);
    const y = v => T + (H - T - B) * (1 - v / yMax);
    const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': title });
    axes(root, yMax, fmt, dom, [[L, clock(dom[0]), 'start'], [(L + W - R) / 2, clock((dom[0] + dom[1]) / 2), 'middle'], [W - R, clock(dom[1]), 'end']]);
    for (const s of list) {
      const g = svg('g', { 'data-series': s.stage || s.name, 'data-points': s.points.length });
      const pts = s.points.map(p => x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1)).join(' ');
      g.appendChild(svg('polyline', { points: pts, fill: 'none', stroke: s.color, 'stroke-width': 1.6 }));
      if (s.points.length <= 150) {
        for (const p of s.points) {
          const attrs = { cx: x(p[0]).toFixed(1), cy: y(p[1]).toFixed(1), r: 2.4, fill: s.color, 'data-value': p[1] };
          if (p[2] && state.range === 'batches') attrs['data-batch-id'] = p[2].batchId;
          const dot = svg('circle', attrs);
          dot.appendChild(svg('title', {}, s.name + (p[2] && state.range === 'batches' ? ' batch ' + p[2].batchId : '') + ' at '
            + clock(p[0]) + ': ' + fmt(p[1])));
          g.appendChild(dot);
        }
      }
      root.appendChild(g);
    }
    c.appendChild(root);
    if (list.length > 1) c.appendChild(legend(list.map(s => [s.name + (s.now ? ' ' + s.now : ''), s.color])));
    return c;
  }

  function legend(items) {
    const div = el('div', { class: 'legend' });
    for (const [name, color] of items) {
      const s = el('span', {});
      const i = el('i', {});
      i.style.background = color;
      s.append(i, name);
      div.appendChild(s);
    }
    return div;
  }

  // batch duration, stacked by the phases of durationMs; what the phases leave of triggerExecution is "other"
  function durationCard(stage) {
    const pts = points(stage);
    const phases = [];
    for (const p of pts) for (const k of Object.keys(p.phasesMs)) if (!phases.includes(k)) phases.push(k);
    const per = p => state.range === 'hour' ? Math.max(1, p.batches) : 1; // the hour view: the mean batch of each bucket
    const lastP = pts[pts.length - 1];
    const c = card('duration', 'Batch duration by phase: ' + stageLabel(stage), lastP ? span(lastP.triggerMs / per(lastP)) : '–');
    c.dataset.stage = stage;
    if (!pts.length) {
      c.appendChild(el('div', { class: 'empty' }, 'no batch yet'));
      return c;
    }
    const all = phases.concat(['other']);
    const stacks = pts.map(p => {
      const n = per(p);
      const parts = phases.map(k => (p.phasesMs[k] || 0) / n);
      const sum = parts.reduce((a, b) => a + b, 0);
      parts.push(Math.max(0, p.triggerMs / n - sum));
      return { p: p, parts: parts, total: Math.max(p.triggerMs / n, sum) };
    });
    const yMax = niceMax(Math.max(...stacks.map(s => s.total)));
    const slot = (W - L - R) / Math.max(stacks.length, 10);
    const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'batch duration of ' + stage });
    const first = pts[0], lastLabel = state.range === 'hour' ? clock(lastP.t) : 'batch ' + lastP.batchId;
    const labels = [[L, state.range === 'hour' ? clock(first.t) : 'batch ' + first.batchId, 'start']];
    if (slot * stacks.length > 140) labels.push([L + slot * stacks.length, lastLabel, 'end']); // room for both
    axes(root, yMax, span, null, labels);
    const g = svg('g', { 'data-series': stage, 'data-points': stacks.length });
    stacks.forEach((s, i) => {
      let top = H - B;
      const bar = svg('g', state.range === 'batches' ? { 'data-batch-id': s.p.batchId, 'data-value': s.p.triggerMs } : {});
      s.parts.forEach((v, k) => {
        const h = (H - T - B) * v / yMax;
        if (h <= 0) return;
        top -= h;
        bar.appendChild(svg('rect', { x: (L + i * slot + slot * 0.1).toFixed(1), y: top.toFixed(1), width: (slot * 0.8).toFixed(1),
          height: h.toFixed(1), fill: COLORS[k % COLORS.length] }));
      });
      const what = state.range === 'hour' ? clock(s.p.t) + ' (' + s.p.batches + ' batches, mean)' : 'batch ' + s.p.batchId;
      bar.appendChild(svg('title', {}, what + ': ' + span(s.total) + '\n'
        + all.map((k, j) => k + ' ' + span(s.parts[j])).join('\n')));
      g.appendChild(bar);
    });
    root.appendChild(g);
    c.appendChild(root);
    c.appendChild(legend(all.map((k, i) => [k, COLORS[i % COLORS.length]])));
    return c;
  }

  function offsets(progress) {
    return (progress.sources || []).map(s => JSON.stringify(s.endOffset === undefined ? null : s.endOffset)).join(' ');
  }

  function renderBatches() {
    const body = document.querySelector('#batches tbody');
    const stages = state.view === 'pipeline' ? state.stages : [state.view];
    const rows = stages.flatMap(st => state.batches[st] || []).sort((a, b) => b.seq - a.seq).slice(0, KEEP);
    body.replaceChildren(...rows.map(b => {
      const p = b.progress, s = b.summary;
      const tr = el('tr', { 'data-stage': p.name, 'data-batch-id': p.batchId, 'data-seq': b.seq });
      if (state.selected === b.seq) tr.classList.add('on');
      tr.append(el('td', {}, stageLabel(p.name)), el('td', { class: 'c-batch' }, String(p.batchId)),
        el('td', {}, p.timestamp.replace('T', ' ').replace('Z', ' UTC')),
        el('td', { class: 'n c-rows' }, num(p.numInputRows)), el('td', { class: 'n c-out' }, p.sink ? num(p.sink.numOutputRows) : '–'),
        el('td', { class: 'n' }, span(s.triggerMs)), el('td', { class: 'n c-version' }, s.deltaVersion === undefined ? '–' : String(s.deltaVersion)),
        el('td', { class: 'offsets' }, offsets(p)));
      tr.addEventListener('click', () => show(b));
      return tr;
    }));
  }

  function show(b) {
    state.selected = b.seq;
    document.getElementById('detail').hidden = false;
    document.getElementById('detail-title').textContent = b.progress.name + ' batch ' + b.progress.batchId;
    document.getElementById('detail-json').textContent = JSON.stringify(b.progress, null, 2);
    document.querySelectorAll('#batches tbody tr').forEach(tr => tr.classList.toggle('on', Number(tr.dataset.seq) === b.seq));
    document.getElementById('detail').scrollIntoView({ block: 'nearest' });
  }

  function renderSpec() {
    const body = document.querySelector('#spec tbody');
    if (!state.spec || body.childElementCount) return;
    body.replaceChildren(...Object.entries(state.spec).map(([k, v]) => {
      const tr = el('tr', { 'data-key': k });
      tr.append(el('td', {}, k), el('td', {}, v));
      return tr;
    }));
  }

  document.querySelectorAll('#range button').forEach(b => b.addEventListener('click', () => {
    state.range = b.dataset.range;
    if (state.data) render();
    schedule(0); // the hour's buckets come with the next answer
  }));
  document.getElementById('detail-close').addEventListener('click', () => {
    state.selected = null;
    document.getElementById('detail').hidden = true;
    document.querySelectorAll('#batches tbody tr.on').forEach(tr => tr.classList.remove('on'));
  });
  tick();
})();
