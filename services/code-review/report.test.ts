/** code-review renders the model's structured review as graded Markdown (beyond what fixtures.json can check). */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'

const svc = serviceRunner('code-review')
afterAll(svc.close)

test('graded findings (most severe first), the 1-10 score and a JSON-schema request', async () => {
  const run = await svc.run(svc.fixture('model: standard tier'))
  if (run.error) throw run.error
  const r = (run.out as { result: string }).result
  expect(r).toContain('**Quality score: 7/10**')
  expect(r.indexOf('[CRITICAL]')).toBeGreaterThan(-1)
  expect(r.indexOf('[CRITICAL]')).toBeLessThan(r.indexOf('[LOW]'))
  expect(run.modelRequests[0]!.response_format?.type).toBe('json_schema')
})

test('a retried answer shows the corrected score', async () => {
  const run = await svc.run(svc.fixture('an out-of-range score'))
  if (run.error) throw run.error
  expect((run.out as { result: string }).result).toContain('**Quality score: 9/10**')
})
