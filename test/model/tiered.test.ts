import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { ServiceError, TIERS, type FetchedPage, type SafeFetch } from '../../runtime/sdk'
import { callService, manifestOf, modelCtx, startFakeOpenAI, texts, type FakeReply } from '../support/fake-openai'
import { OWASP } from '../../services/security-audit/report'

const fake = startFakeOpenAI()
afterAll(() => fake.close())
beforeEach(() => fake.reset())

const MARK = 'ZQX-user-marker-4711'

const review = (over: Record<string, unknown> = {}) => ({
  summary: 'Fine overall.',
  score: 7,
  findings: [
    { severity: 'LOW', title: 'Naming', location: 'line 1', description: 'Short names.', suggestion: 'Rename.' },
    { severity: 'CRITICAL', title: 'SQL injection', location: 'line 3', description: 'Concatenated SQL.', suggestion: 'Use parameters.' },
  ],
  security_notes: ['Validate input.'],
  performance_notes: [],
  ...over,
})
const audit = (over: Record<string, unknown> = {}) => ({
  executive_summary: 'One critical injection.',
  risk_score: 88,
  owasp: Object.keys(OWASP).map((id) => ({ id, status: id === 'A03' ? 'vulnerable' : 'not-found', note: `note ${id}` })),
  vulnerabilities: [
    { title: 'SQL injection', owasp: 'A03', cvss_score: 9.8, cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', location: 'line 1', description: 'd', attack_scenario: "id=1 OR 1=1", remediation: 'parameterize', remediation_code: 'db.query("... WHERE id = $1", [id])' },
    { title: 'Verbose errors', owasp: 'A05', cvss_score: 5.3, cvss_vector: '', location: 'line 2', description: 'd', attack_scenario: 'a', remediation: 'r', remediation_code: '' },
  ],
  ...over,
})

/** A scripted good answer per service. */
const goodReply = (slug: string, tokens: number): FakeReply =>
  slug === 'code-review' ? { json: review(), tokens } : slug === 'security-audit' ? { json: audit(), tokens } : { text: `## Answer for ${slug}\nDone.`, tokens }

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
function page(url: string, contentType: string, body: Uint8Array | string): FetchedPage {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  return { url, status: 200, headers: new Headers({ 'content-type': contentType }), contentType, body: bytes, text: () => new TextDecoder().decode(bytes) }
}
/** A fake safe fetcher serving fixed pages and recording the URLs asked for. */
function fakeFetch(pages: Record<string, FetchedPage>): SafeFetch & { asked: string[] } {
  const asked: string[] = []
  const f = (async (url: string) => {
    asked.push(url)
    const p = pages[url]
    if (!p) throw new ServiceError(502, 'UPSTREAM_ERROR', 'unreachable')
    return p
  }) as SafeFetch & { asked: string[] }
  f.asked = asked
  return f
}

/** The input of each service carrying the marker, and the fetcher it needs. */
function inputFor(slug: string): { input: Record<string, unknown>; fetch?: SafeFetch } {
  if (slug === 'analyze-image') {
    return { input: { code: 'https://img.example/cat.png', context: `What is it? ${MARK}` }, fetch: fakeFetch({ 'https://img.example/cat.png': page('https://img.example/cat.png', 'image/png', PNG) }) }
  }
  if (slug === 'mcp-blueprint') return { input: { code: `Expose orders ${MARK}`, language: 'python' } }
  return { input: { code: `print("${MARK}")`, context: 'ctx' } }
}

const SLUGS = ['explain-code', 'debug-assist', 'code-review', 'security-audit', 'automation-script', 'mcp-blueprint', 'extract-document', 'analyze-image', 'summarize-session', 'summarize-content']

for (const slug of SLUGS) {
  describe(slug, () => {
    const m = manifestOf(slug)

    test('manifest: tiered, needs the model, one concrete model label', () => {
      expect(m.kind).toBe('tiered')
      expect(m.needs).toContain('model')
      expect(m.model).toMatch(/^gpt-4\.1(-mini)?$/)
    })

    test.each(TIERS)('%s tier: model, budget, fixed system prompt, data only in the user message, usage', async (tier) => {
      const { input, fetch } = inputFor(slug)
      fake.reply(goodReply(slug, 400 + TIERS.indexOf(tier)))
      const out = await callService(slug, { ...input, tier }, modelCtx(fake, m, tier, fetch ? { fetch } : {}))
      expect(fake.requests).toHaveLength(1)
      const body = fake.requests[0]!
      expect(body.model).toBe(m.model)
      expect(body.max_tokens).toBe(m.pricing[tier]!.max_tokens)
      const { system, user } = texts(body)
      expect(system).not.toContain(MARK)
      expect(system).toContain(`Tier: ${tier}.`)
      expect(user).toContain(MARK)
      expect(user).toStartWith('<<<DATA')
      expect(out.tokens_used).toBe(400 + TIERS.indexOf(tier))
      expect(out.model).toBe(`${m.model}-2025-fake`)
      expect(typeof out.result).toBe('string')
      expect((out.result as string).length).toBeGreaterThan(0)
    })

    test('system prompts differ per tier and never change the model', async () => {
      const seen = new Set<string>()
      for (const tier of TIERS) {
        const { input, fetch } = inputFor(slug)
        fake.reply(goodReply(slug, 10))
        await callService(slug, { ...input, tier }, modelCtx(fake, m, tier, fetch ? { fetch } : {}))
      }
      for (const b of fake.requests) seen.add(texts(b).system)
      expect(seen.size).toBe(3)
      expect(new Set(fake.requests.map((b) => b.model))).toEqual(new Set([m.model]))
    })

    test('provider error is a 502, timeout a 504', async () => {
      const { input, fetch } = inputFor(slug)
      fake.reply({ status: 503 })
      await expect(callService(slug, input, modelCtx(fake, m, 'standard', fetch ? { fetch } : {}))).rejects.toMatchObject({ status: 502, code: 'UPSTREAM_ERROR' })
      fake.reply({ hang: true })
      await expect(callService(slug, inputFor(slug).input, modelCtx(fake, m, 'quick', { timeoutMs: 100, ...(fetch ? { fetch: inputFor(slug).fetch } : {}) }))).rejects.toMatchObject({ status: 504 })
    })

    if (slug !== 'analyze-image') {
      test('input over the tier budget is a 413 before any model call', async () => {
        const limit = m.pricing.quick!.max_tokens * 8
        const code = 'x'.repeat(limit + 1)
        await expect(callService(slug, { code, tier: 'quick' }, modelCtx(fake, m, 'quick'))).rejects.toMatchObject({ status: 413, code: 'INPUT_TOO_LARGE' })
        expect(fake.requests).toHaveLength(0)
      })
    }
  })
}

describe('structured tiered answers', () => {
  test('code-review renders graded findings (most severe first) and the 1-10 score', async () => {
    fake.reply({ json: review() })
    const out = await callService('code-review', { code: 'x' }, modelCtx(fake, manifestOf('code-review'), 'standard'))
    const r = out.result as string
    expect(r).toContain('**Quality score: 7/10**')
    expect(r.indexOf('[CRITICAL]')).toBeLessThan(r.indexOf('[LOW]'))
    expect(fake.requests[0]!.response_format?.type).toBe('json_schema')
  })

  test('code-review: out-of-range score is retried once, then 502', async () => {
    const m = manifestOf('code-review')
    fake.reply({ json: review({ score: 11 }), tokens: 100 }, { json: review({ score: 9 }), tokens: 60 })
    const ok = await callService('code-review', { code: 'x' }, modelCtx(fake, m, 'pro'))
    expect(ok.result).toContain('**Quality score: 9/10**')
    expect(ok.tokens_used).toBe(160)
    fake.reset()
    fake.reply({ text: 'not json' }, { json: review({ findings: [{ severity: 'SEVERE' }] }) }, { json: review() })
    await expect(callService('code-review', { code: 'x' }, modelCtx(fake, m, 'pro'))).rejects.toMatchObject({ status: 502 })
    expect(fake.requests).toHaveLength(2)
  })

  test('security-audit: OWASP table, CVSS-derived severity, risk score', async () => {
    fake.reply({ json: audit() })
    const r = (await callService('security-audit', { code: 'x' }, modelCtx(fake, manifestOf('security-audit'), 'standard'))).result as string
    expect(r).toContain('**Risk score: 88/100**')
    for (const [id, name] of Object.entries(OWASP)) expect(r).toContain(`| ${id} | ${name} |`)
    expect(r).toContain('CRITICAL (CVSS 9.8) SQL injection')
    expect(r).toContain('MEDIUM (CVSS 5.3) Verbose errors')
  })

  test('security-audit: a missing OWASP category is rejected and retried', async () => {
    const partial = audit({ owasp: audit().owasp.map((o) => (o.id === 'A10' ? { ...o, id: 'A09' } : o)) })
    fake.reply({ json: partial }, { json: audit() })
    await callService('security-audit', { code: 'x' }, modelCtx(fake, manifestOf('security-audit'), 'quick'))
    expect(fake.requests).toHaveLength(2)
    expect(fake.requests[1]!.messages[3]!.content).toContain('missing A10')
  })
})

describe('media and documents', () => {
  test('analyze-image sends the fetched image as a data URL, never the URL', async () => {
    const { input, fetch } = inputFor('analyze-image')
    fake.reply({ text: 'A cat.' })
    await callService('analyze-image', input, modelCtx(fake, manifestOf('analyze-image'), 'standard', { fetch }))
    const t = texts(fake.requests[0]!)
    expect(t.images).toEqual([`data:image/png;base64,${Buffer.from(PNG).toString('base64')}`])
    expect(JSON.stringify(fake.requests[0])).not.toContain('img.example')
  })

  test('analyze-image refuses a non-image (415) and a non-URL (422) without a model call', async () => {
    const fetch = fakeFetch({ 'https://x.example/a.png': page('https://x.example/a.png', 'image/png', '<html>nope</html>') })
    const m = manifestOf('analyze-image')
    await expect(callService('analyze-image', { code: 'https://x.example/a.png' }, modelCtx(fake, m, 'quick', { fetch }))).rejects.toMatchObject({ status: 415 })
    await expect(callService('analyze-image', { code: 'file:///etc/passwd' }, modelCtx(fake, m, 'quick', { fetch }))).rejects.toMatchObject({ status: 422 })
    expect(fake.requests).toHaveLength(0)
  })

  test('extract-document turns a fetched PDF into text before the model sees it', async () => {
    const doc = await PDFDocument.create()
    const font = await doc.embedFont(StandardFonts.Helvetica)
    doc.addPage().drawText('Invoice 1042 total 99.50 USD', { x: 50, y: 700, font, size: 12 })
    const pdf = await doc.save()
    const fetch = fakeFetch({ 'https://docs.example/inv.pdf': page('https://docs.example/inv.pdf', 'application/pdf', pdf) })
    fake.reply({ text: '| Invoice | 1042 |' })
    await callService('extract-document', { code: 'https://docs.example/inv.pdf', context: 'invoice fields' }, modelCtx(fake, manifestOf('extract-document'), 'standard', { fetch }))
    const t = texts(fake.requests[0]!)
    expect(t.user).toContain('Invoice 1042 total 99.50 USD')
    expect(t.user).toContain('application/pdf')
    expect(fetch.asked).toEqual(['https://docs.example/inv.pdf'])
  })

  test('extract-document reads HTML pages as text and accepts raw text', async () => {
    const fetch = fakeFetch({ 'https://docs.example/p': page('https://docs.example/p', 'text/html', '<title>T</title><script>evil()</script><p>Order 77 shipped</p>') })
    fake.reply({ text: 'ok' }, { text: 'ok' })
    const m = manifestOf('extract-document')
    await callService('extract-document', { code: 'https://docs.example/p' }, modelCtx(fake, m, 'quick', { fetch }))
    await callService('extract-document', { code: 'Plain memo: meet at 10' }, modelCtx(fake, m, 'quick', { fetch }))
    expect(texts(fake.requests[0]!).user).toContain('Order 77 shipped')
    expect(texts(fake.requests[0]!).user).not.toContain('evil()')
    expect(texts(fake.requests[1]!).user).toContain('Plain memo: meet at 10')
  })

  test('mcp-blueprint accepts only python or typescript', async () => {
    await expect(callService('mcp-blueprint', { code: 'x', language: 'cobol' }, modelCtx(fake, manifestOf('mcp-blueprint'), 'quick'))).rejects.toMatchObject({ status: 422 })
    expect(fake.requests).toHaveLength(0)
  })
})
