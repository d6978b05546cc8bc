/**
 * Channels on a shared Postgres (DATABASE_URL), two instances: a payer deposits through one and pays vouchers to
 * either (the channel state is in the database, not in a process); at shutdown both claim engines run under the
 * advisory lock (`ledger.exclusively`): every charge is claimed and swept exactly once. Off the dev chain, channels
 * need the receiver authorizer key every instance shares.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { wrapFetchWithPayment, x402Client } from '@x402/fetch'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { channelPayer, clientFor, NETWORK } from '../support/channels'
import { startServerOnChain } from '../support/on-chain'
import { testPostgres, type LocalPostgres } from '../support/postgres'
import { decodeB64Json, type TestServer } from '../support/server'

const PRICE = 1000n // slugify: $0.001

let chain: DevChain
let pg: LocalPostgres
let a: TestServer
let b: TestServer

beforeAll(async () => {
  ;[chain, pg] = await Promise.all([startDevChain(), testPostgres()])
  const env = { DATABASE_URL: await pg.createDatabase('channels_wired'), CHANNEL_MIN_DEPOSIT_USD: '0.1' }
  a = await startServerOnChain(chain, { env })
  b = await startServerOnChain(chain, { env })
})
afterAll(async () => {
  await a?.stop()
  await b?.stop()
  await pg?.stop()
  await chain?.stop()
})

test('one channel paid through two instances; both shut down; claimed and swept once', async () => {
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)
  const payer = await channelPayer(chain, 1_000_000n)
  const pay = wrapFetchWithPayment(fetch, new x402Client().register(NETWORK, clientFor(chain.rpcUrl, payer.key)))
  const calls = [a, b, a, b, b]
  for (const [i, s] of calls.entries()) {
    const res = await pay(`${s.url}/api/v1/slugify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `Call ${i}` }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ slug: `call-${i}`, length: 6 })
  }
  const charged = PRICE * BigInt(calls.length)
  expect((await b.booted.storage.channels.totals()).earned).toBe(charged)
  await Promise.all([a.booted.channels!.stop(), b.booted.channels!.stop()])
  const totals = await a.booted.storage.channels.totals()
  expect(totals).toMatchObject({ earned: charged, claimed: charged, swept: charged })
  expect(totals.txs.sweep).toBe(1)
  expect((await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore).toBe(charged)
})

test('off the dev chain, instances on one Postgres offer channels only with a shared CHANNEL_RECEIVER_AUTHORIZER_KEY', async () => {
  // RPC_URL + a settler key: a deployment's configuration (each instance its own settler keys, docs/deploy.md)
  const deployed = {
    DATABASE_URL: await pg.createDatabase('channels_authorizer'),
    RPC_URL: chain.rpcUrl,
    SETTLER_PRIVATE_KEY: chain.settler.privateKey,
  }
  const schemesOf = async (s: TestServer) =>
    decodeB64Json((await s.post('/api/v1/slugify', { text: 'x' })).headers.get('payment-required')).accepts.map(
      (a: { scheme: string; extra?: { receiverAuthorizer?: string } }) => [a.scheme, a.extra?.receiverAuthorizer],
    )
  const without = await startServerOnChain(chain, { env: deployed })
  try {
    expect(await schemesOf(without)).toEqual([['exact', undefined]])
    expect(without.booted.channels).toBeUndefined()
  } finally {
    await without.stop()
  }
  const key = generatePrivateKey()
  const withKey = await startServerOnChain(chain, { env: { ...deployed, CHANNEL_RECEIVER_AUTHORIZER_KEY: key } })
  try {
    expect(await schemesOf(withKey)).toEqual([
      ['exact', undefined],
      ['batch-settlement', privateKeyToAccount(key).address],
    ])
  } finally {
    await withKey.stop()
  }
})
