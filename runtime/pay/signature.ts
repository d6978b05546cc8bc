import { recoverTypedDataAddress, getAddress } from 'viem/utils'
import type { Authorization, PaymentRequirements } from './types'
import { TRANSFER_WITH_AUTHORIZATION } from './eip3009-abi'
import { recoverNative } from './fast-recover'

/** EIP-712 typed data of an EIP-3009 authorization, built from OUR requirements (domain) and the client's message. */
export function typedData(a: Authorization, req: PaymentRequirements) {
  return {
    domain: {
      name: req.extra.name,
      version: req.extra.version,
      chainId: Number(req.network.split(':')[1]),
      verifyingContract: getAddress(req.asset),
    },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization' as const,
    message: {
      from: a.from,
      to: a.to,
      value: BigInt(a.value),
      validAfter: BigInt(a.validAfter),
      validBefore: BigInt(a.validBefore),
      nonce: a.nonce,
    },
  }
}

/** The address that signed the authorization with viem's pure-JS recovery (the reference path). */
export async function recoverSignerPureJs(
  a: Authorization,
  signature: `0x${string}`,
  req: PaymentRequirements,
): Promise<string> {
  return recoverTypedDataAddress({ ...typedData(a, req), signature })
}

/** The address that signed the authorization (ECDSA recovery, no RPC): native libsecp256k1 when available, else viem. */
export async function recoverSigner(
  a: Authorization,
  signature: `0x${string}`,
  req: PaymentRequirements,
): Promise<string> {
  return recoverNative(a, signature, req) ?? recoverSignerPureJs(a, signature, req)
}
