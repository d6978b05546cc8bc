import { createHash } from 'node:crypto'

export const MAX_INPUT_BYTES = 780_000
/** Largest PNG returned (its base64 is a third larger). */
export const MAX_OUTPUT_BYTES = 16_000_000
/** 2048 × 2048: 16 MiB of RGBA while processing (4096² took 8 times as long as 2048², and 340 MB). */
export const MAX_PIXELS = 4_194_304

/** SHA-256 of 8-bit pixels widened to RGBA (1 = grey, 2 = grey+alpha, 3 = RGB, 4 = RGBA channels). */
export function rgbaSha256(data: Uint8Array, channels: number): string {
  if (channels === 4) return createHash('sha256').update(data).digest('hex')
  const n = data.length / channels
  const out = new Uint8Array(n * 4)
  for (let i = 0; i < n; i++) {
    const s = i * channels,
      d = i * 4
    if (channels <= 2) {
      out[d] = out[d + 1] = out[d + 2] = data[s]
      out[d + 3] = channels === 2 ? data[s + 1] : 255
    } else {
      out[d] = data[s]
      out[d + 1] = data[s + 1]
      out[d + 2] = data[s + 2]
      out[d + 3] = 255
    }
  }
  return createHash('sha256').update(out).digest('hex')
}

/** Mirrors packed 8-bit pixels in place: horizontal = left-right, vertical = top-bottom. */
export function mirror(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
  horizontal: boolean,
  vertical: boolean,
): void {
  const row = width * channels
  if (horizontal) {
    const tmp = new Uint8Array(channels)
    for (let y = 0; y < height; y++) {
      for (let l = y * row, r = l + row - channels; l < r; l += channels, r -= channels) {
        tmp.set(data.subarray(l, l + channels))
        data.copyWithin(l, r, r + channels)
        data.set(tmp, r)
      }
    }
  }
  if (vertical) {
    const tmp = new Uint8Array(row)
    for (let t = 0, b = (height - 1) * row; t < b; t += row, b -= row) {
      tmp.set(data.subarray(t, t + row))
      data.copyWithin(t, b, b + row)
      data.set(tmp, b)
    }
  }
}
