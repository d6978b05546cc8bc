import { decodeJwt, decodeProtectedHeader } from 'jose'
import { handlerFor, invalid } from '../../runtime/sdk'
import { assertDepth } from '../_lib/data-format-json'
import manifest from './manifest'

const iso = (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 8.64e12 ? new Date(v * 1000).toISOString() : null

export default handlerFor(manifest, ({ token: raw }, ctx) => {
  const token = raw.trim().replace(/^Bearer\s+/i, '')
  const parts = token.split('.')
  if (parts.length !== 3)
    throw invalid('token', `a JWT has 3 dot-separated parts (got ${parts.length}); JWE (5 parts) is not decoded`)
  let header: Record<string, unknown>, payload: Record<string, unknown>
  try {
    header = decodeProtectedHeader(token) as Record<string, unknown>
    payload = decodeJwt(token) as Record<string, unknown>
  } catch (e) {
    throw invalid('token', `is not a decodable JWT: ${(e as Error).message}`)
  }
  // The decoded JSON goes back in the answer: nested past 64 levels it is refused, as every data service does.
  assertDepth(header, 'token')
  assertDepth(payload, 'token')
  const now = ctx.now().getTime() / 1000
  const exp = typeof payload.exp === 'number' ? payload.exp : null
  const nbf = typeof payload.nbf === 'number' ? payload.nbf : null
  return {
    header,
    payload,
    signature_present: parts[2].length > 0,
    verified: false as const,
    expired: exp === null ? null : exp <= now,
    not_yet_valid: nbf === null ? null : nbf > now,
    expires_at: iso(exp),
    issued_at: iso(payload.iat),
    not_before: iso(nbf),
    checked_at: ctx.now().toISOString(),
  }
})
