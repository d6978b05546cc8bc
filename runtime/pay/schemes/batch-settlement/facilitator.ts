import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types'
import type { Hex } from 'viem'
import { addressOfKey } from '../../fast-recover'
import type { RawReceipt } from '../../facilitator/settle/receipt'
import { hexToBig, type Rpc, withReadRetry } from '../../facilitator/settle/rpc'
import type { Settler } from '../../facilitator/settle/settler'
import { settlerSigner } from '../../facilitator/settler-signer'

/** The facilitator calls the channel doors and the claim engine make (the official `x402Facilitator`'s). */
export interface ChannelFacilitator {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>
}

/**
 * The official batch-settlement facilitator (`@x402/evm`), self-hosted: every deposit, claim, sweep and refund it
 * sends goes through this server's settlement pipeline (`settlerSigner`: nonce lanes, fee bumps, recovery), and it
 * signs claims and refunds with the receiver-authorizer key the 402 announces. Built on its first call: the official
 * modules (with viem's root entry and accounts, ~440 modules) are not loaded at boot, which they made ~40 % longer
 * with RPC_URL set (docs/benchmarks.md §5); the authorizer's address, which the 402 announces, is computed natively.
 */
export function channelFacilitator(
  settler: Settler,
  receiverAuthorizerKey: Hex,
  networks: string[],
): { facilitator: ChannelFacilitator; receiverAuthorizer: Hex } {
  const pipeline = minedHashes(settler)
  let official: Promise<ChannelFacilitator> | undefined
  const built = () =>
    (official ??= (async () => {
      const [{ x402Facilitator }, { BatchSettlementEvmScheme }, { privateKeyToAccount }] = await Promise.all([
        import('@x402/core/facilitator'),
        import('@x402/evm/batch-settlement/facilitator'),
        import('viem/accounts'),
      ])
      const scheme = new BatchSettlementEvmScheme(
        settlerSigner(pipeline.settler) as never,
        privateKeyToAccount(receiverAuthorizerKey) as never,
      )
      const f = new x402Facilitator()
      for (const n of networks) f.register(n as never, scheme)
      return f as unknown as ChannelFacilitator
    })())
  return {
    facilitator: {
      verify: async (payload, requirements) => (await built()).verify(payload, requirements),
      settle: async (payload, requirements) => {
        const res = await (await built()).settle(payload, requirements)
        const mined = res.transaction ? pipeline.take(res.transaction) : undefined
        return mined ? { ...res, transaction: mined } : res
      },
    },
    receiverAuthorizer: addressOfKey(receiverAuthorizerKey),
  }
}

/** How long the mined hash of a re-signed transaction is kept for the settle answer that names its first hash. */
const MINED_KEPT_MS = 600_000

/**
 * The settlement pipeline re-signs a transaction when its nonce turns out taken (another process sending with the
 * same key: instances sharing a database and a settler key) or when it is stuck (a fee bump): the version mined is
 * then not the first hash, which `settlerSigner` hands the official facilitator and which its settle answers as
 * `transaction`. The books read the chain by that hash (a claim is booked only once its receipt is seen, a sweep
 * and a refund by their receipt's events, gas by the receipt): with the first hash they would never find it, and a
 * landed claim would never be booked (nor swept). So the pipeline the official facilitator writes through is
 * watched, and each settle answer's hash is replaced with the one mined.
 */
function minedHashes(settler: Settler): { settler: Settler; take(tx: string): Hex | undefined } {
  const mined = new Map<string, Hex>()
  // What settlerSigner uses of a Settler (its reads, its lanes' addresses, submit), with submit watched.
  const watched = {
    rpc: settler.rpc,
    lanes: settler.lanes,
    submit(to: Hex, data: Hex, gas: bigint, onHash?: (h: Hex) => void) {
      let first: Hex | undefined
      return settler
        .submit(to, data, gas, (h) => {
          first ??= h
          onHash?.(h)
        })
        .then((r) => {
          const signed = first?.toLowerCase()
          if (signed && signed !== r.transactionHash.toLowerCase()) {
            mined.set(signed, r.transactionHash)
            setTimeout(() => mined.delete(signed), MINED_KEPT_MS).unref?.()
          }
          return r
        })
    },
  }
  return {
    settler: watched as unknown as Settler,
    take(tx) {
      const h = mined.get(tx.toLowerCase())
      if (h) mined.delete(tx.toLowerCase())
      return h
    },
  }
}

/** The label of the receiver-authorizer key derived from the first settler key (CHANNEL_RECEIVER_AUTHORIZER_KEY unset). */
export const AUTHORIZER_LABEL = 'x402 batch-settlement receiver authorizer'

/**
 * What one network's channels run on: the facilitator the doors and the claim engine call, the receiver authorizer
 * bound into its channels, and chain reads (the claim engine's watch of withdrawals, gas figures) where there are any.
 */
export interface ChannelBackend {
  network: string
  facilitator: ChannelFacilitator
  receiverAuthorizer: Hex
  /** The network's RPC (self-facilitation, or a remote facilitator with RPC_URL[_<id>]); without it: no watch, no gas. */
  rpc?: Rpc
}

/**
 * Self-facilitation on one network: the official facilitator over that network's settler. The receiver authorizer
 * is CHANNEL_RECEIVER_AUTHORIZER_KEY when set, else derived from the network's first settler key.
 */
export function localChannelBackend(settler: Settler, network: string, authorizerKey?: string): ChannelBackend {
  const key = (authorizerKey || settler.derivedKey(AUTHORIZER_LABEL)) as Hex
  const { facilitator, receiverAuthorizer } = channelFacilitator(settler, key, [network])
  return { network, facilitator, receiverAuthorizer, rpc: settler.rpc }
}

/**
 * Gas used and its effective price of a mined transaction (undefined when the node has no receipt for it), read with
 * retries on transient node errors (settler-signer.ts).
 */
export async function gasOf(rpc: Settler['rpc'], tx: string): Promise<{ gasUsed?: bigint; gasPrice?: bigint }> {
  try {
    const r = await withReadRetry(rpc)<RawReceipt | null>('eth_getTransactionReceipt', [tx])
    if (!r) return {}
    return { gasUsed: hexToBig(r.gasUsed), gasPrice: hexToBig(r.effectiveGasPrice) }
  } catch {
    return {}
  }
}
