/** MPP (the Machine Payments Protocol, `WWW-Authenticate: Payment`) beside x402 on every 402 (docs/payments.md). */
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const MPP_SECRET_KEY = variable({
  name: 'MPP_SECRET_KEY',
  secret: true,
  concern: 'payment',
  defaultText: 'derived (see the description)',
  valid: 'at least 32 bytes, the same on every instance',
  description:
    'binds MPP challenge ids (HMAC-SHA256): the same value on every instance, or a challenge issued by one is refused by another (e.g. `openssl rand -base64 48`). Unset: derived from the first settler key (self-facilitation), or on the dev chain from a fixed development string; a server with neither offers no MPP challenge (boot says which)',
})
export const MPP_REALM = variable({
  name: 'MPP_REALM',
  defaultText: "API_BASE_URL's host",
  concern: 'payment',
  valid: '1-64 printable ASCII characters (it is in every 402, within its 4 KB head)',
  description: 'the realm of MPP challenges (bound into their ids): the same on every instance',
})

export const mppVariables = [MPP_SECRET_KEY, MPP_REALM]

export function readMpp(r: Reader): Pick<Config, 'mpp'> {
  const secretKey = r.env(MPP_SECRET_KEY) ?? ''
  if (secretKey && Buffer.byteLength(secretKey) < 32)
    r.problems.push('MPP_SECRET_KEY must be at least 32 bytes (e.g. `openssl rand -base64 48`)')
  const realm = r.env(MPP_REALM) ?? ''
  // Short: it is in every 402's head, which must stay within 4 KB (docs/api.md "The 402's size").
  if (realm && (!/^[\x21-\x7e]+$/.test(realm) || /["\\]/.test(realm) || realm.length > 64))
    r.problems.push('MPP_REALM must be 1-64 printable ASCII characters without spaces, quotes or backslashes')
  return { mpp: { secretKey, realm } }
}
