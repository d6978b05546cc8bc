import { expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../runtime/db/sqlite/connect'
import { Ledger } from '../../runtime/db/sqlite/ledger'
import { reservation } from '../support/reservation'

test('bun run backup copies a live WAL database consistently', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backup-'))
  const path = join(dir, 'live.sqlite')
  const db = openDatabase(path)
  const id = new Ledger(db).reserve(reservation(1, { payer: '0x1', nonce: '0x2', validBefore: 1 }))
  const dest = join(dir, 'copy.sqlite')
  const p = Bun.spawnSync([process.execPath, 'scripts/backup.ts', dest], {
    env: { ...process.env, DATABASE_PATH: path },
  })
  expect(p.exitCode).toBe(0)
  const copy = new Database(dest, { readonly: true })
  expect(copy.query('SELECT id, amount, state FROM payments').all()).toEqual([
    { id: id!, amount: '1000', state: 'reserved' },
  ])
  copy.close()
  db.close()
  rmSync(dir, { recursive: true })
})
