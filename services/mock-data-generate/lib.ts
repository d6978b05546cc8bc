/** Seeded fake-data generators for mock-data-generate. All randomness comes from one mulberry32 stream. */
import { invalid } from '../../runtime/sdk'

/** mulberry32 (Tommy Ettinger's 32-bit PRNG): uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed | 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const TYPES = [
  'id',
  'int',
  'float',
  'bool',
  'uuid',
  'date',
  'datetime',
  'name',
  'first_name',
  'last_name',
  'email',
  'username',
  'phone',
  'company',
  'job_title',
  'word',
  'words',
  'sentence',
  'paragraph',
  'city',
  'country',
  'country_code',
  'street_address',
  'zip',
  'url',
  'domain',
  'ipv4',
  'color',
  'currency_code',
  'price',
  'latitude',
  'longitude',
  'enum',
] as const
export type FieldType = (typeof TYPES)[number]

export interface FieldSpec {
  type: FieldType
  min?: number
  max?: number
  decimals?: number
  values?: Array<string | number | boolean | null>
}

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Ada',
  'Alan',
  'Grace',
  'Carlos',
  'Sofia',
  'Yuki',
  'Amara',
  'Ravi',
  'Lena',
  'Omar',
  'Ingrid',
  'Mateo',
]
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Lovelace',
  'Turing',
  'Hopper',
  'Nguyen',
  'Kim',
  'Patel',
  'Okafor',
  'Silva',
  'Müller',
  'Rossi',
  'Dubois',
  'Tanaka',
  'Novak',
  'Larsen',
  'Cohen',
]
const WORDS = [
  'alpha',
  'amber',
  'anchor',
  'arrow',
  'atlas',
  'beacon',
  'birch',
  'bridge',
  'cedar',
  'cipher',
  'cobalt',
  'comet',
  'delta',
  'ember',
  'falcon',
  'fjord',
  'garnet',
  'harbor',
  'horizon',
  'indigo',
  'jasper',
  'lantern',
  'maple',
  'meadow',
  'nebula',
  'onyx',
  'orbit',
  'pixel',
  'quartz',
  'raven',
  'river',
  'saffron',
  'summit',
  'tundra',
  'velvet',
  'willow',
  'zenith',
]
const CITIES: Array<[string, string, string]> = [
  ['Paris', 'France', 'FR'],
  ['Lyon', 'France', 'FR'],
  ['Berlin', 'Germany', 'DE'],
  ['Munich', 'Germany', 'DE'],
  ['Madrid', 'Spain', 'ES'],
  ['Rome', 'Italy', 'IT'],
  ['Lisbon', 'Portugal', 'PT'],
  ['London', 'United Kingdom', 'GB'],
  ['Dublin', 'Ireland', 'IE'],
  ['Amsterdam', 'Netherlands', 'NL'],
  ['Oslo', 'Norway', 'NO'],
  ['Warsaw', 'Poland', 'PL'],
  ['New York', 'United States', 'US'],
  ['Chicago', 'United States', 'US'],
  ['Toronto', 'Canada', 'CA'],
  ['Mexico City', 'Mexico', 'MX'],
  ['São Paulo', 'Brazil', 'BR'],
  ['Buenos Aires', 'Argentina', 'AR'],
  ['Lagos', 'Nigeria', 'NG'],
  ['Nairobi', 'Kenya', 'KE'],
  ['Cairo', 'Egypt', 'EG'],
  ['Mumbai', 'India', 'IN'],
  ['Tokyo', 'Japan', 'JP'],
  ['Seoul', 'South Korea', 'KR'],
  ['Sydney', 'Australia', 'AU'],
]
const COMPANY = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Hooli', 'Vandelay', 'Tyrell', 'Cyberdyne']
const SUFFIX = ['Inc.', 'LLC', 'Ltd.', 'GmbH', 'Group', 'Labs']
const JOBS = [
  'Software Engineer',
  'Data Analyst',
  'Product Manager',
  'Designer',
  'Accountant',
  'Nurse',
  'Teacher',
  'Sales Manager',
  'Support Specialist',
  'Architect',
]
const STREETS = ['Main St', 'Oak Ave', 'Maple Rd', 'Cedar Ln', 'Park Blvd', 'Elm St', 'Lake Dr', 'Hill Rd']
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY', 'INR', 'BRL']
const TLDS = ['example.com', 'example.org', 'example.net']
const DAY = 86_400_000
const MIN_TIME = -62_135_596_800
const MAX_TIME = 253_402_300_799

type Rand = () => number
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const int = (r: Rand, min: number, max: number) => min + Math.floor(r() * (max - min + 1))
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d
const cap = (s: string) => s[0].toUpperCase() + s.slice(1)
const sentence = (r: Rand) => cap(Array.from({ length: int(r, 5, 12) }, () => pick(r, WORDS)).join(' ')) + '.'
const hex = (r: Rand, n: number) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('')
const ascii = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase()

function dateBound(v: number | undefined, fallback: string): number {
  return v === undefined ? Date.parse(fallback) : v * 1000
}

/** Checks a field spec; 422 naming `fields.<name>` when its options do not fit its type. */
export function checkSpec(name: string, s: FieldSpec): void {
  const f = `fields.${name}`
  if (s.min !== undefined && s.max !== undefined && s.min > s.max) throw invalid(f, 'min is greater than max')
  if (s.type === 'int' && ![s.min, s.max].every((v) => v === undefined || Number.isSafeInteger(v)))
    throw invalid(f, 'int min and max must be integers')
  if (s.type === 'enum' && !s.values?.length) throw invalid(f, 'enum needs a non-empty `values` list')
  if (
    (s.type === 'date' || s.type === 'datetime') &&
    ![s.min, s.max].every((v) => v === undefined || (v >= MIN_TIME && v <= MAX_TIME))
  )
    throw invalid(f, `date min and max are Unix seconds from ${MIN_TIME} (0001-01-01) to ${MAX_TIME} (9999-12-31)`)
}

/** One value of a field. `row` is 1-based (used by `id`). Dates: min/max are Unix seconds. */
export function generate(r: Rand, s: FieldSpec, row: number): unknown {
  switch (s.type) {
    case 'id':
      return row
    case 'int':
      return int(r, s.min ?? 0, s.max ?? 1000)
    case 'float':
      return round((s.min ?? 0) + r() * ((s.max ?? 1) - (s.min ?? 0)), s.decimals ?? 2)
    case 'price':
      return round((s.min ?? 1) + r() * ((s.max ?? 1000) - (s.min ?? 1)), 2)
    case 'bool':
      return r() < 0.5
    case 'uuid': {
      const h = hex(r, 32).split('')
      h[12] = '4'
      h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)
      const x = h.join('')
      return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`
    }
    case 'date':
    case 'datetime': {
      const lo = dateBound(s.min, '2000-01-01T00:00:00Z')
      const hi = dateBound(s.max, '2030-12-31T23:59:59Z')
      if (s.type === 'date')
        return new Date(lo + int(r, 0, Math.floor((hi - lo) / DAY)) * DAY).toISOString().slice(0, 10)
      return new Date(lo + int(r, 0, Math.floor((hi - lo) / 1000)) * 1000).toISOString().replace('.000Z', 'Z')
    }
    case 'first_name':
      return pick(r, FIRST)
    case 'last_name':
      return pick(r, LAST)
    case 'name':
      return `${pick(r, FIRST)} ${pick(r, LAST)}`
    case 'username':
      return `${ascii(pick(r, FIRST))}_${ascii(pick(r, WORDS))}${int(r, 1, 99)}`
    case 'email':
      return `${ascii(pick(r, FIRST))}.${ascii(pick(r, LAST))}${int(r, 1, 99)}@${pick(r, TLDS)}`
    case 'phone':
      return `+1-555-01${String(int(r, 0, 99)).padStart(2, '0')}`
    case 'company':
      return `${pick(r, COMPANY)} ${pick(r, SUFFIX)}`
    case 'job_title':
      return pick(r, JOBS)
    case 'word':
      return pick(r, WORDS)
    case 'words':
      return Array.from({ length: 3 }, () => pick(r, WORDS)).join(' ')
    case 'sentence':
      return sentence(r)
    case 'paragraph':
      return Array.from({ length: int(r, 3, 5) }, () => sentence(r)).join(' ')
    case 'city':
      return pick(r, CITIES)[0]
    case 'country':
      return pick(r, CITIES)[1]
    case 'country_code':
      return pick(r, CITIES)[2]
    case 'street_address':
      return `${int(r, 1, 9999)} ${pick(r, STREETS)}`
    case 'zip':
      return String(int(r, 0, 99999)).padStart(5, '0')
    case 'domain':
      return `${pick(r, WORDS)}.${pick(r, TLDS)}`
    case 'url':
      return `https://www.${pick(r, TLDS)}/${pick(r, WORDS)}/${pick(r, WORDS)}`
    case 'ipv4':
      return `${pick(r, ['192.0.2', '198.51.100', '203.0.113'])}.${int(r, 1, 254)}`
    case 'color':
      return `#${hex(r, 6)}`
    case 'currency_code':
      return pick(r, CURRENCIES)
    case 'latitude':
      return round(-90 + r() * 180, 6)
    case 'longitude':
      return round(-180 + r() * 360, 6)
    case 'enum':
      return pick(r, s.values!)
  }
}
