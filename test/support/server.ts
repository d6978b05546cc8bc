import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { boot, type Booted } from '../../runtime/boot'
import type { Facilitator } from '../../runtime/pay/types'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { createLogger } from '../../runtime/log'
import { serveOptions } from '../../runtime/http/serve-options'
import { categories, entries, upstreams } from './entries'

/** A facilitator for tests that never pay: any call to it is a test failure (counts calls). */
export function refusingFacilitator(): Facilitator & { calls: number } {
  const f = {
    kind: 'remote' as const,
    calls: 0,
    async verify() {
      f.calls++
      throw new Error('no facilitator in this test')
    },
    async settle() {
      f.calls++
      throw new Error('no facilitator in this test')
    },
    async status() {
      f.calls++
      return { state: 'unknown' as const }
    },
  }
  return f
}

export type StartOptions = {
  env?: Record<string, string>
  entries?: RegistryEntry[]
  facilitator?: Facilitator
  payTo?: string
  devPayer?: { address: `0x${string}`; privateKey: `0x${string}` }
  /** The Solana dev chain's demo payer (test/site: paying on Solana from the panel). */
  devSolanaPayer?: { address: string; secretBase58: string }
}

export interface TestServer {
  /** The origin requests go to (a real socket for startServer; a name that never resolves for startApp). */
  url: string
  booted: Booted
  dir: string
  logs: string[]
  /** Sends a request to `path` (or a full URL on this origin): over the socket, or in-process with app.handle. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** POSTs JSON (a string body goes as is) to `path`. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  stop(): Promise<void>
}

async function bootForTest(o: StartOptions) {
  const dir = mkdtempSync(join(tmpdir(), 'x402-test-'))
  const logs: string[] = []
  const env = {
    PATH: process.env.PATH,
    DATABASE_PATH: join(dir, 'db.sqlite'),
    PAY_TO: o.payTo ?? '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    // bun test runs every file in one process, so a server booted here shares the runner's RSS, which grows with the
    // files before it: the pool's process bound would refuse calls for the runner's memory. The tests of that bound
    // set it themselves (test/isolate/memory.test.ts with a pool of its own).
    ISOLATE_PROCESS_MB: '65536',
    ...o.env,
  }
  const booted = await boot({
    env,
    entries: o.entries ?? entries,
    upstreams,
    categories,
    facilitator: o.facilitator ?? refusingFacilitator(),
    log: createLogger('info', (l) => logs.push(l)),
    reconcileEveryMs: 3_600_000,
    devPayer: o.devPayer,
    devSolanaPayer: o.devSolanaPayer,
  })
  const close = async () => {
    await booted.close()
    if (booted.storage.kind === 'sqlite') booted.storage.db.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return { dir, logs, booted, close }
}

function withHelpers(
  url: string,
  send: (req: Request) => Promise<Response>,
  rest: Omit<TestServer, 'fetch' | 'post' | 'url'>,
): TestServer {
  const fetchPath = (path: string, init?: RequestInit) =>
    send(new Request(path.startsWith('http') ? path : url + path, init))
  return {
    ...rest,
    url,
    fetch: fetchPath,
    post: (path, body, headers = {}) =>
      fetchPath(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
  }
}

/** Boots the real app on 127.0.0.1:0 with a fresh on-disk SQLite database in a temp dir (for tests about sockets). */
export async function startServer(o: StartOptions = {}): Promise<TestServer> {
  const t = await bootForTest(o)
  const server = t.booted.app.listen(serveOptions(0, '127.0.0.1', t.booted.log))
  return withHelpers(`http://127.0.0.1:${server.server!.port}`, (req) => fetch(req), {
    booted: t.booted,
    dir: t.dir,
    logs: t.logs,
    async stop() {
      await server.stop(true)
      await t.close()
    },
  })
}

/**
 * Boots the same app without listen(): requests go through `app.handle(new Request(...))` in-process. Use it
 * wherever the socket is not the subject (surfaces, error shapes, discovery); keep startServer for body limits,
 * slow clients, client IPs and other Bun-server specifics.
 */
export async function startApp(o: StartOptions = {}): Promise<TestServer> {
  const t = await bootForTest(o)
  return withHelpers('http://app.test', (req) => t.booted.app.handle(req), {
    booted: t.booted,
    dir: t.dir,
    logs: t.logs,
    stop: t.close,
  })
}

/** POST JSON helper. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export const decodeB64Json = (v: string | null) => (v ? JSON.parse(Buffer.from(v, 'base64').toString('utf8')) : null)

/** What `url` asks to be paid: the first `accepts` entry of the 402 that an unpaid POST of `{}` gets. */
export const requirementsAt = async (url: string) =>
  decodeB64Json((await post(url, {})).headers.get('payment-required')).accepts[0]
