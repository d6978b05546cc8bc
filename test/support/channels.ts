/**
 * A payment-channel rig on the dev chain: our settlement pipeline behind the official batch-settlement facilitator,
 * a channel store (SQLite file or a given store), the channel doors, and payers using the official client
 * (`@x402/evm/batch-settlement/client`) exactly as `@x402/fetch` drives it: payload, then the PAYMENT-RESPONSE or
 * the corrective 402 through its own hooks.
 */
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types'
import { toClientEvmSigner } from '@x402/evm'
import { verifyReceiptSignatureJWS } from '@x402/extensions/offer-receipt'
import { BatchSettlementEvmScheme as ClientScheme } from '@x402/evm/batch-settlement/client'
import { createPublicClient, createWalletClient, http, parseAbi, publicActions, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BATCH_SETTLEMENT } from '../../runtime/chain/addresses'
import { abiOf } from '../../runtime/chain/contracts'
import { fundPayer, type DevChain } from '../../runtime/chain/devchain'
import { localBase, setEthBalance, USDC_BASE } from '../../runtime/chain/usdc'
import type { ChannelStore } from '../../runtime/db/store'
import {
  correctiveRequirements,
  type ChannelDoors,
  type ChannelRefusal,
} from '../../runtime/pay/schemes/batch-settlement/doors'
import {
  channelFacilitator,
  gasOf,
  type ChannelFacilitator,
} from '../../runtime/pay/schemes/batch-settlement/facilitator'
import { channelRequirements } from '../../runtime/pay/schemes/batch-settlement/requirements'
import { createRpc } from '../../runtime/pay/facilitator/settle/rpc'
import { Settler } from '../../runtime/pay/facilitator/settle/settler'

export const NETWORK = 'eip155:8453'
export const PRICE = 1000n
/** The rig's minimum deposit, which the official client deposits (it is above 10 × the price). */
export const DEPOSIT = 100_000n

export interface ChannelRig {
  settler: Settler
  facilitator: ChannelFacilitator
  /** Calls the doors made to the facilitator (a voucher on a kept channel makes none). */
  facilitatorCalls: { verify: number; settle: number }
  requirements: PaymentRequirements
  doors: ChannelDoors
  gasOf: (tx: string) => Promise<{ gasUsed?: bigint; gasPrice?: bigint }>
}

/** The chain fields the rig uses (a child process gets them as JSON). */
export type RigChain = Pick<DevChain, 'rpcUrl' | 'usdc'> & {
  settler: Pick<DevChain['settler'], 'privateKey'>
  payee: Pick<DevChain['payee'], 'address'>
}

/**
 * The rig on `chain`. `authorizerKey` is the receiver authorizer bound into every channel's config: a process that
 * takes over the channels of another (a restart) uses the same one.
 */
export function channelRig(
  chain: RigChain,
  store: ChannelStore,
  o: { minDeposit?: bigint; authorizerKey?: Hex } = {},
): ChannelRig {
  const minDeposit = o.minDeposit ?? DEPOSIT
  const settler = new Settler(createRpc(chain.rpcUrl), {
    chainId: 8453,
    keys: [chain.settler.privateKey],
    blockTimeMs: 1000,
    pollMs: 50,
    stuckBlocks: 3,
  })
  const { facilitator: inner, receiverAuthorizer } = channelFacilitator(
    settler,
    o.authorizerKey ?? generatePrivateKey(),
    [NETWORK],
  )
  const facilitatorCalls = { verify: 0, settle: 0 }
  const facilitator: ChannelFacilitator = {
    verify: (p, r) => (facilitatorCalls.verify++, inner.verify(p, r)),
    settle: (p, r) => (facilitatorCalls.settle++, inner.settle(p, r)),
  }
  const requirements = channelRequirements(
    {
      network: NETWORK,
      amount: String(PRICE),
      asset: chain.usdc,
      payTo: chain.payee.address,
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin', version: '2' },
    },
    { receiverAuthorizer, minDeposit, withdrawDelay: 900 },
  )
  const gas = (tx: string) => gasOf(settler.rpc, tx)
  return {
    settler,
    facilitator: inner,
    facilitatorCalls,
    requirements,
    doors: { store, facilitator, minDeposit, gasOf: gas, rpc: settler.rpc },
    gasOf: gas,
  }
}

/** A payer with `usdc` atomic units and some ETH, paying through the official client. */
export async function channelPayer(chain: DevChain, usdc: bigint, salt?: Hex) {
  const key = generatePrivateKey()
  const account = privateKeyToAccount(key)
  await Promise.all([fundPayer(chain, account.address, usdc), setEthBalance(chain.rpcUrl, account.address, 10n ** 17n)])
  const client = (s = salt) => clientFor(chain.rpcUrl, key, s)
  return { key, account, client: client(), newClient: client }
}

/**
 * Funds payers with `usdc` and some ETH without waiting a block per payer (one admin nonce each, sent at once, then
 * the receipts): quick also on a chain mining on an interval.
 */
export async function fundPayers(chain: Pick<DevChain, 'rpcUrl' | 'admin'>, keys: Hex[], usdc: bigint) {
  const w = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(chain.admin.privateKey),
  })
  const pub = createPublicClient({ chain: localBase(chain.rpcUrl), transport: http(chain.rpcUrl), pollingInterval: 50 })
  const nonce = await pub.getTransactionCount({ address: w.account.address, blockTag: 'pending' })
  const mint = parseAbi(['function mint(address to, uint256 amount) returns (bool)'])
  const hashes = await Promise.all(
    keys.map((k, i) =>
      w.writeContract({
        address: USDC_BASE,
        abi: mint,
        functionName: 'mint',
        args: [privateKeyToAccount(k).address, usdc],
        nonce: nonce + i,
        gas: 200_000n,
      }),
    ),
  )
  await Promise.all(keys.map((k) => setEthBalance(chain.rpcUrl, privateKeyToAccount(k).address, 10n ** 17n)))
  for (const h of hashes) await pub.waitForTransactionReceipt({ hash: h })
}

/** The official client for a funded payer key (fresh local channel state). */
export function clientFor(rpcUrl: string, key: Hex, salt?: Hex): ClientScheme {
  const publicClient = createPublicClient({ chain: localBase(rpcUrl), transport: http(rpcUrl) })
  return new ClientScheme(toClientEvmSigner(privateKeyToAccount(key), publicClient as never), {
    depositPolicy: { depositMultiplier: 10 },
    ...(salt ? { salt } : {}),
  })
}

/** What @x402/fetch does with a payload: the full PaymentPayload for `requirements`. */
export async function pay(client: ClientScheme, requirements: PaymentRequirements): Promise<PaymentPayload> {
  const p = await client.createPaymentPayload(2, requirements)
  return { ...p, accepted: requirements } as PaymentPayload
}

/** The client reads a PAYMENT-RESPONSE (its channel state moves on). */
export async function hear(
  client: ClientScheme,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  settleResponse: SettleResponse,
) {
  await client.schemeHooks.onPaymentResponse?.({ paymentPayload: payload, requirements, settleResponse } as never)
}

/** The client reads a corrective 402 built from a refusal: true when it resynchronized. */
export const correct = (client: ClientScheme, requirements: PaymentRequirements, refusal: ChannelRefusal) =>
  client.processCorrectivePaymentRequired({
    x402Version: 2,
    error: refusal.reason,
    resource: { url: 'http://test/api/x' },
    accepts: [correctiveRequirements(requirements, refusal)],
  } as never)

/** The payer's own wallet calls on the settlement contract (timed withdrawal). */
export function payerWallet(chain: DevChain, key: Hex) {
  const w = createWalletClient({
    chain: localBase(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    account: privateKeyToAccount(key),
    pollingInterval: 20,
  }).extend(publicActions)
  return async (functionName: string, args: unknown[]) =>
    w.waitForTransactionReceipt({
      hash: await w.writeContract({
        address: BATCH_SETTLEMENT,
        abi: abiOf('X402BatchSettlement'),
        functionName,
        args,
      } as never),
    })
}

/**
 * The signed receipt of a channel-paid answer (a settle response's `extensions["offer-receipt"]`), verified with the
 * extension's own verifier against the key the server publishes at /.well-known/did.json; returns its payload.
 */
export async function channelReceipt(serverUrl: string, response: unknown): Promise<Record<string, unknown>> {
  const receipt = (response as { extensions?: Record<string, { info?: { receipt?: unknown } }> }).extensions?.[
    'offer-receipt'
  ]?.info?.receipt
  if (!receipt) throw new Error('no offer-receipt in the settle response')
  const did = (await (await fetch(`${serverUrl}/.well-known/did.json`)).json()) as {
    verificationMethod: Array<{ publicKeyJwk: Parameters<typeof verifyReceiptSignatureJWS>[1] }>
  }
  return (await verifyReceiptSignatureJWS(
    receipt as Parameters<typeof verifyReceiptSignatureJWS>[0],
    did.verificationMethod[0]!.publicKeyJwk,
  )) as unknown as Record<string, unknown>
}
