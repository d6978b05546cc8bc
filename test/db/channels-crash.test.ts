/**
 * A charged voucher is durable before commitCharge resolves (group commit: the charges of one event-loop turn share
 * an fsync): a process charging 8 channels at once in a loop is killed with SIGKILL mid-run; every charge it
 * reported as committed is in the database afterwards, with no gap and no double.
 */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Channels as SqliteChannels } from '../../runtime/db/sqlite/channels'
import { openDatabase } from '../../runtime/db/sqlite/connect'

const CHANNELS = 8
const idOf = (k: number) => `0x${(k + 1).toString(16).padStart(64, '0')}`
/** The child: charges every channel as fast as it can, printing `channel cumulative` once each commit resolved. */
const writer = (path: string) => `
  const { Channels: SqliteChannels } = require(${JSON.stringify(join(import.meta.dir, '../../runtime/db/sqlite/channels.ts'))})
  const { openDatabase } = require(${JSON.stringify(join(import.meta.dir, '../../runtime/db/sqlite/connect.ts'))})
  const addr = '0x${'11'.repeat(20)}'
  const store = new SqliteChannels(openDatabase(${JSON.stringify(path)}))
  const mirror = { balance: 10n ** 18n, totalClaimed: 0n, withdrawRequestedAt: 0, refundNonce: 0n, syncedAt: 0 }
  for (let k = 0; k < ${CHANNELS}; k++) {
    const id = '0x' + (k + 1).toString(16).padStart(64, '0')
    const config = { payer: addr, payerAuthorizer: addr, receiver: addr, receiverAuthorizer: addr, token: addr, withdrawDelay: 900, salt: id }
    let charged = store.open({ id, network: 'eip155:8453', config, mirror }, Date.now()).charged
    ;(async () => {
      for (;;) {
        const holder = crypto.randomUUID()
        if (!store.lease(id, holder, Date.now() + 60000, Date.now())) throw new Error('lease refused')
        const to = charged + 1000n
        const ok = await store.commitCharge({ channelId: id, holder, from: charged, to, signedMax: to, signature: '0x01', slug: 's', at: Date.now() })
        if (!ok) throw new Error('charge refused')
        charged = to
        process.stdout.write(k + ' ' + to + '\\n')
      }
    })()
  }`

test('kill -9 mid-run loses no committed charge', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'channels-crash-'))
  const path = join(dir, 'api.sqlite')
  try {
    const child = Bun.spawn([process.execPath, '-e', writer(path)], { stdout: 'pipe', stderr: 'inherit' })
    const reader = child.stdout.getReader()
    let text = ''
    let lines: string[] = []
    while (lines.length < 800) {
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
      lines = text.split('\n').slice(0, -1)
    }
    child.kill(9)
    await child.exited
    expect(lines.length).toBeGreaterThanOrEqual(800)
    const reported = new Map<number, bigint>()
    for (const l of lines) {
      const [k, to] = l.split(' ')
      reported.set(Number(k), BigInt(to))
    }
    expect(reported.size).toBe(CHANNELS)

    const db = openDatabase(path)
    const store = new SqliteChannels(db)
    for (const [k, last] of reported) {
      const kept = store.get(idOf(k))!
      // what it reported is there; it may have committed one more it had no time to report
      expect(kept.charged >= last && kept.charged <= last + 1000n).toBe(true)
      const rows = db
        .query('SELECT cumulative FROM channel_charges WHERE channel_id = ? ORDER BY CAST(cumulative AS INTEGER)')
        .all(idOf(k)) as Array<{ cumulative: string }>
      expect(rows.map((r) => BigInt(r.cumulative))).toEqual(
        Array.from({ length: Number(kept.charged / 1000n) }, (_, i) => BigInt(i + 1) * 1000n),
      )
    }
    db.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
