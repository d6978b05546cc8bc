/**
 * The categories a manifest's `category` may name, in the order /llms.txt lists them, each with its topical tags
 * (the category first, then what an agent would search for; at most 5: x402 Bazaar `tags`, /discovery/resources
 * filters, search). Boot refuses a manifest whose category is not here.
 */
export const categories = {
  analysis: ['analysis', 'code', 'ai', 'developer-tools'],
  web: ['web', 'http', 'scraping', 'urls'],
  text: ['text', 'strings', 'utilities'],
  encoding: ['encoding', 'hashing', 'base64', 'utilities'],
  data: ['data', 'json', 'csv', 'conversion'],
  datetime: ['datetime', 'time', 'calendar', 'timezones'],
  validation: ['validation', 'parsing', 'utilities'],
  network: ['network', 'ip', 'dns'],
  math: ['math', 'calculator', 'statistics'],
  finance: ['finance', 'calculator', 'investing', 'loans'],
  crypto: ['crypto', 'defi', 'ethereum', 'calculator'],
  'live-data': ['live-data', 'api', 'realtime'],
  language: ['language', 'ai', 'llm', 'nlp'],
  media: ['media', 'documents', 'images', 'conversion'],
  payments: ['payments', 'x402', 'usdc'],
} satisfies Record<string, string[]>
