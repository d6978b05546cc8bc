/**
 * Solana `exact` across crashes and restarts, with a real server process on the embedded Solana dev chain: kill -9
 * while the payment's transaction is on its way to the chain (held by the RPC proxy, which delivers it afterwards),
 * restart on the same database: the boot reconciliation finds the transaction by its id, settles the payment once,
 * and books = chain. The same payment is then refused for another request (the ledger remembers it across the
 * restart, long after @x402/svm's in-memory 120 s duplicate cache is gone) and collects its kept answer for the
 * identical one, with nothing charged twice.
 */
import { expect, test } from 'bun:test'
import type { KeyPairSigner } from '@solana/kit'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { crashRig } from '../support/crash-restart'
import { post } from '../support/server'
import { readDb, UNREACHABLE_CHAIN } from '../support/server-process'
import { paymentRequiredOf, solanaEnv, solanaPayer, solanaPaymentHeader, usdcOf } from '../support/solana'

const rig = crashRig<SolanaDevChain>({
  name: 'solana-crash',
  chain: startSolanaDevChain,
  rpcUrl: (chain) => chain.url,
  payee: (chain) => usdcOf(chain, chain.payee.usdcAccount),
  sendMethods: ['sendTransaction'],
  network: SOLANA_MAINNET_CAIP2,
  env: (rig) => ({ ...UNREACHABLE_CHAIN, ...solanaEnv(rig.chain), SOLANA_RPC_URL: rig.proxy.url }),
})

type Row = { id: number; state: string; tx_hash: string | null; amount: string }
const solanaRows = (): Row[] =>
  readDb(
    rig.dbPath,
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
  const payer: KeyPairSigner = await solanaPayer(rig.chain)
  let s = await rig.start()
  const url = () => `http://127.0.0.1:${s.port}/api/v1/slugify`
  const body = { text: 'Crash on Solana' }
  const required = paymentRequiredOf(await post(url(), body))
  const accepted = required.accepts.find((a) => a.network === SOLANA_MAINNET_CAIP2)!
  const header = await solanaPaymentHeader(rig.chain, payer, required, accepted)
  const before = await rig.payee()
  // The transaction reaches the chain 3 s after it was sent: the server is dead by then.
  const sending = await rig.killWhileSending(
    s,
    () => post(url(), body, { 'payment-signature': header }),
    async () => (await rig.payee()) - before === BigInt(accepted.amount),
  )
  // the transaction's id is recorded before it is sent: reconciliation finds it by that id
  const id = sending.tx_hash
  expect(id).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
  expect(solanaRows().at(-1)).toMatchObject({ state: 'settling', tx_hash: id })

  s = await rig.start()
  try {
    // The boot reconciliation settled it from the chain, by the recorded transaction id.
    expect(solanaRows().at(-1)).toMatchObject({ state: 'settled', tx_hash: id })
    const delta = (await rig.payee()) - before
    expect(delta).toBe(BigInt(accepted.amount))
    // /stats' Solana revenue = the ledger = the chain
    expect(await rig.expectBooks(s)).toBe(delta)
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
    expect((await rig.payee()) - before).toBe(delta)
    expect(settledTotal()).toBe(delta)
    expect(await rig.expectBooks(s)).toBe(delta)
  } finally {
    await s.stop()
  }
}, 120_000)
