/**
 * MPP's wire forms (draft-httpauth-payment-01), read and written here without the SDK (mppx loads viem's root and
 * zod, which a boot must not; its client is what the tests pay with): the `WWW-Authenticate: Payment` challenge
 * (auth-params), its HMAC-bound id, the base64url JCS-canonical `request`, and the `Authorization: Payment`
 * credential.
 * @module pay/schemes/mpp/wire
 */
import { timingSafeEqual } from 'node:crypto'
import { keccak256, stringToBytes } from 'viem/utils'

/** A challenge as the draft defines it (`request` decoded; `opaque` the base64url string it travels as). */
export interface MppChallenge {
  id: string
  realm: string
  method: string
  intent: string
  request: Record<string, unknown>
  expires?: string
  digest?: string
  description?: string
  opaque?: string
}

/** A credential as it arrives: the echoed challenge, the method's payload, the payer's DID. */
export interface MppCredential {
  challenge: MppChallenge
  payload: unknown
  source?: string
}

export const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url')
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/
export const fromB64url = (text: string): string => {
  if (!B64URL.test(text)) throw new Error('not base64url')
  return Buffer.from(text, 'base64url').toString('utf8')
}

/** JCS (RFC 8785) of a JSON value: keys sorted by UTF-16 code units at every level, ES number and string forms. */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error('not JSON')
    const s = JSON.stringify(v)
    if (s === undefined) throw new Error('not JSON')
    return s
  }
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`
}

/**
 * Encoded `request` objects, by identity: a 402's challenge carries the same request object (one per `exact` entry of
 * the resource, kept by ./challenge.ts) into its id and its header, each 402 again. Never mutated once encoded.
 */
const encoded = new WeakMap<object, string>()

/** The `request` (or `opaque`) parameter: base64url, unpadded, of the JCS form. */
export const encodeParam = (v: unknown): string => {
  if (typeof v !== 'object' || v === null) return b64url(canonical(v))
  let e = encoded.get(v)
  if (e === undefined) encoded.set(v, (e = b64url(canonical(v))))
  return e
}

/** The challenge id: HMAC-SHA256 under `secret` of realm|method|intent|request|expires|digest|opaque, base64url. */
export function challengeId(secret: string, c: Omit<MppChallenge, 'id'>): string {
  const input = `${c.realm}|${c.method}|${c.intent}|${encodeParam(c.request)}|${c.expires ?? ''}|${c.digest ?? ''}|${c.opaque ?? ''}`
  // Bun's keyed hasher: the same HMAC-SHA256 as node:crypto's createHmac, at less than half its CPU.
  return new Bun.CryptoHasher('sha256', secret).update(input).digest('base64url')
}

/** The id is ours for exactly these fields (constant-time comparison). */
export function genuine(secret: string, c: MppChallenge): boolean {
  const want = Buffer.from(challengeId(secret, c))
  const got = Buffer.from(c.id)
  return want.length === got.length && timingSafeEqual(want, got)
}

/** The EIP-3009 nonce a challenge binds (draft-evm-charge-01): keccak256 of the UTF-8 bytes of id then realm. */
export const challengeHash = (c: Pick<MppChallenge, 'id' | 'realm'>): `0x${string}` =>
  keccak256(stringToBytes(`${c.id}${c.realm}`))

/** A quoted-string auth-param (quotes and backslashes escaped; nothing above Latin-1 reaches a header). */
const param = (name: string, value: string) => {
  if (!/[\\"\r\n\u0100-\uffff]/.test(value)) return `${name}="${value}"` // nothing to escape (base64url, ids)
  if (/[\r\n]/.test(value)) throw new Error('a line break in an auth-param')
  const escaped = value
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/[\u0100-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return `${name}="${escaped}"`
}

/** One challenge as a `WWW-Authenticate` value (`Payment id=…, realm=…, …`). */
export function serializeChallenge(c: MppChallenge): string {
  const parts = [
    param('id', c.id),
    param('realm', c.realm),
    param('method', c.method),
    param('intent', c.intent),
    param('request', encodeParam(c.request)),
  ]
  if (c.description !== undefined) parts.push(param('description', c.description))
  if (c.digest !== undefined) parts.push(param('digest', c.digest))
  if (c.expires !== undefined) parts.push(param('expires', c.expires))
  if (c.opaque !== undefined) parts.push(param('opaque', c.opaque))
  return `Payment ${parts.join(', ')}`
}

/** The challenges of a `WWW-Authenticate` value this server wrote (for MCP's `data.challenges`). */
export function parseChallenges(header: string): MppChallenge[] {
  const out: MppChallenge[] = []
  for (const part of header.split(/(?:^|,\s*)Payment\s+/i).filter((p) => p.trim())) {
    const params: Record<string, string> = {}
    for (const m of part.matchAll(/([A-Za-z0-9_-]+)="((?:[^"\\]|\\.)*)"/g))
      params[m[1].toLowerCase()] = m[2].replace(/\\(.)/g, '$1')
    const { id, realm, method, intent, request, expires, digest, description, opaque } = params
    if (!id || !realm || !method || !intent || !request) continue
    try {
      out.push({
        id,
        realm,
        method,
        intent,
        request: JSON.parse(fromB64url(request)),
        ...(expires ? { expires } : {}),
        ...(digest ? { digest } : {}),
        ...(description ? { description } : {}),
        ...(opaque ? { opaque } : {}),
      })
    } catch {
      /* not one of ours */
    }
  }
  return out
}

const str = (v: unknown): v is string => typeof v === 'string'
const record = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** The credential of an `Authorization: Payment <base64url JSON>` value; throws when it is not one. */
export function parseCredential(header: string): MppCredential {
  const m = /^payment\s+(\S+)\s*$/i.exec(header)
  if (!m) throw new Error('not a Payment credential')
  const wire = JSON.parse(fromB64url(m[1])) as unknown
  if (!record(wire) || !record(wire.challenge)) throw new Error('no challenge')
  return {
    challenge: challengeOf(wire.challenge),
    payload: wire.payload,
    ...(str(wire.source) ? { source: wire.source } : {}),
  }
}

/** An echoed challenge: `request` as its base64url string (HTTP) or as the object (MCP); `opaque` likewise. */
function challengeOf(c: Record<string, unknown>): MppChallenge {
  const { id, realm, method, intent, request, expires, digest, description, opaque } = c
  if (!str(id) || !str(realm) || !str(method) || !str(intent)) throw new Error('challenge fields')
  const req = str(request) ? JSON.parse(fromB64url(request)) : request
  if (!record(req)) throw new Error('challenge request')
  for (const [k, v] of Object.entries({ expires, digest, description }))
    if (v !== undefined && !str(v)) throw new Error(`challenge ${k}`)
  const op = opaque === undefined ? undefined : str(opaque) ? opaque : record(opaque) ? encodeParam(opaque) : null
  if (op === null) throw new Error('challenge opaque')
  return {
    id,
    realm,
    method,
    intent,
    request: req,
    ...(expires !== undefined ? { expires: expires as string } : {}),
    ...(digest !== undefined ? { digest: digest as string } : {}),
    ...(description !== undefined ? { description: description as string } : {}),
    ...(op !== undefined ? { opaque: op } : {}),
  }
}

/** The `Authorization` value of a credential object (MCP's `_meta["org.paymentauth/credential"]`). */
export function credentialHeader(credential: unknown): string {
  if (!record(credential) || !record(credential.challenge)) throw new Error('not a credential')
  const challenge = challengeOf(credential.challenge)
  const wire = {
    challenge: { ...challenge, request: encodeParam(challenge.request) },
    payload: credential.payload,
    ...(str(credential.source) ? { source: credential.source } : {}),
  }
  return `Payment ${b64url(JSON.stringify(wire))}`
}
