import {
  type Address,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isAddress,
  type Transaction,
} from '@solana/kit'
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import type { SolanaLedger } from './ledger'

/** A JSON-RPC error answer (`code` per JSON-RPC 2.0 and Solana's RPC). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

type Method = (ledger: SolanaLedger, params: unknown[]) => unknown

/** Blocks a blockhash stays valid for, as on mainnet (the dev chain never expires one: see solana.md §9). */
const BLOCKHASH_VALID_BLOCKS = 150n
/** A wire transaction is at most 1,232 bytes; its base64 about 1,644 characters. */
const MAX_TX_BASE64 = 2_048
const MAX_SIGNATURES_PER_CALL = 256

const invalid = (what: string) => new RpcError(-32602, `Invalid params: ${what}`)

const addressParam = (params: unknown[], i = 0): Address => {
  const value = params[i]
  if (typeof value !== 'string' || !isAddress(value)) throw invalid('not a base58 address')
  return value
}

const optionsParam = (params: unknown[], i: number): Record<string, unknown> => {
  const value = params[i]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('options must be an object')
  return value as Record<string, unknown>
}

const transactionParam = (
  params: unknown[],
): { tx: Transaction; signature: string; wire: Uint8Array; accounts: string[] } => {
  const wire = params[0]
  const encoding = optionsParam(params, 1).encoding ?? 'base58'
  if (encoding !== 'base64') throw invalid('only base64 encoding is served')
  if (typeof wire !== 'string' || wire.length === 0 || wire.length > MAX_TX_BASE64) throw invalid('transaction')
  try {
    const bytes = new Uint8Array(getBase64Encoder().encode(wire))
    const tx = getTransactionDecoder().decode(bytes)
    const first = Object.values(tx.signatures)[0]
    const accounts = getCompiledTransactionMessageDecoder().decode(tx.messageBytes).staticAccounts
    return { tx, signature: getBase58Decoder().decode(first ?? new Uint8Array(64)), wire: bytes, accounts }
  } catch {
    throw invalid('could not decode the transaction')
  }
}

const context = (ledger: SolanaLedger) => ({ slot: ledger.slot() })

const statusJson = (ledger: SolanaLedger, signature: unknown) => {
  const status = typeof signature === 'string' ? ledger.status(signature) : null
  if (!status) return null
  return {
    slot: status.slot,
    confirmations: null,
    err: status.err,
    status: status.err ? { Err: status.err } : { Ok: null },
    confirmationStatus: 'finalized',
  }
}

/** The Solana JSON-RPC methods the official x402 client and facilitator call, and a wallet's balance reads. */
export const methods: Record<string, Method> = {
  getHealth: () => 'ok',
  getSlot: (ledger) => ledger.slot(),
  getBlockHeight: (ledger) => ledger.slot(),
  getMinimumBalanceForRentExemption: (ledger, params) => {
    const size = params[0]
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0 || size > 10_485_760) throw invalid('size')
    return ledger.svm.minimumBalanceForRentExemption(BigInt(size))
  },
  getLatestBlockhash: (ledger) => ({
    context: context(ledger),
    value: { blockhash: ledger.svm.latestBlockhash(), lastValidBlockHeight: ledger.slot() + BLOCKHASH_VALID_BLOCKS },
  }),
  getBalance: (ledger, params) => {
    const address = addressParam(params)
    optionsParam(params, 1)
    return { context: context(ledger), value: ledger.svm.getBalance(address) ?? 0n }
  },
  getAccountInfo: (ledger, params) => {
    const address = addressParam(params)
    const encoding = optionsParam(params, 1).encoding ?? 'base64'
    if (encoding !== 'base64') throw invalid('only base64 encoding is served')
    const account = ledger.svm.getAccount(address)
    return {
      context: context(ledger),
      value: account.exists
        ? {
            data: [getBase64Decoder().decode(account.data), 'base64'],
            executable: account.executable,
            lamports: account.lamports,
            owner: account.programAddress,
            rentEpoch: 0,
            space: account.space,
          }
        : null,
    }
  },
  getTokenAccountBalance: (ledger, params) => {
    const address = addressParam(params)
    optionsParam(params, 1)
    const account = ledger.svm.getAccount(address)
    if (!account.exists || account.programAddress !== TOKEN_PROGRAM_ADDRESS || account.data.length !== 165) {
      throw invalid('not a Token account')
    }
    const token = getTokenDecoder().decode(account.data)
    const mint = ledger.svm.getAccount(token.mint)
    const decimals = mint.exists ? getMintDecoder().decode(mint.data).decimals : 0
    const ui = (Number(token.amount) / 10 ** decimals).toString()
    return {
      context: context(ledger),
      value: { amount: token.amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui },
    }
  },
  getSignatureStatuses: (ledger, params) => {
    const signatures = params[0]
    if (!Array.isArray(signatures) || signatures.length > MAX_SIGNATURES_PER_CALL) throw invalid('signatures')
    return { context: context(ledger), value: signatures.map((s) => statusJson(ledger, s)) }
  },
  /** Newest first, as Solana answers; `before`/`until` paging is not served (the dev chain is small). */
  getSignaturesForAddress: (ledger, params) => {
    const address = addressParam(params)
    const limit = optionsParam(params, 1).limit ?? 1000
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit')
    return ledger.history(address, limit).map((t) => ({
      signature: t.signature,
      slot: t.slot,
      err: t.err,
      memo: null,
      blockTime: t.blockTime,
      confirmationStatus: 'finalized',
    }))
  },
  getTransaction: (ledger, params) => {
    const signature = params[0]
    if (typeof signature !== 'string') throw invalid('signature')
    if ((optionsParam(params, 1).encoding ?? 'json') !== 'base64') throw invalid('only base64 encoding is served')
    const t = ledger.transaction(signature)
    if (!t) return null
    return {
      slot: t.slot,
      blockTime: t.blockTime,
      version: 0,
      transaction: [getBase64Decoder().decode(t.wire), 'base64'],
      meta: { err: t.err, status: t.err ? { Err: t.err } : { Ok: null }, fee: 10_000 },
    }
  },
  simulateTransaction: (ledger, params) => {
    const { tx } = transactionParam(params)
    const options = optionsParam(params, 1)
    let result: ReturnType<SolanaLedger['simulate']>
    try {
      result = ledger.simulate(tx, {
        sigVerify: options.sigVerify === true,
        replaceRecentBlockhash: options.replaceRecentBlockhash === true,
      })
    } catch {
      throw new RpcError(-32003, 'Transaction signature verification failure')
    }
    return {
      context: context(ledger),
      value: {
        err: result.err,
        logs: result.logs,
        accounts: null,
        unitsConsumed: result.unitsConsumed,
        returnData: null,
      },
    }
  },
  sendTransaction: (ledger, params) => {
    const { tx, signature, wire, accounts } = transactionParam(params)
    let landed: ReturnType<SolanaLedger['send']>
    try {
      landed = ledger.send(tx, signature, accounts, wire)
    } catch {
      // LiteSVM throws when a required signature is missing or does not verify.
      throw new RpcError(-32003, 'Transaction signature verification failure')
    }
    if (!landed) {
      // Solana's answer when preflight finds the transaction already processed (kit reads `data.err`).
      const data = { err: 'AlreadyProcessed', logs: [], accounts: null, unitsConsumed: 0, returnData: null }
      throw new RpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', data)
    }
    return signature
  },
}
