import { getAddress, isAddressEqual } from 'viem/utils'
import { PaymentRefused } from './wire'
import { recoverSigner } from './signature'
import type { DecodedPayment, PaymentRequirements } from './types'
import { REASON } from './reasons'
import { networkOfV1 } from './networks'

/** validBefore may lie at most this far beyond now + maxTimeoutSeconds. */
export const VALID_BEFORE_SLACK_S = 30
/** Same grace as the reference facilitator: an authorization must stay valid this long for the block to land. */
export const EXPIRY_GRACE_S = 6

const CORE_FIELDS = ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'] as const

function sameAddress(a: unknown, b: string): boolean {
  try {
    return typeof a === 'string' && isAddressEqual(getAddress(a), getAddress(b))
  } catch {
    return false
  }
}

/**
 * Every check that needs no chain or facilitator, in the reference order: the echo matches our requirements,
 * network/asset/recipient, exact amount, time window, and for 65-byte signatures ECDSA recovery of the payer
 * (when that does not yield `from` and `hasCode` says `from` is a contract, the signature is left to the chain).
 * Throws PaymentRefused with the x402 reason string. Returns whether the signature was checked locally
 * (false for contract-wallet signatures, which the facilitator checks with EIP-1271).
 */
export async function cheapChecks(
  p: DecodedPayment,
  req: PaymentRequirements,
  nowS: number,
  hasCode?: (address: string) => Promise<boolean>,
): Promise<{ signatureChecked: boolean }> {
  if (p.x402Version === 2) {
    const acc = p.accepted!
    for (const f of CORE_FIELDS) {
      const same = f === 'asset' || f === 'payTo' ? sameAddress(acc[f], req[f]) : acc[f] === req[f]
      if (!same)
        throw new PaymentRefused(
          f === 'network' ? REASON.invalidNetwork : REASON.noMatchingRequirements,
          `accepted.${f} does not match this resource's requirements`,
        )
    }
    const extra = (acc.extra ?? {}) as Record<string, unknown>
    if (extra.name !== req.extra.name || extra.version !== req.extra.version)
      throw new PaymentRefused(REASON.noMatchingRequirements, 'accepted.extra does not match the asset domain')
  } else {
    if (networkOfV1(String(p.network)) !== req.network)
      throw new PaymentRefused(REASON.invalidNetwork, `network ${p.network} is not accepted here`)
  }
  const a = p.payload.authorization
  if (!sameAddress(a.to, req.payTo))
    throw new PaymentRefused(REASON.recipientMismatch, 'authorization.to is not our payTo')
  if (BigInt(a.value) !== BigInt(req.amount))
    throw new PaymentRefused(REASON.valueMismatch, `authorization.value must be exactly ${req.amount}`)
  if (BigInt(a.validBefore) < BigInt(nowS + EXPIRY_GRACE_S))
    throw new PaymentRefused(REASON.validBefore, 'the authorization has expired (or expires within 6 s)')
  if (BigInt(a.validAfter) > BigInt(nowS))
    throw new PaymentRefused(REASON.validAfter, 'the authorization is not valid yet')
  if (BigInt(a.validBefore) > BigInt(nowS + req.maxTimeoutSeconds + VALID_BEFORE_SLACK_S)) {
    throw new PaymentRefused(REASON.validBefore, `validBefore is more than ${req.maxTimeoutSeconds} s ahead`)
  }
  const sigBytes = (p.payload.signature.length - 2) / 2
  if (sigBytes !== 65) return { signatureChecked: false }
  let signer: string | null = null
  try {
    signer = await recoverSigner(a, p.payload.signature, req)
  } catch {
    /* not recoverable: maybe a contract wallet's signature (below) */
  }
  if (signer !== null && sameAddress(signer, a.from)) return { signatureChecked: true }
  // A 65-byte signature that is not from's own ECDSA signature can still be valid for a contract wallet (EIP-1271,
  // e.g. a 1-of-1 Safe): when `from` has code, the chain simulation decides. Only this mismatch costs an RPC.
  if (hasCode && (await hasCode(a.from).catch(() => false))) return { signatureChecked: false }
  throw new PaymentRefused(
    REASON.invalidSignature,
    signer === null ? 'the signature cannot be recovered' : 'the signature was not made by authorization.from',
  )
}
