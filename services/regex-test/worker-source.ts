/**
 * Source of the worker that runs a user regex. It is inlined as a Blob URL (self-contained, no imports), so it
 * also works inside a `bun build --compile` binary, where a separate worker file would not be bundled.
 *
 * Message in: { pattern, flags, text, max, budget }. Message out: { ok: true, matches, total, listed_chars } or
 * { ok: false, error }. Every match is counted; at most `max` are listed, and listing also stops once the listed
 * match and group text exceeds `budget` characters (overlapping groups such as `(?=(.*))` could otherwise build
 * a response of gigabytes from a 200 kB text).
 */
export const WORKER_SOURCE = `
self.onmessage = (e) => {
  const { pattern, flags, text, max, budget } = e.data
  try {
    const global = flags.includes('g')
    const re = new RegExp(pattern, global ? flags : flags + 'g')
    const matches = []
    let m, total = 0, used = 0, full = false
    while ((m = re.exec(text)) !== null) {
      total++
      if (!full) {
        let size = m[0].length
        for (let i = 1; i < m.length; i++) size += m[i] ? m[i].length : 0
        if (matches.length >= max || used + size > budget) full = true
        else {
          used += size
          const groups = []
          for (let i = 1; i < m.length; i++) groups.push(m[i] === undefined ? null : m[i])
          const spans = m.indices ? m.indices.slice(1).map((s) => (s ? [s[0], s[1]] : null)) : []
          const named = {}
          if (m.groups) for (const k of Object.keys(m.groups)) named[k] = m.groups[k] === undefined ? null : m.groups[k]
          matches.push({ match: m[0], index: m.index, end: m.index + m[0].length, groups, group_spans: spans, named_groups: named })
        }
      }
      if (!global) break
      if (m[0] === '') re.lastIndex += flags.includes('u') && text.codePointAt(re.lastIndex) > 0xffff ? 2 : 1
    }
    postMessage({ ok: true, matches, total })
  } catch (err) {
    postMessage({ ok: false, error: String((err && err.message) || err) })
  }
}`
