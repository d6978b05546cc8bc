/**
 * Solana `exact` across crashes and restarts, with a real server process on the embedded Solana dev chain: kill -9
 * while the payment's transaction is on its way to the chain (held by the RPC proxy, which delivers it afterwards),
 * restart on the same database: the boot reconciliation finds the transaction by its id, settles the payment once,
 * and books = chain. The same payment is then refused for another request (the ledger remembers it across the
 * restart, long after @x402/svm's in-memory 120 s duplicate cache is gone) and collects its kept answer for the
 * identical one, with nothing charged twice.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KeyPairSigner } from '@solana/kit'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { type FaultProxy, startFaultProxy } from '../support/rpc-faults'
import { post } from '../support/server'
import { readDb, startServerProcess, UNREACHABLE_CHAIN } from '../support/server-process'
import { paymentRequiredOf, solanaPayer, solanaPaymentHeader, usdcOf } from '../support/solana'
import { until } from '../support/until'

let chain: SolanaDevChain
let proxy: FaultProxy
let payer: KeyPairSigner
let dir: string
beforeAll(async () => {
  chain = await startSolanaDevChain()
  proxy = startFaultProxy(chain.url)
  payer = await solanaPayer(chain)
  dir = mkdtempSync(join(tmpdir(), 'solana-crash-'))
})
afterAll(async () => {
  proxy?.stop()
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
})

const dbPath = () => join(dir, 'db.sqlite')
const start = () =>
  startServerProcess({
    ...UNREACHABLE_CHAIN,
    DATABASE_PATH: dbPath(),
    SOLANA_RPC_URL: proxy.url,
    SOLANA_FEE_PAYER_KEY: chain.feePayerSecretBase58,
    SOLANA_PAY_TO: chain.payee.address,
  })

type Row = { id: number; state: string; tx_hash: string | null; amount: string }
const solanaRows = (): Row[] =>
  readDb(
    dbPath(),
    (db) =>
      db
        .query('SELECT id, state, tx_hash, amount FROM payments WHERE network = ? ORDER BY id')
        .all(SOLANA_MAINNET_CAIP2) as Row[],
  )
const settledTotal = () =>
  solanaRows()
    .filter((r) => r.state === 'settled')
    .reduce((n, r) => n + BigInt(r.amount), 0n)

test('kill -9 during a Solana settlement, restart: settled once from the chain, books = chain, replays refused', async () => {
  let s = await start()
  const url = () => `http://127.0.0.1:${s.port}/api/v1/slugify`
  const body = { text: 'Crash on Solana' }
  const required = paymentRequiredOf(await post(url(), body))
  const accepted = required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!
  const header = await solanaPaymentHeader(chain, payer, required, accepted)
  const before = await usdcOf(chain, chain.payee.usdcAccount)
  // The transaction reaches the chain 3 s after it was sent: the server is dead by then.
  proxy.delayIn.set('sendTransaction', 3_000)
  proxy.calls.clear()
  const inflight = post(url(), body, { 'payment-signature': header }).catch((e) => e)
  await until(
    () => solanaRows().at(-1)?.state === 'settling' && (proxy.calls.get('sendTransaction') ?? 0) >= 1,
    20_000,
    'the settling row and the send',
  )
  const id = solanaRows().at(-1)!.tx_hash
  expect(id).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
  process.kill(s.pid, 'SIGKILL')
  expect(await inflight).toBeInstanceOf(Error) // the caller never got an answer
  await until(
    async () => (await usdcOf(chain, chain.payee.usdcAccount)) - before === BigInt(accepted.amount),
    20_000,
    'the transfer landing after the kill',
  )
  proxy.delayIn.clear()
  expect(solanaRows().at(-1)).toMatchObject({ state: 'settling', tx_hash: id })

  s = await start()
  try {
    // The boot reconciliation settled it from the chain, by the recorded transaction id.
    expect(solanaRows().at(-1)).toMatchObject({ state: 'settled', tx_hash: id })
    const delta = (await usdcOf(chain, chain.payee.usdcAccount)) - before
    expect(delta).toBe(BigInt(accepted.amount))
    const stats = (await (await fetch(`http://127.0.0.1:${s.port}/stats`)).json()) as {
      networks: Array<{ network: string; revenue_atomic: string; paid_calls: number }>
    }
    const solana = stats.networks.find((n) => n.network === SOLANA_MAINNET_CAIP2)!
    expect(BigInt(solana.revenue_atomic)).toBe(delta)
    expect(settledTotal()).toBe(delta)
    // The same payment for the identical request collects the kept answer (with a signed receipt); for another
    // request it is refused: the ledger remembers it across the restart. Nothing moves either way.
    const again = await post(url(), body, { 'payment-signature': header })
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ slug: 'crash-on-solana' })
    const receipt = JSON.parse(Buffer.from(again.headers.get('payment-response')!, 'base64').toString())
    expect(receipt).toMatchObject({ success: true, transaction: id, network: SOLANA_MAINNET_CAIP2 })
    expect(receipt.extensions).toBeDefined()
    const other = await post(url(), { text: 'another request' }, { 'payment-signature': header })
    expect(other.status).toBe(402)
    expect(await other.json()).toMatchObject({ reason: 'authorization_already_used' })
    expect((await usdcOf(chain, chain.payee.usdcAccount)) - before).toBe(delta)
    expect(settledTotal()).toBe(delta)
  } finally {
    await s.stop()
  }
}, 120_000)
