/** MPP's own client (mppx: `evm` `charge` with USDC on Base), and what each of its requests carried. */
import { evm, Mppx } from 'mppx/client'
import { Challenge, Credential } from 'mppx'
import { authorizationDomain, authorizationTypes, challengeHash } from 'mppx/evm'
import { getAddress, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** Which payment header a request carried: MPP's, x402's, or none. */
export type Carried = 'authorization: payment' | 'payment-signature' | 'x-payment' | 'none'

export const carriedBy = (h: Headers): Carried =>
  /^payment\s/i.test(h.get('authorization') ?? '')
    ? 'authorization: payment'
    : h.has('payment-signature')
      ? 'payment-signature'
      : h.has('x-payment')
        ? 'x-payment'
        : 'none'

/**
 * mppx's client paying as `key` (no global fetch polyfill), its fetch recording which header every request it sent
 * carried (`carried`, in order), and the `Authorization: Payment` credentials it sent (`credentials`, in order).
 */
export function mppClient(key: Hex) {
  const carried: Carried[] = []
  const credentials: string[] = []
  const recording = (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    carried.push(carriedBy(req.headers))
    if (carried.at(-1) === 'authorization: payment') credentials.push(req.headers.get('authorization')!)
    return fetch(req)
  }
  const mppx = Mppx.create({
    methods: [evm.charge({ account: privateKeyToAccount(key), currencies: [evm.assets.base.USDC] })],
    polyfill: false,
    fetch: recording as typeof fetch,
  })
  return { mppx, fetch: mppx.fetch, carried, credentials }
}

/** The MPP challenges of a 402 (its `WWW-Authenticate: Payment` values). */
export const challengesOf = (res: Response) => Challenge.fromResponseList(res)

/** A credential's JSON changed by `f`, encoded again (tampering tests). */
export function tampered(credential: string, f: (c: any) => void): string {
  const c = JSON.parse(Buffer.from(credential.replace(/^Payment\s+/, ''), 'base64url').toString())
  f(c)
  return `Payment ${Buffer.from(JSON.stringify(c)).toString('base64url')}`
}

/**
 * A credential for `challenge` signed by `key` as mppx's client signs one (EIP-3009 `TransferWithAuthorization`,
 * nonce keccak256(id + realm), validBefore = expires), without its client's checks: for a challenge that client
 * refuses to pay (expired), or `change`d fields signed as such.
 */
export async function signCredential(
  key: Hex,
  challenge: ReturnType<typeof Challenge.from>,
  change: { to?: Hex; value?: string; validBefore?: string } = {},
): Promise<string> {
  const account = privateKeyToAccount(key)
  const request = challenge.request as any
  const message = {
    from: account.address,
    to: getAddress(change.to ?? request.recipient),
    value: BigInt(change.value ?? request.amount),
    validAfter: 0n,
    validBefore: BigInt(change.validBefore ?? Math.floor(Date.parse(challenge.expires!) / 1000)),
    nonce: challengeHash(challenge),
  }
  const signature = await account.signTypedData({
    domain: authorizationDomain({
      authorization: { name: 'USD Coin', version: '2' },
      chainId: request.methodDetails.chainId,
      currency: request.currency,
    }),
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
  })
  return Credential.serialize(
    Credential.from({
      challenge,
      payload: {
        type: 'authorization',
        from: message.from,
        to: message.to,
        value: message.value.toString(),
        validAfter: '0',
        validBefore: message.validBefore.toString(),
        nonce: message.nonce,
        signature,
      },
      source: `did:pkh:eip155:${request.methodDetails.chainId}:${account.address}`,
    }),
  )
}
