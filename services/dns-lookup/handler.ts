import { handlerFor, invalid, ServiceError } from '../../runtime/sdk'
import { malformed } from '../_lib/live-data'
import manifest, { RECORD_TYPES } from './manifest'

type RecordType = (typeof RECORD_TYPES)[number]
const TYPE_NAMES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  39: 'DNAME',
  46: 'RRSIG',
  257: 'CAA',
}
const RCODES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
}
const MAX_TTL_S = 3600
const MAX_NEGATIVE_TTL_S = 300

interface DohAnswer {
  name: string
  type: number
  TTL: number
  data: string
}
interface DohResponse {
  Status: number
  TC?: boolean
  AD?: boolean
  Answer?: DohAnswer[]
  Authority?: DohAnswer[]
  Comment?: string | string[]
}

/** Concatenated character-strings of TXT presentation data: `"a" "b"` → `ab`, with \" and \DDD escapes. */
export function txtValue(data: string): string {
  const parts: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"/g
  let m: RegExpExecArray | null
  while ((m = re.exec(data)))
    parts.push(m[1].replace(/\\(\d{3}|.)/g, (_, e: string) => (e.length === 3 ? String.fromCharCode(Number(e)) : e)))
  return parts.length ? parts.join('') : data
}

const host = (s: string) => (s === '.' ? '' : s.replace(/\.$/, ''))

export function parseRecord(a: DohAnswer) {
  const type = TYPE_NAMES[a.type] ?? `TYPE${a.type}`
  const data = String(a.data ?? '')
  let value = data
  let priority: number | null = null
  if (type === 'MX') {
    const m = /^(\d+)\s+(\S+)$/.exec(data.trim())
    if (m) {
      priority = Number(m[1])
      value = host(m[2])
    }
  } else if (type === 'TXT') value = txtValue(data)
  else if (type === 'NS' || type === 'CNAME' || type === 'PTR' || type === 'DNAME') value = host(data.trim())
  return {
    name: host(String(a.name ?? '')),
    type,
    ttl: Math.max(0, Math.trunc(Number(a.TTL) || 0)),
    data,
    value,
    priority,
  }
}

/** Validates a domain name and returns its ASCII (punycode) form without trailing dot. */
export function normaliseName(raw: string): string {
  const v = raw.trim().replace(/\.$/, '')
  if (!v) throw invalid('name', 'is required: a domain name such as example.com')
  let ascii: string
  try {
    ascii = new URL(`http://${v}/`).hostname
  } catch {
    throw invalid('name', `'${raw}' is not a valid domain name`)
  }
  if (
    ascii.startsWith('[') ||
    ascii.length > 253 ||
    !/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(ascii) ||
    ascii.split('.').some((l) => l.length > 63 || l.startsWith('-') || l.endsWith('-'))
  ) {
    throw invalid('name', `'${raw}' is not a valid domain name`)
  }
  return ascii
}

/** Answers kept for their DNS TTL (the shared upstream cache needs the TTL before the call, DNS gives it after). */
const cache = new Map<string, { expires: number; data: DohResponse }>()
const MAX_CACHE = 1000

export default handlerFor(manifest, async ({ name, type = 'A' }, ctx) => {
  const qname = normaliseName(String(name ?? ''))
  const qtype = String(type).toUpperCase() as RecordType
  if (!RECORD_TYPES.includes(qtype)) throw invalid('type', `must be one of ${RECORD_TYPES.join(', ')}`)
  const up = ctx.upstream('doh')
  const key = `${up.baseUrl} ${qname} ${qtype}`
  const now = ctx.now().getTime()
  const hit = cache.get(key)
  let data = hit && hit.expires > now ? hit.data : undefined
  if (!data) {
    const res = await up.getJson<DohResponse>(
      '/dns-query',
      { name: qname, type: qtype },
      { headers: { accept: 'application/dns-json' } },
    )
    data = res.data
    if (!data || typeof data !== 'object' || typeof data.Status !== 'number')
      throw malformed('doh', 'a DNS JSON answer')
    const ttl =
      data.Status === 0 && data.Answer?.length
        ? Math.min(MAX_TTL_S, ...data.Answer.map((a) => Number(a.TTL) || 0))
        : data.Status === 0 || data.Status === 3
          ? Math.min(MAX_NEGATIVE_TTL_S, ...(data.Authority ?? []).map((a) => Number(a.TTL) || 0), MAX_NEGATIVE_TTL_S)
          : 0
    if (ttl > 0) {
      cache.delete(key)
      cache.set(key, { expires: now + ttl * 1000, data })
      while (cache.size > MAX_CACHE) cache.delete(cache.keys().next().value as string)
    }
  }
  const rcode = RCODES[data.Status] ?? `RCODE ${data.Status}`
  if (data.Status === 3)
    throw new ServiceError(404, 'NOT_FOUND', `${qname} does not exist (NXDOMAIN)`, { details: { status: 'NXDOMAIN' } })
  if (data.Status !== 0) {
    const comment = Array.isArray(data.Comment) ? data.Comment.join('; ') : data.Comment
    throw new ServiceError(
      502,
      'UPSTREAM_ERROR',
      `the resolver answered ${rcode} for ${qname} ${qtype}${comment ? ` (${comment})` : ''}`,
      { details: { status: rcode }, retryable: data.Status === 2, extra: { upstream: 'doh' } },
    )
  }
  const records = (data.Answer ?? [])
    .filter((a) => a && typeof a.data === 'string')
    .map(parseRecord)
    .filter((r) => r.type !== 'RRSIG')
  if (!records.some((r) => r.type === qtype || (qtype !== 'CNAME' && r.type === 'CNAME'))) {
    throw new ServiceError(404, 'NOT_FOUND', `${qname} has no ${qtype} records (NODATA)`, {
      details: { status: 'NODATA' },
    })
  }
  return {
    name: qname,
    type: qtype,
    status: 'NOERROR' as const,
    authenticated_data: data.AD === true,
    ttl: Math.min(...records.map((r) => r.ttl)),
    count: records.length,
    records,
    resolver: URL.canParse(up.baseUrl) ? new URL(up.baseUrl).host : up.name,
    attribution: ctx.upstream('doh').attribution,
  }
})
