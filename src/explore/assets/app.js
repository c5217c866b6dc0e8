// batchgen explore: linked histograms, brushing into an --accept expression, live pass rates,
// the levels `batchgen levels` writes for the filter (the first passing rows by index per
// generator and size) and near misses, and a 2D density. All data comes from the JSON API of
// the same server; user text is only ever set with textContent or attributes. The filter is
// the page's state: in the URL (?accept=), one history entry per change, so Back restores the
// previous filter.
'use strict';

// 14 distinguishable colours, one per generator (in the order of /api/columns).
const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
  '#17becf', '#bcbd22', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173'];
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

const state = {
  meta: null,          // /api/columns
  accept: '',          // the filter as text (the page's whole state, mirrored in ?accept=)
  hists: null,         // /api/hist answer for the current filter
  counts: null,        // /api/counts answer
  shown: new Set(),    // "algo size" keys shown in the histograms
  seq: 0,              // request generation, to drop stale answers
};

function colour(algo) {
  const i = state.meta.algos.indexOf(algo);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
}

function keyOf(g) { return g.algo + ' ' + g.size; }

async function getJSON(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) { const e = new Error(body.error || r.statusText); e.position = body.position; throw e; }
  return body;
}

function q(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') u.set(k, v);
  return u.toString();
}

// ---- brushes: conjuncts `col BETWEEN a AND b`, `col >= a` or `col <= b` in the expression ----
// A brush that reaches an end bar, which also holds every value beyond it, is open on that
// side (`>= a`, `<= b`): the rows beyond the histogram's range stay in.
const NUM = '-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';
function brushRe(col) {
  return new RegExp('\\b' + col + ' (?:BETWEEN (' + NUM + ') AND (' + NUM + ')|>= (' + NUM
    + ')|<= (' + NUM + '))');
}
// [lo, hi] of the brush on `col` (-Infinity / Infinity for an open side), or null.
function brushOf(col, expr) {
  const m = (expr === undefined ? state.accept : expr).match(brushRe(col));
  if (!m) return null;
  if (m[1] !== undefined) return [Number(m[1]), Number(m[2])];
  if (m[3] !== undefined) return [Number(m[3]), Infinity];
  return [-Infinity, Number(m[4])];
}
// The filter term of a brush [lo, hi] on `col`.
function brushTerm(col, range) {
  const [lo, hi] = range;
  if (lo === -Infinity) return col + ' <= ' + hi;
  if (hi === Infinity) return col + ' >= ' + lo;
  return col + ' BETWEEN ' + lo + ' AND ' + hi;
}
// How a brush reads in its histogram's title: `≥ a`, `≤ b` or `a – b`.
function brushLabel(range, integer) {
  const [lo, hi] = range;
  if (lo === -Infinity) return '≤ ' + fmt(hi, integer);
  if (hi === Infinity) return '≥ ' + fmt(lo, integer);
  return fmt(lo, integer) + ' – ' + fmt(hi, integer);
}
function tidy(e) {
  return e.replace(/^\s*AND\s+/, '').replace(/\s+AND\s*$/, '').replace(/\s+AND\s+AND\s+/g, ' AND ').trim();
}
function withBrush(expr, col, range) {
  const re = brushRe(col);
  if (!range) return tidy(expr.replace(re, ''));
  const term = brushTerm(col, range);
  if (re.test(expr)) return expr.replace(re, term);
  if (!expr.trim()) return term;
  const base = /\bOR\b|\|\|/i.test(expr) ? '(' + expr + ')' : expr;
  return base + ' AND ' + term;
}
function fmt(x, integer) {
  if (!Number.isFinite(x)) return String(x);
  if (integer) return String(Math.round(x));
  return String(Number(x.toPrecision(4)));
}

// ---- the filter ----
async function apply(expr, push) {
  const seq = ++state.seq;
  const box = $('accept');
  const err = $('error');
  try {
    const count = $('count').value || '100';
    const [counts, hists] = await Promise.all([
      getJSON('/api/counts?' + q({ accept: expr, count })),
      getJSON('/api/hist?' + q({ accept: expr })),
    ]);
    if (seq !== state.seq) return;
    state.accept = expr;
    state.counts = counts;
    state.hists = hists;
    err.hidden = true;
    err.textContent = '';
    if (box.value !== expr) box.value = expr;
    const url = expr ? '?' + q({ accept: expr }) : location.pathname;
    // A new filter is a new history entry (Back restores the previous one); the first load
    // and Back itself only keep the URL in step.
    if (push && url !== location.pathname + location.search) history.pushState({ accept: expr }, '', url);
    else history.replaceState({ accept: expr }, '', url);
    drawCounts();
    drawHists();
    drawDensity();
    drawGallery();
  } catch (e) {
    if (seq !== state.seq) return;
    err.hidden = false;
    err.textContent = e.message;
    if (e.position) {
      box.focus();
      box.setSelectionRange(e.position - 1, e.position);
    }
  }
}

function drawCounts() {
  const tbody = $('counts').querySelector('tbody');
  tbody.replaceChildren();
  const sel = $('command-group');
  const prev = sel.value;
  sel.replaceChildren();
  for (const g of state.counts.groups) {
    const tr = document.createElement('tr');
    tr.dataset.algo = g.algo;
    tr.dataset.size = g.size;
    tr.dataset.pass = String(g.pass);
    tr.dataset.total = String(g.total);
    if (state.shown.has(keyOf(g))) tr.classList.add('focus');
    const cells = [
      null, g.algo, g.size, String(g.pass), String(g.total), (100 * g.share).toFixed(2) + '%',
      g.candidates === null ? '—'
        : g.candidates.toFixed(2) + ' (' + g.candidates_low.toFixed(2) + '–'
          + (g.candidates_high === null ? '∞' : g.candidates_high.toFixed(2)) + ')',
    ];
    cells.forEach((c, i) => {
      const td = document.createElement('td');
      if (i === 0) {
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.checked = state.shown.has(keyOf(g));
        box.title = 'show in the histograms';
        box.addEventListener('change', () => {
          if (box.checked) state.shown.add(keyOf(g)); else state.shown.delete(keyOf(g));
          drawCounts();
          drawHists();
        });
        const sw = document.createElement('span');
        sw.className = 'swatch';
        sw.style.background = colour(g.algo);
        td.append(box, ' ', sw);
      } else {
        td.textContent = c;
      }
      tr.append(td);
    });
    tbody.append(tr);
    const o = document.createElement('option');
    o.value = keyOf(g);
    o.textContent = keyOf(g);
    sel.append(o);
  }
  if ([...sel.options].some((o) => o.value === prev)) sel.value = prev;
  drawCommand();
}

function drawCommand() {
  const g = state.counts.groups.find((x) => keyOf(x) === $('command-group').value)
    || state.counts.groups[0];
  $('command').textContent = g ? (g.command || g.command_note) : '';
  $('command').classList.toggle('note', !!(g && !g.command));
  $('levels-command').textContent = state.counts.levels_command;
  const made = g && g.command && state.meta.groups.find((x) => keyOf(x) === keyOf(g));
  offerMask($('command-mask'), made && made.mask_hash);
}

// The file a printed command's `--mask mask.txt` reads: the files' mask of hash `hash`, offered
// as a download named mask.txt (hidden when the maze has no mask).
function offerMask(link, hash) {
  link.hidden = !hash || hash === '0';
  if (link.hidden) link.removeAttribute('href');
  else link.href = '/api/mask.txt?' + q({ hash });
}

// ---- histograms ----
const W = 260, H = 120, PAD = 16;

function drawHists() {
  const root = $('hists');
  root.replaceChildren();
  for (const col of state.hists.columns) root.append(histogram(col));
}

function histogram(col) {
  const box = document.createElement('div');
  box.className = 'hist';
  box.dataset.column = col.name;
  const title = document.createElement('div');
  title.className = 'title';
  title.textContent = col.name;
  const b = brushOf(col.name);
  if (b) {
    const lab = document.createElement('span');
    lab.className = 'brush-label';
    lab.textContent = ' ' + brushLabel(b, col.integer);
    title.append(lab);
  }
  box.append(title);
  const n = col.bins;
  const groups = col.groups.filter((g) => state.shown.has(keyOf(g)));
  const all = new Array(n).fill(0);
  for (const g of groups) g.all.forEach((v, i) => { all[i] += v; });
  const max = Math.max(1, ...all);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  const plotH = H - PAD;
  const bw = W / n;
  const rect = (x, y, w, h, fill, cls) => {
    const r = document.createElementNS(SVG, 'rect');
    r.setAttribute('x', x); r.setAttribute('y', y);
    r.setAttribute('width', Math.max(0, w)); r.setAttribute('height', Math.max(0, h));
    r.setAttribute('fill', fill);
    if (cls) r.setAttribute('class', cls);
    svg.append(r);
    return r;
  };
  // Grey: all rows of the shown generators.
  all.forEach((v, i) => rect(i * bw + 0.5, plotH - plotH * v / max, bw - 1, plotH * v / max, '#d0d0d0', 'all'));
  // Coloured: passing rows, stacked by generator.
  const base = new Array(n).fill(0);
  for (const g of groups) {
    g.pass.forEach((v, i) => {
      if (!v) return;
      const h = plotH * v / max;
      rect(i * bw + 0.5, plotH - plotH * base[i] / max - h, bw - 1, h, colour(g.algo), 'pass');
      base[i] += v;
    });
  }
  // Axis labels: ends and middle, whole numbers for integer columns.
  const edge = (k) => col.lo + k * col.width;
  const label = (x, text, anchor) => {
    const t = document.createElementNS(SVG, 'text');
    t.setAttribute('x', x); t.setAttribute('y', H - 3);
    t.setAttribute('font-size', '10'); t.setAttribute('text-anchor', anchor);
    t.textContent = text;
    svg.append(t);
  };
  label(1, '≤' + fmt(edge(0), col.integer), 'start');
  label(W / 2, fmt(edge(Math.floor(n / 2)), col.integer), 'middle');
  label(W - 1, '≥' + fmt(col.integer ? edge(n) - 1 : edge(n), col.integer), 'end');
  // The brush on this column, if any (an open side reaches the end of the plot).
  if (b) {
    const x0 = b[0] === -Infinity ? 0 : (b[0] - col.lo) / col.width * bw;
    const x1 = b[1] === Infinity ? W : ((col.integer ? b[1] + 1 : b[1]) - col.lo) / col.width * bw;
    const r = rect(Math.max(0, x0), 0, Math.min(W, x1) - Math.max(0, x0), plotH, 'rgba(30,90,200,0.12)', 'brush');
    r.setAttribute('stroke', '#1e5ac8');
  }
  brushable(svg, col, bw);
  box.append(svg);
  return box;
}

function brushable(svg, col, bw) {
  if (!state.meta.columns.find((c) => c.name === col.name && c.filterable)) return;
  let start = null;
  let live = null;
  let moved = false;
  const binAt = (ev) => {
    const r = svg.getBoundingClientRect();
    const x = (ev.clientX - r.left) / r.width * W;
    return Math.max(0, Math.min(col.bins - 1, Math.floor(x / bw)));
  };
  svg.addEventListener('pointerdown', (ev) => {
    start = binAt(ev);
    moved = false;
    svg.setPointerCapture(ev.pointerId);
    live = document.createElementNS(SVG, 'rect');
    live.setAttribute('fill', 'rgba(30,90,200,0.2)');
    live.setAttribute('y', 0); live.setAttribute('height', H - PAD);
    svg.append(live);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (start === null) return;
    const k = binAt(ev);
    if (k !== start) moved = true;
    const a = Math.min(start, k), b = Math.max(start, k);
    live.setAttribute('x', a * bw); live.setAttribute('width', (b - a + 1) * bw);
  });
  svg.addEventListener('pointerup', (ev) => {
    if (start === null) return;
    const k = binAt(ev);
    const a = Math.min(start, k), b = Math.max(start, k);
    start = null;
    const lo = col.lo + a * col.width;
    const hi = col.lo + (b + 1) * col.width;
    // A click without a drag on a brushed column clears its brush, and so does a brush over
    // every bar. The end bars hold every value beyond them: a brush ending on one is open.
    const all = a === 0 && b === col.bins - 1;
    const clear = all || (!moved && brushOf(col.name) !== null);
    let range = null;
    if (!clear) {
      range = col.integer ? [Math.round(lo), Math.round(hi) - 1]
        : [Number(fmt(lo, false)), Number(fmt(hi, false))];
      if (a === 0) range[0] = -Infinity;
      if (b === col.bins - 1) range[1] = Infinity;
    }
    apply(withBrush(state.accept, col.name, range), true);
  });
}

// ---- density ----
async function drawDensity() {
  const x = $('dx').value, y = $('dy').value;
  if (!x || !y) return;
  const seq = state.seq;
  let d;
  try {
    d = await getJSON('/api/density?' + q({ x, y, accept: state.accept }));
  } catch (e) { return; }
  if (seq !== state.seq) return;
  const c = $('density');
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, c.width, c.height);
  const nx = d.x.bins, ny = d.y.bins;
  const cw = c.width / nx, ch = (c.height - 14) / ny;
  const max = Math.log1p(Math.max(1, ...d.all));
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const a = d.all[j * nx + i], p = d.pass[j * nx + i];
      if (!a) continue;
      const yy = c.height - 14 - (j + 1) * ch;
      const g = Math.round(235 - 150 * Math.log1p(a) / max);
      ctx.fillStyle = `rgb(${g},${g},${g})`;
      ctx.fillRect(i * cw, yy, cw, ch);
      if (p) {
        ctx.fillStyle = `rgba(214,39,40,${0.25 + 0.75 * Math.log1p(p) / max})`;
        ctx.fillRect(i * cw + 1, yy + 1, cw - 2, ch - 2);
      }
    }
  }
  ctx.fillStyle = '#222';
  ctx.font = '11px sans-serif';
  ctx.fillText(d.x.name + ' →, ' + d.y.name + ' ↑ (red: passing)', 2, c.height - 2);
}

// ---- levels and near misses ----
function figure(row, caption) {
  const f = document.createElement('figure');
  f.dataset.row = String(row.row);
  f.dataset.algo = row.algo;
  f.dataset.size = row.size;
  f.dataset.index = String(row.index);
  const img = document.createElement('img');
  img.src = row.svg;
  img.alt = row.algo + ' ' + row.size + ' #' + row.index;
  const cap = document.createElement('figcaption');
  cap.textContent = caption || (row.algo + ' #' + row.index);
  f.title = row.algo + ' ' + row.size + ' #' + row.index;
  f.append(img, cap);
  f.addEventListener('click', () => showRow(row, f));
  return f;
}

// The clicked maze's row, in the panel beside the gallery: the maze, its values (the column's
// meaning on hover) and the command that draws it.
function showRow(row, fig) {
  for (const x of document.querySelectorAll('figure.picked')) x.classList.remove('picked');
  fig.classList.add('picked');
  const panel = $('row-panel');
  panel.hidden = false;
  $('row-title').textContent = row.algo + ' ' + row.size + ' #' + row.index;
  $('row-img').src = row.svg;
  $('row-img').alt = $('row-title').textContent;
  const docs = new Map(state.meta.columns.map((c) => [c.name, c]));
  const body = $('row-values').querySelector('tbody');
  body.replaceChildren();
  const entries = [['algo', row.algo], ['size', row.size], ['seed', row.seed], ['index', row.index],
    ...Object.entries(row.values).filter(([k]) => k !== 'index')];
  for (const [k, v] of entries) {
    const tr = document.createElement('tr');
    tr.dataset.column = k;
    const th = document.createElement('th');
    th.textContent = k;
    const c = docs.get(k);
    if (c && c.doc) th.title = c.doc;
    const td = document.createElement('td');
    td.dataset.value = v === null ? '' : String(v);
    td.textContent = v === null ? 'NULL'
      : (typeof v === 'number' && c && !c.integer ? fmt(v, false) : String(v));
    if (typeof v === 'number') td.title = String(v);
    tr.append(th, td);
    body.append(tr);
  }
  $('row-render').textContent = row.render;
  offerMask($('row-mask'), new URL(row.svg, location.href).searchParams.get('mask'));
}

// Levels per generator and size shown in the gallery: about 24 mazes in all.
function perGroup() {
  const v = Number($('per').value);
  if (v >= 1) return Math.min(100, Math.floor(v));
  const groups = state.meta.groups.length;
  return Math.max(1, Math.min(8, Math.floor(24 / Math.max(1, groups))));
}

async function drawGallery() {
  const seq = state.seq;
  const gal = $('gallery'), near = $('near');
  const count = $('count').value || '100';
  const per = perGroup();
  let s;
  try {
    s = await getJSON('/api/levels?' + q({ accept: state.accept, count, per }));
  } catch (e) { return; }
  if (seq !== state.seq) return;
  const rows = s.groups.flatMap((g) => g.rows);
  $('levels-about').textContent = 'the first ' + Math.min(per, s.count) + ' of the ' + s.count
    + ' levels per generator and size that batchgen levels writes (passing rows by index)';
  gal.replaceChildren(...rows.map((r) => figure(r)));
  if (!rows.length) {
    const p = document.createElement('p');
    p.textContent = 'no row passes the filter';
    gal.append(p);
  }
  // Near misses: rows just outside one brushed bound (two bin widths), the rest of the filter
  // kept; an open side has no rows beyond it.
  near.replaceChildren();
  for (const col of state.hists.columns) {
    const b = brushOf(col.name);
    if (!b) continue;
    const w = col.width * 2;
    const widen = (x, d) => (Number.isFinite(x) ? (col.integer ? x + d : Number(fmt(x + d, false))) : x);
    const outer = [widen(b[0], -w), widen(b[1], w)];
    const rest = withBrush(state.accept, col.name, null);
    const expr = (rest ? '(' + rest + ') AND ' : '') + brushTerm(col.name, outer)
      + ' AND NOT (' + brushTerm(col.name, b) + ')';
    let m;
    try {
      m = await getJSON('/api/sample?' + q({ accept: expr, n: 4 }));
    } catch (e) { continue; }
    if (seq !== state.seq) return;
    for (const r of m.rows) {
      near.append(figure(r, r.algo + ' #' + r.index + ': ' + col.name + ' = ' + fmt(r.values[col.name], col.integer)));
    }
  }
}

// ---- start ----
async function main() {
  state.meta = await getJSON('/api/columns');
  const m = state.meta;
  // How the mazes were made, beyond the identifiers: the files' masks and braid chances.
  const made = [];
  for (const k of m.masks) made.push('mask ' + k.size + ' (' + k.cells + ' cells, hash ' + k.hash + ')');
  const braids = m.braids.filter((b) => b > 0);
  if (braids.length) made.push('braid ' + braids.join(', '));
  $('about').textContent = m.rows.toLocaleString('en') + ' rows, ' + m.files + ' file(s), '
    + m.algos.length + ' generator(s)' + (made.length ? ' · ' + made.join(' · ') : '');
  for (const g of m.groups) state.shown.add(keyOf(g));
  const metrics = m.columns.filter((c) => c.metric);
  for (const [sel, pick] of [[$('dx'), 'dead_end_share'], [$('dy'), 'solution_length']]) {
    for (const c of metrics) {
      const o = document.createElement('option');
      o.value = c.name; o.textContent = c.name;
      sel.append(o);
    }
    if (metrics.some((c) => c.name === pick)) sel.value = pick;
    sel.addEventListener('change', drawDensity);
  }
  const box = $('accept');
  $('apply').addEventListener('click', () => apply(box.value.trim(), true));
  $('clear').addEventListener('click', () => apply('', true));
  box.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); apply(box.value.trim(), true); }
  });
  $('command-group').addEventListener('change', drawCommand);
  $('count').addEventListener('change', () => apply(state.accept, false));
  $('per').addEventListener('change', drawGallery);
  $('row-close').addEventListener('click', () => {
    $('row-panel').hidden = true;
    for (const x of document.querySelectorAll('figure.picked')) x.classList.remove('picked');
  });
  $('copy-levels').addEventListener('click', () => {
    const text = $('levels-command').textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  });
  // Back and Forward: the filter of that history entry.
  window.addEventListener('popstate', () => {
    const expr = new URLSearchParams(location.search).get('accept') || '';
    $('accept').value = expr;
    apply(expr, false);
  });
  $('copy').addEventListener('click', () => {
    const text = $('command').textContent;
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  });
  const initial = new URLSearchParams(location.search).get('accept') || '';
  box.value = initial;
  await apply(initial, false);
  document.body.dataset.ready = '1';
}

main().catch((e) => {
  const err = $('error');
  err.hidden = false;
  err.textContent = 'failed to load: ' + e.message;
});
