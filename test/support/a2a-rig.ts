/**
 * A2A paid with x402 (docs/a2a.md), for real: the server paid on the dev chain (anvil, Circle's USDC; see
 * test/support/on-chain.ts), the loopback model where a test asks for it, and the official A2A client
 * (@a2a-js/sdk) of each wire, v1.0 and the v0.3 compatibility wire, which reads the agent card at the server as any
 * client does; every request goes to the server's socket whatever origin the card names (API_BASE_URL), as a reverse
 * proxy would forward it. Also the user message, the readers of a streamed send, and the books after each test.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import { Role } from '@a2a-js/sdk'
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  ServiceParameters,
  withA2AExtensions,
} from '@a2a-js/sdk/client'
import type { SettleResponse } from '@x402/core/types'
import { X402_EXTENSION } from '../../runtime/a2a/card'
import { type DevChain, startDevChain } from '../../runtime/chain/devchain'
import { usdcBalance } from '../../runtime/chain/usdc'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai'
import { startServerOnChain } from './on-chain'
import type { TestServer } from './server'
import { until } from './until'

/** What every A2A call sends: the x402 extension activated (and `signal`, to leave mid-call). */
export const a2aOptions = (signal?: AbortSignal) => ({
  serviceParameters: ServiceParameters.createFrom(undefined, withA2AExtensions(X402_EXTENSION)),
  signal,
})

/** A user message: a new task (`data`: `{ skill, input }`), or the signed x402 `payload` answered on `taskId`. */
export const a2aMessage = (o: { data?: unknown; taskId?: string; payload?: unknown }) =>
  ({
    tenant: '',
    configuration: undefined,
    metadata: undefined,
    message: {
      messageId: crypto.randomUUID(),
      contextId: '',
      taskId: o.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: o.data === undefined ? { $case: 'text', value: 'payment' } : { $case: 'data', value: o.data },
          metadata: undefined,
          filename: '',
          mediaType: '',
        },
      ],
      metadata:
        o.payload === undefined
          ? undefined
          : { 'x402.payment.status': 'payment-submitted', 'x402.payment.payload': o.payload },
      extensions: [],
      referenceTaskIds: [],
    },
  }) as never

/** One event of a streamed send (`task`, `statusUpdate`, `artifactUpdate`). */
export type A2aEvent = { payload: { $case: string; value: any } }

/** Every event of a streamed send, once it ended. */
export async function allEvents(stream: AsyncGenerator<unknown>): Promise<A2aEvent[]> {
  const out: A2aEvent[] = []
  for await (const e of stream) out.push(e as A2aEvent)
  return out
}

const artifacts = (events: A2aEvent[], suffix: string) =>
  events.filter((e) => e.payload.$case === 'artifactUpdate' && e.payload.value.artifact.artifactId.endsWith(suffix))

/** The answer's text chunks, in order (the `<task>-text` artifact updates). */
export const textChunks = (events: A2aEvent[]) =>
  artifacts(events, '-text').map((e) => e.payload.value.artifact.parts[0].content.value as string)

/** The result artifact's JSON (`<task>-result`), if one came. */
export const resultOf = (events: A2aEvent[]) =>
  artifacts(events, '-result')[0]?.payload.value.artifact.parts[0].content.value

/** The last receipt of the task's last status (`x402.payment.receipts`). */
export const receiptOf = (events: A2aEvent[]) =>
  (events.at(-1)!.payload.value.status.message.metadata['x402.payment.receipts'] as SettleResponse[]).at(-1)!

/** Task `id` as `client` reads it (GetTask; tasks/get on the v0.3 wire). */
export const getTask = async (client: Client, id: string) => (await client.getTask({ tenant: '', id } as never)) as any

/** Waits (GetTask, polled) until task `id` is in `state` (a TaskState), then returns it. */
export async function untilTaskState(client: Client, id: string, state: number, what: string) {
  await until(async () => (await getTask(client, id)).status.state === state, 30_000, what)
  return getTask(client, id)
}

/**
 * The official client of each wire for `s`: v1.0 (`v1`) and v0.3 (`v03`), both from the agent card at `s.url`,
 * their JSON-RPC calls sent to the socket. Also the card as served.
 */
export async function a2aClients(s: TestServer): Promise<{ v1: Client; v03: Client; card: any }> {
  const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as any
  const named = new URL(card.supportedInterfaces[0].url).origin
  const toSocket = (url: string | URL | Request, init?: RequestInit) => fetch(String(url).replace(named, s.url), init)
  const factory = (legacy: boolean) =>
    new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [
          new JsonRpcTransportFactory({
            fetchImpl: toSocket as typeof fetch,
            ...(legacy ? { legacyCompat: { enabled: true } } : {}),
          }),
        ],
      }),
    )
  return { v1: await factory(false).createFromUrl(s.url), v03: await factory(true).createFromUrl(s.url), card }
}

export interface A2aRig {
  /** Set by the rig's beforeAll. */
  readonly chain: DevChain
  readonly server: TestServer
  readonly v1: Client
  readonly v03: Client
  readonly card: any
  /** The loopback model (with `model: true`). */
  readonly fake: FakeOpenAI
  /**
   * The books, every scheme: /stats revenue = the ledger's settled total + the channels' charges, and the payee's
   * on-chain delta since the rig started = settled + what the channels swept to it. Returns that delta.
   */
  expectBooks(): Promise<bigint>
}

/**
 * The rig for one test file (registers its beforeAll/afterAll): the dev chain, the server paid on it with `entries`
 * and `env`, the loopback model behind OPENAI_BASE_URL with `model`, and both clients.
 */
export function a2aRig(o: { entries?: RegistryEntry[]; env?: Record<string, string>; model?: boolean } = {}): A2aRig {
  let chain: DevChain
  let s: TestServer
  let fake: FakeOpenAI | undefined
  let clients: Awaited<ReturnType<typeof a2aClients>>
  let payeeBefore = 0n
  const payee = () => usdcBalance(chain.rpcUrl, chain.payee.address)
  beforeAll(async () => {
    chain = await startDevChain()
    fake = o.model ? startFakeOpenAI() : undefined
    const model: Record<string, string> = fake ? { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' } : {}
    s = await startServerOnChain(chain, { entries: o.entries, env: { ...model, ...o.env } })
    payeeBefore = await payee()
    clients = await a2aClients(s)
  })
  afterAll(async () => {
    await s?.stop()
    fake?.close()
    await chain?.stop()
  })
  return {
    get chain() {
      return chain
    },
    get server() {
      return s
    },
    get v1() {
      return clients.v1
    },
    get v03() {
      return clients.v03
    },
    get card() {
      return clients.card
    },
    get fake() {
      if (!fake) throw new Error('this rig has no model (a2aRig({ model: true }))')
      return fake
    },
    async expectBooks() {
      const stats = (await (await fetch(`${s.url}/stats`)).json()) as any
      const settled = await s.booted.storage.ledger.settledTotal()
      const channels = await s.booted.storage.channels.totals()
      expect(BigInt(stats.totals.revenue_atomic)).toBe(settled + channels.earned)
      const delta = (await payee()) - payeeBefore
      expect(delta).toBe(settled + channels.swept)
      return delta
    },
  }
}
