import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ERROR_CODES } from '../../runtime/sdk/error-codes'
import { REASON } from '../../runtime/pay/reasons'
import { buildCatalog } from '../../runtime/catalog/index'
import { loadConfig } from '../../runtime/config'
import { errorVocabulary } from '../../runtime/catalog/error-vocabulary'
import { ownError, ServiceError } from '../../runtime/sdk'
import { categories, entries } from '../support/entries'
import { echoEntry } from '../support/extra-service'

test('error codes: one closed list, unique, UPPER_SNAKE (what the console counts), no synonym of INVALID_JSON', () => {
  expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length)
  expect(ERROR_CODES.filter((c) => !/^[A-Z][A-Z0-9_]{0,63}$/.test(c))).toEqual([])
  expect(ERROR_CODES).toContain('INVALID_JSON')
  expect(ERROR_CODES as readonly string[]).not.toContain('INVALID_BODY')
})

test("services' own codes (manifest `errors`) merge with the runtime's: every declared code is used by its service", () => {
  const { codes, problems } = errorVocabulary(entries)
  expect(problems).toEqual([])
  const own = [...codes].filter(([, d]) => d.service)
  expect(own.map(([c, d]) => `${d.service}:${c}`).sort()).toEqual([
    'image-rotate-flip:IMAGE_ENGINE_UNAVAILABLE',
    'json-schema-infer:INFERENCE_FAILED',
    'regex-test:REGEX_TIMEOUT',
    'rss-parse:NOT_A_FEED',
  ])
  const root = join(import.meta.dir, '..', '..')
  for (const [code, d] of own) {
    const sources = [...new Bun.Glob(`services/${d.service}/*.ts`).scanSync(root)]
      .filter((f) => !f.endsWith('.test.ts') && !f.endsWith('manifest.ts'))
      .map((f) => readFileSync(join(root, f), 'utf8'))
    expect([code, sources.some((t) => t.includes(`ownError(manifest, '${code}'`) || t.includes(`'${code}',`))]).toEqual(
      [code, true],
    )
  }
})

test('ownError: the status follows from the declared code', () => {
  const manifest = { errors: { MY_CODE: { status: 409, description: 'x' } } }
  const e = ownError(manifest, 'MY_CODE', 'clash', { details: [1] })
  expect(e).toBeInstanceOf(ServiceError)
  expect([e.status, e.code as string, e.message, e.details]).toEqual([409, 'MY_CODE', 'clash', [1]])
})

test('boot refuses a declared code that collides (the runtime, another service) or is malformed', () => {
  const declaring = (folder: string, errors: Record<string, { status: number; description: string }>) => ({
    ...echoEntry,
    folder,
    manifest: { ...echoEntry.manifest, slug: folder, errors },
  })
  const bad = [
    declaring('own-a', {
      INVALID_INPUT: { status: 422, description: 'x' },
      SHARED_CODE: { status: 422, description: 'x' },
    }),
    declaring('own-b', {
      SHARED_CODE: { status: 422, description: 'y' },
      lower_case: { status: 422, description: 'z' },
    }),
    declaring('own-c', { BAD_STATUS: { status: 200, description: 'ok?' }, NO_TEXT: { status: 422, description: '' } }),
  ]
  const text = buildCatalog([...entries, ...bad], loadConfig({}).config, false, categories).problems.join('\n')
  expect(text).toContain("services/own-a: error code 'INVALID_INPUT' is one of the runtime's codes")
  expect(text).toContain("services/own-b: error code 'SHARED_CODE' is also declared by services/own-a")
  expect(text).toContain("services/own-b: error code 'lower_case' must be UPPER_SNAKE")
  expect(text).toContain("services/own-c: error code 'BAD_STATUS': status must be an integer from 400 to 599")
  expect(text).toContain("services/own-c: error code 'NO_TEXT': description is required")
})

test('x402 reasons: unique snake_case strings; no other runtime file spells one out', () => {
  const values = Object.values(REASON) as string[]
  expect(new Set(values).size).toBe(values.length)
  expect(values.filter((r) => !/^[a-z][a-z0-9_]+$/.test(r))).toEqual([])
  const owned = new Set(['reasons.ts'])
  const root = join(import.meta.dir, '..', '..')
  const offenders: string[] = []
  for (const f of new Bun.Glob('runtime/**/*.ts').scanSync(root)) {
    if (owned.has(f.split('/').pop()!)) continue
    const text = readFileSync(join(root, f), 'utf8')
    for (const r of values) if (text.includes(`'${r}'`) || text.includes(`"${r}"`)) offenders.push(`${f}: ${r}`)
  }
  expect(offenders).toEqual([])
})
