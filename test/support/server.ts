import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { boot, type Booted } from '../../runtime/boot'
import type { Facilitator } from '../../runtime/pay/types'
import type { RegistryEntry } from '../../runtime/registry-types'
import { createLogger } from '../../runtime/log'

/** A facilitator for tests that never pay: any call to it is a test failure (counts calls). */
export function refusingFacilitator(): Facilitator & { calls: number } {
  const f = {
    kind: 'remote' as const,
    calls: 0,
    async verify() { f.calls++; throw new Error('no facilitator in this test') },
    async settle() { f.calls++; throw new Error('no facilitator in this test') },
    async status() { f.calls++; return 'unknown' as const },
  }
  return f
}

export interface TestServer {
  url: string
  booted: Booted
  dir: string
  logs: string[]
  stop(): Promise<void>
}

/** Boots the real app on 127.0.0.1:0 with a fresh on-disk SQLite database in a temp dir. */
export async function startServer(o: { env?: Record<string, string>; entries?: RegistryEntry[]; facilitator?: Facilitator; payTo?: string; devPayer?: { address: `0x${string}`; privateKey: `0x${string}` } } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'x402-test-'))
  const logs: string[] = []
  const env = { PATH: process.env.PATH, DATABASE_PATH: join(dir, 'db.sqlite'), PAY_TO: o.payTo ?? '0x209693Bc6afc0C5328bA36FaF03C514EF312287C', ...o.env }
  const booted = await boot({ env, entries: o.entries, facilitator: o.facilitator ?? refusingFacilitator(), log: createLogger('info', (l) => logs.push(l)), reconcileEveryMs: 3_600_000, devPayer: o.devPayer })
  const server = booted.app.listen({ port: 0, hostname: '127.0.0.1' })
  return {
    url: `http://127.0.0.1:${server.server!.port}`,
    booted,
    dir,
    logs,
    async stop() {
      await server.stop(true)
      await booted.close()
      booted.db?.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** POST JSON helper. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

export const decodeB64Json = (v: string | null) => (v ? JSON.parse(Buffer.from(v, 'base64').toString('utf8')) : null)
