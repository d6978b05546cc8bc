import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import type { FetchedPage, SafeFetch } from '../../runtime/sdk'
import { callService, manifestOf, modelCtx, startFakeOpenAI, texts } from '../support/fake-openai'

const fake = startFakeOpenAI()
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const MARK = 'ZQX-user-marker-4711'
const ctxOf = (slug: string, o: Parameters<typeof modelCtx>[3] = {}) => modelCtx(fake, manifestOf(slug), 'flat', o)
const call = (slug: string, input: unknown, o: Parameters<typeof modelCtx>[3] = {}) => callService(slug, input, ctxOf(slug, o))

const html = (body: string): FetchedPage => {
  const bytes = new TextEncoder().encode(body)
  return { url: 'https://news.example/a', status: 200, headers: new Headers(), contentType: 'text/html', body: bytes, text: () => body }
}
const pageFetch: SafeFetch = async () => html(`<html><head><title>Big news</title></head><body><article><p>${MARK} The council approved the plan.</p></article></body></html>`)

/** One good call per utility: input carrying the marker, a valid scripted answer, expected output subset. */
const CASES: Array<{ slug: string; input: Record<string, unknown>; reply: unknown; expect: Record<string, unknown>; fetch?: SafeFetch }> = [
  { slug: 'json-repair', input: { json: `{"a": 1} ${MARK} ;;` }, reply: { value: { a: 1 } }, expect: { method: 'model', repaired: '{"a":1}', value: { a: 1 } } },
  { slug: 'extract-structured', input: { text: `Jane Roe ${MARK}`, fields: 'name, email' }, reply: { name: 'Jane Roe', email: null }, expect: { data: { name: 'Jane Roe', email: null }, missing: ['email'] } },
  { slug: 'text-to-sql', input: { request: `count users ${MARK}`, dialect: 'mysql' }, reply: { sql: 'SELECT COUNT(*) FROM users', explanation: 'Counts rows.' }, expect: { sql: 'SELECT COUNT(*) FROM users', dialect: 'mysql', statement_type: 'select', read_only: true, tables: ['users'] } },
  { slug: 'sentiment-analyze', input: { text: `Great! ${MARK}` }, reply: { label: 'positive', score: 0.8, magnitude: 0.6, reason: 'Praise.' }, expect: { label: 'positive', score: 0.8, magnitude: 0.6 } },
  { slug: 'classify-text', input: { text: `Charged twice ${MARK}`, labels: ['billing', 'technical'] }, reply: { label: 'billing', confidence: 0.9, scores: [{ label: 'technical', confidence: 0.1 }], reason: 'Money.' }, expect: { label: 'billing', confidence: 0.9, scores: [{ label: 'billing', confidence: 0.9 }, { label: 'technical', confidence: 0.1 }] } },
  { slug: 'translate', input: { text: `Hello ${MARK}`, to: 'fr' }, reply: { translation: `Bonjour ${MARK}`, source_language: 'English', target_language: 'French' }, expect: { target_language: 'French' } },
  { slug: 'grammar-fix', input: { text: `Their going ${MARK}` }, reply: { corrected: `They're going ${MARK}`, changes: [{ original: 'Their', corrected: "They're", reason: 'contraction' }, { original: 'x', corrected: 'x', reason: 'noop' }] }, expect: { change_count: 1 } },
  { slug: 'tone-shift', input: { text: `hey ${MARK}`, tone: 'formal' }, reply: { text: 'Good day.' }, expect: { text: 'Good day.', tone: 'formal' } },
  { slug: 'keywords-extract', input: { text: `Apple WWDC ${MARK}`, max_keywords: 1 }, reply: { keywords: [{ term: 'WWDC', relevance: 0.5 }, { term: 'Apple', relevance: 0.9 }], topics: ['tech'], entities: [{ text: 'Apple', type: 'organization' }], tags: ['Apple', 'apple', 'tech'] }, expect: { keywords: [{ term: 'Apple', relevance: 0.9 }], tags: ['apple', 'tech'] } },
  { slug: 'regex-from-text', input: { description: `zip codes ${MARK}`, examples: { match: ['12345'], no_match: ['1234'] } }, reply: { pattern: '^\\d{5}$', flags: '', explanation: 'Five digits.' }, expect: { pattern: '^\\d{5}$', tested: true, tests: [{ text: '12345', expected: true, matched: true }, { text: '1234', expected: false, matched: false }] } },
  { slug: 'cron-from-text', input: { text: `every weekday at 9am ${MARK}`, count: 2 }, reply: { expression: '0 9 * * 1-5', explanation: 'Weekdays 09:00.' }, expect: { expression: '0 9 * * 1-5', next_runs: ['2024-01-01T09:00:00.000Z', '2024-01-02T09:00:00.000Z'], fields: { minute: '0', hour: '9', day_of_month: '*', month: '*', day_of_week: '1-5' } } },
  { slug: 'commit-message', input: { diff: `+fix ${MARK}` }, reply: { type: 'feat', scope: 'api', subject: 'add paging.', body: 'Adds cursors.', breaking: true, breaking_note: 'page param removed' }, expect: { message: 'feat(api)!: add paging\n\nAdds cursors.\n\nBREAKING CHANGE: page param removed', subject: 'add paging' } },
  { slug: 'explain-regex', input: { pattern: `a+${MARK}` }, reply: { summary: 'As.', parts: [{ token: 'a+', meaning: 'one or more a' }], matches: ['aa'], non_matches: ['b'], warnings: [] }, expect: { summary: 'As.' } },
  { slug: 'summarize-url', input: { url: 'https://news.example/a' }, reply: { title: 'Big news', summary: 'Approved.', key_points: ['Plan approved'] }, expect: { url: 'https://news.example/a', summary: 'Approved.', truncated: false }, fetch: pageFetch },
  { slug: 'eli5', input: { text: `What is a blockchain? ${MARK}` }, reply: { explanation: 'A shared notebook.', analogy: 'Like a class diary.' }, expect: { explanation: 'A shared notebook.' } },
]

describe('model utilities', () => {
  for (const c of CASES) {
    test(`${c.slug}: structured call, data only in the user message, usage reported`, async () => {
      const m = manifestOf(c.slug)
      expect(m.kind).toBe('utility')
      expect(m.needs).toContain('model')
      fake.reply({ json: c.reply, tokens: 211 })
      const out = await call(c.slug, c.input, c.fetch ? { fetch: c.fetch } : {})
      expect(out).toMatchObject({ ...c.expect, model: `${m.model}-2025-fake`, tokens_used: 211 })
      expect(fake.requests).toHaveLength(1)
      const body = fake.requests[0]!
      expect(body.model).toBe(m.model)
      expect(body.max_tokens).toBeGreaterThan(0)
      expect(body.response_format?.type).toBe('json_schema')
      const { system, user } = texts(body)
      expect(system).not.toContain(MARK)
      expect(user).toContain(MARK)
    })
  }

  test('every model utility fails with 502 on a provider error and 504 on a timeout', async () => {
    for (const c of CASES) {
      fake.reply({ status: 500 })
      await expect(call(c.slug, c.input, c.fetch ? { fetch: c.fetch } : {})).rejects.toMatchObject({ status: 502 })
      fake.reply({ hang: true })
      await expect(call(c.slug, c.input, { timeoutMs: 80, ...(c.fetch ? { fetch: c.fetch } : {}) })).rejects.toMatchObject({ status: 504 })
    }
  })
})

describe('json-repair', () => {
  test('valid and deterministically repairable JSON make no model call', async () => {
    expect(await call('json-repair', { json: '{"a":1}' })).toMatchObject({ method: 'unchanged', changed: false, model: 'none', tokens_used: 0 })
    expect(await call('json-repair', { json: "{'a': True, b: [1,2,}" })).toMatchObject({ method: 'deterministic', value: { a: true, b: [1, 2] }, tokens_used: 0 })
    expect(fake.requests).toHaveLength(0)
  })
  test('model path: a missing value is retried, then 502', async () => {
    fake.reply({ json: {} }, { json: { nope: 1 } })
    await expect(call('json-repair', { json: '}{' })).rejects.toMatchObject({ status: 502 })
    expect(fake.requests).toHaveLength(2)
  })
  test('model path refuses inputs over its cap with 413', async () => {
    await expect(call('json-repair', { json: `{"a":1} x${'y'.repeat(17_000)}` })).rejects.toMatchObject({ status: 413 })
    expect(fake.requests).toHaveLength(0)
  })
})

describe('validation of model output', () => {
  test('text-to-sql: SQL that does not parse for the dialect is retried, then 502', async () => {
    fake.reply({ json: { sql: 'SELECT TOP 5 * FROM users', explanation: '' } }, { json: { sql: 'SELECT * FROM users LIMIT 5', explanation: '' } })
    expect(await call('text-to-sql', { request: 'five users' })).toMatchObject({ sql: 'SELECT * FROM users LIMIT 5', dialect: 'postgresql' })
    expect(fake.requests[1]!.messages[3]!.content).toContain('does not parse as postgresql')
    fake.reset()
    fake.reply({ json: { sql: 'SELEC * FORM users', explanation: '' } }, { json: { sql: 'DROP', explanation: '' } })
    await expect(call('text-to-sql', { request: 'x' })).rejects.toMatchObject({ status: 502 })
    expect(fake.requests).toHaveLength(2)
  })
  test('text-to-sql: sqlserver accepts TOP', async () => {
    fake.reply({ json: { sql: 'SELECT TOP 5 * FROM users', explanation: '' } })
    expect(await call('text-to-sql', { request: 'x', dialect: 'sqlserver' })).toMatchObject({ read_only: true })
  })
  test('cron-from-text: invalid expressions are retried, then 502', async () => {
    fake.reply({ json: { expression: '61 * * * *', explanation: '' } }, { json: { expression: '0 0 * * * *', explanation: '' } })
    await expect(call('cron-from-text', { text: 'x' })).rejects.toMatchObject({ status: 502 })
    expect(fake.requests).toHaveLength(2)
    expect(fake.requests[1]!.messages[3]!.content).toContain('not a valid five-field cron expression')
  })
  test('cron-from-text: next runs in the requested time zone; bad zone is 422', async () => {
    fake.reply({ json: { expression: '0 9 * * *', explanation: '' } })
    expect(await call('cron-from-text', { text: 'daily 9', timezone: 'Europe/Paris', count: 1 })).toMatchObject({ next_runs: ['2024-01-01T08:00:00.000Z'] })
    await expect(call('cron-from-text', { text: 'x', timezone: 'Mars/Base' })).rejects.toMatchObject({ status: 422 })
  })
  test('regex-from-text: uncompilable or failing patterns are retried, then 502', async () => {
    fake.reply({ json: { pattern: '(', flags: '', explanation: '' } }, { json: { pattern: '^\\d{4}$', flags: '', explanation: '' } })
    await expect(call('regex-from-text', { description: 'zip', examples: { match: ['12345'] } })).rejects.toMatchObject({ status: 502 })
    expect(fake.requests[1]!.messages[3]!.content).toContain('does not compile')
  })
  test('regex-from-text: lookbehind compiles in JavaScript but is reported untested', async () => {
    fake.reply({ json: { pattern: '(?<=\\$)\\d+', flags: 'g', explanation: '' } })
    expect(await call('regex-from-text', { description: 'dollar amounts', examples: { match: ['$5'] } })).toMatchObject({ tested: false })
  })
  test('classify-text: a label outside the list is retried, then 502', async () => {
    fake.reply({ json: { label: 'sales', confidence: 1, scores: [], reason: '' } }, { json: { label: 'other', confidence: 1, scores: [], reason: '' } })
    await expect(call('classify-text', { text: 'x', labels: 'billing, technical' })).rejects.toMatchObject({ status: 502 })
    await expect(call('classify-text', { text: 'x', labels: 'only-one' })).rejects.toMatchObject({ status: 422 })
  })
  test('extract-structured: extra keys are rejected (exactly the requested fields)', async () => {
    fake.reply({ json: { name: 'A', email: null, phone: '1' } }, { json: { name: 'A', email: 'a@b.c' } })
    expect(await call('extract-structured', { text: 'x', fields: ['name', 'email'] })).toMatchObject({ data: { name: 'A', email: 'a@b.c' }, missing: [] })
    expect(fake.requests).toHaveLength(2)
    await expect(call('extract-structured', { text: 'x', fields: 'na<me>' })).rejects.toMatchObject({ status: 422 })
  })
  test('sentiment-analyze: a label contradicting the score is retried', async () => {
    fake.reply({ json: { label: 'positive', score: -0.5, magnitude: 0.5, reason: '' } }, { json: { label: 'negative', score: -0.5, magnitude: 0.5, reason: '' } })
    expect(await call('sentiment-analyze', { text: 'meh' })).toMatchObject({ label: 'negative' })
  })
  test('explain-regex: a JavaScript pattern that does not compile is 422 with no model call', async () => {
    await expect(call('explain-regex', { pattern: '(' })).rejects.toMatchObject({ status: 422 })
    expect(fake.requests).toHaveLength(0)
  })
  test('summarize-url: the provider receives page text, never the URL', async () => {
    fake.reply({ json: { title: 'T', summary: 'S', key_points: [] } })
    await call('summarize-url', { url: 'https://news.example/a' }, { fetch: pageFetch })
    expect(texts(fake.requests[0]!).user).toContain('The council approved the plan.')
    expect(JSON.stringify(fake.requests[0])).not.toContain('news.example')
  })
})
