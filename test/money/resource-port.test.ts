/** The advertised resource URL follows PORT unless a public URL is configured (issue #13 item 9). */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { loadConfig } from '../../runtime/config'
import { decodeB64Json, post, startServer } from '../support/server'

const yaml = readFileSync('registry.yaml', 'utf8')

test('with PORT=3666 the 402 resource says :3666 (registry.yaml keeps its default localhost:3402)', async () => {
  expect(yaml).toContain('api_base: http://localhost:3402')
  const s = await startServer({ env: { PORT: '3666' } })
  try {
    const r = await post(s.url + '/api/v1/slugify?x=1', {})
    expect(r.status).toBe(402)
    expect(decodeB64Json(r.headers.get('payment-required')).resource.url).toBe(
      'http://localhost:3666/api/v1/slugify?x=1',
    )
    expect(((await r.json()) as any).accepts[0].resource).toBe('http://localhost:3666/api/v1/slugify?x=1')
  } finally {
    await s.stop()
  }
})

test('API_BASE_URL, PUBLIC_URL or a non-default api_base win over PORT', () => {
  const base = (env: Record<string, string>, text = yaml) =>
    loadConfig({ REGISTRY_PATH: 'registry.yaml', ...env }, text).config.provider
  expect(base({ PORT: '3666' })).toMatchObject({ apiBase: 'http://localhost:3666', website: 'http://localhost:3666' })
  expect(base({}).apiBase).toBe('http://localhost:3402')
  expect(base({ PORT: '3666', API_BASE_URL: 'https://api.example.com' }).apiBase).toBe('https://api.example.com')
  expect(base({ PORT: '3666', PUBLIC_URL: 'https://example.com' })).toMatchObject({
    apiBase: 'https://example.com',
    website: 'https://example.com',
  })
  const custom = yaml.replace('api_base: http://localhost:3402', 'api_base: https://pay.example.org')
  expect(base({ PORT: '3666' }, custom).apiBase).toBe('https://pay.example.org')
})
