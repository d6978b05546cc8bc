/** Source of the worker that runs a user regex (inlined as a Blob URL so it also works inside a compiled binary). */
export const WORKER_SOURCE = `
self.onmessage = (e) => {
  const { pattern, flags, text, max } = e.data
  try {
    const re = new RegExp(pattern, flags.includes('g') ? flags : flags + 'g')
    const matches = []
    let m, total = 0
    while ((m = re.exec(text)) !== null) {
      total++
      if (matches.length < max) {
        const groups = []
        for (let i = 1; i < m.length; i++) groups.push(m[i] === undefined ? null : m[i])
        const spans = m.indices ? m.indices.slice(1).map((s) => (s ? [s[0], s[1]] : null)) : []
        matches.push({ match: m[0], index: m.index, end: m.index + m[0].length, groups, group_spans: spans, named_groups: m.groups ? Object.fromEntries(Object.entries(m.groups).map(([k, v]) => [k, v === undefined ? null : v])) : {} })
      }
      if (m[0] === '') re.lastIndex++
      if (!flags.includes('g')) break
    }
    postMessage({ ok: true, matches, total })
  } catch (err) {
    postMessage({ ok: false, error: String(err && err.message || err) })
  }
}`
