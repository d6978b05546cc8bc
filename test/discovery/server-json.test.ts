import { describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generated } from '../../scripts/gen-registry'
import { renderServerJson, SERVER_SCHEMA } from '../../scripts/server-json'

const root = join(import.meta.dir, '..', '..')

describe('server.json for the MCP Registry', () => {
  test('the committed file is the generated one (npm run gen), and follows the registry rules', () => {
    const [, text] = generated().find(([name]) => name === 'server.json')!
    expect(readFileSync(join(root, 'server.json'), 'utf8')).toBe(text)
    const s = JSON.parse(text)
    expect(s.$schema).toBe(SERVER_SCHEMA)
    expect(s.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)
    expect(s.name.length).toBeLessThanOrEqual(200)
    expect(s.description.length).toBeGreaterThan(0)
    expect(s.description.length).toBeLessThanOrEqual(100)
    expect(s.version).not.toBe('latest')
    expect(s.remotes).toEqual([{ type: 'streamable-http', url: 'http://localhost:3402/mcp' }])
  })

  test("an operator's provider block becomes the name (reverse DNS of the website) and the remote URL", () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-json-'))
    cpSync(join(root, 'package.json'), join(dir, 'package.json'))
    const yaml = readFileSync(join(root, 'registry.yaml'), 'utf8')
      .replace(/website: http:\/\/localhost:3402/, 'website: https://agents.example.com')
      .replace(/api_base: http:\/\/localhost:3402/, 'api_base: https://api.example.com/')
    writeFileSync(join(dir, 'registry.yaml'), yaml)
    const s = JSON.parse(renderServerJson(dir, 7))
    expect(s.name).toBe('com.example.agents/agent-utility-api')
    expect(s.websiteUrl).toBe('https://agents.example.com')
    expect(s.remotes).toEqual([{ type: 'streamable-http', url: 'https://api.example.com/mcp' }])
    expect(s.description).toStartWith('7 services')
  })
})
