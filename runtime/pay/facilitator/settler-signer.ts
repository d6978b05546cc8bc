import type { Hex, Log } from 'viem'
import {
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  hashTypedData,
  isAddressEqual,
  recoverAddress,
} from 'viem/utils'
import type { Settler } from './settle/settler'
import { succeeded, type RawReceipt } from './settle/receipt'
import { hexToBig, isRevertError, withReadRetry } from './settle/rpc'

/** What `@x402/evm`'s facilitators call on their signer (`FacilitatorEvmSigner`), restated to keep this file typed. */
export interface FacilitatorSigner {
  getAddresses(): readonly Hex[]
  readContract(args: {
    address: Hex
    abi: readonly unknown[]
    functionName: string
    args?: readonly unknown[]
  }): Promise<unknown>
  verifyTypedData(args: {
    address: Hex
    domain: Record<string, unknown>
    types: Record<string, unknown>
    primaryType: string
    message: Record<string, unknown>
    signature: Hex
  }): Promise<boolean>
  writeContract(args: {
    address: Hex
    abi: readonly unknown[]
    functionName: string
    args: readonly unknown[]
    gas?: bigint
    dataSuffix?: Hex
  }): Promise<Hex>
  sendTransaction(args: { to: Hex; data: Hex }): Promise<Hex>
  waitForTransactionReceipt(args: { hash: Hex; timeout?: number }): Promise<{ status: string; logs?: readonly Log[] }>
  getCode(args: { address: Hex }): Promise<Hex | undefined>
}

const EIP1271_MAGIC = '0x1626ba7e'
const IS_VALID_SIGNATURE = [
  {
    type: 'function',
    name: 'isValidSignature',
    stateMutability: 'view',
    inputs: [
      { name: 'hash', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes4' }],
  },
] as const
/** Margin over `eth_estimateGas` for transactions whose gas the caller did not fix. */
const GAS_MARGIN_PCT = 125n

const toLog = (l: RawReceipt['logs'][number], r: RawReceipt): Log =>
  ({
    address: getAddress(l.address),
    topics: l.topics as [Hex, ...Hex[]],
    data: l.data as Hex,
    blockNumber: hexToBig(r.blockNumber),
    transactionHash: l.transactionHash as Hex,
    logIndex: Number(hexToBig(l.logIndex)),
    blockHash: null,
    transactionIndex: null,
    removed: false,
  }) as unknown as Log

/**
 * The signer `@x402/evm`'s facilitator schemes (batch-settlement: deposit, claim, sweep, refund) write through,
 * backed by this server's settlement pipeline instead of a wallet client of its own: every transaction takes a
 * nonce from the settler's lanes (no nonce reuse when many channels open at once), is fee-bumped when stuck and
 * recovered after a restart like an `exact` settlement.
 *
 * Reads (`eth_call` at `latest` for readContract and the facilitator's simulations, `eth_getCode`, `eth_estimateGas`,
 * receipts) are retried on transient node errors (`withReadRetry`: never a revert). A node answers a `latest` read
 * with an error now and then while it moves to the next block: anvil keeping no past state resolves `latest` to
 * block N, mines N+1, then finds no state for N ("BlockOutOfRangeError: block height is 23 but requested was 22",
 * code -32602), and load-balanced providers answer "header not found" from a node one block behind. Unretried,
 * the official facilitator turns such an answer into a refusal of a valid deposit (a failed simulation, an
 * unreadable payer code taken as a bad signature) or a thrown read (a 503), with nothing wrong with the payment.
 *
 * `writeContract` resolves with the first hash the pipeline signs; `waitForTransactionReceipt` on that hash resolves
 * with the receipt of whichever version was mined (a fee bump re-signs at the same nonce).
 */
export function settlerSigner(settler: Settler): FacilitatorSigner {
  const rpc = withReadRetry(settler.rpc) // reads only: every transaction goes through settler.submit
  const inFlight = new Map<Hex, Promise<RawReceipt>>()

  const call = async (to: Hex, data: Hex): Promise<Hex> => rpc<Hex>('eth_call', [{ to, data }, 'latest'])

  const sendTransaction = async ({ to, data, gas }: { to: Hex; data: Hex; gas?: bigint }): Promise<Hex> => {
    const from = settler.lanes[0].address
    const limit = gas ?? (hexToBig(await rpc<string>('eth_estimateGas', [{ from, to, data }])) * GAS_MARGIN_PCT) / 100n
    return new Promise<Hex>((resolve, reject) => {
      let first: Hex | undefined
      const receipt = settler.submit(to, data, limit, (h) => {
        if (first) return
        first = h
        inFlight.set(h, receipt)
        resolve(h)
      })
      receipt.then(
        () => {
          if (first) setTimeout(() => inFlight.delete(first as Hex), 60_000).unref?.()
        },
        (e) => {
          if (first) inFlight.delete(first)
          reject(e)
        },
      )
    })
  }

  return {
    getAddresses: () => settler.lanes.map((l) => l.address as Hex),

    async readContract({ address, abi, functionName, args }) {
      const data = encodeFunctionData({ abi, functionName, args: args ?? [] } as never)
      const ret = await call(address, data)
      return decodeFunctionResult({ abi, functionName, data: ret } as never)
    },

    async verifyTypedData({ address, domain, types, primaryType, message, signature }) {
      const digest = hashTypedData({ domain, types, primaryType, message } as never)
      if (signature.length === 132) {
        try {
          if (isAddressEqual(await recoverAddress({ hash: digest, signature }), address)) return true
        } catch {
          /* not a plain ECDSA signature: the wallet's contract may still accept it */
        }
      }
      const code = await rpc<Hex>('eth_getCode', [address, 'latest'])
      if (!code || code === '0x') return false
      try {
        const ret = await call(
          address,
          encodeFunctionData({ abi: IS_VALID_SIGNATURE, functionName: 'isValidSignature', args: [digest, signature] }),
        )
        return ret.slice(0, 10).toLowerCase() === EIP1271_MAGIC
      } catch (e) {
        if (isRevertError(e)) return false
        throw e
      }
    },

    async writeContract({ address, abi, functionName, args, gas, dataSuffix }) {
      let data = encodeFunctionData({ abi, functionName, args } as never) as Hex
      if (dataSuffix) data = `${data}${dataSuffix.slice(2)}` as Hex
      return sendTransaction({ to: address, data, gas })
    },

    sendTransaction: (a) => sendTransaction(a),

    async waitForTransactionReceipt({ hash, timeout = 60_000 }) {
      const pending = inFlight.get(hash)
      const r =
        (await pending) ??
        (await (async () => {
          for (const end = Date.now() + timeout; Date.now() < end; await Bun.sleep(200)) {
            const got = await rpc<RawReceipt | null>('eth_getTransactionReceipt', [hash])
            if (got) return got
          }
          throw new Error(`no receipt for ${hash.slice(0, 10)}… within ${timeout} ms`)
        })())
      return { status: succeeded(r) ? 'success' : 'reverted', logs: r.logs.map((l) => toLog(l, r)) }
    },

    async getCode({ address }) {
      const code = await rpc<Hex>('eth_getCode', [address, 'latest'])
      return code === '0x' ? undefined : code
    },
  }
}
