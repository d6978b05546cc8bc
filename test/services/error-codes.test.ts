import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ERROR_CODES } from '../../runtime/sdk/error-codes'
import { REASON } from '../../runtime/pay/reasons'

test('error codes: one closed list, unique, UPPER_SNAKE (what the console counts), no synonym of INVALID_JSON', () => {
  expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length)
  expect(ERROR_CODES.filter((c) => !/^[A-Z][A-Z0-9_]{0,63}$/.test(c))).toEqual([])
  expect(ERROR_CODES).toContain('INVALID_JSON')
  expect(ERROR_CODES as readonly string[]).not.toContain('INVALID_BODY')
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
