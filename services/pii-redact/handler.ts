import { handlerFor } from '../../runtime/sdk'
import { cardSpans, EMAIL, findAll, ipSpans, PHONE, SSN, type Found } from '../_lib/patterns'
import manifest from './manifest'

const LABEL: Record<string, string> = { email: '[EMAIL]', phone: '[PHONE]', ssn: '[SSN]', card: '[CARD]', ip: '[IP]' }

/** Non-overlapping matches: earliest first, longest on ties. */
export function resolve(found: Found[]): Found[] {
  const out: Found[] = []
  for (const f of found.sort((a, b) => a.start - b.start || b.end - a.end))
    if (!out.length || f.start >= out[out.length - 1].end) out.push(f)
  return out
}

export default handlerFor(manifest, ({ text, types = ['email', 'phone', 'ssn', 'card', 'ip'], mask = 'label' }) => {
  const want = new Set(types)
  const found = [
    ...(want.has('email') ? findAll(text, EMAIL, 'email') : []),
    ...(want.has('card') ? cardSpans(text) : []),
    ...(want.has('ssn') ? findAll(text, SSN, 'ssn') : []),
    ...(want.has('ip') ? ipSpans(text) : []),
    ...(want.has('phone') ? findAll(text, PHONE, 'phone') : []),
  ]
  const hits = resolve(found)
  const counts = { email: 0, phone: 0, ssn: 0, card: 0, ip: 0 }
  let out = ''
  let at = 0
  for (const h of hits) {
    counts[h.type as keyof typeof counts]++
    const m =
      mask === 'label'
        ? LABEL[h.type]
        : mask === 'stars'
          ? '*'.repeat(h.value.length)
          : '*'.repeat(Math.max(0, h.value.length - 4)) + h.value.slice(-4)
    out += text.slice(at, h.start) + m
    at = h.end
  }
  return { redacted: out + text.slice(at), counts, total: hits.length }
})
