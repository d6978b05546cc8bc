/** security-audit renders the OWASP table and CVSS-graded findings (beyond what fixtures.json can check). */
import { afterAll, expect, test } from 'bun:test'
import { serviceRunner } from '../../test/support/fixture-run'
import { OWASP } from './report'

const svc = serviceRunner('security-audit')
afterAll(svc.close)

test('OWASP table, CVSS-derived severity, risk score', async () => {
  const run = await svc.run(svc.fixture('model: standard tier'))
  if (run.error) throw run.error
  const r = (run.out as { result: string }).result
  expect(r).toContain('**Risk score: 88/100**')
  for (const [id, name] of Object.entries(OWASP)) expect(r).toContain(`| ${id} | ${name} |`)
  expect(r).toContain('CRITICAL (CVSS 9.8) SQL injection')
  expect(r).toContain('MEDIUM (CVSS 5.3) Verbose errors')
})
