import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startApp, type TestServer } from '../support/server'

let s: TestServer
beforeAll(async () => {
  s = await startApp({ env: { PUBLIC_URL: 'https://api.example' } })
})
afterAll(() => s.stop())

describe('x-service-info in both OpenAPI documents', () => {
  test('the categories of the catalog in listing order, the docs and llms.txt links, each link served', async () => {
    const services = ((await (await s.fetch('/services')).json()) as any).services as Array<{ category: string }>
    for (const path of ['/openapi.json', '/openapi/full.json']) {
      const info = ((await (await s.fetch(path)).json()) as any)['x-service-info']
      expect(info.docs).toEqual({
        homepage: 'https://api.example',
        apiReference: 'https://api.example/docs',
        llms: 'https://api.example/llms.txt',
      })
      expect(new Set(info.categories)).toEqual(new Set(services.map((x) => x.category)))
      expect(info.categories.length).toBe(new Set(info.categories).size)
      for (const url of [info.docs.apiReference, info.docs.llms, info.agentCard])
        expect((await s.fetch(url.replace('https://api.example', ''))).status).toBe(200)
    }
  })
})
