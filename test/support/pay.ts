import { privateKeyToAccount } from 'viem/accounts'
import { getAddress, type Hex } from 'viem'
import { TRANSFER_WITH_AUTHORIZATION } from '../../runtime/pay/eip3009-abi'
import type { PaymentRequirements } from '../../runtime/pay/types'

export const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

/** Requirements of an `exact` USDC payment on Base, as this server states them (1000 atomic = 0.001 USDC by default). */
export const requirements = (
  payTo = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  amount = '1000',
): PaymentRequirements => ({
  scheme: 'exact',
  network: 'eip155:8453',
  amount,
  asset: USDC,
  payTo,
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
})

export interface SignOptions {
  key: Hex
  requirements: Record<string, any>
  value?: string
  to?: string
  validAfter?: number
  validBefore?: number
  nonce?: Hex
  /** Sign one set of fields, then send these instead (tampering after signing). */
  tamper?: Partial<{ value: string; to: string; nonce: Hex }>
  accepted?: Record<string, unknown>
  version?: 1 | 2
}

/** A hand-made x402 `exact` payment header (standard base64), for attack cases the official client refuses to build. */
export async function signPayment(o: SignOptions): Promise<string> {
  const acct = privateKeyToAccount(o.key)
  const now = Math.floor(Date.now() / 1000)
  const req = o.requirements
  const message = {
    from: acct.address,
    to: getAddress(o.to ?? req.payTo),
    value: BigInt(o.value ?? req.amount),
    validAfter: BigInt(o.validAfter ?? 0),
    validBefore: BigInt(o.validBefore ?? now + 60),
    nonce: o.nonce ?? (('0x' + Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')) as Hex),
  }
  const signature = await acct.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: USDC },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization',
    message,
  })
  const authorization = {
    from: acct.address,
    to: o.tamper?.to ?? message.to,
    value: o.tamper?.value ?? message.value.toString(),
    validAfter: message.validAfter.toString(),
    validBefore: message.validBefore.toString(),
    nonce: o.tamper?.nonce ?? message.nonce,
  }
  const payload =
    o.version === 1
      ? { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature, authorization } }
      : { x402Version: 2, accepted: o.accepted ?? req, payload: { signature, authorization } }
  return Buffer.from(JSON.stringify(payload)).toString('base64')
}
