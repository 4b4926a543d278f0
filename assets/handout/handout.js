// The hand-out page's script (see handout.html), inlined into the page by html_template.cpp.
// It only paints what the core computed (the DATA object); it keeps a record of the cells it
// highlighted in #painted, and sets #painted's data-ready once it has painted, so a headless
// browser can check both against the trace. Errors are counted in #errors.
"use strict";
const errorsBox = document.getElementById('errors');
window.onerror = function (msg, src, line) {
  errorsBox.textContent += msg + ' (line ' + line + ')\n';
  errorsBox.dataset.count = String(Number(errorsBox.dataset.count || 0) + 1);
};
const DATA = JSON.parse(document.getElementById('tilescope-data').textContent);
if (!DATA) throw new Error('no trace in this page: it is the template; tilescope export --html makes the hand-out');
// state.part: which part (one barrier interval) of the group is on show; its phase, as the
// slides count phases (one trip round the tile loop), and its name come with the data.
const state = { group: 0, part: 0, heat: false, hover: null, timer: null };
const canvas = document.getElementById('grid');
const ctx = canvas.getContext('2d');
const layout = {};

function fmt(v) { return Math.round(v).toLocaleString('en-US'); }

function computeLayout() {
  const K = DATA.size[2], M = DATA.size[0], N = DATA.size[1];
  const margin = 22, gap = 14;
  const cell = Math.max(1, Math.floor(Math.min((canvas.width - margin - gap) / (K + N),
                                                (canvas.height - margin - gap) / (K + M))));
  layout.cell = cell;
  layout.A = { x: margin, y: margin + K * cell + gap, rows: M, cols: K, m: DATA.A };
  layout.B = { x: margin + K * cell + gap, y: margin, rows: K, cols: N, m: DATA.B };
  layout.C = { x: margin + K * cell + gap, y: margin + K * cell + gap, rows: M, cols: N, m: DATA.C };
}

function fillCells(box, rects, colour, record) {
  if (!rects) return;
  ctx.fillStyle = colour;
  const s = layout.cell;
  for (const r of rects) {
    ctx.fillRect(box.x + r[1] * s, box.y + r[0] * s, (r[3] - r[1] + 1) * s, (r[2] - r[0] + 1) * s);
    if (record) for (let i = r[0]; i <= r[2]; ++i) for (let j = r[1]; j <= r[3]; ++j) record.push(i + ',' + j);
  }
}

function paintMatrix(box, label) {
  const s = layout.cell;
  ctx.fillStyle = '#fff';
  ctx.fillRect(box.x, box.y, box.cols * s, box.rows * s);
  if (state.heat && box.m && box.m.loads.length) {
    let max = 1;
    for (const v of box.m.loads) max = Math.max(max, v);
    for (let i = 0; i < box.rows; ++i)
      for (let j = 0; j < box.cols; ++j) {
        const v = box.m.loads[i * box.cols + j] / max;
        ctx.fillStyle = 'rgba(230,120,20,' + (0.1 + 0.8 * v).toFixed(3) + ')';
        ctx.fillRect(box.x + j * s, box.y + i * s, s, s);
      }
  }
  ctx.fillStyle = '#222';
  ctx.font = '13px sans-serif';
  ctx.fillText(label, box.x, box.y - 6);
}

function paintGridLines(box) {
  const s = layout.cell;
  if (s < 5) return;
  ctx.strokeStyle = 'rgba(0,0,0,0.12)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = 0; i <= box.rows; ++i) { ctx.moveTo(box.x, box.y + i * s + 0.5); ctx.lineTo(box.x + box.cols * s, box.y + i * s + 0.5); }
  for (let j = 0; j <= box.cols; ++j) { ctx.moveTo(box.x + j * s + 0.5, box.y); ctx.lineTo(box.x + j * s + 0.5, box.y + box.rows * s); }
  ctx.stroke();
  ctx.strokeStyle = '#888';
  ctx.strokeRect(box.x + 0.5, box.y + 0.5, box.cols * s, box.rows * s);
}

function outline(box, r, colour) {
  const s = layout.cell;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.strokeRect(box.x + r[1] * s + 1, box.y + r[0] * s + 1, (r[3] - r[1] + 1) * s - 2, (r[2] - r[0] + 1) * s - 2);
}

function paint() {
  const g = DATA.groups[state.group];
  const ph = g ? g.parts[state.part] : null;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  paintMatrix(layout.A, 'M (A), ' + DATA.size[0] + ' x ' + DATA.size[2]);
  paintMatrix(layout.B, 'N (B), ' + DATA.size[2] + ' x ' + DATA.size[1]);
  paintMatrix(layout.C, 'P (C), ' + DATA.size[0] + ' x ' + DATA.size[1]);
  const painted = { a: [], b: [], c: [] };
  if (g) {
    if (!state.heat) {
      fillCells(layout.A, g.a_strip, '#dbe6f5');
      fillCells(layout.B, g.b_strip, '#dbe6f5');
      fillCells(layout.C, g.c_block, '#dbe6f5');
    }
    fillCells(layout.A, ph.a, '#3b7dd8', painted.a);
    fillCells(layout.B, ph.b, '#3b7dd8', painted.b);
    fillCells(layout.C, ph.c, '#2e9e5b', painted.c);
  }
  ctx.fillStyle = '#d22';
  const s = layout.cell;
  for (const w of DATA.wrong_cells) {
    const x = layout.C.x + w[1] * s, y = layout.C.y + w[0] * s;
    ctx.fillRect(x + s * 0.2, y + s * 0.2, Math.max(1, s * 0.6), Math.max(1, s * 0.6));
  }
  for (const box of [layout.A, layout.B, layout.C]) paintGridLines(box);
  if (g) for (const r of g.c_block) outline(layout.C, r, '#1d4f91');
  if (state.hover) outline(state.hover.box, [state.hover.r, state.hover.c, state.hover.r, state.hover.c], '#000');
  const rec = document.getElementById('painted');
  rec.dataset.group = g ? g.id.slice(0, 2).join(',') : '';
  rec.dataset.phase = ph ? String(ph.phase) : '';
  rec.dataset.part = ph ? ph.part : '';
  rec.dataset.interval = String(state.part);
  rec.dataset.a = painted.a.join(';');
  rec.dataset.b = painted.b.join(';');
  rec.dataset.c = painted.c.join(';');
  paintTimeline(g);
  paintPhaseInfo(g, ph);
  paintLocals(ph);
  paintSource(ph);
}

function paintTimeline(g) {
  const tl = document.getElementById('timeline');
  tl.textContent = '';
  if (!g) { tl.textContent = 'This trace kept no phase detail.'; return; }
  g.parts.forEach(function (ph, i) {
    const box = document.createElement('div');
    box.className = 'phase' + (i === state.part ? ' current' : '');
    const first = i === 0 || g.parts[i - 1].phase !== ph.phase;
    box.textContent = g.phase_count > 0 ? (first ? 'phase ' + ph.phase + ': ' : '') + ph.part : 'part ' + i;
    box.title = ph.end_line ? 'ends at the barrier on line ' + ph.end_line : 'ends when the work-group ends';
    box.onclick = function () { setPart(i); };
    tl.appendChild(box);
    const bar = document.createElement('div');
    bar.className = 'barrier' + (ph.end_line ? '' : ' end');
    bar.title = ph.end_line ? 'barrier, line ' + ph.end_line : 'end';
    tl.appendChild(bar);
  });
}

function paintPhaseInfo(g, ph) {
  const box = document.getElementById('phaseinfo');
  if (!g) { box.textContent = ''; return; }
  box.innerHTML = '';
  const p = document.createElement('p');
  p.textContent = 'Work-group (' + g.id[0] + ',' + g.id[1] + '), ' +
    (g.phase_count > 0 ? 'phase ' + ph.phase + ' of ' + g.phase_count + ', ' + ph.part : 'no phases (no barrier)') +
    ' (' + (ph.end_line ? 'ends at the barrier on line ' + ph.end_line : 'runs to the end of the kernel') + '): ' +
    fmt(ph.global_load_bytes / 4) + ' floats loaded from global memory, ' +
    fmt(ph.local_store_bytes / 4) + ' stored to and ' + fmt(ph.local_load_bytes / 4) + ' loaded from local memory.';
  box.appendChild(p);
}

function paintLocals(ph) {
  const box = document.getElementById('locals');
  box.textContent = '';
  if (!ph) return;
  for (const la of ph.locals) {
    const wrap = document.createElement('div');
    wrap.style.display = 'inline-block';
    wrap.style.margin = '6px 12px 0 0';
    const cap = document.createElement('div');
    cap.textContent = '__local ' + la.name + ' (' + la.rows + ' x ' + la.cols + ')';
    const c = document.createElement('canvas');
    const s = Math.max(2, Math.min(12, Math.floor(200 / Math.max(la.rows, la.cols))));
    c.width = la.cols * s; c.height = la.rows * s;
    const x = c.getContext('2d');
    for (let i = 0; i < la.rows * la.cols; ++i) {
      const st = la.stored[i];
      x.fillStyle = st === '1' ? '#3b7dd8' : st === '2' ? '#a9c4ea' : '#fff';
      x.fillRect((i % la.cols) * s, Math.floor(i / la.cols) * s, s, s);
      if (la.read[i] === '1') { x.fillStyle = '#222'; x.fillRect((i % la.cols) * s + s / 2 - 1, Math.floor(i / la.cols) * s + s / 2 - 1, 2, 2); }
    }
    wrap.appendChild(cap); wrap.appendChild(c); box.appendChild(wrap);
  }
}

function paintSource(ph) {
  const pre = document.getElementById('source');
  pre.textContent = '';
  const lines = DATA.source.split('\n');
  lines.forEach(function (text, i) {
    const n = i + 1;
    const span = document.createElement('span');
    span.textContent = String(n).padStart(4) + '  ' + text + '\n';
    if (DATA.dropped_barriers.indexOf(n) >= 0) span.className = 'dropped';
    else if (ph && ph.end_line === n) span.className = 'current';
    else if (DATA.barrier_lines.indexOf(n) >= 0) span.className = 'barrier';
    pre.appendChild(span);
  });
}

function fillStatic() {
  document.getElementById('title').textContent = DATA.title + ' (' + DATA.kernel + ')';
  document.getElementById('subtitle').textContent = 'C = A*B with M=' + DATA.size[0] + ', N=' + DATA.size[1] +
    ', K=' + DATA.size[2] + ', TS=' + DATA.tile + '; the slides call A, B, C M, N and P. ' + (DATA.lesson || '');
  const sel = document.getElementById('group');
  DATA.groups.forEach(function (g, i) {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = '(' + g.id[0] + ',' + g.id[1] + ')';
    sel.appendChild(o);
  });
  sel.onchange = function () { state.group = Number(sel.value); setPart(0); };
  const t = document.getElementById('counters');
  const c = DATA.counters;
  const rows = [['floats loaded from global', fmt(c.global_load_bytes / 4)], ['floats stored to global', fmt(c.global_store_bytes / 4)],
    ['floats loaded from local', fmt(c.local_load_bytes / 4)], ['floats stored to local', fmt(c.local_store_bytes / 4)],
    ['barrier releases', fmt(c.barriers)], ['flops', fmt(c.flops)], ['flops per float from global', c.ratio.toFixed(2)],
    ['sectors per global request (ideal ' + c.ideal_sectors.toFixed(2) + ')', c.sectors_per_request.toFixed(2)]];
  if (c.bank_requests > 0) rows.push(['bank-conflict degree, mean / max', c.bank_mean_degree.toFixed(2) + ' / ' + c.bank_max_degree]);
  for (const e of c.expected) rows.push([e.quantity + ' (closed form: ' + e.formula + ')', fmt(e.expected) + ' expected, ' + fmt(e.traced) + ' traced']);
  for (const r of DATA.reuse) if (r.formula) rows.push([r.formula, 'traced ' + r.min + ' to ' + r.max]);
  if (DATA.verification) rows.push(['result', DATA.verification]);
  rows.push(['wrong cells of P', fmt(DATA.wrong_cells.length)]);
  for (const r of rows) {
    const tr = document.createElement('tr');
    const a = document.createElement('td'); a.textContent = r[0];
    const b = document.createElement('td'); b.textContent = r[1]; b.className = 'num';
    tr.appendChild(a); tr.appendChild(b); t.appendChild(tr);
  }
  const d = document.getElementById('diagnostics');
  if (!DATA.diagnostics.length) d.textContent = 'none';
  for (const g of DATA.diagnostics) {
    const p = document.createElement('p');
    p.className = 'diag';
    p.textContent = g.kind + (g.line ? ' at line ' + g.line : '') + ': ' + g.message;
    d.appendChild(p);
  }
  document.getElementById('sourcename').textContent = 'Source: ' + DATA.source_name +
    (DATA.dropped_barriers.length ? ' (barrier removed on line ' + DATA.dropped_barriers.join(', ') + ')' : '');
}

// The part at index p of the group (clamped).
function setPart(p) {
  const g = DATA.groups[state.group];
  const n = g ? g.parts.length : 1;
  state.part = Math.max(0, Math.min(n - 1, p));
  document.getElementById('group').value = String(state.group);
  paint();
}
function step(d) {
  const g = DATA.groups[state.group];
  const n = g ? g.parts.length : 1;
  setPart((state.part + d + n) % n);
}
function togglePlay() {
  const b = document.getElementById('play');
  if (state.timer) { clearInterval(state.timer); state.timer = null; b.textContent = 'play'; return; }
  state.timer = setInterval(function () { step(1); }, 900);
  b.textContent = 'pause';
}

function hit(ev) {
  const rect = canvas.getBoundingClientRect();
  const x = (ev.clientX - rect.left) * canvas.width / rect.width, y = (ev.clientY - rect.top) * canvas.height / rect.height;
  for (const box of [layout.A, layout.B, layout.C]) {
    const c = Math.floor((x - box.x) / layout.cell), r = Math.floor((y - box.y) / layout.cell);
    if (r >= 0 && c >= 0 && r < box.rows && c < box.cols) return { box: box, r: r, c: c };
  }
  return null;
}

function describe(h) {
  const m = h.box.m;
  let text = (m ? m.role + ' (' + m.name + ')' : '') + '(' + h.r + ',' + h.c + ')';
  if (m && m.loads.length && h.box !== layout.C) text += ': loaded from global memory ' + m.loads[h.r * h.box.cols + h.c] + ' times';
  if (h.box === layout.C) {
    const o = DATA.owners ? DATA.owners[h.r * h.box.cols + h.c] : null;
    if (o) text += ': computed by work-item (' + o[2] + ',' + o[3] + ') of work-group (' + o[0] + ',' + o[1] + ')' +
      (o[4] ? '' : ' (by the NDRange; not in the traced detail)');
    for (const w of DATA.wrong_cells) if (w[0] === h.r && w[1] === h.c) { text += '. WRONG: differs from the CPU reference'; break; }
  }
  return text;
}

canvas.addEventListener('mousemove', function (ev) {
  const h = hit(ev);
  const tip = document.getElementById('tip');
  state.hover = h;
  if (!h) { tip.style.display = 'none'; paint(); return; }
  tip.textContent = describe(h);
  tip.style.left = (ev.clientX + 14) + 'px';
  tip.style.top = (ev.clientY + 14) + 'px';
  tip.style.display = 'block';
  paint();
});
canvas.addEventListener('mouseleave', function () { state.hover = null; document.getElementById('tip').style.display = 'none'; paint(); });
canvas.addEventListener('click', function (ev) {
  const h = hit(ev);
  if (!h || h.box !== layout.C || !DATA.owners) return;
  const o = DATA.owners[h.r * h.box.cols + h.c];
  if (!o) return;
  const i = DATA.groups.findIndex(function (g) { return g.id[0] === o[0] && g.id[1] === o[1]; });
  if (i >= 0) { state.group = i; setPart(0); }
});
document.addEventListener('keydown', function (ev) {
  if (ev.key === 'ArrowRight' || ev.key === 'PageDown') { step(1); ev.preventDefault(); }
  else if (ev.key === 'ArrowLeft' || ev.key === 'PageUp') { step(-1); ev.preventDefault(); }
  else if (ev.key === ' ') { togglePlay(); ev.preventDefault(); }
});
document.getElementById('prev').onclick = function () { step(-1); };
document.getElementById('next').onclick = function () { step(1); };
document.getElementById('play').onclick = togglePlay;
document.getElementById('heat').onchange = function (ev) { state.heat = ev.target.checked; paint(); };

// The address may name a start: #group=1,2&phase=1&part=use&step=2&heat=1 (phase as the slides
// count them, part its load/use/store, default its first; interval=I names a raw barrier
// interval instead; step presses "next").
function startFromHash() {
  const args = {};
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq > 0) args[part.slice(0, eq)] = decodeURIComponent(part.slice(eq + 1));
  }
  if (args.group) {
    const id = args.group.split(',').map(Number);
    const i = DATA.groups.findIndex(function (g) { return g.id[0] === id[0] && g.id[1] === (id[1] || 0); });
    if (i >= 0) state.group = i;
  }
  state.heat = args.heat === '1';
  document.getElementById('heat').checked = state.heat;
  let start = Number(args.interval || 0);
  const g = DATA.groups[state.group];
  if (g && args.phase !== undefined) {
    const i = g.parts.findIndex(function (p) { return p.phase === Number(args.phase) && (!args.part || p.part === args.part); });
    if (i >= 0) start = i;
  }
  setPart(start);
  for (let i = 0; i < Number(args.step || 0); ++i) step(1);
}

fillStatic();
computeLayout();
startFromHash();
document.getElementById('painted').dataset.ready = '1';
