import { BASE_HEADERS } from '../http/respond'

/** The `X-Ignored-Fields` header of a 200: top-level body fields the service did not use, comma-separated. */

const MAX_NAMES = 20
const MAX_NAME_CHARS = 64

/** Header-safe form of a field name: printable ASCII kept, anything else (and `,` `%`) percent-encoded, long names cut. */
const safe = (name: string) =>
  name.slice(0, MAX_NAME_CHARS).replace(/[^\x21-\x7e]|[,%]/gu, (c) => {
    try {
      return encodeURIComponent(c)
    } catch {
      return '%EF%BF%BD'
    } // a lone surrogate
  })

/** `{ 'x-ignored-fields': 'a, b' }` (exposed to browsers too), or `{}` when every field was used. */
export function ignoredFieldsHeader(ignored: string[]): Record<string, string> {
  if (!ignored.length) return {}
  const names = ignored.slice(0, MAX_NAMES).map(safe)
  if (ignored.length > MAX_NAMES) names.push(`(+${ignored.length - MAX_NAMES} more)`)
  return {
    'x-ignored-fields': names.join(', '),
    'access-control-expose-headers': `${BASE_HEADERS['access-control-expose-headers']}, X-Ignored-Fields`,
  }
}
