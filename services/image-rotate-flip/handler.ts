import type { Metadata, OutputInfo } from 'sharp'
import { handlerFor, invalid, ownError } from '../../runtime/sdk'
import { decodeBase64, sniffImage } from '../_lib/media-input'
import { MAX_INPUT_BYTES, MAX_OUTPUT_BYTES, MAX_PIXELS, mirror, rgbaSha256 } from './lib'
import manifest from './manifest'

// sharp's native libvips loads on first use, so a build without it (e.g. the single binary) still boots; the
// service then answers 503 instead of the whole process failing.
let loading: Promise<typeof import('sharp')['default']> | undefined
const loadSharp = () => (loading ??= import('sharp').then((m) => m.default))

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200)

const tooManyPixels = (what: string) =>
  invalid('image_b64', `has ${what} pixels; send at most ${MAX_PIXELS} (e.g. 2048×2048)`)

export default handlerFor(manifest, async ({ image_b64, angle = 0, flip = 'none', auto_orient = true }) => {
  const bytes = decodeBase64('image_b64', image_b64, MAX_INPUT_BYTES)
  const format = sniffImage(bytes)
  if (!format) throw invalid('image_b64', 'is not a PNG, JPEG, WebP or GIF image')
  let sharp: Awaited<ReturnType<typeof loadSharp>>
  try {
    sharp = await loadSharp()
  } catch (e) {
    loading = undefined
    throw ownError(
      manifest,
      'IMAGE_ENGINE_UNAVAILABLE',
      `The image engine (sharp/libvips) cannot load here: ${reason(e)}`,
      { retryable: false },
    )
  }
  const opts = { limitInputPixels: MAX_PIXELS, failOn: 'error' as const, pages: 1 }
  let meta: Metadata
  try {
    meta = await sharp(bytes, opts).metadata()
  } catch (e) {
    if (/pixel limit/i.test(reason(e))) throw tooManyPixels(`more than ${MAX_PIXELS}`)
    throw invalid('image_b64', `cannot be read as ${format}: ${reason(e)}`)
  }
  if (!meta.width || !meta.height) throw invalid('image_b64', 'has no dimensions')
  const pageHeight = meta.pageHeight ?? meta.height
  if (meta.width * pageHeight > MAX_PIXELS) throw tooManyPixels(`${meta.width}×${pageHeight}`)
  const turn = (((angle % 360) + 360) % 360) as 0 | 90 | 180 | 270
  let raw: { data: Buffer; info: OutputInfo }
  try {
    raw = await sharp(bytes, { ...opts, autoOrient: auto_orient })
      .rotate(turn)
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true })
  } catch (e) {
    throw invalid('image_b64', `cannot be decoded: ${reason(e)}`)
  }
  const { width, height, channels } = raw.info
  // The mirror is done here on the rotated pixels: within one sharp pipeline flip/flop would run before the rotation.
  mirror(
    raw.data,
    width,
    height,
    channels,
    flip === 'horizontal' || flip === 'both',
    flip === 'vertical' || flip === 'both',
  )
  const png = await sharp(raw.data, { raw: { width, height, channels } }).png({ compressionLevel: 6 }).toBuffer()
  if (png.length > MAX_OUTPUT_BYTES)
    throw invalid(
      'image_b64',
      `the PNG would be ${png.length} bytes; the limit is ${MAX_OUTPUT_BYTES} (send a smaller image)`,
    )
  return {
    image_b64: png.toString('base64'),
    content_type: 'image/png' as const,
    width,
    height,
    bytes: png.length,
    has_alpha: channels === 2 || channels === 4,
    pixels_sha256: rgbaSha256(raw.data, channels),
    angle: turn,
    flip,
    input: {
      format,
      width: meta.width,
      height: pageHeight,
      bytes: bytes.length,
      exif_orientation: meta.orientation ?? null,
    },
  }
})
