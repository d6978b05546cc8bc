/**
 * Paid throughput with 1 vs 3 instances on one Postgres (and 1 instance on the embedded SQLite for reference):
 * full paid calls (pre-signed authorizations from 8 payers; verify, reserve, handler, settle on one local anvil),
 * wrk against each instance at once. Each instance has its own settler key. After each run the books are checked:
 * ledger settled total = payee's on-chain delta.
 * `bun bench/instances.ts` (10 s runs) or `bun bench/instances.ts --smoke` (1 s). Prints markdown.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SQL } from 'bun'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { fundPayer, startDevChain, type DevChain } from '../runtime/chain/devchain'
import { setEthBalance, usdcBalance } from '../runtime/chain/usdc'
import { startPostgres } from '../scripts/ensure-postgres'
import { machine, startChild, wrk, type Child, type WrkResult } from './lib'
import { headers, paidScript } from './paid'

const PAYERS = 8

interface Run {
  label: string
  paidRps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  settled: bigint
  ledger: bigint | null
}

async function run(
  label: string,
  chain: DevChain,
  payers: Hex[],
  envs: Record<string, string>[],
  n: number,
  seconds: number,
  conns: number,
  ledgerOf: () => Promise<bigint | null>,
): Promise<Run> {
  const children: Child[] = []
  try {
    for (const env of envs) children.push(await startChild([process.execPath, 'bench/servers/app.ts'], env, 60_000))
    const urls = children.map((c) => `http://127.0.0.1:${c.port}/api/v1/hash-digest`)
    const all = await headers(urls[0], payers, n)
    const per = Math.ceil(all.length / children.length)
    const before = await usdcBalance(chain.rpcUrl, chain.payee.address)
    const results: WrkResult[] = await Promise.all(
      urls.map((u, i) =>
        wrk(u, {
          seconds,
          connections: Math.max(1, Math.round(conns / urls.length)),
          script: paidScript(all.slice(i * per, (i + 1) * per)),
        }),
      ),
    )
    await Bun.sleep(500)
    const settled = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - before
    const requests = results.reduce((a, r) => a + r.requests, 0),
      non2xx = results.reduce((a, r) => a + r.non2xx, 0)
    return {
      label,
      paidRps: (requests - non2xx) / seconds,
      p50: Math.max(...results.map((r) => r.p50ms)),
      p99: Math.max(...results.map((r) => r.p99ms)),
      requests,
      non2xx,
      settled,
      ledger: await ledgerOf(),
    }
  } finally {
    await Promise.all(children.map((c) => c.stop()))
  }
}

export async function instancesBench(smoke: boolean): Promise<string[]> {
  const [chain, pg] = await Promise.all([startDevChain({ payerUsdc: 10n ** 12n }), startPostgres()])
  try {
    const payers = Array.from({ length: PAYERS }, () => generatePrivateKey())
    await Promise.all(payers.map((k) => fundPayer(chain, privateKeyToAccount(k).address, 10n ** 11n)))
    const settlers = Array.from({ length: 4 }, () => generatePrivateKey())
    await Promise.all(settlers.map((k) => setEthBalance(chain.rpcUrl, privateKeyToAccount(k).address, 10n ** 21n)))
    const n = smoke ? 90 : 4000
    const seconds = smoke ? 1 : 10
    const conns = 15
    // The receipt key file goes beside DATABASE_PATH, also for the Postgres runs (never the checkout's data/):
    // a temp folder shared by the instances of a run, so they sign with one key.
    const keys = mkdtempSync(join(tmpdir(), 'bench-instances-'))
    process.on('exit', () => rmSync(keys, { recursive: true, force: true }))
    const common = {
      RPC_URL: chain.rpcUrl,
      PAY_TO: chain.payee.address,
      LOG_LEVEL: 'silent',
      DATABASE_PATH: join(keys, 'unused.sqlite'),
    }
    const pgTotal = (url: string) => async () => {
      const sql = new SQL({ url, max: 1 })
      try {
        return BigInt(
          (await sql`SELECT COALESCE(SUM(amount::numeric), 0)::text AS t FROM payments WHERE state = 'settled'`)[0].t,
        )
      } finally {
        await sql.close()
      }
    }
    const one = await pg.createDatabase('one'),
      three = await pg.createDatabase('three')
    const runs = [
      await run(
        '1 instance, SQLite (embedded)',
        chain,
        payers,
        [{ ...common, DATABASE_PATH: join(tmpdir(), `inst-${Date.now()}.sqlite`), SETTLER_PRIVATE_KEY: settlers[0] }],
        n,
        seconds,
        conns,
        async () => null,
      ),
      await run(
        '1 instance, Postgres',
        chain,
        payers,
        [{ ...common, DATABASE_URL: one, INSTANCE_ID: 'a', SETTLER_PRIVATE_KEY: settlers[1] }],
        n,
        seconds,
        conns,
        pgTotal(one),
      ),
      await run(
        '3 instances, one Postgres',
        chain,
        payers,
        [1, 2, 3].map((i) => ({
          ...common,
          DATABASE_URL: three,
          INSTANCE_ID: `b${i}`,
          SETTLER_PRIVATE_KEY: settlers[i],
        })),
        n,
        seconds,
        conns,
        pgTotal(three),
      ),
    ]
    const base = runs[1].paidRps
    return [
      `${machine()}; wrk ${conns} connections in total (split evenly across the instances), ${seconds} s, ${n} pre-signed authorizations from ${PAYERS} payers per run, one anvil node (automine). The machine is shared with other work: compare the rows of one run, not across runs.`,
      '',
      '| setup | paid req/s (2xx) | vs 1 instance on Postgres | p50 / p99 ms (worst instance) | requests / non-2xx | settled on chain = ledger |',
      '|---|---|---|---|---|---|',
      ...runs.map(
        (r) =>
          `| ${r.label} | ${Math.round(r.paidRps)} | ${(r.paidRps / Math.max(1e-9, base)).toFixed(2)}x | ${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} | ${r.requests} / ${r.non2xx} | ${r.settled / 1000n} calls${r.ledger === null ? '' : r.ledger === r.settled ? ' (equal)' : ` (LEDGER ${r.ledger} ≠ CHAIN ${r.settled})`} |`,
      ),
    ]
  } finally {
    await Promise.all([chain.stop(), pg.stop()])
  }
}

if (import.meta.main) {
  for (const l of await instancesBench(process.argv.includes('--smoke'))) console.log(l)
}
