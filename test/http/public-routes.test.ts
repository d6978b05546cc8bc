/**
 * The one declaration of the public routes (runtime/http/public-routes.ts) against the app itself, booted with every
 * optional route group on (the operator console and /metrics, the canary's /reliability, the dev chains' demo payers): every registered route outside the
 * paid services is declared, and every declared route answers (never the unknown-path 404).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { privateKeyToAccount } from 'viem/accounts'
import { PUBLIC_ROUTES } from '../../runtime/http/public-routes'
import { type SolanaDevChain, startSolanaDevChain } from '../../runtime/chain/solana/start'
import { startApp, type TestServer } from '../support/server'
import { solanaEnv } from '../support/solana'

const key = `0x${'11'.repeat(32)}` as const
let s: TestServer
let plain: TestServer
let sol: SolanaDevChain
beforeAll(async () => {
  // The Solana demo payer's routes exist only while Solana is offered: the embedded Solana dev chain beside.
  sol = await startSolanaDevChain()
  s = await startApp({
    env: {
      ADMIN_TOKEN: 'a-console-token-of-32-characters',
      CANARY_PAYER: privateKeyToAccount(key).address,
      ...solanaEnv(sol),
    },
    devPayer: { address: privateKeyToAccount(key).address, privateKey: key },
    devSolanaPayer: sol.payer,
  })
  plain = await startApp()
})
afterAll(async () => {
  await s?.stop()
  await plain?.stop()
  await sol?.stop()
})

const declared = PUBLIC_ROUTES.flatMap((r) => r.routes)

test('each route is declared once, as METHOD /path', () => {
  expect(new Set(declared).size).toBe(declared.length)
  for (const r of declared) expect(r).toMatch(/^(GET|POST|DELETE|ALL) \/\S*$/)
})

/** The app's routes outside the paid services and preflight, as `METHOD /path`. */
function registeredOf(t: TestServer): string[] {
  return t.booted.app.routes
    .map((r) => `${r.method} ${r.path}`)
    .filter((r) => !r.startsWith('OPTIONS '))
    .filter((r) => !/^(POST|GET) \/api\/(v1\/)?:slug$/.test(r)) // the paid services' routes (runtime/app.ts)
}

test('every registered route outside the paid services is declared', () => {
  const registered = registeredOf(s)
  expect(registered.length).toBeGreaterThan(30)
  expect(registered.filter((r) => !declared.includes(r))).toEqual([])
  expect(declared.filter((r) => !registered.includes(r))).toEqual([])
})

test('every declared route answers (never the unknown-path 404)', async () => {
  for (const route of declared) {
    const [method, path] = route.split(' ')
    const url = path.replace(':id', '1').replace('*', 'anything')
    const res = await s.fetch(url, { method: method === 'ALL' ? 'GET' : method })
    const text = await res.text()
    expect({ route, unknown: text.includes('No route for') }).toEqual({ route, unknown: false })
    expect({ route, status: res.status < 500 }).toEqual({ route, status: true })
  }
})

test('the routes declared `only` for a setup are absent without it (no ADMIN_TOKEN, no demo payer)', async () => {
  const always = PUBLIC_ROUTES.filter((r) => !r.only).flatMap((r) => r.routes)
  expect(registeredOf(plain).sort()).toEqual([...always].sort())
  for (const route of PUBLIC_ROUTES.filter((r) => r.only).flatMap((r) => r.routes)) {
    const [method, path] = route.split(' ')
    const res = await plain.fetch(path.replace(':id', '1').replace('*', 'anything'), {
      method: method === 'ALL' ? 'GET' : method,
    })
    expect({ route, status: res.status }).toEqual({ route, status: 404 })
  }
})
