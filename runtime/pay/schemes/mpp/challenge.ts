/**
 * MPP's challenge on the 402 (`WWW-Authenticate: Payment …`, draft-httpauth-payment-01 and draft-evm-charge-01):
 * method `evm`, intent `charge`, one challenge per EVM network that sells `exact`, for the same price, token and
 * recipient as the x402 entry of that network, with an `expires` and an id bound to MPP_SECRET_KEY (HMAC). The
 * challenge binds nothing the server must remember: a credential's echo is checked against the id again; its single
 * use is the ledger's (one reservation per authorization nonce) and the token's (one transfer per nonce).
 * @module pay/schemes/mpp/challenge
 */
import { randomBytes } from 'node:crypto'
import type { PaymentRequirements } from '../../types'
import type { MppKeys } from './secret'
import { b64url, challengeId, type MppChallenge, serializeChallenge } from './wire'

export type { MppChallenge } from './wire'

export const METHOD = 'evm'
export const INTENT = 'charge'
/** USDC's decimals (the only token the `exact` entries sell). */
const DECIMALS = 6

/** The chain id of a CAIP-2 `eip155:<id>` network, or null for another family. */
export const chainIdOf = (network: string): number | null => {
  const m = /^eip155:(\d+)$/.exec(network)
  return m ? Number(m[1]) : null
}

/** The `evm` `charge` request of one x402 `exact` entry (same amount, token, recipient and chain). */
export function chargeRequest(r: PaymentRequirements, chainId: number) {
  return {
    amount: r.amount,
    currency: r.asset,
    recipient: r.payTo,
    methodDetails: { chainId, credentialTypes: ['authorization'], decimals: DECIMALS },
  }
}

const requests = new WeakMap<PaymentRequirements, ReturnType<typeof chargeRequest> | null>()
/**
 * The `charge` request of an entry, one object per entry (the 402's entries are built once per resource): its
 * encoding is then kept by ./wire.ts `encodeParam` instead of written again into each challenge's id and header.
 */
function requestOf(r: PaymentRequirements): ReturnType<typeof chargeRequest> | null {
  let q = requests.get(r)
  if (q === undefined) {
    const chainId = chainIdOf(r.network)
    q = chainId === null ? null : chargeRequest(r, chainId)
    requests.set(r, q)
  }
  return q
}

/**
 * The challenges of a resource's `exact` entries: one per EVM network, each expiring `ttlS` seconds from `nowMs`, each
 * unique (built for each 402: an HMAC and a JCS encoding per network).
 */
export function challengesFor(
  keys: MppKeys,
  accepts: readonly PaymentRequirements[],
  ttlS: number,
  nowMs = Date.now(),
): MppChallenge[] {
  const expires = new Date(Math.floor(nowMs / 1000) * 1000 + ttlS * 1000).toISOString().replace('.000Z', 'Z')
  return accepts.flatMap((r) => {
    const request = requestOf(r)
    if (request === null) return []
    const fields = {
      realm: keys.realm,
      method: METHOD,
      intent: INTENT,
      request,
      expires,
      // A fresh value in each challenge (bound into its id, carried as `opaque`): two 402s for the same price in
      // the same second are two challenges, so two authorization nonces (keccak256 of id and realm).
      // (`encodeParam({ n })` written out: the JCS form of one base64url member needs no escape)
      opaque: b64url(`{"n":"${randomBytes(12).toString('base64url')}"}`),
    }
    return [{ id: challengeId(keys.secretKey, fields), ...fields }]
  })
}

/** The `WWW-Authenticate` value: the challenges, comma-joined (one header line), or '' when there are none. */
export const headerOf = (challenges: readonly MppChallenge[]): string => challenges.map(serializeChallenge).join(', ')
