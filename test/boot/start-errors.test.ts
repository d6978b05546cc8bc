/**
 * Common mistakes at start get a clear error, not a stack: a busy port (one line: which port, what to set), a
 * missing anvil binary for the embedded dev chain, and a refused configuration, whose error comes with no dev-chain
 * banner and no payer key printed before it. Each spawns `runtime/index.ts` as `npm start` does and reads its output.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runServerProcessToExit, UNREACHABLE_CHAIN } from '../support/server-process'

let dir: string
let squatter: ReturnType<typeof Bun.serve>
const STACK = /^\s+at /m
const KEY = /0x[0-9a-fA-F]{64}/

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'start-errors-'))
  squatter = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('taken') })
})
afterAll(() => {
  squatter?.stop(true)
  rmSync(dir, { recursive: true, force: true })
})

const base = () => ({ HOST: '127.0.0.1', PORT: '0', DATABASE_PATH: join(dir, `${crypto.randomUUID()}.sqlite`) })

test('a busy port: exit 1 and one line naming the port and PORT, no stack', async () => {
  const r = await runServerProcessToExit({ ...base(), ...UNREACHABLE_CHAIN, PORT: String(squatter.port) })
  expect(r.code).toBe(1)
  const lines = r.stderr.trim().split('\n')
  expect(lines).toEqual([
    `Port ${squatter.port} on 127.0.0.1 is already in use: set PORT to a free port (e.g. PORT=${squatter.port! + 1}) or stop the process that holds it.`,
  ])
  expect(r.stdout).not.toMatch(STACK)
}, 60_000)

test('a busy port on the dev chain: the error, and no banner or payer key before it', async () => {
  const r = await runServerProcessToExit({ ...base(), PORT: String(squatter.port) })
  expect(r.code).toBe(1)
  expect(r.stderr.trim()).toStartWith(`Port ${squatter.port} on 127.0.0.1 is already in use`)
  expect(r.stdout).not.toContain('DEV CHAIN')
  expect(r.stdout + r.stderr).not.toMatch(KEY)
}, 60_000)

test('the dev chain without its binary: what to set, no stack', async () => {
  const r = await runServerProcessToExit({ ...base(), ANVIL_PATH: join(dir, 'no-such-anvil') })
  expect(r.code).toBe(1)
  const lines = r.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toStartWith('The embedded dev chain did not start: anvil binary not found at ANVIL_PATH=')
  expect(lines[0]).toContain('RPC_URL')
  expect(r.stdout + r.stderr).not.toMatch(STACK)
}, 60_000)

test('a refused configuration on the dev chain: the problems first and only, no banner, no key', async () => {
  const r = await runServerProcessToExit({ ...base(), ADMIN_TOKEN: 'too-short' })
  expect(r.code).toBe(1)
  expect(r.stderr).toStartWith('Refusing to start; fix these problems:\n')
  expect(r.stderr).toContain('ADMIN_TOKEN must be at least 24 characters')
  expect(r.stdout).not.toContain('DEV CHAIN')
  expect(r.stdout + r.stderr).not.toMatch(KEY)
  expect(r.stdout + r.stderr).not.toMatch(STACK)
}, 60_000)

test('a good start still prints the dev-chain banner, once listening', async () => {
  const proc = Bun.spawn([process.execPath, 'runtime/index.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...base() },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const reader = proc.stdout.getReader()
  let out = ''
  while (!out.includes('Listening on')) {
    const { done, value } = await reader.read()
    if (done) break
    out += new TextDecoder().decode(value)
  }
  proc.kill('SIGTERM')
  await proc.exited
  expect(out.indexOf('!!! DEV CHAIN')).toBeGreaterThanOrEqual(0)
  expect(out.indexOf('DEMO_PAYER_KEY=')).toBeLessThan(out.indexOf('Listening on'))
}, 60_000)
