import { hexToBig } from './rpc'

/** The fields of a JSON-RPC transaction receipt the pipeline uses (raw hex as the node sends it). */
export interface RawReceipt {
  transactionHash: `0x${string}`
  blockNumber: string
  status: string
  gasUsed: string
  effectiveGasPrice?: string
  logs: Array<{ address: string; topics: string[]; data: string; logIndex: string; transactionHash: string }>
}

export const succeeded = (r: RawReceipt) => hexToBig(r.status) === 1n
/** Wei the settler paid for this transaction. */
export const gasCost = (r: RawReceipt) => hexToBig(r.gasUsed) * hexToBig(r.effectiveGasPrice)
