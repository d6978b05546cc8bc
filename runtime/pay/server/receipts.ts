/**
 * Signed receipts of paid calls, per the x402 `offer-receipt` extension (@x402/extensions): a JWS (ES256, P-256)
 * over the extension's receipt payload (version, network, resourceUrl, payer, issuedAt, transaction) plus what was
 * bought (service, tier, requestHash, scheme, asset, amount, payTo) and, paid by channel, the channel state. Its
 * `kid` is a did:web key id of this server, published at /.well-known/did.json. docs/receipts.md.
 * @module pay/server/receipts
 */
import { createPrivateKey, sign as signWith } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { JWSSignedReceipt, ReceiptPayload } from '@x402/extensions/offer-receipt'
import type { Logger } from '../../sdk'

/** A public or private P-256 key as JSON Web Key. */
export interface EcJwk {
  kty: 'EC'
  crv: 'P-256'
  x: string
  y: string
  d?: string
  alg?: 'ES256'
}

/** The extension's verification code (with jose and viem) loads on the first check of a receipt, not at boot. */
const extension = () => import('@x402/extensions/offer-receipt')

/**
 * A JSON string as the extension's canonical form writes it (`canonicalize`: `"`, `\\` and the control characters
 * below U+0020 escaped, as `\\uXXXX`; everything else as is, lone surrogates too): the usual string, made of hex,
 * URLs and slugs, needs no escape at all and is written in one piece.
 */
function canonicalString(s: string): string {
  if (!/["\\\u0000-\u001f]/.test(s)) return `"${s}"`
  let out = '"'
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    if (code < 32) out += `\\u${code.toString(16).padStart(4, '0')}`
    else if (code === 34) out += '\\"'
    else if (code === 92) out += '\\\\'
    else out += s[i]
  }
  return `${out}"`
}

/**
 * The canonical JSON of a receipt payload, byte for byte what `@x402/extensions/offer-receipt`'s `canonicalize` writes
 * (members sorted by key, undefined members left out, no spaces; test/pay/receipts.test.ts holds them equal), written
 * without its character-by-character copy of every string.
 */
export function canonicalJson(v: unknown): string {
  if (v === null || v === undefined) return 'null'
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(v)) throw new Error('Cannot canonicalize Infinity or NaN')
      return Object.is(v, -0) ? '0' : String(v)
    case 'string':
      return canonicalString(v)
    case 'object': {
      if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`
      const o = v as Record<string, unknown>
      const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      let out = ''
      for (const k of keys) {
        if (o[k] === undefined) continue
        out += `${out ? ',' : ''}${canonicalString(k)}:${canonicalJson(o[k])}`
      }
      return `{${out}}`
    }
    default:
      throw new Error(`Cannot canonicalize value of type ${typeof v}`)
  }
}

/** What a receipt says was bought and paid. */
export interface ReceiptFacts {
  resourceUrl: string
  service: string
  tier: string
  /** SHA-256 of service, tier and the raw request body (runtime/pay/server/kept-results.ts `requestHash`). */
  requestHash: string
  scheme: string
  network: string
  asset: string
  /** Atomic units of `asset` charged. */
  amount: string
  payTo: string
  payer: string
  /** The settlement transaction; for a channel voucher the deposit's transaction of this request, or "". */
  transaction: string
  /** Paid by a `batch-settlement` voucher: the channel state in place of a transfer. */
  channel?: ChannelReceipt
}

/** A channel-paid receipt's channel state (atomic units): `amount` is the charge, `cumulative` the channel's total. */
export interface ChannelReceipt {
  /** The channel id (bytes32 hex). */
  id: string
  /** The channel's cumulative charged amount after this call. */
  cumulative: string
}

export type ReceiptPayloadV1 = ReceiptPayload & Omit<ReceiptFacts, 'resourceUrl' | 'network' | 'payer' | 'transaction'>

export interface ReceiptIssuer {
  /** The signing key's DID URL (`did:web:<host>#<thumbprint>`). */
  readonly kid: string
  /** The DID document served at /.well-known/did.json. */
  readonly didDocument: Record<string, unknown>
  /** The public key (JWK) receipts verify with. */
  readonly publicJwk: EcJwk
  issue(facts: ReceiptFacts): Promise<JWSSignedReceipt>
}

/** The settlement response's `extensions` entry carrying a receipt (where `extractReceiptFromResponse` looks). */
export const receiptExtension = (receipt: JWSSignedReceipt) => ({ 'offer-receipt': { info: { receipt } } })

/** `did:web` of a public base URL: its host, with a port's colon percent-encoded (did:web method spec). */
export function didWebOf(apiBase: string): string {
  const u = new URL(apiBase)
  return `did:web:${u.host.replace(':', '%3A')}`
}

/** The name of the generated key's file (.gitignore lists it: a key must never be committed). */
export const KEY_FILE = 'receipt-signing-key.jwk.json'

/**
 * The private key file used when RECEIPT_SIGNING_KEY is not set: beside the SQLite database; none for an in-memory
 * database (`:memory:`), whose key lives as long as its data (it would otherwise land in the current directory,
 * often a checkout, where anyone could read it and later boots would sign with it).
 */
export const defaultKeyPath = (databasePath: string): string | null =>
  databasePath === ':memory:' || databasePath === '' ? null : join(dirname(databasePath), KEY_FILE)

function parseKey(text: string, from: string): EcJwk {
  let jwk: EcJwk
  try {
    jwk = JSON.parse(text) as EcJwk
  } catch {
    throw new Error(`${from} is not JSON (a private P-256 JWK: {"kty":"EC","crv":"P-256","x":…,"y":…,"d":…})`)
  }
  if (jwk?.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y)
    throw new Error(`${from} must be a private P-256 JWK ({"kty":"EC","crv":"P-256","x":…,"y":…,"d":…})`)
  return jwk
}

/**
 * The receipt signing key: RECEIPT_SIGNING_KEY (a private P-256 JWK, JSON) when set; otherwise the key in the file
 * beside the database, generated on first boot (kept across restarts); with no file (an in-memory database) a key
 * for this run only, never written, with a warning. Instances sharing a database (DATABASE_URL) must all be given
 * the same RECEIPT_SIGNING_KEY.
 */
export async function loadReceiptKey(
  configured: string,
  keyPath: string | null,
  log: Logger,
  warnIfGenerated: boolean,
): Promise<EcJwk> {
  if (configured) return parseKey(configured, 'RECEIPT_SIGNING_KEY')
  if (keyPath && existsSync(keyPath)) return parseKey(readFileSync(keyPath, 'utf8'), keyPath)
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const { kty, crv, x, y, d } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as EcJwk
  const jwk: EcJwk = { kty, crv, x, y, d }
  if (!keyPath) {
    log.warn(
      'receipt signing key generated for this run only (in-memory database: no file written); receipts issued now cannot be verified after a restart. Set RECEIPT_SIGNING_KEY to keep one (docs/receipts.md)',
    )
    return jwk
  }
  mkdirSync(dirname(keyPath), { recursive: true })
  writeFileSync(keyPath, JSON.stringify(jwk), { mode: 0o600 })
  chmodSync(keyPath, 0o600)
  const say = warnIfGenerated ? log.warn : log.info
  say.call(log, 'receipt signing key generated; set RECEIPT_SIGNING_KEY to choose it (docs/receipts.md)', {
    path: keyPath,
  })
  return jwk
}

/** RFC 7638 thumbprint of a P-256 public key (base64url SHA-256 of its required members in order). */
const thumbprint = (k: EcJwk) =>
  new Bun.CryptoHasher('sha256').update(JSON.stringify({ crv: k.crv, kty: k.kty, x: k.x, y: k.y })).digest('base64url')

/** The issuer of receipts signed with `privateJwk`, its key id under `apiBase`'s did:web. */
export async function createReceiptIssuer(privateJwk: EcJwk, apiBase: string): Promise<ReceiptIssuer> {
  // `alg` in the published key: the extension's verifier (jose) imports a JWK only with it.
  const pub: EcJwk = { kty: 'EC', crv: 'P-256', x: privateJwk.x, y: privateJwk.y, alg: 'ES256' }
  const did = didWebOf(apiBase)
  const kid = `${did}#${thumbprint(pub)}`
  const { alg: _alg, ...jwk } = privateJwk
  const key = createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' })
  // The JWS as the extension's `createJWS` builds it (header `{alg, kid}` as JSON, the payload's canonical JSON, both
  // base64url), signed here at once: node:crypto's ES256 signature is synchronous and costs about half of WebCrypto's
  // (no promise, no thread hop); `ieee-p1363` is r||s, exactly JWS ES256's. The header is the same for every receipt.
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid })).toString('base64url')
  const jws = (payload: ReceiptPayloadV1) => {
    const input = `${header}.${Buffer.from(canonicalJson(payload)).toString('base64url')}`
    const sig = signWith('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
    return `${input}.${sig.toString('base64url')}`
  }
  return {
    kid,
    publicJwk: pub,
    didDocument: {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: did,
      verificationMethod: [{ id: kid, type: 'JsonWebKey2020', controller: did, publicKeyJwk: pub }],
      assertionMethod: [kid],
    },
    async issue(f) {
      const payload: ReceiptPayloadV1 = {
        version: 1,
        network: f.network,
        resourceUrl: f.resourceUrl,
        payer: f.payer,
        issuedAt: Math.floor(Date.now() / 1000),
        transaction: f.transaction,
        service: f.service,
        tier: f.tier,
        requestHash: f.requestHash,
        scheme: f.scheme,
        asset: f.asset,
        amount: f.amount,
        payTo: f.payTo,
        ...(f.channel ? { channel: f.channel } : {}),
      }
      return { format: 'jws', signature: jws(payload) }
    },
  }
}

export type Verified = { valid: true; kid: string; payload: ReceiptPayloadV1 } | { valid: false; reason: string }

/**
 * Checks a receipt with the extension's verifier against `publicJwk` (this server's key), or, without one, against
 * the key its `kid` names (did:web resolved over HTTPS, did:key, did:jwk).
 */
export async function verifyReceipt(receipt: unknown, publicJwk?: EcJwk): Promise<Verified> {
  const r = (typeof receipt === 'string' ? { format: 'jws', signature: receipt } : receipt) as JWSSignedReceipt
  if (!r || typeof r !== 'object' || r.format !== 'jws' || typeof r.signature !== 'string')
    return { valid: false, reason: 'not a JWS receipt ({ format: "jws", signature })' }
  try {
    const { verifyReceiptSignatureJWS } = await extension()
    const payload = (await verifyReceiptSignatureJWS(
      r,
      publicJwk as Parameters<typeof verifyReceiptSignatureJWS>[1] | undefined,
    )) as ReceiptPayloadV1
    const header = JSON.parse(Buffer.from(r.signature.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: string }
    return { valid: true, kid: String(header.kid ?? ''), payload }
  } catch (e) {
    return { valid: false, reason: (e as Error).message.slice(0, 200) }
  }
}

/** What was bought, for the receipt. */
export interface Purchase {
  /** The paid resource (the URL of the 402 challenge). */
  resourceUrl: string
  service: string
  tier: string
  requestHash: string
  requestId: string
}

/**
 * The signed receipt of a paid purchase as the settlement response's `extensions` (docs/receipts.md), or undefined
 * when signing failed: the payer has paid, so the answer goes out without a receipt rather than not at all (logged).
 */
export async function receiptOf(
  deps: { receipts: ReceiptIssuer; log: Logger },
  p: Purchase,
  paid: Omit<ReceiptFacts, 'resourceUrl' | 'service' | 'tier' | 'requestHash'>,
): Promise<ReturnType<typeof receiptExtension> | undefined> {
  try {
    const { resourceUrl, service, tier, requestHash } = p
    return receiptExtension(await deps.receipts.issue({ resourceUrl, service, tier, requestHash, ...paid }))
  } catch (e) {
    deps.log.error('signing the receipt failed', { request_id: p.requestId, error: String(e) })
    return undefined
  }
}
