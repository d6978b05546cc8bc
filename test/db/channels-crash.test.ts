/**
 * A charged voucher is durable before commitCharge returns: a process charging a channel in a loop is killed with
 * SIGKILL mid-run; every charge it reported as committed is in the database afterwards, with no gap and no double.
 */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteChannels } from '../../runtime/db/channels'
import { openDatabase } from '../../runtime/db/sqlite'

const ID = `0x${'ab'.repeat(32)}`
/** The child: charges one channel as fast as it can and prints each cumulative amount once its commit returned. */
const writer = (path: string) => `
  const { SqliteChannels } = require(${JSON.stringify(join(import.meta.dir, '../../runtime/db/channels.ts'))})
  const { openDatabase } = require(${JSON.stringify(join(import.meta.dir, '../../runtime/db/sqlite.ts'))})
  const ID = '${ID}', addr = '0x${'11'.repeat(20)}'
  const store = new SqliteChannels(openDatabase(${JSON.stringify(path)}))
  const config = { payer: addr, payerAuthorizer: addr, receiver: addr, receiverAuthorizer: addr, token: addr, withdrawDelay: 900, salt: ID }
  const mirror = { balance: 10n ** 18n, totalClaimed: 0n, withdrawRequestedAt: 0, refundNonce: 0n, syncedAt: 0 }
  let charged = store.open({ id: ID, network: 'eip155:8453', config, mirror }, Date.now()).charged
  for (;;) {
    const holder = crypto.randomUUID()
    if (!store.lease(ID, holder, Date.now() + 60000, Date.now())) throw new Error('lease refused')
    const to = charged + 1000n
    if (!store.commitCharge({ channelId: ID, holder, from: charged, to, signedMax: to, signature: '0x01', slug: 's', at: Date.now() }))
      throw new Error('charge refused')
    charged = to
    process.stdout.write(to + '\\n')
  }`

test('kill -9 mid-run loses no committed charge', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'channels-crash-'))
  const path = join(dir, 'api.sqlite')
  try {
    const child = Bun.spawn([process.execPath, '-e', writer(path)], {
      stdout: 'pipe',
      stderr: 'inherit',
    })
    const reader = child.stdout.getReader()
    let text = ''
    let reported: bigint[] = []
    while (reported.length < 300) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
      reported = text.split('\n').slice(0, -1).map(BigInt)
    }
    child.kill(9)
    await child.exited
    expect(reported.length).toBeGreaterThanOrEqual(300)
    const last = reported[reported.length - 1]

    const db = openDatabase(path)
    const kept = new SqliteChannels(db).get(ID)!
    // what it reported is there; it may have committed one more it had no time to report
    expect(kept.charged >= last && kept.charged <= last + 1000n).toBe(true)
    const rows = db
      .query('SELECT cumulative FROM channel_charges ORDER BY CAST(cumulative AS INTEGER)')
      .all() as Array<{
      cumulative: string
    }>
    expect(rows.map((r) => BigInt(r.cumulative))).toEqual(
      Array.from({ length: Number(kept.charged / 1000n) }, (_, i) => BigInt(i + 1) * 1000n),
    )
    db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
