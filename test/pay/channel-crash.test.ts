/**
 * Books exact after `kill -9` mid-run and a restart: a child process serves voucher-paid requests from 4 payers
 * (the official client, deposits through our pipeline, charges committed durably) and is killed with SIGKILL while
 * it runs. A new process opens the same database, claims everything and sweeps: no charge the child reported is lost,
 * and the payee's on-chain delta = swept = claimed = the sum of the charges kept.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { fundPayer, startDevChain, type DevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { ChannelClaimer } from '../../runtime/pay/schemes/batch-settlement/claimer'
import { channelRig, PRICE, type RigChain } from '../support/channels'

const PAYERS = 4
let chain: DevChain
let dir: string
beforeAll(async () => {
  chain = await startDevChain()
  dir = mkdtempSync(join(tmpdir(), 'channel-crash-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  return chain?.stop()
})

const mod = (p: string) => JSON.stringify(join(import.meta.dir, p))
/** The child: each payer pays in a loop; `payer channel cumulative` is printed once each charge is committed. */
const child = (rig: RigChain, path: string, authorizerKey: string, keys: string[]) => `
  const { channelRig, clientFor, pay, hear, PRICE } = require(${mod('../support/channels.ts')})
  const { Channels: SqliteChannels } = require(${mod('../../runtime/db/sqlite/channels.ts')})
  const { openDatabase } = require(${mod('../../runtime/db/sqlite/connect.ts')})
  const { admitChannelPayment, commitChannelCharge } = require(${mod('../../runtime/pay/schemes/batch-settlement/doors.ts')})
  const chain = ${JSON.stringify(rig)}
  const rig = channelRig(chain, new SqliteChannels(openDatabase(${JSON.stringify(path)})), { authorizerKey: '${authorizerKey}' })
  ;${JSON.stringify(keys)}.forEach(async (key, k) => {
    const client = clientFor(chain.rpcUrl, key)
    for (;;) {
      const payload = await pay(client, rig.requirements)
      const a = await admitChannelPayment(rig.doors, payload, rig.requirements)
      if (!a.ok) throw new Error('refused: ' + a.reason)
      const c = await commitChannelCharge(rig.doors, a.ticket, PRICE, 'svc')
      if (!c.ok) throw new Error('not committed: ' + c.reason)
      await hear(client, payload, rig.requirements, c.response)
      process.stdout.write(k + ' ' + a.ticket.channelId + ' ' + c.response.extra.channelState.chargedCumulativeAmount + '\\n')
    }
  })`

test('kill -9 mid-run, restart: every reported charge is claimed and swept, the books match the chain', async () => {
  const path = join(dir, 'api.sqlite')
  const authorizerKey = generatePrivateKey()
  const keys = Array.from({ length: PAYERS }, () => generatePrivateKey())
  const { privateKeyToAccount } = await import('viem/accounts')
  await Promise.all(keys.map((k) => fundPayer(chain, privateKeyToAccount(k).address, 1_000_000n)))
  const rigChain: RigChain = {
    rpcUrl: chain.rpcUrl,
    usdc: chain.usdc,
    settler: { privateKey: chain.settler.privateKey },
    payee: { address: chain.payee.address },
  }
  const payeeBefore = await usdcBalance(chain.rpcUrl, chain.payee.address)

  const proc = Bun.spawn([process.execPath, '-e', child(rigChain, path, authorizerKey, keys)], {
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const reader = proc.stdout.getReader()
  let text = ''
  let lines: string[] = []
  while (lines.length < 120) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
    lines = text.split('\n').slice(0, -1)
  }
  proc.kill(9)
  await proc.exited
  expect(lines.length).toBeGreaterThanOrEqual(120)
  const reported = new Map<string, bigint>()
  for (const l of lines) {
    const [, id, cumulative] = l.split(' ')
    reported.set(id, BigInt(cumulative))
  }
  expect(reported.size).toBe(PAYERS)

  // the restart: same database, same receiver authorizer, a new settlement pipeline
  const store = new SqliteChannels(openDatabase(path))
  const rig = channelRig(rigChain, store, { authorizerKey })
  for (const [id, last] of reported) {
    const kept = (await store.get(id))!
    expect(kept.charged >= last && kept.charged <= last + PRICE).toBe(true)
  }
  const claimer = new ChannelClaimer({
    store,
    facilitator: rig.facilitator,
    rpc: rig.settler.rpc,
    requirements: rig.requirements,
    gasOf: rig.gasOf,
  })
  const last = await claimer.stop()
  rig.settler.close()
  expect(last.failures).toBe(0)
  const t = await store.totals()
  const delta = (await usdcBalance(chain.rpcUrl, chain.payee.address)) - payeeBefore
  const sumReported = [...reported.values()].reduce((s, v) => s + v, 0n)
  expect(t.earned >= sumReported && t.earned <= sumReported + BigInt(PAYERS) * PRICE).toBe(true)
  expect({ delta, swept: t.swept, claimed: t.claimed }).toEqual({ delta: t.earned, swept: t.earned, claimed: t.earned })
}, 120_000)
