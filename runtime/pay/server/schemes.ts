/**
 * Where payment schemes register (x402's `x402ResourceServer.register(network, scheme)`): the resource server asks
 * the registered plugins which one a payment belongs to and what each offers in the 402, and names none of them.
 * Boot registers them (`exact` first: the scheme a payment no other claims goes to, and the first entry of the 402).
 * @module pay/server/schemes
 */
import type { PresentedPayment, SchemePlugin, SchemeRegistry } from './doors'

/** The most bytes of a v2 payment header the schemes are asked to claim (a larger one goes to the first scheme). */
const MAX_HEADER = 16_384

/** The payment a request presents, its v2 JSON decoded once (null when it is not base64 JSON within MAX_HEADER). */
export function presented(header: string, version: 1 | 2, protocol?: 'mpp'): PresentedPayment {
  if (protocol) return { header, version, protocol, decoded: null }
  const text = header.trim()
  let decoded: PresentedPayment['decoded'] = null
  if (version === 2 && text.length <= MAX_HEADER && text.length % 4 === 0) {
    try {
      // Strict base64: what decodes and encodes back to the very text (Buffer's decoder skips what is not base64 and
      // takes base64url's letters; a regex over the ~2.5 KB header cost more than the decode).
      const bytes = Buffer.from(text, 'base64')
      if (bytes.toString('base64') !== text) return { header, version, decoded: null }
      const raw: unknown = JSON.parse(bytes.toString('utf8'))
      if (raw && typeof raw === 'object') decoded = raw as NonNullable<PresentedPayment['decoded']>
    } catch {
      decoded = null
    }
  }
  return { header, version, decoded }
}

/** The registry of `plugins`, in the order they are offered; the first one takes what no other claims. */
export function schemeRegistry(plugins: readonly SchemePlugin[]): SchemeRegistry {
  if (!plugins.length) throw new Error('at least one payment scheme must be registered')
  const names = new Set<string>()
  for (const p of plugins) {
    if (names.has(p.name)) throw new Error(`payment scheme '${p.name}' is registered twice`)
    names.add(p.name)
  }
  const [first, ...rest] = plugins
  return {
    pick: (p) => rest.find((s) => s.claims(p)) ?? first,
    offers: (base, corrective) =>
      plugins.flatMap((s) => s.offers?.(base, corrective?.scheme === s.name ? corrective : undefined) ?? []),
    get version() {
      return plugins.reduce((n, s) => n + (s.version ?? 0), 0)
    },
    refunder: plugins.find((s) => s.refund),
    challengeHeaders: (r, base) => {
      let headers: Record<string, string> = {}
      for (const s of plugins) if (s.challengeHeaders) headers = { ...headers, ...s.challengeHeaders(r, base) }
      return headers
    },
  }
}
