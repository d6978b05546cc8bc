/**
 * The embedded dev chain starts from an empty database every run (issue #27): the chain, payee and payer are new, so
 * the last run's stats and ledger must not show up. The dev chain uses `dev-chain.sqlite` beside the configured file,
 * never the configured file itself (it may hold a real network's ledger), and a real network is never reset.
 */
import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { startChild, type Child } from '../../bench/lib'
import { freshDevChainDatabase } from '../../runtime/chain/dev-database'
import { loadConfig } from '../../runtime/config'
import { payingFetch } from '../support/paying-fetch'

const root = join(import.meta.dir, '..', '..')
const cwd = mkdtempSync(join(tmpdir(), 'dev-db-'))
const children: Child[] = []
afterAll(async () => {
  for (const c of children) await c.stop().catch(() => {})
  rmSync(cwd, { recursive: true, force: true })
})

/** `runtime/index.ts` on the embedded dev chain, in `cwd`, with the shipped registry.yaml and no database setting. */
async function startDev(): Promise<Child> {
  const c = await startChild(
    [process.execPath, join(root, 'runtime', 'index.ts')],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: undefined,
      DATABASE_URL: undefined,
      RPC_URL: undefined,
      FACILITATOR_URL: undefined,
      PAY_TO: undefined,
    },
    60_000,
    cwd,
  )
  children.push(c)
  return c
}
const stats = async (c: Child) =>
  ((await (await fetch(`http://127.0.0.1:${c.port}/stats`)).json()) as any).totals as {
    calls: number
    paid_calls: number
    revenue_atomic: string
  }

test('a restarted dev chain shows no stats of the last run, and the configured database file is never opened', async () => {
  // A file at the configured path, as a real network's ledger would be: the dev chain must leave it alone.
  mkdirSync(join(cwd, 'data'))
  writeFileSync(join(cwd, 'data', 'api.sqlite'), 'not to be touched')
  const first = await startDev()
  expect(first.lines.join('\n')).toContain(`database ${join('data', DEV_DB)}`)
  const { privateKey } = JSON.parse(readFileSync(join(cwd, 'data', 'dev-payer.json'), 'utf8')) as { privateKey: Hex }
  const paid = await payingFetch(privateKey)(`http://127.0.0.1:${first.port}/api/v1/slugify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Dev chain' }),
  })
  expect(paid.status).toBe(200)
  expect(await stats(first)).toMatchObject({ paid_calls: 1, revenue_atomic: '1000' })
  await first.stop()
  expect(existsSync(join(cwd, 'data', DEV_DB))).toBe(true)

  const second = await startDev()
  expect(await stats(second)).toMatchObject({ calls: 0, paid_calls: 0, revenue_atomic: '0' })
  await second.stop()
  expect(readFileSync(join(cwd, 'data', 'api.sqlite'), 'utf8')).toBe('not to be touched')
}, 120_000)

const DEV_DB = 'dev-chain.sqlite'

test('only the dev chain gets a fresh database: a real network (RPC_URL or a facilitator) is refused, Postgres kept', () => {
  const real = loadConfig({
    RPC_URL: 'http://127.0.0.1:9',
    SETTLER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
    DATABASE_PATH: join(cwd, 'real.sqlite'),
  }).config
  expect(() => freshDevChainDatabase(real)).toThrow('embedded dev chain only')
  expect(real.databasePath).toBe(join(cwd, 'real.sqlite'))
  const remote = loadConfig({ FACILITATOR_URL: 'https://x402.org/facilitator' }).config
  expect(() => freshDevChainDatabase(remote)).toThrow('embedded dev chain only')
  const pg = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres' }).config
  expect(freshDevChainDatabase(pg)).toBeNull()
  const dev = loadConfig({ DATABASE_PATH: join(cwd, 'x', 'api.sqlite') }).config
  expect(freshDevChainDatabase(dev)).toBe(join(cwd, 'x', DEV_DB))
  expect(dev.databasePath).toBe(join(cwd, 'x', DEV_DB))
  // In memory stays in memory: never a dev-chain.sqlite in the current directory (a checkout, often).
  const memory = loadConfig({ DATABASE_PATH: ':memory:' }).config
  expect(freshDevChainDatabase(memory)).toBe(':memory:')
  expect(memory.databasePath).toBe(':memory:')
})
