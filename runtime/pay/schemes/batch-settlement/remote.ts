/**
 * A network's channels over a remote facilitator that lists `batch-settlement` in /supported (docs/channels.md):
 * verify and settle (deposits, claims, sweeps, refunds) go over HTTP to it, through the same client, authentication
 * and circuit breakers as `exact` (facilitator/remote.ts, remote-list.ts). The receiver authorizer is ours when
 * CHANNEL_RECEIVER_AUTHORIZER_KEY is set (this server signs every claim and refund, the remote only relays them),
 * else the one the remote advertises in /supported (the remote signs).
 * @module pay/schemes/batch-settlement/remote
 */
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types'
import { BATCH_SETTLEMENT_DOMAIN, claimBatchTypes, refundTypes } from '@x402/evm'
import { getAddress, type Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT } from '../../../chain/addresses'
import type { StoredChannelConfig } from '../../../db/store'
import { createRpc } from '../../facilitator/settle/rpc'
import type { DecodedPayment, Facilitator, PaymentRequirements as ExactRequirements } from '../../types'
import { chainIdOf } from './doors'
import type { ChannelBackend, ChannelFacilitator } from './facilitator'
import { provenChannelFacilitator } from './remote-proof'
import { channelIdOf } from './voucher'

type Claim = { voucher: { channel: StoredChannelConfig; maxClaimableAmount: string }; totalClaimed: string }

const domain = (chainId: number) => ({
  ...BATCH_SETTLEMENT_DOMAIN,
  chainId,
  verifyingContract: getAddress(BATCH_SETTLEMENT),
})

/** The spec's ClaimBatch signature of the receiver authorizer over `claims`. */
const signClaims = (a: PrivateKeyAccount, claims: Claim[], chainId: number) =>
  a.signTypedData({
    domain: domain(chainId),
    types: claimBatchTypes,
    primaryType: 'ClaimBatch',
    message: {
      claims: claims.map((c) => ({
        channelId: channelIdOf(c.voucher.channel, chainId),
        maxClaimableAmount: BigInt(c.voucher.maxClaimableAmount),
        totalClaimed: BigInt(c.totalClaimed),
      })),
    },
  })

/**
 * A claim or refund payload with this server's authorizer signatures (`claimAuthorizerSignature`,
 * `refundAuthorizerSignature`), which the official facilitator uses as they are; any other payload unchanged.
 */
export async function withAuthorizerSignatures(
  p: PaymentPayload,
  network: string,
  a: PrivateKeyAccount,
): Promise<PaymentPayload> {
  const chainId = chainIdOf(network)
  const raw = p.payload as Record<string, unknown>
  if (chainId === null) return p
  if (raw.type === 'claim') {
    const claimAuthorizerSignature = await signClaims(a, raw.claims as Claim[], chainId)
    return { ...p, payload: { ...raw, claimAuthorizerSignature } }
  }
  if (raw.type === 'refund' && raw.channelConfig) {
    const config = raw.channelConfig as StoredChannelConfig
    const refundAuthorizerSignature = await a.signTypedData({
      domain: domain(chainId),
      types: refundTypes,
      primaryType: 'Refund',
      message: {
        channelId: channelIdOf(config, chainId),
        nonce: BigInt(String(raw.refundNonce)),
        amount: BigInt(String(raw.amount)),
      },
    })
    const claims = (raw.claims ?? []) as Claim[]
    const claimAuthorizerSignature = claims.length ? await signClaims(a, claims, chainId) : undefined
    return {
      ...p,
      payload: { ...raw, refundAuthorizerSignature, ...(claimAuthorizerSignature ? { claimAuthorizerSignature } : {}) },
    }
  }
  return p
}

/** The remote facilitator's verify/settle as the channel doors' and claim engine's facilitator. */
export function remoteChannelFacilitator(
  remote: Pick<Facilitator, 'verify' | 'settle'>,
  authorizer?: PrivateKeyAccount,
): ChannelFacilitator {
  // The remote client forwards `raw` as the paymentPayload and our requirements as they are (x402 v2).
  const decoded = (p: PaymentPayload) =>
    ({ x402Version: 2, scheme: 'batch-settlement', network: p.accepted?.network, raw: p }) as unknown as DecodedPayment
  const req = (r: PaymentRequirements) => r as unknown as ExactRequirements
  return {
    verify: async (p, r) => (await remote.verify(decoded(p), req(r))) as unknown as VerifyResponse,
    async settle(p, r) {
      const signed = authorizer ? await withAuthorizerSignatures(p, r.network, authorizer) : p
      return (await remote.settle(decoded(signed), req(r), () => {})) as unknown as SettleResponse
    },
  }
}

/**
 * One network's channel backend over a remote facilitator: our authorizer key when set, else the remote's advertised
 * receiverAuthorizer; with `rpcUrl`, chain reads (the watch, gas) and the remote's answers checked on chain.
 */
export function remoteChannelBackend(o: {
  network: string
  remote: Pick<Facilitator, 'verify' | 'settle'>
  authorizerKey?: string
  advertised?: string
  rpcUrl?: string
}): ChannelBackend {
  const ours = o.authorizerKey ? privateKeyToAccount(o.authorizerKey as Hex) : undefined
  const receiverAuthorizer = ours?.address ?? (o.advertised && getAddress(o.advertised))
  if (!receiverAuthorizer) throw new Error(`no receiver authorizer for channels on ${o.network}`)
  const facilitator = remoteChannelFacilitator(o.remote, ours)
  if (!o.rpcUrl) return { network: o.network, facilitator, receiverAuthorizer }
  // With the network's RPC: the remote's answers are checked on chain (remote-proof.ts).
  const rpc = createRpc(o.rpcUrl)
  return { network: o.network, facilitator: provenChannelFacilitator(facilitator, rpc), receiverAuthorizer, rpc }
}
