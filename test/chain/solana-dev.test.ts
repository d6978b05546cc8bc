/**
 * The embedded Solana dev chain (LiteSVM + JSON-RPC): the official @x402/svm client pays through its RPC, the
 * official facilitator verifies and settles through it, the payee's USDC moves by exactly the price, and replayed,
 * wrong-mint and wrong-payee payments move nothing. Malformed RPC requests get JSON-RPC errors.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import {
  createKeyPairSignerFromBytes,
  getBase58Encoder,
  getBase64Encoder,
  getTransactionDecoder,
  type KeyPairSigner,
} from '@solana/kit'
import { FailedTransactionMetadata } from 'litesvm'
import { x402Client } from '@x402/core/client'
import { x402Facilitator } from '@x402/core/facilitator'
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types'
import { SOLANA_MAINNET_CAIP2, toFacilitatorSvmSigner, USDC_MAINNET_ADDRESS } from '@x402/svm'
import { ExactSvmScheme } from '@x402/svm/exact/client'
import { registerExactSvmScheme } from '@x402/svm/exact/facilitator'
import { SOLANA_USDC_MINT, usdcAccountOf } from '../../runtime/chain/solana/accounts'
import { newSolanaKey } from '../../runtime/chain/solana/keys'
import { MAX_RPC_BODY_BYTES } from '../../runtime/chain/solana/rpc-server'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'

const PRICE = 1_500n // 0.0015 USDC

let chain: SolanaDevChain
let payer: KeyPairSigner

const call = async (body: string | object, init: RequestInit = {}) => {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })
  return { status: res.status, json: (await res.json()) as { id?: unknown; result?: any; error?: { code: number } } }
}
const rpc = async (method: string, params: unknown[] = []) =>
  (await call({ jsonrpc: '2.0', id: 1, method, params })).json

const usdcOf = async (account: string): Promise<bigint> =>
  BigInt((await rpc('getTokenAccountBalance', [account])).result.value.amount)

const requirements = (over: Partial<PaymentRequirements> = {}): PaymentRequirements => ({
  scheme: 'exact',
  network: SOLANA_MAINNET_CAIP2,
  amount: PRICE.toString(),
  asset: SOLANA_USDC_MINT,
  payTo: chain.payee.address,
  maxTimeoutSeconds: 60,
  extra: { feePayer: chain.feePayer.address },
  ...over,
})

/** What the official client sends for `accepted` (the 402 carries only that one entry). */
const pay = (accepted: PaymentRequirements): Promise<PaymentPayload> =>
  new x402Client().register('solana:*', new ExactSvmScheme(payer, { rpcUrl: chain.url })).createPaymentPayload({
    x402Version: 2,
    resource: { url: 'http://127.0.0.1/services/example', description: 'example', mimeType: 'application/json' },
    accepts: [accepted],
  })

/** A fresh official facilitator (its duplicate cache empty, as after a restart or its 120 s window). */
const facilitator = () =>
  registerExactSvmScheme(new x402Facilitator(), {
    signer: toFacilitatorSvmSigner(chain.feePayer, { defaultRpcUrl: chain.url }),
    networks: SOLANA_MAINNET_CAIP2,
  })

beforeAll(async () => {
  chain = await startSolanaDevChain()
  payer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(chain.payer.secretBase58))
})
afterAll(() => chain?.stop())

describe('Solana dev chain', () => {
  test('USDC at its real mint, funded accounts, keys in the 64-byte base58 layout', async () => {
    expect(SOLANA_USDC_MINT).toBe(USDC_MAINNET_ADDRESS as typeof SOLANA_USDC_MINT)
    expect(payer.address).toBe(chain.payer.address)
    expect(getBase58Encoder().encode(chain.payer.secretBase58).length).toBe(64)
    expect(chain.payer.usdcAccount).toBe(await usdcAccountOf(chain.payer.address))
    expect(chain.payee.usdcAccount).toBe(await usdcAccountOf(chain.payee.address))
    const mint = (await rpc('getAccountInfo', [SOLANA_USDC_MINT, { encoding: 'base64' }])).result.value
    expect(mint.owner).toBe('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')
    expect(await usdcOf(chain.payer.usdcAccount)).toBe(1_000_000_000n)
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(0n)
    const usdc = (await rpc('getTokenAccountBalance', [chain.payer.usdcAccount])).result.value
    expect(usdc).toMatchObject({ decimals: 6, uiAmountString: '1000' })
    expect((await rpc('getBalance', [chain.feePayer.address])).result.value).toBe(100_000_000_000)
    expect((await rpc('getBalance', [chain.payer.address])).result.value).toBeGreaterThan(0)
    expect((await rpc('getBalance', [chain.payee.address])).result.value).toBeGreaterThan(0)
    expect((await rpc('getLatestBlockhash')).result.value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  })

  test('the official client pays, the official facilitator verifies and settles: the payee gets exactly the price', async () => {
    const before = { payer: await usdcOf(chain.payer.usdcAccount), payee: await usdcOf(chain.payee.usdcAccount) }
    const slot = chain.ledger.slot()
    const accepted = requirements()
    const payload = await pay(accepted)
    const f = facilitator()
    expect(await f.verify(payload, accepted)).toMatchObject({ isValid: true, payer: chain.payer.address })
    const settled = await f.settle(payload, accepted)
    expect(settled).toMatchObject({ success: true, network: SOLANA_MAINNET_CAIP2, payer: chain.payer.address })
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(before.payee + PRICE)
    expect(await usdcOf(chain.payer.usdcAccount)).toBe(before.payer - PRICE)
    expect(chain.ledger.slot()).toBe(slot + 1n) // one transaction, one "block"
    const [status] = (await rpc('getSignatureStatuses', [[settled.transaction]])).result.value
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized', status: { Ok: null } })

    // Replayed: the same facilitator's cache says so; a fresh one (restart, or past 120 s) re-signs the same
    // transaction to the same signature, and the chain refuses it. Nothing moves either way.
    expect(await f.settle(payload, accepted)).toMatchObject({ success: false, errorReason: 'duplicate_settlement' })
    const again = await facilitator().settle(payload, accepted)
    expect(again.success).toBe(false)
    expect(again.errorReason).toBe('invalid_exact_svm_transaction_failed')
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(before.payee + PRICE)
    expect(await usdcOf(chain.payer.usdcAccount)).toBe(before.payer - PRICE)
  })

  test('a payment in another token, or to another payee, fails verify and settle with nothing moved', async () => {
    const before = { payer: await usdcOf(chain.payer.usdcAccount), payee: await usdcOf(chain.payee.usdcAccount) }
    const slot = chain.ledger.slot()
    const f = facilitator()
    // The service asks for a token other than USDC; the payer pays USDC.
    const otherToken = requirements({ asset: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' })
    const inUsdc = await pay(requirements())
    expect(await f.verify(inUsdc, otherToken)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_svm_payload_mint_mismatch',
    })
    expect((await f.settle(inUsdc, otherToken)).success).toBe(false)
    // The payer pays someone else.
    const stranger = (await newSolanaKey()).signer.address
    const elsewhere = await pay(requirements({ payTo: stranger }))
    expect(await f.verify(elsewhere, requirements())).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_svm_payload_recipient_mismatch',
    })
    expect((await f.settle(elsewhere, requirements())).success).toBe(false)
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(before.payee)
    expect(await usdcOf(chain.payer.usdcAccount)).toBe(before.payer)
    expect(chain.ledger.slot()).toBe(slot)
  })

  test('a payment to a payee without a USDC account fails in simulation (the payee ATA prerequisite)', async () => {
    const stranger = (await newSolanaKey()).signer.address
    const accepted = requirements({ payTo: stranger })
    const verdict = await facilitator().verify(await pay(accepted), accepted)
    expect(verdict).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_svm_transaction_simulation_failed' })
  })

  test('malformed requests get JSON-RPC errors, and the server keeps answering', async () => {
    expect((await call('{not json')).json.error?.code).toBe(-32700)
    expect((await call('[]')).json.error?.code).toBe(-32600)
    expect((await call('42')).json.error?.code).toBe(-32600)
    expect((await call({ jsonrpc: '1.0', id: 1, method: 'getSlot' })).json.error?.code).toBe(-32600)
    expect((await call({ jsonrpc: '2.0', id: { x: 1 }, method: 'getSlot' })).json.error?.code).toBe(-32600)
    expect((await call({ jsonrpc: '2.0', id: 7, method: 'getSlot', params: {} })).json).toMatchObject({
      id: 7,
      error: { code: -32602 },
    })
    expect((await rpc('nope')).error?.code).toBe(-32601)
    expect((await rpc('__proto__')).error?.code).toBe(-32601)
    expect((await rpc('getBalance', ['not-an-address'])).error?.code).toBe(-32602)
    expect((await rpc('getBalance', [chain.payer.address, 'x'])).error?.code).toBe(-32602)
    expect((await rpc('getTokenAccountBalance', [chain.payer.address])).error?.code).toBe(-32602)
    expect((await rpc('getAccountInfo', [SOLANA_USDC_MINT, { encoding: 'jsonParsed' }])).error?.code).toBe(-32602)
    expect((await rpc('sendTransaction', ['AAAA', { encoding: 'base64' }])).error?.code).toBe(-32602)
    expect((await rpc('sendTransaction', ['x'.repeat(5000), { encoding: 'base64' }])).error?.code).toBe(-32602)
    expect((await rpc('simulateTransaction', [42, { encoding: 'base64' }])).error?.code).toBe(-32602)
    expect((await rpc('getSignatureStatuses', ['sig'])).error?.code).toBe(-32602)
    expect((await rpc('getSignatureStatuses', [[42, 'unknown']])).result.value).toEqual([null, null])
    const big = await call({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: ['x'.repeat(MAX_RPC_BODY_BYTES)] })
    expect(big.status).toBe(413)
    const get = await fetch(chain.url)
    expect(get.status).toBe(405)
    expect(((await get.json()) as { error: { code: number } }).error.code).toBe(-32600)
    expect((await rpc('getHealth')).result).toBe('ok')
  })

  test('a transaction without the fee payer signature is refused by sendTransaction, nothing moved', async () => {
    const payload = await pay(requirements())
    const payee = await usdcOf(chain.payee.usdcAccount)
    const slot = chain.ledger.slot()
    const unsigned = (payload.payload as { transaction: string }).transaction
    expect((await rpc('sendTransaction', [unsigned, { encoding: 'base64' }])).error?.code).toBe(-32003)
    const simulated = await rpc('simulateTransaction', [unsigned, { encoding: 'base64', sigVerify: true }])
    expect(simulated.error?.code).toBe(-32003)
    const unchecked = await rpc('simulateTransaction', [unsigned, { encoding: 'base64', sigVerify: false }])
    expect(unchecked.result.value.err).toBeNull()
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(payee)
    expect(chain.ledger.slot()).toBe(slot)
  })

  test('a fully signed transaction sent twice is refused the second time, and its status stays answerable', async () => {
    const accepted = requirements()
    const payload = await pay(accepted)
    const settled = await facilitator().settle(payload, accepted)
    expect(settled.success).toBe(true)
    const payee = await usdcOf(chain.payee.usdcAccount)
    // Re-sign as the facilitator does and send the identical wire transaction straight to the RPC.
    const signer = toFacilitatorSvmSigner(chain.feePayer, { defaultRpcUrl: chain.url })
    const wire = await signer.signTransaction(
      (payload.payload as { transaction: string }).transaction,
      chain.feePayer.address,
      SOLANA_MAINNET_CAIP2,
    )
    const resent = await rpc('sendTransaction', [wire, { encoding: 'base64', skipPreflight: true }])
    expect(resent.error?.code).toBe(-32002)
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(payee)
    const [status] = (await rpc('getSignatureStatuses', [[settled.transaction]])).result.value
    expect(status.confirmationStatus).toBe('finalized')
  })
  test('LiteSVM keeps enough history: a transaction resent after 40 others is still AlreadyProcessed', async () => {
    const signer = toFacilitatorSvmSigner(chain.feePayer, { defaultRpcUrl: chain.url })
    const signed = async () => {
      const payload = await pay(requirements({ amount: '1' }))
      const tx = (payload.payload as { transaction: string }).transaction
      return signer.signTransaction(tx, chain.feePayer.address, SOLANA_MAINNET_CAIP2)
    }
    const decode = (wire: string) => getTransactionDecoder().decode(getBase64Encoder().encode(wire))
    const first = decode(await signed())
    expect(chain.ledger.svm.sendTransaction(first)).not.toBeInstanceOf(FailedTransactionMetadata)
    for (let i = 0; i < 40; i++) {
      expect(chain.ledger.svm.sendTransaction(decode(await signed()))).not.toBeInstanceOf(FailedTransactionMetadata)
    }
    // Straight to the VM, past the RPC's own seen-signature guard: LiteSVM's history (default ~32) still knows it.
    const payee = await usdcOf(chain.payee.usdcAccount)
    const again = chain.ledger.svm.sendTransaction(first)
    expect(again).toBeInstanceOf(FailedTransactionMetadata)
    expect(String(again)).toContain('AlreadyProcessed')
    expect(await usdcOf(chain.payee.usdcAccount)).toBe(payee)
  })

  test('litesvm (a native module) is loaded only when a chain starts', async () => {
    const script = [
      "const loaded = () => Object.keys(require.cache).some((k) => k.includes('/node_modules/litesvm/'))",
      "const { startSolanaDevChain } = await import('./runtime/chain/solana/start')",
      'const before = loaded()',
      'const c = await startSolanaDevChain()',
      'console.log(before, loaded())',
      'await c.stop()',
    ].join('\n')
    const proc = Bun.spawn([process.execPath, '-e', script], { cwd: join(import.meta.dir, '../..'), stdout: 'pipe' })
    expect(await new Response(proc.stdout).text()).toBe('false true\n')
    expect(await proc.exited).toBe(0)
  })
})
