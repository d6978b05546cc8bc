/**
 * Display-name rule of the catalog: Sentence case. The first word starts with a capital (or is a proper name such
 * as iCalendar); every later word is lower case unless it is an acronym (CSV, URL, JSON), holds a digit (x402,
 * Base64) or is a proper name listed here.
 */
export const PROPER = new Set([
  'Ether',
  'Hacker',
  'News',
  'Wikipedia',
  'Kelly',
  'Luhn',
  'Atom',
  'PnL',
  'AcroForm',
  'Black-Scholes',
  'Sharpe',
  'Markdown',
  'iCalendar',
  'Roman',
  'Schema', // JSON Schema, the specification's name
])

/** Why `name` breaks the rule, or null when it follows it. */
export function sentenceCaseProblem(name: string): string | null {
  if (name !== name.trim() || /\s{2}/.test(name)) return 'extra spaces'
  const words = name.split(' ')
  const first = words[0].replace(/^[(/]+/, '')
  if (!/^[A-Z0-9]/.test(first) && !PROPER.has(first)) return `first word "${words[0]}" must start with a capital`
  for (const w of words.slice(1)) {
    const bare = w.replace(/^[(/]+|[)/,:.]+$/g, '')
    if (!bare || !/[A-Z]/.test(bare)) continue
    const ok = (p: string) => PROPER.has(p) || /^[A-Z0-9]{2,}s?$/.test(p) || /\d/.test(p)
    if (!bare.split('/').every(ok))
      return `"${w}" must be lower case (Sentence case), unless it is an acronym or a proper name`
  }
  return null
}
