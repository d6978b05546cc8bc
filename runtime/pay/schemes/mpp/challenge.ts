/**
 * MPP's challenge on the 402 (`WWW-Authenticate: Payment …`, draft-httpauth-payment-01 and draft-evm-charge-01):
 * method `evm`, intent `charge`, one challenge per EVM network that sells `exact`, for the same price, token and
 * recipient as the x402 entry of that network, with an `expires` and an id bound to MPP_SECRET_KEY (HMAC). The
 * challenge binds nothing the server must remember: a credential's echo is checked against the id again.
 * @module pay/schemes/mpp/challenge
 */
import { Challenge } from 'mppx'
import type { PaymentRequirements } from '../../types'
import type { MppKeys } from './secret'

export const METHOD = 'evm'
export const INTENT = 'charge'
/** USDC's decimals (the only token the `exact` entries sell). */
const DECIMALS = 6
/** A challenge is built again once it is this old (its `expires` keeps most of maxTimeoutSeconds ahead). */
const REBUILD_MS = 5_000

export type MppChallenge = ReturnType<typeof Challenge.from>

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

/** The challenges of a resource's `exact` entries: one per EVM network, each expiring `ttlS` seconds from `nowMs`. */
export function challengesFor(
  keys: MppKeys,
  accepts: readonly PaymentRequirements[],
  ttlS: number,
  nowMs = Date.now(),
): MppChallenge[] {
  const expires = new Date(Math.floor(nowMs / 1000) * 1000 + ttlS * 1000).toISOString().replace('.000Z', 'Z')
  return accepts.flatMap((r) => {
    const chainId = chainIdOf(r.network)
    if (chainId === null) return []
    return [
      Challenge.from({
        secretKey: keys.secretKey,
        realm: keys.realm,
        method: METHOD,
        intent: INTENT,
        request: chargeRequest(r, chainId),
        expires,
      }),
    ]
  })
}

/** The `WWW-Authenticate` value: the challenges, comma-joined (one header line), or '' when there are none. */
export const headerOf = (challenges: readonly MppChallenge[]): string => challenges.map(Challenge.serialize).join(', ')

/**
 * The challenges of each resource, built at most every REBUILD_MS (a 402 is answered from here; building one costs
 * an HMAC and a JCS encoding per network).
 */
export class ChallengeCache {
  private byKey = new Map<string, { at: number; challenges: MppChallenge[]; header: string }>()
  constructor(
    private keys: MppKeys,
    private ttlS: number,
    private now = () => Date.now(),
  ) {}

  of(key: string, accepts: readonly PaymentRequirements[]): { challenges: MppChallenge[]; header: string } {
    const now = this.now()
    const hit = this.byKey.get(key)
    if (hit && now - hit.at < REBUILD_MS) return hit
    const challenges = challengesFor(this.keys, accepts, this.ttlS, now)
    const built = { at: now, challenges, header: headerOf(challenges) }
    if (!hit && this.byKey.size >= 512) this.byKey.delete(this.byKey.keys().next().value!)
    this.byKey.set(key, built)
    return built
  }
}
