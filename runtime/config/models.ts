/** Models and the free demo: the OpenAI-compatible endpoint model services call, and the home page's demo. */
import { isTier, TIERS, type Tier } from '../sdk/manifest'
import { type Reader, variable } from './declare'
import type { Config } from './types'

export const OPENAI_BASE_URL = variable({
  name: 'OPENAI_BASE_URL',
  yaml: 'models.base_url',
  concern: 'models',
  description:
    "any OpenAI-compatible chat endpoint (OpenAI's when only `OPENAI_API_KEY` is set); without a provider, model services show `available: false` and answer 503 before any payment is asked",
})
export const OPENAI_API_KEY = variable({
  name: 'OPENAI_API_KEY',
  secret: true,
  concern: 'models',
  description: "the model endpoint's API key",
})
export const DEMO_SERVICE = variable({
  name: 'DEMO_SERVICE',
  yaml: 'demo.service',
  default: 'explain-code',
  concern: 'models',
  valid: 'a registered service',
  description: 'the service of the free demo on the home page',
})
export const DEMO_TIER = variable({
  name: 'DEMO_TIER',
  yaml: 'demo.tier',
  default: 'quick',
  concern: 'models',
  valid: TIERS.join(' | '),
  description: 'the tier the free demo runs at',
})
export const DEMO_DAILY_LIMIT = variable({
  name: 'DEMO_DAILY_LIMIT',
  yaml: 'demo.daily_limit',
  default: 5,
  min: 0,
  concern: 'models',
  description: 'free demo calls per client per day (0 = none)',
})

export const modelVariables = [OPENAI_BASE_URL, OPENAI_API_KEY, DEMO_SERVICE, DEMO_TIER, DEMO_DAILY_LIMIT]

export function readModels(r: Reader): Pick<Config, 'openai' | 'demo'> {
  const demo = {
    service: r.text(DEMO_SERVICE),
    tier: (r.raw(DEMO_TIER) ?? DEMO_TIER.default) as Tier,
    dailyLimit: r.number(DEMO_DAILY_LIMIT, 'demo.daily_limit'),
  }
  if (!isTier(demo.tier)) r.problems.push(`demo.tier must be one of ${TIERS.join(', ')}`)
  return { openai: { baseUrl: r.text(OPENAI_BASE_URL), apiKey: r.env(OPENAI_API_KEY) ?? '' }, demo }
}
