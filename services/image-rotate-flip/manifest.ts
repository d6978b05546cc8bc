import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'image-rotate-flip',
  name: 'Image Rotate Flip',
  description: "Returns base64 PNG; horizontal or vertical mirror.",
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object({
    image_b64: t.Optional(t.String()),
    angle: t.Optional(t.Number()),
    flip: t.Optional(t.String()),
  }, { additionalProperties: true }),
  output: t.Object({}, { additionalProperties: true }),
  examples: [],
})
