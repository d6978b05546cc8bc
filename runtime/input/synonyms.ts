/**
 * Words agents use for the same field across services (issue #27). Only a hint: a required field that is missing
 * while the body has an unused field of its group gets "you sent x; did you mean field?" in its 422. Nothing is
 * renamed here; a service that wants a synonym accepted declares it as an alias in its manifest.
 */
const GROUPS: string[][] = [
  ['amount', 'value', 'principal', 'quantity', 'number'],
  ['rate', 'apr', 'apy', 'annual_rate', 'interest_rate', 'percent'],
  ['years', 'term_years', 'term', 'duration'],
  ['old', 'from', 'a', 'before', 'original', 'source'],
  ['new', 'to', 'b', 'after', 'modified', 'target', 'format'],
  ['type', 'op', 'mode', 'operation', 'action'],
  ['text', 'input', 'content', 'data', 'string'],
]

const groupOf = new Map<string, Set<string>>()
for (const g of GROUPS)
  for (const w of g) groupOf.set(w, new Set([...(groupOf.get(w) ?? []), ...g.filter((x) => x !== w)]))

/** True when `sent` is a word agents use for `field` (same group above). */
export const isSynonym = (sent: string, field: string): boolean => groupOf.get(sent.toLowerCase())?.has(field) ?? false
