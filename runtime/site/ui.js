// DOM helpers shared by the site (/site.js) and the operator console (/admin/admin.js): one source, served at /ui.js.
// Plain ES module, no framework.

/** The first element matching a selector. */
export const $ = (s) => document.querySelector(s)

/** Creates an element: attributes (null/undefined skipped, `on…` are listeners, `class`), then children (text or nodes). */
export const el = (tag, attrs = {}, ...kids) => {
  const n = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue
    if (k === 'class') n.className = v
    else if (k.startsWith('on')) n.addEventListener(k.slice(2), v)
    else n.setAttribute(k, v)
  }
  for (const k of kids.flat()) if (k != null) n.append(k instanceof Node ? k : document.createTextNode(String(k)))
  return n
}

/**
 * A table from column specs `{ label, get(row), num?, cls? }` (numeric columns get class `num`), or a muted note
 * when there are no rows.
 */
export function table(cols, rows, empty = 'Nothing yet.') {
  if (!rows.length) return el('p', { class: 'muted small' }, empty)
  return el(
    'table',
    {},
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        cols.map((c) => el('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map((r) =>
        el(
          'tr',
          { 'data-id': r.id ?? null },
          cols.map((c) => el('td', { class: c.num ? 'num' : (c.cls ?? null) }, c.get(r))),
        ),
      ),
    ),
  )
}

const NS = 'http://www.w3.org/2000/svg'
/** Creates an SVG element with attributes and optional text. */
export const svg = (tag, attrs, text) => {
  const n = document.createElementNS(NS, tag)
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v)
  if (text !== undefined) n.textContent = text
  return n
}

/**
 * Grouped bar chart into the <svg> at `target`: one group per row (`row.label`), one bar per series
 * (`{ key, label, color }`); each bar carries data-series / data-value and a <title>. `format` renders values.
 */
export function bars(target, rows, series, { width = 600, height = 200, pad = 28, format = String } = {}) {
  const node = $(target)
  node.setAttribute('viewBox', `0 0 ${width} ${height}`)
  node.replaceChildren()
  const max = Math.max(1e-12, ...rows.flatMap((r) => series.map((s) => r[s.key])))
  const bw = Math.min(40, (width - pad * 2) / Math.max(1, rows.length) / series.length)
  rows.forEach((r, i) =>
    series.forEach((s, j) => {
      const h = ((height - pad * 2) * r[s.key]) / max
      const rect = svg('rect', {
        x: pad + (i * series.length + j) * bw,
        y: height - pad - h,
        width: Math.max(1, bw - 1.5),
        height: h,
        fill: s.color,
        'data-series': s.key,
        'data-value': r[s.key],
      })
      rect.append(svg('title', {}, `${r.label}: ${s.label} ${format(r[s.key])}`))
      node.append(rect)
    }),
  )
  const muted = { 'font-size': 11, fill: '#5b6474' }
  node.append(svg('line', { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: '#94a3b8' }))
  node.append(svg('text', { x: pad, y: 14, 'font-size': 12, fill: '#5b6474' }, `max ${format(max)}`))
  if (rows.length) {
    node.append(svg('text', { x: pad, y: height - 8, ...muted }, rows[0].label))
    if (rows.length > 1)
      node.append(
        svg('text', { x: width - pad, y: height - 8, 'text-anchor': 'end', ...muted }, rows[rows.length - 1].label),
      )
  }
  const step = 90
  series.forEach((s, j) =>
    node.append(
      svg(
        'text',
        { x: width - pad - step * series.length + j * step, y: 14, 'font-size': 11, fill: s.color },
        `■ ${s.label}`,
      ),
    ),
  )
}
