import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

const NAMED: Record<string, string> = { black: '000000', white: 'ffffff', red: 'ff0000', green: '008000', blue: '0000ff', gray: '808080', grey: '808080', yellow: 'ffff00', orange: 'ffa500', purple: '800080' }

function parse(field: string, s: string): [number, number, number] {
  const v = s.trim().toLowerCase()
  let hex = NAMED[v]
  const short = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v)
  const long = /^#?([0-9a-f]{6})$/.exec(v)
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:1|1\.0+)\s*)?\)$/.exec(v)
  if (short) hex = short.slice(1).map((c) => c + c).join('')
  else if (long) hex = long[1]
  else if (rgb) {
    const c = rgb.slice(1, 4).map(Number)
    if (c.some((x) => x > 255)) throw invalid(field, 'rgb() channels must be 0-255')
    return c as [number, number, number]
  }
  if (!hex) throw invalid(field, `'${s}' is not a colour (#rgb, #rrggbb, rgb(r,g,b) or a basic name; transparency is not supported)`)
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
}

const lin = (v: number) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4 }
const luminance = ([r, g, b]: number[]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
const toHex = (c: number[]) => '#' + c.map((x) => x.toString(16).padStart(2, '0')).join('')

export default handlerFor(manifest, ({ fg, bg }) => {
  const a = parse('fg', fg), b = parse('bg', bg)
  const la = luminance(a), lb = luminance(b)
  const ratio = (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
  return {
    ratio, ratio_rounded: Math.round(ratio * 100) / 100,
    fg: { hex: toHex(a), luminance: la }, bg: { hex: toHex(b), luminance: lb },
    aa: { normal: ratio >= 4.5, large: ratio >= 3 }, aaa: { normal: ratio >= 7, large: ratio >= 4.5 }, ui_components: ratio >= 3,
  }
})
