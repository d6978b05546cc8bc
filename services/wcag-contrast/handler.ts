import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

/** CSS Level 1/2.1 basic colour keywords (plus grey). */
const NAMED: Record<string, string> = {
  black: '000000',
  silver: 'c0c0c0',
  gray: '808080',
  grey: '808080',
  white: 'ffffff',
  maroon: '800000',
  red: 'ff0000',
  purple: '800080',
  fuchsia: 'ff00ff',
  green: '008000',
  lime: '00ff00',
  olive: '808000',
  yellow: 'ffff00',
  navy: '000080',
  blue: '0000ff',
  teal: '008080',
  aqua: '00ffff',
  orange: 'ffa500',
}

type Rgba = [number, number, number, number]
const NUM = '(\\d{1,3}(?:\\.\\d+)?)'
const ALPHA = '(\\d*\\.?\\d+%?)'
const RGB = new RegExp(
  `^rgba?\\(\\s*${NUM}\\s*(?:,\\s*|\\s+)${NUM}\\s*(?:,\\s*|\\s+)${NUM}\\s*(?:(?:,|/)\\s*${ALPHA}\\s*)?\\)$`,
)

function parse(field: string, s: string): Rgba {
  const v = s.trim().toLowerCase()
  const hex = NAMED[v] ?? /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1]
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex
    const c = [0, 2, 4, 6].map((i) => (i < full.length ? parseInt(full.slice(i, i + 2), 16) : 255))
    return [c[0], c[1], c[2], c[3] / 255]
  }
  const m = RGB.exec(v)
  if (!m)
    throw invalid(
      field,
      `'${s}' is not a colour: use #rgb, #rrggbb (or #rgba, #rrggbbaa), rgb(r, g, b), rgba(r, g, b, a) or a basic CSS name`,
    )
  const c = m.slice(1, 4).map(Number)
  if (c.some((x) => x > 255)) throw invalid(field, 'rgb() channels must be 0-255')
  const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4])
  if (!(a >= 0 && a <= 1)) throw invalid(field, 'alpha must be 0-1 (or 0%-100%)')
  return [c[0], c[1], c[2], a]
}

const lin = (v: number) => {
  const c = v / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}
const luminance = (c: number[]) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
const toHex = (c: number[]) =>
  '#' +
  c
    .slice(0, 3)
    .map((x) => Math.round(x).toString(16).padStart(2, '0'))
    .join('')

export default handlerFor(manifest, ({ fg, bg }) => {
  const b = parse('bg', bg)
  if (b[3] !== 1)
    throw invalid('bg', 'the background must be opaque (alpha 1): its contrast depends on what lies beneath it')
  const f0 = parse('fg', fg)
  // A translucent foreground is composited over the background (source-over, in sRGB), as browsers draw it.
  const f = f0.map((x, i) => (i < 3 ? f0[3] * x + (1 - f0[3]) * b[i] : 1))
  const lf = luminance(f),
    lb = luminance(b)
  const ratio = (Math.max(lf, lb) + 0.05) / (Math.min(lf, lb) + 0.05)
  return {
    ratio,
    ratio_rounded: Math.round(ratio * 100) / 100,
    fg: { hex: toHex(f), alpha: f0[3], luminance: lf },
    bg: { hex: toHex(b), luminance: lb },
    aa: { normal: ratio >= 4.5, large: ratio >= 3 },
    aaa: { normal: ratio >= 7, large: ratio >= 4.5 },
    ui_components: ratio >= 3,
  }
})
