// The hand-out page's script (see handout.html), inlined into the page by html_template.cpp.
// It only paints what the core computed (the DATA object): the part rectangles of each
// group, and for the first detail groups the slides' frames (core/trace/frame.h: one per
// part, and inside a use part one per iteration; cells with roles and labels; sums term by
// term; work-items' stories). It keeps a record of what it painted in #painted's data-*
// attributes, and sets data-ready once it has painted, so a headless browser can check
// them against the trace. Errors are counted in #errors.
//
// A lesson page (tilescope export --html OUT --lesson FILE.json) holds several traces and
// the lesson's steps; each step opens its trace where its state says (see openLessonStep).
"use strict";
const errorsBox = document.getElementById('errors');
window.onerror = function (msg, src, line) {
  errorsBox.textContent += msg + ' (line ' + line + ')\n';
  errorsBox.dataset.count = String(Number(errorsBox.dataset.count || 0) + 1);
};
const PAGE = JSON.parse(document.getElementById('tilescope-data').textContent);
if (!PAGE) throw new Error('no trace in this page: it is the template; tilescope export --html makes the hand-out');
const LESSON = PAGE.lesson_steps ? PAGE : null;
// The trace on show (a lesson page switches it per step).
let DATA = LESSON ? null : PAGE;

// state.step: which of the group's steps is on show (a part, or one iteration of a use
// part); state.item: the work-item whose story is shown (local id), or null.
const state = { group: 0, step: 0, heat: false, hover: null, timer: null, item: null, abc: false, hide: [] };
// A lesson step's question waiting for Reveal hides every figure that answers it (the
// export writes their keys from core/teach/lesson.h's figure_answers, as the GUI asks it).
function hidden(key) { return state.hide.indexOf(key) >= 0; }
const HIDDEN_TEXT = 'hidden until Reveal';
const canvas = document.getElementById('grid');
const ctx = canvas.getContext('2d');
const layout = {};
const rec = document.getElementById('painted');

// Colours by role: the one palette (core/teach/palette.h, docs/gui.md "Colours and what they
// mean"), which html_template.cpp writes into the page as the tilescope-palette element.
const PALETTE = JSON.parse(document.getElementById('tilescope-palette').textContent);
const COLOURS = {
  A: { strip: PALETTE.a_strip, loaded: PALETTE.a_loaded, text: '#fff' },
  B: { strip: PALETTE.b_strip, loaded: PALETTE.b_loaded, text: '#222' },
  C: { strip: PALETTE.c_block, stored: PALETTE.c_stored, text: '#222' },
  local: { stored: PALETTE.local_filled, read: PALETTE.local_read, holds: PALETTE.local_held, empty: '#fff' },
  outline: PALETTE.outline, hover: PALETTE.hover, wrong: PALETTE.wrong, heat: PALETTE.heat,
};
// The heat scale, as the GUI's: t in [0,1] between the palette's stops.
function heatColour(t) {
  const s = COLOURS.heat, x = Math.min(1, Math.max(0, t)) * (s.length - 1), i = Math.min(s.length - 2, Math.floor(x)), f = x - i;
  const a = s[i], b = s[i + 1];
  return 'rgb(' + [0, 1, 2].map(function (k) { return Math.floor(a[k] + (b[k] - a[k]) * f); }).join(',') + ')';
}
const MIN_LABEL_CELL = 22;  // px: a cell narrower than this shows no name

function fmt(v) { return Math.round(v).toLocaleString('en-US'); }
function roleName(i) { return DATA.roles[i]; }
function idText(a) { return '(' + a.join(',') + ')'; }

// --- names ---

const ABC = { M: 'A', N: 'B', P: 'C' };
function named(label) {
  if (!state.abc || !label || !ABC[label[0]] || !/^[MNP][0-9]/.test(label)) return label;
  return ABC[label[0]] + label.slice(1);
}
// A local array's name as an attribute-name suffix: setAttribute throws on a space or a
// quote (a name from a saved trace is anyone's text), which would stop the whole page.
// Identifiers (all real names) come through lowercased, anything else as _HEX.
function attrKey(name) {
  return String(name).toLowerCase().replace(/[^a-z0-9_-]/g, (ch) => '_' + ch.charCodeAt(0).toString(16));
}
function elementName(key, r, c) { return named({ A: 'M', B: 'N', C: 'P' }[key] + r + ',' + c); }

// --- steps: each group's parts, and inside a use part its iterations ---

function group() { return DATA.groups[state.group] || null; }
function stepsOf(g) {
  if (!g) return [{ interval: 0, frame: null }];
  if (g.frames) return g.frames.map(function (f) { return { interval: f.interval, frame: f }; });
  return g.parts.map(function (p, i) { return { interval: i, frame: null }; });
}
function currentStep() { return stepsOf(group())[state.step]; }

// The window's width; #viewport=W (tests: headless chromium's windows are at least 500 px
// wide) lays the page out as in a window W px wide.
function viewportWidth() {
  return state.viewport ? Math.min(state.viewport, document.documentElement.clientWidth) : document.documentElement.clientWidth;
}
// The right edge of the rightmost thing shown: more than the window's width means the page
// scrolls sideways.
function contentRight() {
  let right = 0;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.id === 'tip' || el.closest('[hidden]') || el.closest('#painted') || el.closest('#errors')) continue;
    if (el.parentElement && el.parentElement.closest('pre, .localzoom')) continue;  // scrolls inside its box
    const r = el.getBoundingClientRect();
    if (r.width > 0) right = Math.max(right, r.right + window.scrollX);
  }
  return Math.round(right);
}

// Room for tiles hanging past the edges (the slides' 3x3 example, as the GUI lays it out): a
// square work-group's tiles may reach up to a tile less one past each edge, when some frame's
// local arrays hold tiles of A or B. Taken from the launch, so the layout stays put as the
// frames go by. [past K, past M, past N] in cells.
function pastEdgeRoom() {
  const t = DATA.local ? DATA.local[0] : 0;
  if (!(t > 1 && t <= 64 && DATA.local[1] === t)) return [0, 0, 0];
  const tiles = DATA.groups.some(function (g) {
    return (g.frames || []).some(function (f) { return f.tiles && f.tiles.length > 0; });
  });
  if (!tiles) return [0, 0, 0];
  const past = function (n) { return (t - n % t) % t; };
  return [past(DATA.size[2]), past(DATA.size[0]), past(DATA.size[1])];
}

function computeLayout() {
  const room = pastEdgeRoom();
  const K = DATA.size[2] + room[0], M = DATA.size[0] + room[1], N = DATA.size[1] + room[2];
  // As wide as the window allows (a phone: the whole width), at most 760 px.
  const avail = Math.max(240, Math.min(760, viewportWidth() - 26));
  const margin = 22, gap = 14;
  const cell = Math.max(1, Math.floor(Math.min((avail - margin - gap) / (K + N), (avail - margin - gap) / (K + M))));
  const w = margin + gap + (K + N) * cell + 2, h = margin + gap + (K + M) * cell + 2;
  layout.room = room;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  canvas.style.width = w + 'px'; canvas.style.height = h + 'px';
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  layout.w = w; layout.h = h; layout.avail = avail;
  layout.cell = cell;
  const m = DATA.size[0], n = DATA.size[1], k = DATA.size[2];
  layout.A = { key: 'A', x: margin, y: margin + K * cell + gap, rows: m, cols: k, m: DATA.A };
  layout.B = { key: 'B', x: margin + K * cell + gap, y: margin, rows: k, cols: n, m: DATA.B };
  layout.C = { key: 'C', x: margin + K * cell + gap, y: margin + K * cell + gap, rows: m, cols: n, m: DATA.C };
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
        const n = box.m.loads[i * box.cols + j];
        if (!n) continue;  // never loaded: white, as in the GUI
        ctx.fillStyle = heatColour(n / max);
        ctx.fillRect(box.x + j * s, box.y + i * s, s, s);
      }
  }
  ctx.fillStyle = '#222';
  ctx.font = '13px sans-serif';
  ctx.fillText(label, box.x, box.y - 6);
}

function gridLines(c, x0, y0, rows, cols, s) {
  if (s < 5) return;
  c.strokeStyle = 'rgba(0,0,0,0.15)';
  c.lineWidth = 1;
  c.beginPath();
  for (let i = 0; i <= rows; ++i) { c.moveTo(x0, y0 + i * s + 0.5); c.lineTo(x0 + cols * s, y0 + i * s + 0.5); }
  for (let j = 0; j <= cols; ++j) { c.moveTo(x0 + j * s + 0.5, y0); c.lineTo(x0 + j * s + 0.5, y0 + rows * s); }
  c.stroke();
  c.strokeStyle = '#888';
  c.strokeRect(x0 + 0.5, y0 + 0.5, cols * s, rows * s);
}

function outline(box, r, colour, dashed) {
  const s = layout.cell;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  if (dashed) ctx.setLineDash([Math.max(3, s / 4), Math.max(2, s / 6)]);
  ctx.strokeRect(box.x + r[1] * s + 1, box.y + r[0] * s + 1, (r[3] - r[1] + 1) * s - 2, (r[2] - r[0] + 1) * s - 2);
  if (dashed) ctx.setLineDash([]);
}

// The whole tile a clipped rectangle [r0, c0, r1, c1] belongs to when the tile hangs past the
// matrix's right or bottom edge (it starts on a tile boundary, ends at the edge and is
// narrower than a tile); null when nothing hangs past (as the GUI's tile_past_edge).
function tilePastEdge(r, box, t) {
  const full = r.slice();
  if (r[3] === box.cols - 1 && r[1] % t === 0 && r[3] - r[1] + 1 < t) full[3] = r[1] + t - 1;
  if (r[2] === box.rows - 1 && r[0] % t === 0 && r[2] - r[0] + 1 < t) full[2] = r[0] + t - 1;
  return full[2] === r[2] && full[3] === r[3] ? null : full;
}

// Tiles hanging past the edges, as the slides draw the 3x3 example and the GUI does: the
// frame's tiles of A and B with their cells past the edge grey and "0" (the zero their
// work-item writes in place of loading), the whole tile dashed; the group's block of C
// dashed to the whole tile. Recorded as data-past-edge ("A 3,0;...") and data-past-tiles.
function paintPastEdge(g, frame) {
  const cells = [], tiles = [];
  const t = DATA.local[0];
  if (g && !state.heat && (layout.room[0] || layout.room[1] || layout.room[2])) {
    const s = layout.cell;
    for (const tm of (frame && frame.tiles) || []) {
      if (!tm[5].length) continue;
      const box = tm[0] === 'A' ? layout.A : layout.B;
      for (const rc of tm[5]) {
        ctx.fillStyle = 'rgba(0,0,0,0.12)';  // past the edge: the GUI's light grey
        ctx.fillRect(box.x + rc[1] * s + 1, box.y + rc[0] * s + 1, s - 2, s - 2);
        cellText(ctx, '0', box.x + rc[1] * s, box.y + rc[0] * s, s, '#444');
        cells.push(tm[0] + ' ' + rc[0] + ',' + rc[1]);
      }
      outline(box, tm.slice(1, 5), tm[0] === 'A' ? COLOURS.A.loaded : COLOURS.B.loaded, true);
      tiles.push(tm.slice(0, 5).join(' '));
    }
    for (const r of g.c_block) {
      const full = tilePastEdge(r, layout.C, t);
      if (!full) continue;
      outline(layout.C, full, COLOURS.outline, true);
      tiles.push(['C'].concat(full).join(' '));
    }
  }
  document.getElementById('pastkey').hidden = !(layout.room[0] || layout.room[1] || layout.room[2]);
  rec.dataset.pastEdge = cells.join(';');
  rec.dataset.pastTiles = tiles.join(';');
}

// A label centred in a cell of size s, its font as large as fits (none below 8 px).
// The font size a label needs at least, and the cell that size needs for a text of n characters.
const MIN_FONT = 8;
function cellFor(n) { return Math.ceil(4 + 0.58 * MIN_FONT * n); }
// A label's two lines when it does not fit on one: "M12,15" as "M12," over "15".
function splitLabel(text) {
  const i = text.indexOf(',');
  return i > 0 ? [text.slice(0, i + 1), text.slice(i + 1)] : [text];
}
function cellText(c, text, x, y, s, colour) {
  if (!text || s < MIN_LABEL_CELL) return false;
  let lines = [text];
  let size = Math.min(14, Math.floor((s - 4) / (0.58 * text.length)), Math.floor(s * 0.45));
  if (size < MIN_FONT) {  // two lines, split after the comma
    lines = splitLabel(text);
    const longest = Math.max.apply(null, lines.map(function (l) { return l.length; }));
    size = Math.min(14, Math.floor((s - 4) / (0.58 * longest)), Math.floor((s - 2) / (1.1 * lines.length)));
    if (lines.length < 2 || size < MIN_FONT) return false;
  }
  c.font = size + 'px sans-serif';
  c.fillStyle = colour;
  c.textAlign = 'center'; c.textBaseline = 'middle';
  const lh = size * 1.1;
  lines.forEach(function (l, k) { c.fillText(l, x + s / 2, y + s / 2 + 0.5 + (k - (lines.length - 1) / 2) * lh); });
  c.textAlign = 'start'; c.textBaseline = 'alphabetic';
  return true;
}

// A frame's cells of one array as a map "r,c" -> {roles: [...], label}.
function frameCells(frame, key) {
  const out = {};
  if (!frame || !frame.cells[key]) return out;
  for (const c of frame.cells[key]) {
    const k = c[0] + ',' + c[1];
    if (!out[k]) out[k] = { roles: [], label: c[3] };
    out[k].roles.push(roleName(c[2]));
    if (c.length > 3) out[k].label = c[3];
  }
  return out;
}

function paint() {
  const g = group();
  const st = currentStep();
  const ph = g ? g.parts[st.interval] : null;
  const frame = st.frame;
  ctx.clearRect(0, 0, layout.w, layout.h);
  paintMatrix(layout.A, (state.abc ? 'A' : 'M (A)') + ', ' + DATA.size[0] + ' x ' + DATA.size[2]);
  paintMatrix(layout.B, (state.abc ? 'B' : 'N (B)') + ', ' + DATA.size[2] + ' x ' + DATA.size[1]);
  paintMatrix(layout.C, (state.abc ? 'C' : 'P (C)') + ', ' + DATA.size[0] + ' x ' + DATA.size[1]);
  const painted = { a: [], b: [], c: [] };
  if (g) {
    if (!state.heat) {
      fillCells(layout.A, g.a_strip, COLOURS.A.strip);
      fillCells(layout.B, g.b_strip, COLOURS.B.strip);
      fillCells(layout.C, g.c_block, COLOURS.C.strip);
    }
    fillCells(layout.A, ph.a, COLOURS.A.loaded, painted.a);
    fillCells(layout.B, ph.b, COLOURS.B.loaded, painted.b);
    fillCells(layout.C, ph.c, COLOURS.C.stored, painted.c);
  }
  const s = layout.cell;
  ctx.fillStyle = COLOURS.wrong;  // wrong cells: filled red (as the GUI: not while a question on them waits for Reveal)
  if (!hidden('wrong_cells'))
    for (const w of DATA.wrong_cells) ctx.fillRect(layout.C.x + w[1] * s, layout.C.y + w[0] * s, s, s);
  for (const box of [layout.A, layout.B, layout.C]) gridLines(ctx, box.x, box.y, box.rows, box.cols, s);
  // Every cell's name, when cells are large enough to read.
  let namesShown = false;
  const names = {};
  for (const box of [layout.A, layout.B, layout.C]) {
    const rows = [];
    for (let i = 0; i < box.rows && s >= MIN_LABEL_CELL; ++i) {
      const row = [];
      for (let j = 0; j < box.cols; ++j) {
        const text = elementName(box.key, i, j);
        const dark = (box.key === 'A' && painted.a.indexOf(i + ',' + j) >= 0);
        if (cellText(ctx, text, box.x + j * s, box.y + i * s, s, dark ? COLOURS.A.text : '#222')) namesShown = true;
        row.push(text);
      }
      rows.push(row.join(' '));
    }
    names[box.key] = namesShown ? rows.join('/') : '';
  }
  if (g) for (const r of g.c_block) outline(layout.C, r, COLOURS.outline);
  paintPastEdge(g, frame);
  // C's cells whose sum grows at this iteration (the frame's "accumulates"): outlined in the
  // colour of the local cells they read, as in the GUI.
  if (frame) {
    const cc = frameCells(frame, 'C');
    for (const k in cc) {
      if (cc[k].roles.indexOf('accumulates') < 0 || cc[k].roles.indexOf('stored') >= 0) continue;
      const rc = k.split(',').map(Number);
      outline(layout.C, [rc[0], rc[1], rc[0], rc[1]], COLOURS.local.read);
    }
  }
  if (state.item && g) {
    const story = storyOf(g, state.item);
    if (story && story.computes) outline(layout.C, [story.computes.row, story.computes.col, story.computes.row, story.computes.col], '#000');
  }
  // The picked work-item's elements of M, N and P in the part on show (the slides' thread of
  // a "major case"), outlined as its cell of P is; its local cells are ringed in paintLocals.
  const marks = itemCells(g, st, frame);
  for (const m of marks) {
    const box = { A: layout.A, B: layout.B, C: layout.C }[m[0]];
    if (box && m[1] < box.rows && m[2] < box.cols) outline(box, [m[1], m[2], m[1], m[2]], '#000');
  }
  rec.dataset.itemCells = marks.map(function (m) { return m[0] + ' ' + m[1] + ',' + m[2]; }).join(';');
  if (state.hover) outline(state.hover.box, [state.hover.r, state.hover.c, state.hover.r, state.hover.c], COLOURS.hover);
  rec.dataset.group = g ? g.id.slice(0, 2).join(',') : '';
  rec.dataset.phase = ph ? String(ph.phase) : '';
  rec.dataset.part = ph ? ph.part : '';
  rec.dataset.interval = String(st.interval);
  rec.dataset.iteration = frame && frame.iteration !== null ? String(frame.iteration) : '';
  rec.dataset.step = String(state.step);
  rec.dataset.steps = String(stepsOf(g).length);
  rec.dataset.frames = g && g.frames ? (g.iteration_frames ? 'iterations' : 'parts') : 'none';
  rec.dataset.title = frameTitle(g, st);
  rec.dataset.a = painted.a.join(';');
  rec.dataset.b = painted.b.join(';');
  rec.dataset.c = painted.c.join(';');
  rec.dataset.naming = state.abc ? 'abc' : 'slides';
  rec.dataset.names = namesShown ? '1' : '0';
  for (const k of ['A', 'B', 'C']) rec.setAttribute('data-labels-' + k.toLowerCase(), names[k]);
  rec.dataset.cell = String(layout.cell);
  rec.dataset.canvasWidth = String(Math.round(canvas.getBoundingClientRect().width));
  document.getElementById('frametitle').textContent = frameTitle(g, st);
  paintTimeline(g);
  paintPhaseInfo(g, ph);
  paintLocals(g, ph, frame);
  paintStory(g, st);
  paintSource(ph);
  paintHoverRecord();
  rec.dataset.pageWidth = String(Math.max(contentRight(), state.viewport ? 0 : document.documentElement.scrollWidth));
  rec.dataset.viewportWidth = String(viewportWidth());
}

// The slides' title of a step ("Phase 0 Use for Block (0,0) (iteration 1)").
function frameTitle(g, st) {
  if (!g) return '';
  const ph = g.parts[st.interval];
  const part = ph.part.charAt(0).toUpperCase() + ph.part.slice(1);
  const title = st.frame ? st.frame.title
                         : (g.phase_count > 0 ? 'Phase ' + ph.phase + ' ' : '') + part + ' for Block (' + g.id.slice(0, DATA.dims || 2).join(',') + ')';
  // a question on the phase count holds the phase's number too (on the last phase it counts them)
  return hidden('phase_count') ? title.replace(/^Phase [0-9]+ /, 'This phase: ') : title;
}

function paintTimeline(g) {
  const tl = document.getElementById('timeline');
  tl.textContent = '';
  if (!g) { tl.textContent = 'This trace kept no phase detail.'; return; }
  if (hidden('phase_count')) { tl.textContent = 'Timeline of phases: ' + HIDDEN_TEXT + '.'; return; }
  const steps = stepsOf(g);
  const cur = steps[state.step];
  g.parts.forEach(function (ph, i) {
    const box = document.createElement('div');
    box.className = 'phase' + (i === cur.interval ? ' current' : '');
    const first = i === 0 || g.parts[i - 1].phase !== ph.phase;
    const label = document.createElement('span');
    label.textContent = g.phase_count > 0 ? (first ? 'phase ' + ph.phase + ': ' : '') + ph.part : 'part ' + i;
    label.onclick = function () { setStep(firstStepOf(i)); };
    box.appendChild(label);
    box.title = ph.end_line ? 'ends at the barrier on line ' + ph.end_line : 'ends when the work-group ends';
    // A use part's iterations, each its own step.
    steps.forEach(function (s, k) {
      if (s.interval !== i || !s.frame || s.frame.iteration === null) return;
      const it = document.createElement('span');
      it.className = 'iter' + (k === state.step ? ' current' : '');
      it.textContent = String(s.frame.iteration);
      it.title = s.frame.title;
      it.onclick = function (ev) { ev.stopPropagation(); setStep(k); };
      box.appendChild(it);
    });
    tl.appendChild(box);
    const bar = document.createElement('div');
    bar.className = 'barrier' + (ph.end_line ? '' : ' end');
    bar.title = ph.end_line ? 'barrier, line ' + ph.end_line : 'end';
    tl.appendChild(bar);
  });
}

function paintPhaseInfo(g, ph) {
  const box = document.getElementById('phaseinfo');
  box.innerHTML = '';
  if (!g) return;
  const p = document.createElement('p');
  p.textContent = 'Work-group (' + g.id[0] + ',' + g.id[1] + '), ' +
    // hidden, the phase's number goes too: on the last phase it would be the count less one
    (g.phase_count > 0 ? (hidden('phase_count') ? 'phase ? of ? (' + HIDDEN_TEXT + ')' : 'phase ' + ph.phase + ' of ' + g.phase_count) +
      ', ' + ph.part : 'no phases (no barrier)') +
    ' (' + (ph.end_line ? 'ends at the barrier on line ' + ph.end_line : 'runs to the end of the kernel') + '): ' +
    (hidden('global_traffic') ? 'floats loaded from global memory ' + HIDDEN_TEXT : fmt(ph.global_load_bytes / 4) + ' floats loaded from global memory') + ', ' +
    (hidden('local_bytes') ? 'floats stored to and loaded from local memory ' + HIDDEN_TEXT + '.'
                           : fmt(ph.local_store_bytes / 4) + ' stored to and ' + fmt(ph.local_load_bytes / 4) + ' loaded from local memory.');
  box.appendChild(p);
  const note = document.createElement('p');
  note.className = 'note';
  if (!g.frames) {
    note.textContent = state.group >= DATA.frame_limits.groups
      ? 'This page holds the slides\' frames (names on cells, iterations, stories) for the first ' + DATA.frame_limits.groups +
        ' traced work-groups only; this one shows its parts as rectangles.'
      : 'This group\'s frames would pass the page\'s limit of ' + fmt(DATA.frame_limits.cells) + ' cells: it shows its parts as rectangles.';
  } else if (!g.iteration_frames) {
    note.textContent = 'Part by part only: one frame per iteration would pass the page\'s limit of ' + fmt(DATA.frame_limits.cells) +
      ' cells, so a use part is shown whole (the GUI and tilescope frame --iteration step it).';
  } else if (ph && currentStep().frame && currentStep().frame.iterations > 0) {
    note.textContent = 'Iteration i: the i-th read of each local array by each work-item in this part.';
  }
  if (note.textContent) box.appendChild(note);
}

// Local arrays: cells at least as large as a matrix cell, larger when there is room,
// each showing the label of the element it holds (0 for a written zero).
function paintLocals(g, ph, frame) {
  const box = document.getElementById('locals');
  box.textContent = '';
  if (!ph) return;
  let minCell = Infinity;
  for (const la of ph.locals) {
    const wrap = document.createElement('div');
    wrap.className = 'local';
    const cap = document.createElement('div');
    cap.textContent = '__local ' + la.name + ' (' + la.rows + ' x ' + la.cols + ')';
    const c = document.createElement('canvas');
    const room = Math.max(layout.cell * la.cols, Math.min(layout.avail - 4, 420));
    const cells = frameCells(frame, la.name);
    // Large enough for every label on the array (on two lines if need be): where the window is
    // too narrow for that, the array scrolls sideways in a box of its own (a zoom), never the page.
    let need = 0;
    for (const k in cells) {
      const l = named(cells[k].label || '');
      if (l) need = Math.max(need, MIN_LABEL_CELL, Math.min(cellFor(l.length), Math.max.apply(null, splitLabel(l).map(function (h) { return cellFor(h.length); }))));
    }
    const s = Math.max(layout.cell, Math.min(64, Math.floor(room / Math.max(la.cols, 1)), Math.floor(420 / Math.max(la.rows, 1))),
                       need);
    minCell = Math.min(minCell, s);
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round((la.cols * s + 2) * dpr); c.height = Math.round((la.rows * s + 2) * dpr);
    c.style.width = (la.cols * s + 2) + 'px'; c.style.height = (la.rows * s + 2) + 'px';
    const x = c.getContext('2d');
    x.setTransform(dpr, 0, 0, dpr, 0, 0);
    const labels = [], roles = [];
    let unlabelled = 0;
    for (let i = 0; i < la.rows; ++i) {
      const row = [];
      for (let j = 0; j < la.cols; ++j) {
        const k = i + ',' + j, fc = cells[k];
        let colour = COLOURS.local.empty;
        if (fc) {
          colour = fc.roles.indexOf('read') >= 0 ? COLOURS.local.read : fc.roles.indexOf('stored') >= 0 ? COLOURS.local.stored : COLOURS.local.holds;
          roles.push(k + '=' + fc.roles.join('+'));
        } else if (!frame) {
          const st = la.stored[i * la.cols + j];
          colour = st === '1' ? COLOURS.local.stored : st === '2' ? COLOURS.local.holds : COLOURS.local.empty;
        }
        x.fillStyle = colour;
        x.fillRect(1 + j * s, 1 + i * s, s, s);
        if (fc && fc.roles.indexOf('read') >= 0 && fc.roles.indexOf('stored') >= 0) {  // stored and read: both
          x.strokeStyle = COLOURS.local.stored; x.lineWidth = Math.max(2, s / 8);
          x.strokeRect(1 + j * s + x.lineWidth / 2, 1 + i * s + x.lineWidth / 2, s - x.lineWidth, s - x.lineWidth);
        }
        if (!frame && la.read[i * la.cols + j] === '1') { x.fillStyle = '#222'; x.fillRect(1 + j * s + s / 2 - 1, 1 + i * s + s / 2 - 1, 2, 2); }
        const label = fc ? named(fc.label) : '';
        if (label && !cellText(x, label, 1 + j * s, 1 + i * s, s, colour === COLOURS.local.read || colour === COLOURS.local.holds ? '#fff' : '#222')) ++unlabelled;
        row.push(label || '.');
      }
      labels.push(row.join(' '));
    }
    gridLines(x, 1, 1, la.rows, la.cols, s);
    // The picked work-item's cells of this array (what it stores here, or reads now): ringed.
    for (const m of itemCells(g, currentStep(), frame))
      if (m[0] === la.name && m[1] < la.rows && m[2] < la.cols) {
        x.strokeStyle = '#000'; x.lineWidth = Math.max(2, Math.min(4, s / 16));
        x.strokeRect(1 + m[2] * s + x.lineWidth / 2, 1 + m[1] * s + x.lineWidth / 2, s - x.lineWidth, s - x.lineWidth);
      }
    rec.setAttribute('data-labels-' + attrKey(la.name), frame ? labels.join('/') : '');
    rec.setAttribute('data-roles-' + attrKey(la.name), roles.join(';'));
    rec.setAttribute('data-unlabelled-' + attrKey(la.name), String(unlabelled));  // cells whose label did not fit
    // Whose elements the array holds (its cells' labels: M.. are A's, N.. B's): its name and a
    // bar beside it in that matrix's colour, so A's and B's local arrays are told apart while
    // their cells keep the state colours (stored / read / holds).
    let holds = '';
    for (const k in cells) { const l = cells[k].label || ''; if (l[0] === 'M' || l[0] === 'N') { holds = l[0]; break; } }
    if (holds) {
      const colour = holds === 'M' ? COLOURS.A.loaded : COLOURS.B.loaded;
      cap.style.color = colour; cap.style.fontWeight = 'bold';
      wrap.style.borderLeft = '5px solid ' + colour; wrap.style.paddingLeft = '4px';
      cap.textContent += holds === 'M' ? ': holds elements of M (A)' : ': holds elements of N (B)';
    }
    rec.setAttribute('data-holds-' + attrKey(la.name), holds);
    const zoom = document.createElement('div');
    zoom.className = 'localzoom';
    zoom.style.maxWidth = (layout.avail - 4) + 'px';
    zoom.style.overflowX = 'auto';
    zoom.appendChild(c);
    wrap.appendChild(cap); wrap.appendChild(zoom); box.appendChild(wrap);
    rec.setAttribute('data-zoom-' + attrKey(la.name), la.cols * s + 2 > layout.avail - 4 ? '1' : '0');
  }
  rec.dataset.localCell = minCell === Infinity ? '' : String(minCell);
}

// --- work-items' stories ---

function storyOf(g, local) {
  if (!g || !g.stories) return null;
  for (const s of g.stories) if (s.local[0] === local[0] && (s.local[1] || 0) === (local[1] || 0)) return s;
  return null;
}

function listOf(items, f, max) {
  const names = items.slice(0, max || 40).map(f);
  return names.join(', ') + (items.length > names.length ? ' ... and ' + (items.length - names.length) + ' more' : '');
}
// A local cell of a story: [array, row, col, label, ...]; a store's [4] is the element a
// written zero stands for, [5] whether that lies outside its matrix.
function localText(c) {
  let t = c[0] + '(' + c[1] + ',' + c[2] + ') ' + named(c[3]);
  if (c[3] === '0' && c.length === 6) t += c[4] ? ' (a written zero in place of ' + named(c[4]) + (c[5] ? ', outside its matrix)' : ')') : ' (a written zero)';
  return t;
}

// The cells the picked work-item touches in the step on show, as core/trace/frame.h's
// item_cells: [array, row, col] for the elements it loads and stores (array A, B or C) and
// the local cells it stores, and reads at the frame's iteration (every one of a whole part).
function itemCells(g, st, frame) {
  const out = [];
  const story = state.item && g ? storyOf(g, state.item) : null;
  if (!story) return out;
  const add = function (a, r, c) { if (!out.some(function (m) { return m[0] === a && m[1] === r && m[2] === c; })) out.push([a, r, c]); };
  const element = function (label) {
    const m = /^([MNP])(\d+),(\d+)$/.exec(label || '');
    if (m) add({ M: 'A', N: 'B', P: 'C' }[m[1]], Number(m[2]), Number(m[3]));
  };
  const it = frame && frame.iteration !== null && frame.iteration !== undefined ? frame.iteration : null;
  for (const step of story.steps) {
    if (step.interval !== st.interval) continue;
    step.loads.forEach(element);
    step.stores.forEach(element);
    for (const c of step.local_stores) add(c[0], c[1], c[2]);
    for (const c of step.local_reads) if (it === null || c[4] === it) add(c[0], c[1], c[2]);
  }
  return out;
}

function paintStory(g, st) {
  const box = document.getElementById('story');
  box.textContent = '';
  const pick = document.getElementById('itempick');
  pick.textContent = '';
  if (!g || !g.stories || !g.stories.length) {
    box.textContent = g && g.frames ? 'Stories are embedded for the first ' + DATA.frame_limits.stories + ' work-items only.' :
      'No work-item stories for this group in this page.';
    rec.dataset.item = '';
    return;
  }
  const none = document.createElement('option');
  none.value = ''; none.textContent = 'pick one (or click a cell of P)';
  pick.appendChild(none);
  g.stories.forEach(function (s, i) {
    const o = document.createElement('option');
    o.value = String(i); o.textContent = idText(s.local);
    pick.appendChild(o);
  });
  const s = state.item ? storyOf(g, state.item) : null;
  pick.value = s ? String(g.stories.indexOf(s)) : '';
  rec.dataset.item = s ? s.local.join(',') : '';
  if (!s) { box.textContent = 'Click a cell of ' + (state.abc ? 'C' : 'P') + ' (or pick a work-item) for what its work-item does.'; return; }
  const head = document.createElement('p');
  head.className = 'storyhead';
  head.textContent = 'Work-item ' + idText(s.local) + ' of Block ' + idText(s.group) + ' (get_local_id ' + idText(s.local) +
    ', get_global_id ' + idText(s.global) + ', get_group_id ' + idText(s.group) + '): computes ' +
    (s.computes ? named(s.computes.label) : 'none: outside C' +
      (s.assigned && s.assigned_outside ? ' (its global id stands for ' + named(s.assigned) + ', which lies outside C)' : '')) + '.';
  box.appendChild(head);
  const table = document.createElement('table');
  // While the phase count waits for Reveal, the story shows the part on show alone, unnumbered:
  // the parts before it (a step may open on the last phase) or its number would count the phases.
  const held = hidden('phase_count');
  const others = held ? s.steps.filter(function (x) { return x.interval !== st.interval; }).length : 0;
  for (const step of s.steps) {
    if (held && step.interval !== st.interval) continue;
    const tr = document.createElement('tr');
    if (step.interval === st.interval) tr.className = 'current';
    const a = document.createElement('td'); a.textContent = held ? 'this phase, ' + step.part : 'phase ' + step.phase + ' ' + step.part;
    const b = document.createElement('td');
    const lines = [];
    if (step.loads.length) lines.push('loads ' + listOf(step.loads, named));
    if (step.local_stores.length) lines.push('stores into local memory ' + listOf(step.local_stores, localText));
    const byIt = {};
    for (const r of step.local_reads) (byIt[r[4]] = byIt[r[4]] || []).push(r);
    for (const it of Object.keys(byIt).map(Number).sort(function (x, y) { return x - y; }))
      lines.push('iteration ' + it + ' reads ' + listOf(byIt[it], localText));
    if (step.stores.length) lines.push('stores ' + listOf(step.stores, named) + ' (global memory)');
    if (!lines.length) lines.push('nothing');
    for (const l of lines) { const d = document.createElement('div'); d.textContent = l; b.appendChild(d); }
    tr.appendChild(a); tr.appendChild(b); table.appendChild(tr);
  }
  if (others) {
    const tr = document.createElement('tr');
    const a = document.createElement('td'); a.textContent = 'the other parts';
    const b = document.createElement('td'); b.textContent = HIDDEN_TEXT;
    tr.appendChild(a); tr.appendChild(b); table.appendChild(tr);
  }
  box.appendChild(table);
  for (const c of s.cases) { const p = document.createElement('p'); p.className = 'case'; p.textContent = c; box.appendChild(p); }
}

// --- hover: a cell of C's sum so far ---

function sumSoFar(g, frame, r, c) {
  if (!g || !g.sums || !frame) return null;
  for (let i = 0; i < g.sums.length; ++i) {
    const s = g.sums[i];
    if (s[0] !== r || s[1] !== c) continue;
    const terms = s[3].slice(0, frame.sum_terms[i]).map(function (t) {
      return t.split('\u00b7').map(named).join('\u00b7');
    });
    return named(s[2]) + ' so far = ' + (terms.length ? terms.join(' + ') : '0');
  }
  return null;
}

function paintHoverRecord() {
  const h = state.hover;
  rec.dataset.hover = h ? h.box.key + ' ' + h.r + ',' + h.c : '';
  rec.dataset.tip = h ? describe(h) : '';
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
  sel.textContent = '';
  DATA.groups.forEach(function (g, i) {
    const o = document.createElement('option');
    o.value = String(i);
    o.textContent = '(' + g.id[0] + ',' + g.id[1] + ')';
    sel.appendChild(o);
  });
  sel.onchange = function () { state.group = Number(sel.value); state.item = null; setStep(0); };
  document.getElementById('abc').disabled = !DATA.abc_naming;
  const t = document.getElementById('counters');
  t.textContent = '';
  const c = DATA.counters;
  const H = function (key, v) { return hidden(key) ? HIDDEN_TEXT : v; };
  const rows = [['floats loaded from global', H('global_traffic', fmt(c.global_load_bytes / 4))], ['floats stored to global', fmt(c.global_store_bytes / 4)],
    ['floats loaded from local', H('local_bytes', fmt(c.local_load_bytes / 4))], ['floats stored to local', H('local_bytes', fmt(c.local_store_bytes / 4))],
    ['barrier releases', H('phase_count', fmt(c.barriers))], ['flops', fmt(c.flops)], ['flops per float from global', H('flop_per_load', c.ratio.toFixed(2))],
    ['sectors per global request (ideal ' + c.ideal_sectors.toFixed(2) + ')', c.sectors_per_request.toFixed(2)]];
  if (c.bank_requests > 0) rows.push(['bank-conflict degree, mean / max', c.bank_mean_degree.toFixed(2) + ' / ' + c.bank_max_degree]);
  // A closed form names how the answer is worked out: held back, with its figures, while any question waits.
  const anyHidden = state.hide.length > 0;
  for (const e of c.expected)
    rows.push(anyHidden ? [e.quantity + ' (closed form ' + HIDDEN_TEXT + ')', HIDDEN_TEXT]
                        : [e.quantity + ' (closed form: ' + e.formula + ')', fmt(e.expected) + ' expected, ' + fmt(e.traced) + ' traced']);
  for (const r of DATA.reuse) if (r.formula) rows.push(anyHidden ? ['reuse (closed form ' + HIDDEN_TEXT + ')', HIDDEN_TEXT] : [r.formula, 'traced ' + r.min + ' to ' + r.max]);
  if (DATA.verification) rows.push(['result', DATA.verification]);
  rows.push(['wrong cells of P', H('wrong_cells', fmt(DATA.wrong_cells.length))]);
  for (const r of rows) {
    const tr = document.createElement('tr');
    const a = document.createElement('td'); a.textContent = r[0];
    const b = document.createElement('td'); b.textContent = r[1]; b.className = 'num';
    tr.appendChild(a); tr.appendChild(b); t.appendChild(tr);
  }
  // The slides' "blocks per SM" for this work-group on every device profile (modelled, as
  // the set-up panel's table): it follows from the local bytes, so it waits for Reveal with them.
  const ot = document.getElementById('occupancy'), oh = document.getElementById('occupancytitle');
  ot.textContent = '';
  const occ = DATA.occupancy && DATA.occupancy.rows && DATA.occupancy.rows.length ? DATA.occupancy : null;
  ot.hidden = oh.hidden = !occ;
  rec.dataset.occupancy = '';
  if (occ) {
    oh.textContent = 'Work-groups of ' + fmt(occ.group_threads) + ' work-items one compute unit holds at once ' +
      '(modelled from device profiles; tilescope occupancy)';
    if (hidden('local_bytes')) {
      ot.hidden = true;
      oh.textContent += ': ' + HIDDEN_TEXT;
      rec.dataset.occupancy = 'hidden';
    } else {
      const head = document.createElement('tr');
      for (const h of occ.headings) { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); }
      ot.appendChild(head);
      for (const r of occ.rows) {
        const tr = document.createElement('tr');
        r.cells.forEach(function (v, i) {
          const td = document.createElement('td'); td.textContent = v; if (i > 0 && i < 5) td.className = 'num'; tr.appendChild(td);
        });
        ot.appendChild(tr);
      }
      rec.dataset.occupancy = occ.rows.map(function (r) { return r.cells.join('|'); }).join(';');
    }
  }
  // The memory hierarchy, when the trace was saved with the cache model's report (modelled).
  const ct = document.getElementById('caches'), ch = document.getElementById('cachestitle');
  ct.textContent = '';
  ct.hidden = ch.hidden = !DATA.caches;
  if (DATA.caches) {
    const k = DATA.caches.totals, p = DATA.caches.params, s = p.sector;
    const pct = function (a, b) { return b ? (100 * a / b).toFixed(1) + '%' : '-'; };
    ch.textContent = 'Memory hierarchy (modelled, profile ' + DATA.caches.profile + ': L1 ' + p.l1_kb + ' KB x ' + p.cus +
      ' units, L2 ' + p.l2_kb + ' KB)';
    const crows = [['L1 load sectors', fmt(k.l1_sectors)], ['L1 hit rate', pct(k.l1_hit_sectors, k.l1_sectors)],
      ['L2 sectors (L1 misses and stores)', fmt(k.l2_sectors)], ['L2 hit rate', pct(k.l2_hit_sectors, k.l2_sectors)],
      ['L1 misses merged in flight', fmt(k.l2_merged_sectors)],
      ['DRAM bytes read / written', fmt(k.dram_read_bytes) + ' / ' + fmt(k.dram_write_bytes)],
      ['DRAM bytes read, at least (distinct sectors)', fmt(DATA.caches.bounds.distinct_sectors * s)]];
    for (const r of crows) {
      const tr = document.createElement('tr');
      const a = document.createElement('td'); a.textContent = r[0];
      const b = document.createElement('td'); b.textContent = r[1]; b.className = 'num';
      tr.appendChild(a); tr.appendChild(b); ct.appendChild(tr);
    }
  }
  const d = document.getElementById('diagnostics');
  d.textContent = '';
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

// --- stepping ---

function setStep(k) {
  const n = stepsOf(group()).length;
  state.step = Math.max(0, Math.min(n - 1, k));
  document.getElementById('group').value = String(state.group);
  paint();
}
function firstStepOf(interval) {
  const steps = stepsOf(group());
  for (let k = 0; k < steps.length; ++k) if (steps[k].interval === interval) return k;
  return 0;
}
// Right / Left: the next step, an iteration at a time inside a use part.
function step(d) {
  const n = stepsOf(group()).length;
  setStep((state.step + d + n) % n);
}
// Down / Up: the next part (its first iteration) or the previous one.
function stepPart(d) {
  const g = group();
  const parts = g ? g.parts.length : 1;
  const cur = currentStep().interval;
  setStep(firstStepOf((cur + d + parts) % parts));
}
function togglePlay() {
  const b = document.getElementById('play');
  if (state.timer) { clearInterval(state.timer); state.timer = null; b.textContent = 'play'; return; }
  state.timer = setInterval(function () { step(1); }, 900);
  b.textContent = 'pause';
}

function hit(ev) {
  const rect = canvas.getBoundingClientRect();
  const x = (ev.clientX - rect.left) * layout.w / rect.width, y = (ev.clientY - rect.top) * layout.h / rect.height;
  for (const box of [layout.A, layout.B, layout.C]) {
    const c = Math.floor((x - box.x) / layout.cell), r = Math.floor((y - box.y) / layout.cell);
    if (r >= 0 && c >= 0 && r < box.rows && c < box.cols) return { box: box, r: r, c: c };
  }
  return null;
}

function describe(h) {
  const m = h.box.m;
  let text = elementName(h.box.key, h.r, h.c) + (m ? ' (' + m.name + ')' : '');
  if (m && m.loads.length && h.box !== layout.C)
    text += ': loaded from global memory ' + (hidden('loads_per_element') ? HIDDEN_TEXT : m.loads[h.r * h.box.cols + h.c] + ' times');
  if (h.box === layout.C) {
    const o = DATA.owners ? DATA.owners[h.r * h.box.cols + h.c] : null;
    if (o) text += ': computed by work-item (' + o[2] + ',' + o[3] + ') of work-group (' + o[0] + ',' + o[1] + ')' +
      (o[4] ? '' : ' (by the NDRange; not in the traced detail)');
    if (!hidden('wrong_cells'))
      for (const w of DATA.wrong_cells) if (w[0] === h.r && w[1] === h.c) { text += '. WRONG: differs from the CPU reference'; break; }
    const sum = sumSoFar(group(), currentStep().frame, h.r, h.c);
    if (sum) text += '. ' + sum;
    else if (o && group() && (o[0] !== group().id[0] || o[1] !== group().id[1])) text += '. (Its sum so far: select that work-group.)';
  }
  return text;
}

canvas.addEventListener('mousemove', function (ev) {
  const h = hit(ev);
  const tip = document.getElementById('tip');
  state.hover = h;
  if (!h) { tip.style.display = 'none'; paint(); return; }
  tip.textContent = describe(h);
  tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - 200) + 'px';
  tip.style.top = (ev.clientY + 14) + 'px';
  tip.style.display = 'block';
  paint();
});
canvas.addEventListener('mouseleave', function () { state.hover = null; document.getElementById('tip').style.display = 'none'; paint(); });
// Clicking a cell of C shows its work-item's story (in its work-group).
canvas.addEventListener('click', function (ev) {
  const h = hit(ev);
  if (!h || h.box !== layout.C || !DATA.owners) return;
  selectCell(h.r, h.c);
});
function selectCell(r, c) {
  const o = DATA.owners ? DATA.owners[r * layout.C.cols + c] : null;
  if (!o) return;
  const i = DATA.groups.findIndex(function (g) { return g.id[0] === o[0] && g.id[1] === o[1]; });
  if (i < 0) return;
  const keep = currentStep();
  if (i !== state.group) {
    state.group = i;
    state.step = Math.min(firstStepOf(keep.interval), stepsOf(group()).length - 1);
  }
  state.item = [o[2], o[3]];
  setStep(state.step);
}
document.addEventListener('keydown', function (ev) {
  if (ev.target && ev.target.tagName === 'SELECT') return;
  if (ev.key === 'ArrowRight' || ev.key === 'PageDown') { step(1); ev.preventDefault(); }
  else if (ev.key === 'ArrowLeft' || ev.key === 'PageUp') { step(-1); ev.preventDefault(); }
  else if (ev.key === 'ArrowDown') { stepPart(1); ev.preventDefault(); }
  else if (ev.key === 'ArrowUp') { stepPart(-1); ev.preventDefault(); }
  else if (ev.key === ' ') { togglePlay(); ev.preventDefault(); }
});
document.getElementById('prev').onclick = function () { step(-1); };
document.getElementById('next').onclick = function () { step(1); };
document.getElementById('prevpart').onclick = function () { stepPart(-1); };
document.getElementById('nextpart').onclick = function () { stepPart(1); };
document.getElementById('play').onclick = togglePlay;
document.getElementById('heat').onchange = function (ev) { state.heat = ev.target.checked; paint(); };
document.getElementById('abc').onchange = function (ev) { state.abc = ev.target.checked; paint(); };
document.getElementById('itempick').onchange = function (ev) {
  const g = group();
  state.item = ev.target.value === '' ? null : g.stories[Number(ev.target.value)].local.slice();
  paint();
};
window.addEventListener('resize', function () { if (DATA) { computeLayout(); paint(); } });

// Opens a place: {group: [x,y], phase, part, iteration, interval, step, partstep, heat,
// item: [x,y], naming, hover: [r,c], select: [r,c] (as a click on that cell of C)} (all optional; phase as the slides count them, part
// its load/use/store, default its first; iteration one of a use part's; interval a raw
// barrier interval instead; step / partstep press "step" / "part" that many times).
function openAt(args) {
  state.group = 0; state.item = null; state.hover = null;
  if (args.viewport) {
    state.viewport = Number(args.viewport);
    document.documentElement.style.width = viewportWidth() + 'px';
    computeLayout();
  }
  if (args.group) {
    const id = args.group;
    const i = DATA.groups.findIndex(function (g) {
      return g.id[0] === id[0] && g.id[1] === (id[1] || 0) && (g.id[2] || 0) === (id[2] || 0);
    });
    if (i >= 0) state.group = i;
  }
  state.heat = !!args.heat;
  document.getElementById('heat').checked = state.heat;
  state.abc = args.naming === 'abc' && DATA.abc_naming;
  document.getElementById('abc').checked = state.abc;
  const g = group();
  let start = firstStepOf(args.interval !== undefined ? Number(args.interval) : 0);
  if (g && args.phase !== undefined) {
    const i = g.parts.findIndex(function (p) { return p.phase === Number(args.phase) && (!args.part || p.part === args.part); });
    if (i >= 0) start = firstStepOf(i);
  }
  if (g && args.iteration !== undefined) {
    const steps = stepsOf(g);
    const interval = steps[start].interval;
    const k = steps.findIndex(function (s) { return s.interval === interval && s.frame && s.frame.iteration === Number(args.iteration); });
    if (k >= 0) start = k;
  }
  if (args.item) state.item = args.item.slice(0, 2);
  setStep(start);
  for (let i = 0; i < Number(args.step || 0); ++i) step(1);
  for (let i = 0; i < Number(args.partstep || 0); ++i) stepPart(1);
  if (args.select) selectCell(args.select[0], args.select[1]);
  if (args.hover) {
    const r = args.hover[0], c = args.hover[1];
    if (r < layout.C.rows && c < layout.C.cols) state.hover = { box: layout.C, r: r, c: c };
    paint();
  }
}

function hashArgs() {
  const args = {};
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const k = part.slice(0, eq), v = decodeURIComponent(part.slice(eq + 1));
    if (k === 'group' || k === 'item' || k === 'hover' || k === 'select') args[k] = v.split(',').map(Number);
    else if (k === 'heat') args.heat = v === '1';
    else args[k] = v;
  }
  return args;
}

// --- a lesson page: every step of a lesson, each opening its trace ---

// i counts from 0 here; the page's address (#lessonstep=N), its 'step N of M' and gui --step count from 1.
function openLessonStep(i) {
  const steps = LESSON.lesson_steps;
  const n = Math.max(0, Math.min(steps.length - 1, i));
  state.hide = (s0 => (s0.question && s0.question.hide) || [])(steps[n]);
  const s = steps[n];
  document.getElementById('lessonpos').textContent = 'step ' + (n + 1) + ' of ' + steps.length;
  document.getElementById('steptitle').textContent = s.title;
  // The instructor's notes can give a question's answer away ("one barrier per phase"), so on
  // a step with a question they wait for Reveal like the answer.
  const notes = document.getElementById('script');
  notes.textContent = s.question ? "The instructor's notes for this step come with the answer (Reveal)." : s.script;
  notes.classList.toggle('held', !!s.question);
  const q = document.getElementById('question');
  q.textContent = '';
  const ans = document.getElementById('answer');
  ans.textContent = ''; ans.hidden = true;
  const reveal = document.getElementById('reveal');
  reveal.hidden = !s.question;
  let answer = '';
  if (s.question) {
    q.textContent = 'Question: ' + s.question.text;
    const a = s.question.answer;
    answer = 'Answer: ' + a.value + (a.formula ? ' (closed form: ' + a.formula + ')' : '') + '. ' + a.explanation +
      (a.modelled ? ' (from a cache model, not a count)' : '');
  }
  // The answer reaches the page's text only on Reveal (predict first).
  reveal.onclick = function () {
    ans.textContent = answer; ans.hidden = false; rec.dataset.revealed = '1';
    reveal.hidden = true;  // the answer is on the page now; a second press would do nothing
    notes.textContent = s.script; notes.classList.remove('held');
    state.hide = []; rec.dataset.hidden = '';
    if (DATA) { fillStatic(); document.getElementById('group').value = String(state.group); paint(); }
  };
  rec.dataset.revealed = '0';
  rec.dataset.hidden = state.hide.join(',');
  rec.dataset.lessonStep = String(n + 1);
  const note = document.getElementById('viewnote');
  note.textContent = s.note || '';
  const viewer = document.getElementById('viewer');
  if (s.trace === null || s.trace === undefined) {
    viewer.hidden = true;
    DATA = null;
    rec.dataset.view = s.view || '';
  } else {
    viewer.hidden = false;
    DATA = LESSON.traces[s.trace];
    rec.dataset.view = s.view || 'emulation';
    fillStatic();
    computeLayout();
    openAt(s.open || {});
  }
  LESSON.current = n;
  document.getElementById('lprev').disabled = n === 0;
  document.getElementById('lnext').disabled = n === steps.length - 1;
}

if (LESSON) {
  document.getElementById('lessonbar').hidden = false;
  document.getElementById('lessontitle').textContent = LESSON.lesson_title;
  document.getElementById('lprev').onclick = function () { openLessonStep(LESSON.current - 1); };
  document.getElementById('lnext').onclick = function () { openLessonStep(LESSON.current + 1); };
  const a = hashArgs();
  openLessonStep(Number(a.lessonstep || 1) - 1);
  // &item=X,Y follows a work-item of the step's group, as in a trace's page (a link to a step
  // with one work-item's story open)
  if (a.item && DATA) { state.item = a.item.slice(0, 2); paint(); }
  if (a.reveal === '1' && !document.getElementById('reveal').hidden) document.getElementById('reveal').click();
} else {
fillStatic();
computeLayout();
openAt(hashArgs());
}
rec.dataset.ready = '1';
