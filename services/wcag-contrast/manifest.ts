import { defineService, flat, t } from '../../runtime/sdk'

const Colour = (d: string) =>
  t.Object({
    hex: t.String({ description: d }),
    luminance: t.Number({ minimum: 0, maximum: 1, description: 'WCAG relative luminance, 0 (black) to 1 (white).' }),
  })

export default defineService({
  slug: 'wcag-contrast',
  name: 'WCAG contrast ratio',
  description:
    'WCAG 2.x contrast ratio between a text (foreground) colour and a background: relative luminance L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB channels (threshold 0.04045), ratio = (L1 + 0.05) / (L2 + 0.05), from 1 to 21. ' +
    'Pass flags compare the UNROUNDED ratio (4.4999 fails): AA normal text ≥ 4.5, AA large text (18 pt, or 14 pt bold) ≥ 3, AAA normal ≥ 7, AAA large ≥ 4.5, non-text UI components and graphics (SC 1.4.11) ≥ 3. ' +
    'Colours: #rgb, #rrggbb, rgb(r, g, b) (commas or spaces), or a CSS basic keyword (black, silver, gray/grey, white, maroon, red, purple, fuchsia, green, lime, olive, yellow, navy, blue, teal, aqua, orange). ' +
    'The foreground may be translucent (#rgba, #rrggbbaa, rgba(r, g, b, a)): it is composited over the background first; the background must be opaque.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      fg: t.String({
        minLength: 1,
        maxLength: 40,
        description: 'Text colour, e.g. #767676, #777, rgb(118, 118, 118), rgba(0,0,0,0.6) or navy.',
      }),
      bg: t.String({ minLength: 1, maxLength: 40, description: 'Background colour (opaque), e.g. #ffffff or white.' }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { foreground: 'fg', background: 'bg', color: 'fg', text_color: 'fg', background_color: 'bg' } },
  output: t.Object({
    ratio: t.Number({ minimum: 1, maximum: 21, description: 'Contrast ratio, unrounded.' }),
    ratio_rounded: t.Number({ description: 'Ratio rounded to 2 decimals, for display only.' }),
    fg: t.Object({
      hex: t.String({
        description: 'Foreground as #rrggbb (after compositing a translucent colour over the background, rounded).',
      }),
      alpha: t.Number({ minimum: 0, maximum: 1, description: 'Foreground alpha as given (1 = opaque).' }),
      luminance: t.Number({
        minimum: 0,
        maximum: 1,
        description: 'WCAG relative luminance of the (composited) foreground.',
      }),
    }),
    bg: Colour('Background as #rrggbb.'),
    aa: t.Object({
      normal: t.Boolean({ description: 'ratio ≥ 4.5 (SC 1.4.3).' }),
      large: t.Boolean({ description: 'ratio ≥ 3 (SC 1.4.3, large text).' }),
    }),
    aaa: t.Object({
      normal: t.Boolean({ description: 'ratio ≥ 7 (SC 1.4.6).' }),
      large: t.Boolean({ description: 'ratio ≥ 4.5 (SC 1.4.6, large text).' }),
    }),
    ui_components: t.Boolean({ description: 'ratio ≥ 3 (SC 1.4.11 non-text contrast).' }),
  }),
  examples: [
    {
      name: 'Grey on white (just passes AA)',
      input: { fg: '#767676', bg: '#ffffff' },
      output: {
        ratio: 4.542224959605253,
        ratio_rounded: 4.54,
        fg: { hex: '#767676', alpha: 1, luminance: 0.18116424424986022 },
        bg: { hex: '#ffffff', luminance: 1 },
        aa: { normal: true, large: true },
        aaa: { normal: false, large: true },
        ui_components: true,
      },
    },
  ],
})
