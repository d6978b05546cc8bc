/**
 * regex-test runs user patterns in a worker with a hard time limit: a catastrophic pattern answers 422 quickly,
 * the main thread (other requests) keeps running meanwhile, and the same works inside a compiled binary.
 */
import { expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import handler from './handler'
import { ServiceError, testContext } from '../../runtime/sdk'

const EVIL = { pattern: '(a+)+$', text: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', flags: 'g' }
const call = (input: object, ctx = testContext()) => handler(input as never, ctx) as Promise<{ match_count: number }>

/** A fixed, simple CPU task on the main thread; returns its duration in ms. */
function work(): number {
  const t = performance.now()
  let x = 0
  for (let i = 0; i < 2_000_000; i++) x = (x + i * 7) % 1_000_003
  if (x < 0) throw new Error('unreachable')
  return performance.now() - t
}

test('(a+)+$ against 32 a and ! answers 422 in under 1.5 s', async () => {
  const started = performance.now()
  const err = (await call(EVIL).catch((e) => e)) as ServiceError
  const elapsed = performance.now() - started
  expect(err).toBeInstanceOf(ServiceError)
  expect(err.status).toBe(422)
  expect(err.code as string).toBe('REGEX_TIMEOUT')
  expect(err.message).toContain('pattern took too long')
  expect(elapsed).toBeLessThan(1500)
})

test('the main thread is not delayed while a catastrophic pattern runs', async () => {
  const baseline = Math.min(work(), work(), work())
  const evil = call(EVIL).catch((e) => e)
  // Event-loop lag: a 10 ms timer must keep firing on time while the worker spins.
  let maxLag = 0
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    maxLag = Math.max(maxLag, now - last - 10)
    last = now
  }, 10)
  await Bun.sleep(50)
  const during = Math.min(work(), work(), work())
  const simple = await call({ pattern: 'b', text: 'abc', flags: 'g' })
  const err = (await evil) as ServiceError
  clearInterval(ticker)
  expect(simple.match_count).toBe(1)
  expect(err.status).toBe(422)
  expect(during).toBeLessThan(baseline * 3 + 20)
  // the pattern runs ~500 ms before its 422: blocking the loop would lag that long; a busy shared machine adds ~150
  expect(maxLag).toBeLessThan(300)
})

test('concurrent catastrophic calls all answer 422 and simple calls still answer', async () => {
  const started = performance.now()
  const evil = Array.from({ length: 4 }, () => call(EVIL).catch((e) => e))
  const simple = await call({ pattern: '\\d+', text: 'a1b22', flags: 'g' })
  expect(simple.match_count).toBe(2)
  for (const e of await Promise.all(evil)) expect((e as ServiceError).status).toBe(422)
  expect(performance.now() - started).toBeLessThan(3000)
})

test('an aborted request stops its worker', async () => {
  const ac = new AbortController()
  const p = call(EVIL, testContext({ signal: ac.signal })).catch((e) => e)
  setTimeout(() => ac.abort(), 50)
  const started = performance.now()
  const err = (await p) as ServiceError
  expect(err).toBeInstanceOf(ServiceError)
  expect(performance.now() - started).toBeLessThan(400)
})

test('the Blob-URL worker also works in a bun build --compile binary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'regex-bin-'))
  try {
    const entry = join(dir, 'entry.ts')
    const root = join(import.meta.dir, '..', '..')
    writeFileSync(
      entry,
      `
import handler from ${JSON.stringify(join(root, 'services/regex-test/handler.ts'))}
import { testContext } from ${JSON.stringify(join(root, 'runtime/sdk/index.ts'))}
const ok = await handler({ pattern: '(\\\\d)+', text: 'a12b3', flags: 'g' }, testContext())
const bad = await handler(${JSON.stringify(EVIL)}, testContext()).catch((e) => ({ status: e.status, code: e.code }))
console.log(JSON.stringify({ count: ok.match_count, bad }))
`,
    )
    const out = join(dir, 'regex-bin')
    const b = Bun.spawnSync([process.execPath, 'build', entry, '--compile', '--outfile', out], {
      cwd: root,
      stdout: 'pipe',
      stderr: 'pipe',
    })
    expect(b.stderr.toString()).not.toContain('error')
    expect(b.exitCode).toBe(0)
    const r = Bun.spawnSync([out], { cwd: dir, stdout: 'pipe', stderr: 'pipe' })
    expect(JSON.parse(r.stdout.toString().trim())).toEqual({ count: 2, bad: { status: 422, code: 'REGEX_TIMEOUT' } })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
