/**
 * Solana `exact` through a remote facilitator (SOLANA_FACILITATOR_URL): its /supported names the fee payer
 * (`extra.feePayer` of its `exact` kind on the network), verify and settle are its x402 v2 /verify and /settle (the
 * EVM remote client's bodies, bounded answers and timeouts: runtime/pay/facilitator/remote.ts), and the chain reads
 * stay on SOLANA_RPC_URL. Its fee payer signs, so the transaction id is known only from its settle answer.
 * @module pay/schemes/svm-exact/remote-backend
 */
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types'
import { createRemoteFacilitator } from '../../facilitator/remote'
import type { DecodedPayment, PaymentRequirements as OurRequirements } from '../../types'
import { type SvmBackend, svmChainReads } from './backend'

/** A Solana transaction id: a base58 Ed25519 signature (64 bytes: 86-88 characters). */
const SOLANA_TX = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/

type Remote = ReturnType<typeof createRemoteFacilitator>

/** The fee payer the facilitator names for `exact` on `network` (x402 v2), or why it cannot be used. */
export async function remoteFeePayer(remote: Remote, network: string): Promise<{ feePayer: string } | { why: string }> {
  let kinds: Awaited<ReturnType<Remote['supported']>>['kinds']
  try {
    kinds = (await remote.supported()).kinds
  } catch (e) {
    return {
      why: `the Solana facilitator ${remote.url} did not answer /supported: ${(e as Error).message.slice(0, 200)}`,
    }
  }
  const kind = kinds.find((k) => k.x402Version === 2 && k.scheme === 'exact' && k.network === network)
  if (!kind)
    return { why: `the Solana facilitator ${remote.url} does not list x402 v2 \`exact\` on ${network} in /supported` }
  const feePayer = kind.extra?.feePayer
  if (typeof feePayer !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(feePayer))
    return { why: `the Solana facilitator ${remote.url} lists \`exact\` on ${network} without a valid extra.feePayer` }
  return { feePayer }
}

export function remoteSvmFacilitator(url: string): Remote {
  return createRemoteFacilitator({ url, transactionPattern: SOLANA_TX })
}

/** The x402 v2 payload as the remote client sends it (`paymentPayload` is the payload as the payer sent it). */
const decoded = (payload: PaymentPayload) => ({ x402Version: 2, raw: payload }) as unknown as DecodedPayment
const ours = (req: PaymentRequirements) => req as unknown as OurRequirements

export function remoteSvmBackend(network: string, rpcUrl: string, remote: Remote, feePayer: string): SvmBackend {
  return {
    kind: 'remote',
    network,
    feePayer,
    async verify(payload, req): Promise<VerifyResponse> {
      return (await remote.verify(decoded(payload), ours(req))) as unknown as VerifyResponse
    },
    /** A clean answer as it stands; anything else `settlement_pending` (remote.ts), reconciled from the chain. */
    async settle(payload, req): Promise<SettleResponse> {
      const r = await remote.settle(decoded(payload), ours(req), () => {})
      return { ...r, network: network as SettleResponse['network'] } as unknown as SettleResponse
    },
    transactionId: async () => null,
    ...svmChainReads(rpcUrl),
  }
}
