/**
 * The one parser of the values configuration holds: comma-separated lists, http(s) URLs, addresses and settler keys.
 * Config validation, the payment backends and the logger's secret mask all read keys and URLs through it.
 */

/** A comma-separated value as trimmed, non-empty items. */
export const listOf = (v: string | undefined): string[] =>
  String(v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

/** An absolute http(s) URL without whitespace. */
export function isHttpUrl(u: string): boolean {
  try {
    return /^https?:$/.test(new URL(u).protocol) && !/\s/.test(u)
  } catch {
    return false
  }
}

/** Starts with http:// or https:// (the looser check RPC_URL gets). */
export const looksHttp = (u: string): boolean => /^https?:\/\//.test(u)

/** A URL as it may appear in a problem message: no query, no userinfo. */
export const maskUrl = (u: string): string => u.split('?')[0].replace(/\/\/[^@/]*@/, '//***@')

/** A 20-byte 0x address. */
export const isAddress = (v: string): boolean => /^0x[0-9a-fA-F]{40}$/.test(v)

/** A CAIP-2 eip155 network id like eip155:8453. */
export const isEip155 = (v: string): boolean => /^eip155:\d+$/.test(v)

/** A 32-byte hex private key, 0x optional. */
export const isPrivateKey = (k: string): boolean => /^(0x)?[0-9a-fA-F]{64}$/.test(k)

/** Comma-separated settler keys (SETTLER_PRIVATE_KEYS and its kin) as 0x-prefixed hex, one nonce lane each. */
export const settlerKeys = (v: string | undefined): `0x${string}`[] =>
  listOf(v).map((k) => (k.startsWith('0x') ? k : `0x${k}`) as `0x${string}`)

/** At least one settler key, each 32 bytes of hex (a trailing comma or spaces around items are fine). */
export const validSettlerKeys = (v: string | undefined): boolean => {
  const keys = listOf(v)
  return keys.length > 0 && keys.every(isPrivateKey)
}
