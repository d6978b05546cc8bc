/**
 * An MPP credential (`Authorization: Payment <base64url JSON>`, or MCP's `_meta["org.paymentauth/credential"]`)
 * read and bound to this resource, with no state and no chain: its echoed challenge carries our HMAC id, names this
 * realm, `evm`/`charge`, has not expired, and asks exactly what this resource's entry of that chain asks; its
 * `authorization` payload pays that request with the challenge's nonce (keccak256 of id and realm). What stays (the
 * signature, the window, the chain, the ledger's single use) is the shared EIP-3009 engine's, which gets the
 * authorization as the x402 `exact` payment it is.
 * @module pay/schemes/mpp/credential
 */
import { getAddress, isAddressEqual } from 'viem/utils'
import type { DecodedPayment, PaymentRequirements } from '../../types'
import { chainIdOf, chargeRequest, INTENT, METHOD, type MppChallenge } from './challenge'
import type { Problem } from './problem'
import type { MppKeys } from './secret'
import { challengeHash, genuine as isOurs, type MppCredential, parseCredential } from './wire'

/** The largest credential read (a genuine one is about 1.5 KB). */
export const MAX_CREDENTIAL = 16_384

/** A credential bound to this resource: the EIP-3009 payment for the shared engine, and its challenge. */
export interface BoundCredential {
  challenge: MppChallenge
  payment: DecodedPayment
  requirements: PaymentRequirements
  chainId: number
}

const HEX = /^0x[0-9a-fA-F]*$/
const ATOMIC = /^\d{1,78}$/

/** The `Payment` credential of an Authorization header value, or null when the header names another scheme. */
export function paymentAuthorization(value: string | null): string | null {
  if (!value) return null
  const v = value.trim()
  return /^payment\s+/i.test(v) ? v : null
}

const isAddress = (v: unknown): v is `0x${string}` => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)
const sameAddress = (a: string, b: string) => isAddressEqual(getAddress(a), getAddress(b))

/**
 * Reads `header` and binds it to `accepts` (this resource's `exact` entries): the bound credential, or the problem.
 * `nowMs`: the clock of the `expires` check. `expiredToo`: an expired challenge binds anyway (every other check
 * stands), only to look up the result it already paid for (the engine refuses its expired authorization itself).
 */
export function bindCredential(
  header: string,
  accepts: readonly PaymentRequirements[],
  keys: MppKeys,
  nowMs = Date.now(),
  expiredToo = false,
): BoundCredential | Problem {
  if (header.length > MAX_CREDENTIAL)
    return { type: 'malformed-credential', detail: `the credential is larger than ${MAX_CREDENTIAL} bytes` }
  let credential: MppCredential
  try {
    credential = parseCredential(header)
  } catch {
    return {
      type: 'malformed-credential',
      detail: 'the Payment credential is not base64url JSON of {challenge, payload} with a valid challenge echo',
    }
  }
  const challenge = credential.challenge
  const challengeId = challenge.id
  const problem = (type: Problem['type'], detail: string): Problem => ({ type, detail, challengeId })
  let genuine = false
  try {
    genuine = isOurs(keys.secretKey, challenge)
  } catch {
    genuine = false
  }
  if (!genuine || challenge.realm !== keys.realm)
    return problem('invalid-challenge', 'this challenge was not issued here (unknown id, or its fields were changed)')
  if (challenge.method !== METHOD || challenge.intent !== INTENT)
    return problem('method-unsupported', `only method "${METHOD}" with intent "${INTENT}" is accepted here`)
  if (!challenge.expires) return problem('invalid-challenge', 'the challenge has no expires')
  if (!expiredToo && Date.parse(challenge.expires) <= nowMs)
    return problem('payment-expired', `the challenge expired at ${challenge.expires}; pay the fresh one`)
  const request = challenge.request as unknown as ReturnType<typeof chargeRequest>
  const chainId = Number(request?.methodDetails?.chainId)
  const requirements = accepts.find((r) => chainIdOf(r.network) === chainId)
  if (!requirements) return problem('invalid-challenge', `chain ${chainId} is not sold on this resource`)
  const expected = chargeRequest(requirements, chainId)
  if (
    request.amount !== expected.amount ||
    !isAddress(request.currency) ||
    !sameAddress(request.currency, expected.currency) ||
    !isAddress(request.recipient) ||
    !sameAddress(request.recipient, expected.recipient)
  )
    return problem(
      'invalid-challenge',
      'the challenge was issued for another resource or price (amount, token or recipient differ)',
    )
  const p = credential.payload as Record<string, unknown> | null
  if (
    !p ||
    typeof p !== 'object' ||
    p.type !== 'authorization' ||
    !isAddress(p.from) ||
    !isAddress(p.to) ||
    typeof p.nonce !== 'string' ||
    !/^0x[0-9a-fA-F]{64}$/.test(p.nonce) ||
    typeof p.signature !== 'string' ||
    !HEX.test(p.signature) ||
    p.signature.length > 2 + 2 * 2048 ||
    ![p.value, p.validAfter, p.validBefore].every((v) => typeof v === 'string' && ATOMIC.test(v))
  )
    return problem(
      'invalid-payload',
      'the payload must be {type: "authorization", from, to, value, validAfter, validBefore, nonce, signature} (EIP-3009)',
    )
  if (p.nonce.toLowerCase() !== challengeHash(challenge).toLowerCase())
    return problem('invalid-payload', 'the authorization nonce must be keccak256 of the challenge id and realm')
  if (!sameAddress(p.to as string, requirements.payTo))
    return problem('verification-failed', 'the authorization pays another recipient')
  if (p.value !== requirements.amount)
    return problem('payment-insufficient', `the authorization must transfer exactly ${requirements.amount}`)
  if (
    typeof credential.source === 'string' &&
    credential.source.toLowerCase() !== `did:pkh:eip155:${chainId}:${p.from}`.toLowerCase()
  )
    return problem('verification-failed', 'the credential source is not the authorization signer')
  const authorization = {
    from: p.from,
    to: p.to,
    value: p.value as string,
    validAfter: p.validAfter as string,
    validBefore: p.validBefore as string,
    nonce: p.nonce as `0x${string}`,
  }
  const signature = p.signature as `0x${string}`
  // The x402 v2 payment this authorization is (a remote facilitator gets it as is); the extension marks it as MPP's
  // in the ledger (its payload column), with the challenge it paid.
  const raw = {
    x402Version: 2,
    accepted: requirements,
    payload: { signature, authorization },
    extensions: { 'org.paymentauth': { challengeId, realm: challenge.realm } },
  }
  return {
    challenge,
    chainId,
    requirements,
    payment: {
      x402Version: 2,
      accepted: requirements as unknown as Record<string, unknown>,
      scheme: 'exact',
      network: requirements.network,
      payload: { signature, authorization },
      raw,
    },
  }
}

export const isProblem = (v: BoundCredential | Problem): v is Problem => 'detail' in v
