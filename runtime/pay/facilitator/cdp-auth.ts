import { createPrivateKey } from 'node:crypto'

/** Builds the Authorization header of one facilitator request. */
export type RequestAuth = (method: 'GET' | 'POST', url: string) => Promise<string>

/**
 * Accepts the CDP secret as Coinbase hands it out: an Ed25519 key (base64 of 64 bytes) or an ES256 key in PEM,
 * PKCS#8 or SEC1 ("BEGIN EC PRIVATE KEY"), with real or escaped ("\n") line breaks. Returns what generateJwt takes.
 */
export function normalizeCdpSecret(secret: string): string {
  const s = secret.trim().replace(/\\n/g, '\n')
  if (!s.includes('-----BEGIN')) return s
  if (s.includes('BEGIN PRIVATE KEY')) return s
  // SEC1 EC keys: generateJwt imports PKCS#8 only.
  return createPrivateKey({ key: s, format: 'pem' }).export({ type: 'pkcs8', format: 'pem' }).toString()
}

/**
 * Coinbase CDP API-key auth, built per request exactly as @coinbase/x402 / the CDP SDK's facilitator client do:
 * `Bearer <JWT>` from `generateJwt` with the request's method, host and path (the JWT's `uris` claim binds it to
 * that one request; it expires after 120 s). The CDP SDK is loaded on first use, only by operators who set a key.
 */
export function createCdpAuth(apiKeyId: string, apiKeySecret: string): RequestAuth {
  const secret = normalizeCdpSecret(apiKeySecret)
  let generate: typeof import('@coinbase/cdp-sdk/auth').generateJwt | undefined
  return async (method, url) => {
    generate ??= (await import('@coinbase/cdp-sdk/auth')).generateJwt
    const u = new URL(url)
    const jwt = await generate({
      apiKeyId,
      apiKeySecret: secret,
      requestMethod: method,
      requestHost: u.host,
      requestPath: u.pathname,
    })
    return `Bearer ${jwt}`
  }
}
