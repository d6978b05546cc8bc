/**
 * Boot refuses to offer Solana (a clear error in the log; Base and everything else still served) when the receiving
 * address has no USDC token account (every payment would fail in simulation) or the fee payer holds no SOL.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm'
import { newSolanaKey } from '../../runtime/chain/solana/keys'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { startApp } from '../support/server'
import { paymentRequiredOf, solanaEnv } from '../support/solana'

let chain: SolanaDevChain
beforeAll(async () => {
  chain = await startSolanaDevChain()
})
afterAll(() => chain?.stop())

async function offered(env: Record<string, string>) {
  const s = await startApp({ env })
  try {
    const res = await s.post('/api/v1/slugify', { text: 'a' })
    expect(res.status).toBe(402)
    const networks = paymentRequiredOf(res).accepts.map((a) => a.network)
    expect(networks[0]).toBe('eip155:8453')
    expect((await s.fetch('/health')).status).toBe(200)
    return { solana: networks.includes(SOLANA_MAINNET_CAIP2), logs: s.logs.join('\n') }
  } finally {
    await s.stop()
  }
}

test('offered when the payee has its USDC account and the fee payer holds SOL', async () => {
  const { solana, logs } = await offered(solanaEnv(chain))
  expect(solana).toBe(true)
  expect(logs).toContain('solana payments offered')
  expect(logs).not.toContain(chain.feePayerSecretBase58)
})

test('a payee without a USDC token account: not offered, with the reason and the fix; Base still served', async () => {
  const stranger = (await newSolanaKey()).signer.address
  const { solana, logs } = await offered(solanaEnv(chain, stranger))
  expect(solana).toBe(false)
  expect(logs).toContain('Solana payments are NOT offered')
  expect(logs).toContain(`${stranger} has no USDC token account`)
})

test('a fee payer without SOL: not offered, with the reason; Base still served', async () => {
  const broke = await newSolanaKey()
  const { solana, logs } = await offered({ ...solanaEnv(chain), SOLANA_FEE_PAYER_KEY: broke.secretBase58 })
  expect(solana).toBe(false)
  expect(logs).toContain(`the fee payer ${broke.signer.address} (SOLANA_FEE_PAYER_KEY) holds no SOL`)
  expect(logs).not.toContain(broke.secretBase58)
})

test('an unreachable Solana RPC: not offered, Base still served; the key in its URL never in the log', async () => {
  const { solana, logs } = await offered({
    ...solanaEnv(chain),
    SOLANA_RPC_URL: 'http://127.0.0.1:9/?api-key=secret-rpc-key-123',
  })
  expect(solana).toBe(false)
  expect(logs).toContain('the Solana RPC (SOLANA_RPC_URL http://127.0.0.1:9')
  expect(logs).toContain('did not answer')
  expect(logs).not.toContain('secret-rpc-key-123')
})
