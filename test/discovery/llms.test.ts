/** /llms.txt and the agent-facing OpenAPI fields, checked against /services (an independent surface). */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { startApp, type TestServer } from '../support/server'
import { oneLine } from '../../runtime/discovery/llms'

let s: TestServer
beforeAll(async () => {
  s = await startApp({ env: { PUBLIC_URL: 'https://api.example.com' } })
})
afterAll(() => s.stop())

test('/llms.txt lists every service by category with its price and purpose, and explains x402', async () => {
  const r = await s.fetch('/llms.txt')
  expect(r.status).toBe(200)
  expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  const text = await r.text()
  const services = ((await (await s.fetch('/services')).json()) as any).services as any[]
  expect(text).toStartWith('# Agent Utility API\n\n> ')
  for (const needle of [
    'PAYMENT-REQUIRED',
    'PAYMENT-SIGNATURE',
    'EIP-3009',
    'x402',
    '@x402/fetch',
    '/openapi.json',
    '/discovery/search',
    '/mcp',
    'eip155:8453',
  ])
    expect(text).toContain(needle)
  const lines = text.split('\n')
  for (const svc of services) {
    const line = lines.find((l) => l.includes(`(https://api.example.com/api/v1/${svc.slug})`))
    expect(line).toBeDefined()
    const prices = Object.values(svc.pricing).map((p: any) => `$${p.price_usd}`)
    for (const p of prices) expect(line).toContain(p)
    // The whole first sentence, never cut ("…"), and the fields under it: every input field, the required ones marked.
    expect(line).toMatch(/[.!?)]$/)
    const at = lines.indexOf(line!)
    const fields = lines.slice(at + 1).find((l) => l.startsWith('  - Fields: '))
    expect(lines.slice(at + 1, lines.indexOf(fields!)).every((l) => l.startsWith('  - '))).toBe(true)
    // /services publishes a tiered service's fields as a flat map, a utility's as JSON Schema.
    const tiered = svc.kind === 'tiered'
    const props = (tiered ? svc.input_schema : svc.input_schema.properties) as Record<string, { required?: boolean }>
    const required = tiered
      ? Object.keys(props).filter((k) => props[k].required)
      : ((svc.input_schema.required ?? []) as string[])
    expect(Object.keys(props).length).toBeGreaterThan(0)
    for (const name of Object.keys(props)) expect(fields).toContain(`\`${name}\` (`)
    for (const name of required) expect(fields).toMatch(new RegExp(`\`${name}\` \\([^)]*; required\\)`))
    // Under its category heading.
    const heading = lines
      .slice(0, lines.indexOf(line!))
      .reverse()
      .find((l) => l.startsWith('## '))
    expect(heading).toBe(`## ${svc.category}`)
  }
  expect(lines.filter((l) => l.startsWith('- [') && l.includes('/api/v1/')).length).toBe(services.length)
})

test('the one-line purpose is the first sentence, whole: abbreviations and decimals do not end it', () => {
  expect(oneLine('Turns text into a URL slug: ASCII. Same rules as Django.')).toBe('Turns text into a URL slug: ASCII.')
  expect(oneLine('Version 1.2 parser.  Second.')).toBe('Version 1.2 parser.')
  expect(oneLine('Price of coins by id (e.g. bitcoin, i.e. the id) from CoinGecko. More.')).toBe(
    'Price of coins by id (e.g. bitcoin, i.e. the id) from CoinGecko.',
  )
  expect(oneLine('Black-Scholes (Hull, Options, ch. 15) with greeks. Rho per point.')).toBe(
    'Black-Scholes (Hull, Options, ch. 15) with greeks.',
  )
  expect(oneLine(`${'word '.repeat(100)}end. Next.`)).toBe(`${'word '.repeat(100)}end.`)
})

test('/llms.txt names the fields, their aliases and the guidance between near twins', async () => {
  const text = await (await s.fetch('/llms.txt')).text()
  const entry = (slug: string) => {
    const lines = text.split('\n')
    const at = lines.findIndex((l) => l.includes(`/api/v1/${slug})`))
    const end = lines.findIndex((l, i) => i > at && !l.startsWith('  - '))
    return lines.slice(at, end).join('\n')
  }
  const loan = entry('loan-amortization-schedule')
  expect(loan).toContain('`principal` (number greater than 0; required)')
  expect(loan).toContain('`rate_unit` (one of decimal, percent; default "decimal")')
  for (const pair of ['`amount`→`principal`', '`rate`→`apr`', '`years`→`term_years`']) expect(loan).toContain(pair)
  expect(entry('percentage-calc')).toContain('`type`→`op`')
  expect(entry('debt-payoff-planner')).toContain('`debts` (array of {name?, balance, apr, min_payment}; required)')
  expect(entry('debt-payoff-planner')).toContain('`debts[].rate`→`debts[].apr`')
  expect(entry('mock-data-generate')).toContain('`fields` (object of name → {type, min?, max?,')
  expect(entry('eth-unit-convert')).toContain('  - Differs from eth-unit-converter: ')
  expect(entry('eth-unit-converter')).toContain('  - Differs from eth-unit-convert: ')
})

test('OpenAPI: contact, guidance pointing at /llms.txt, the /api alias documented once', async () => {
  const agent = (await (await s.fetch('/openapi.json')).json()) as any
  expect(agent.info.contact.url).toBe('https://api.example.com')
  expect(agent['x-agentcash-guidance']).toEqual({ llmsTxtUrl: 'https://api.example.com/llms.txt' })
  expect(agent.info['x-guidance']).toContain('/llms.txt')
  expect(agent.externalDocs.url).toBe('https://api.example.com/openapi/full.json')
  expect(agent.paths['/api/v1/{slug}'].post.description).toContain('/api/<slug>')
  const doc = (await (await s.fetch('/openapi/full.json')).json()) as any
  expect(doc.info.contact.url).toBe('https://api.example.com')
  expect(doc['x-agentcash-guidance']).toEqual({ llmsTxtUrl: 'https://api.example.com/llms.txt' })
  expect(doc.info['x-guidance']).toContain('/llms.txt')
  expect(doc.info['x-guidance'].length).toBeLessThan(4000)
  expect(doc.info.description).toContain('/api/<slug>')
  expect(
    Object.keys(doc.paths).filter(
      (p) => p.startsWith('/api/') && !p.startsWith('/api/v1/') && p !== '/api/demo/explain',
    ),
  ).toEqual([])
  expect(doc.paths['/llms.txt'].get.security).toEqual([])
  expect(doc.paths['/discovery/search'].get.security).toEqual([])
})

test("the agents' document documents what the full reference does for a paid call: the 409 and X-Ignored-Fields", async () => {
  const agent = (await (await s.fetch('/openapi.json')).json()) as any
  const full = (await (await s.fetch('/openapi/full.json')).json()) as any
  const op = agent.paths['/api/v1/{slug}'].post
  const ref = full.paths['/api/v1/slugify'].post
  expect(op.responses[409].description).toContain('payment-identifier')
  expect(op.responses[409]).toEqual(ref.responses[409])
  expect(op.responses[200].headers['X-Ignored-Fields'].schema).toEqual({ type: 'string' })
  expect(op.responses[200].headers).toEqual(ref.responses[200].headers)
})

test('/openapi/full.json is served like /openapi.json: JSON, CORS for any origin, nosniff', async () => {
  for (const path of ['/openapi.json', '/openapi/full.json']) {
    const r = await s.fetch(path, { headers: { origin: 'https://agent.example' } })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(r.headers.get('access-control-allow-origin')).toBe('*')
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
    expect(((await r.json()) as any).openapi).toBe('3.1.0')
  }
})

test("/llms.txt names the tiers above the official client's default $1 cap, and the setting that allows them", async () => {
  const { x402Client } = await import('@x402/core/client')
  const { ExactEvmScheme } = await import('@x402/evm/exact/client')
  const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts')
  const text = await (await s.fetch('/llms.txt')).text()
  const services = ((await (await s.fetch('/services')).json()) as any).services as any[]
  const over = services.flatMap((svc) =>
    Object.entries(svc.pricing)
      .filter(([, p]: [string, any]) => Number(p.price_usd) > 1)
      .map(([tier, p]: [string, any]) => ({
        name: `${svc.slug} ${tier}`,
        slug: svc.slug,
        tier,
        usd: Number(p.price_usd),
      })),
  )
  expect(over.length).toBeGreaterThan(0)
  const line = text.split('\n').find((l) => l.startsWith('The official client refuses a single payment above $1'))
  expect(line).toBeDefined()
  for (const o of over) expect(line).toContain(o.name)
  const setting = /maxAmountPerPayment: '(\$[\d.]+)'/.exec(line!)?.[1]
  expect(setting).toBeDefined()
  // The costliest tier's accepts entry as the Bazaar list publishes it (the 402's): the default client refuses it,
  // the client with the named setting signs it.
  const top = over.reduce((a, b) => (b.usd > a.usd ? b : a))
  const list = (await (await s.fetch('/discovery/resources?limit=100')).json()) as any
  const item = list.items.find((i: any) => new URL(i.resource).pathname === `/api/v1/${top.slug}`)
  const accepted = item.accepts.find(
    (a: any) => a.scheme === 'exact' && BigInt(a.amount) === BigInt(Math.round(top.usd * 1e6)),
  )
  expect(accepted).toBeDefined()
  const required = { x402Version: 2, resource: { url: item.resource }, accepts: [accepted] }
  const scheme = () => new ExactEvmScheme(privateKeyToAccount(generatePrivateKey()))
  await expect(new x402Client().register('eip155:8453', scheme()).createPaymentPayload(required)).rejects.toThrow(
    /maxAmountPerPayment/,
  )
  const allowed = new x402Client().register('eip155:8453', scheme()).setSpendControls({ maxAmountPerPayment: setting! })
  expect((await allowed.createPaymentPayload(required)).accepted.amount).toBe(accepted.amount)
})
