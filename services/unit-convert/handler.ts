import type { MathJsInstance } from 'mathjs'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

// mathjs costs ~90 MB of memory: loaded on the first call, not at boot.
let loading: Promise<MathJsInstance> | undefined
const mathjs = () =>
  (loading ??= import('mathjs').then(({ all, create }) => {
    const m = create(all)
    m.createUnit('mph', '1 mile/hour', { override: true })
    m.createUnit('knot', { definition: '1852 m/hour', aliases: ['knots', 'kn', 'kt'] }, { override: true })
    return m
  }))
const ALIAS: Record<string, string> = {
  C: 'degC',
  celsius: 'degC',
  '°C': 'degC',
  F: 'degF',
  fahrenheit: 'degF',
  '°F': 'degF',
  kelvin: 'K',
  kph: 'km/h',
  'km/hr': 'km/h',
  byte: 'B',
  bytes: 'B',
  bit: 'b',
  bits: 'b',
  l: 'L',
  ml: 'mL',
  hr: 'h',
  hour: 'h',
  hours: 'h',
}
/** Words (not symbols) are matched case-insensitively: "Celsius", "Kilometers", "degrees Fahrenheit". */
const WORDS: Record<string, string> = {
  celsius: 'degC',
  'degrees celsius': 'degC',
  'deg c': 'degC',
  centigrade: 'degC',
  fahrenheit: 'degF',
  'degrees fahrenheit': 'degF',
  'deg f': 'degF',
  kelvin: 'K',
  kelvins: 'K',
  byte: 'B',
  bytes: 'B',
  bit: 'b',
  bits: 'b',
  hour: 'h',
  hours: 'h',
  hr: 'h',
  hrs: 'h',
  kph: 'km/h',
  'km/hr': 'km/h',
  'miles per hour': 'mph',
  'kilometers per hour': 'km/h',
  'kilometres per hour': 'km/h',
  'meters per second': 'm/s',
  'metres per second': 'm/s',
  litre: 'L',
  litres: 'L',
  liter: 'L',
  liters: 'L',
  metre: 'm',
  metres: 'm',
  kilometre: 'km',
  kilometres: 'km',
  millilitre: 'mL',
  millilitres: 'mL',
}
/** The mathjs name of a unit: exact symbol first (mm and Mm differ), then a known word, then the lower-cased word. */
function resolve(math: Awaited<ReturnType<typeof mathjs>>, raw: string): string {
  const u = raw.trim()
  if (ALIAS[u]) return ALIAS[u]
  const lower = u.toLowerCase().replace(/\s+/g, ' ')
  if (WORDS[lower]) return WORDS[lower]
  if (u.length > 3 && lower !== u && /^[a-z ]+$/.test(lower)) {
    try {
      if (math.unit(lower).value === null) return lower
    } catch {
      /* not a unit word either */
    }
  }
  return u
}

type Dimension = 'LENGTH' | 'MASS' | 'VOLUME' | 'TIME' | 'TEMPERATURE' | 'BIT' | 'VELOCITY' | 'OTHER'
const DIMS: Partial<Record<Dimension, string>> = {
  LENGTH: 'm',
  MASS: 'kg',
  VOLUME: 'L',
  TIME: 's',
  TEMPERATURE: 'K',
  BIT: 'b',
  VELOCITY: 'm/s',
}

export default handlerFor(manifest, async ({ value, from, to }) => {
  const math = await mathjs()
  const f = resolve(math, from)
  const tt = resolve(math, to)
  const unitOf = (field: string, u: string) => {
    if (!/^[A-Za-z°/^0-9 ]+$/.test(u)) throw invalid(field, `unknown unit '${u}'`)
    let parsed
    try {
      parsed = math.unit(u)
    } catch {
      throw invalid(field, `unknown unit '${u}'`)
    }
    if (parsed.value !== null) throw invalid(field, 'give a unit name without a number')
    return parsed
  }
  unitOf('from', f)
  const dst = unitOf('to', tt)
  const src = math.unit(value, f)
  if (!src.equalBase(dst)) throw invalid('to', `cannot convert ${f} to ${tt}: different dimensions`)
  const dimension = ((Object.entries(DIMS) as Array<[Dimension, string]>).find(([, base]) =>
    math.unit(base).equalBase(src),
  )?.[0] ?? 'OTHER') as Dimension
  const result = src.toNumber(tt)
  if (!Number.isFinite(result)) throw invalid('value', 'the result is outside the range of double-precision numbers')
  return { value, from: f, to: tt, result, dimension }
})
