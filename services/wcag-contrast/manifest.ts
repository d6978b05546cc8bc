import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'wcag-contrast',
  name: 'WCAG contrast ratio',
  description: 'WCAG 2.x contrast ratio between a text colour and a background: relative luminance with the sRGB transfer function (threshold 0.04045), ratio (L1 + 0.05)/(L2 + 0.05) from 1 to 21. Pass flags compare the UNROUNDED ratio: AA normal ≥ 4.5, AA large ≥ 3, AAA normal ≥ 7, AAA large ≥ 4.5, non-text UI (1.4.11) ≥ 3. Colours: #rgb, #rrggbb, rgb(r, g, b) or a CSS named colour among black, white, red, green, blue, gray/grey, yellow, orange, purple.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ fg: t.String({ maxLength: 40, description: 'Text colour.' }), bg: t.String({ maxLength: 40, description: 'Background colour.' }) }, { additionalProperties: true }),
  output: t.Object({
    ratio: t.Number({ description: 'Unrounded.' }), ratio_rounded: t.Number({ description: '2 decimals, for display only.' }),
    fg: t.Object({ hex: t.String(), luminance: t.Number() }), bg: t.Object({ hex: t.String(), luminance: t.Number() }),
    aa: t.Object({ normal: t.Boolean(), large: t.Boolean() }), aaa: t.Object({ normal: t.Boolean(), large: t.Boolean() }), ui_components: t.Boolean(),
  }),
  examples: [{ name: 'Grey on white', input: { fg: '#767676', bg: '#ffffff' } }],
})
