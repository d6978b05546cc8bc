import { defineService, flat, t } from '../../runtime/sdk'
import { MAX_B64_CHARS } from '../_lib/media-input'

export default defineService({
  slug: 'image-rotate-flip',
  name: 'Image rotate and flip',
  description:
    'Rotates an image clockwise by a multiple of 90° and/or mirrors it, and returns it as a base64 PNG (libvips via sharp). Input: PNG, JPEG, WebP or GIF (first frame only), at most 780,000 bytes decoded (1,040,000 base64 characters, within the 1 MiB request limit) and 4,194,304 pixels (e.g. 2048 × 2048); a PNG result over 16,000,000 bytes is a 422. Order: the EXIF orientation is applied first (auto_orient, default true), then the rotation (positive angle = clockwise, negative = counter-clockwise; -90 equals 270), then the mirror: horizontal = left-right, vertical = top-bottom, both = the two (same as a further 180°). The output is an 8-bit sRGB PNG, with alpha when the input had it; metadata (EXIF, ICC) is not copied. pixels_sha256 is the SHA-256 of the output pixels as 8-bit RGBA, row by row, so images can be compared independently of PNG encoding.',
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  errors: {
    IMAGE_ENGINE_UNAVAILABLE: {
      status: 503,
      description: 'the image engine (sharp/libvips) cannot load on this server',
    },
  },
  input: t.Object(
    {
      image_b64: t.String({
        minLength: 1,
        maxLength: MAX_B64_CHARS,
        description: `The image, base64 (standard or URL-safe; a data:image/...;base64, prefix is accepted). PNG, JPEG, WebP or GIF; at most 780,000 bytes decoded (1,040,000 characters).`,
      }),
      angle: t.Optional(
        t.Integer({
          multipleOf: 90,
          minimum: -3600,
          maximum: 3600,
          default: 0,
          description: 'Clockwise rotation in degrees, a multiple of 90 (negative = counter-clockwise). Default 0.',
        }),
      ),
      flip: t.Optional(
        t.Union([t.Literal('none'), t.Literal('horizontal'), t.Literal('vertical'), t.Literal('both')], {
          default: 'none',
          description:
            'Mirror applied after the rotation: "horizontal" (left-right), "vertical" (top-bottom), "both", or "none" (default).',
        }),
      ),
      auto_orient: t.Optional(
        t.Boolean({
          default: true,
          description: 'Apply the EXIF Orientation tag of the input first (as viewers display it). Default true.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      image: 'image_b64',
      image_base64: 'image_b64',
      png_b64: 'image_b64',
      rotate: 'angle',
      degrees: 'angle',
      rotation: 'angle',
      mirror: 'flip',
    },
    values: { flip: { h: 'horizontal', v: 'vertical', x: 'horizontal', y: 'vertical', mirror: 'horizontal' } },
  },
  output: t.Object({
    image_b64: t.String({ description: 'The result as a base64 PNG (standard alphabet, padded).' }),
    content_type: t.Literal('image/png', { description: 'Always image/png.' }),
    width: t.Integer({ description: 'Output width in pixels.' }),
    height: t.Integer({ description: 'Output height in pixels.' }),
    bytes: t.Integer({ description: 'Size of the PNG in bytes.' }),
    has_alpha: t.Boolean({ description: 'Whether the PNG has an alpha channel.' }),
    pixels_sha256: t.String({
      description: 'SHA-256 (hex) of the output pixels as 8-bit RGBA, row-major, top-left first.',
    }),
    angle: t.Integer({ description: 'The rotation applied, normalized to 0, 90, 180 or 270 (clockwise).' }),
    flip: t.String({ description: 'The mirror applied: none, horizontal, vertical or both.' }),
    input: t.Object(
      {
        format: t.Union([t.Literal('png'), t.Literal('jpeg'), t.Literal('gif'), t.Literal('webp')], {
          description: 'Detected input format.',
        }),
        width: t.Integer({ description: 'Input width in pixels (before EXIF orientation).' }),
        height: t.Integer({ description: 'Input height in pixels (before EXIF orientation).' }),
        bytes: t.Integer({ description: 'Decoded input size in bytes.' }),
        exif_orientation: t.Union([t.Integer({ minimum: 1, maximum: 8 }), t.Null()], {
          description: 'EXIF Orientation tag of the input (1-8), or null.',
        }),
      },
      { description: 'What was received.' },
    ),
  }),
  examples: [
    {
      name: 'Rotate a 2×1 PNG (red, blue) by 90° clockwise',
      input: {
        image_b64: 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==',
        angle: 90,
      },
      output: {
        image_b64:
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAACCAIAAAAW4yFwAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADUlEQVQImWP4zwAC/wEIAAH/+8ewoQAAAABJRU5ErkJggg==',
        content_type: 'image/png',
        width: 1,
        height: 2,
        bytes: 91,
        has_alpha: false,
        pixels_sha256: 'e0b8f3a91e53b2aee7be9493043f0d54efa0b1d7bfa018ea8f192295a7229836',
        angle: 90,
        flip: 'none',
        input: { format: 'png', width: 2, height: 1, bytes: 70, exif_orientation: null },
      },
    },
  ],
})
