/**
 * The in-flight hold's ledger step on SQLite, per paid call, as a ratio to the plain `reserved -> verified`
 * transition it replaced (the hold was in memory before; the transition was written anyway). On an on-disk database
 * (WAL, the server's settings) holding 20,000 settled rows and 200 rows in flight over 50 payers (4 each).
 * `bun bench/payer-hold.ts [n]`. Target: close to 1 (the same one write transaction, plus two indexed reads).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ledger } from '../runtime/db/sqlite/ledger'
import { openDatabase } from '../runtime/db/sqlite/connect'
import { reservation } from '../test/support/reservation'

const n = Number(process.argv[2] ?? 3000)
const dir = mkdtempSync(join(tmpdir(), 'bench-hold-'))
const db = openDatabase(join(dir, 'db.sqlite'))
const ledger = new Ledger(db)
const payerOf = (i: number) => '0x' + (i % 50).toString(16).padStart(40, '0')
let seq = 0
const reserve = (payer: string, amount = '1000'): number =>
  ledger.reserve(reservation(++seq, { payer, slug: 'bench', amount, validBefore: Math.floor(Date.now() / 1000) + 60 }))!

db.transaction(() => {
  for (let i = 0; i < 20_000; i++) ledger.settleOnce(reserve(payerOf(i)), { tx: '0x1' })
})()
// entering `settling` is a durable commit of its own (it cannot run inside the transaction above)
for (let i = 0; i < 200; i++) ledger.transition(reserve(payerOf(i)), i % 2 ? 'verified' : 'settling')

/** ms per call of `fn` over `n` fresh reservations of `payerOf`, in rounds of 100 (the rows in flight stay ~200 + 100). */
const time = (payer: (i: number) => string, fn: (id: number, payer: string) => unknown) => {
  let total = 0
  for (let done = 0; done < n; done += 100) {
    const ids = Array.from({ length: 100 }, (_, i) => [reserve(payer(done + i)), payer(done + i)] as const)
    const t = performance.now()
    for (const [id, p] of ids) fn(id, p)
    total += performance.now() - t
    db.transaction(() => ids.forEach(([id]) => ledger.transition(id, 'released')))()
  }
  return total / n
}
const balance = { value: 10n ** 12n, readAtMs: Date.now() }
/** Payers with nothing in flight (a payer's usual case) and payers with 4 rows in flight each. */
const idle = (i: number) => '0x' + (1000 + (i % 50)).toString(16).padStart(40, '0')
const cases: Array<[string, (i: number) => string, (id: number, payer: string) => unknown]> = [
  ['transition to verified (before)', idle, (id) => ledger.transition(id, 'verified')],
  ['verifyWithin, nothing else in flight', idle, (id, p) => ledger.verifyWithin(id, p, 1000n, null, Date.now())],
  [
    'verifyWithin with a balance, 4 in flight',
    payerOf,
    (id, p) => ledger.verifyWithin(id, p, 1000n, balance, Date.now()),
  ],
]
for (const [, payer, fn] of cases) time(payer, fn) // warm-up
const ms = cases.map(([, payer, fn]) => time(payer, fn))
console.log('| step (SQLite, on disk) | ms per call | ratio |')
console.log('|---|---|---|')
cases.forEach(([name], i) => console.log(`| ${name} | ${ms[i].toFixed(4)} | ${(ms[i] / ms[0]).toFixed(2)} |`))
db.close()
rmSync(dir, { recursive: true, force: true })
