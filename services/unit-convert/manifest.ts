import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'unit-convert',
  name: 'Unit converter',
  description:
    'Converts a value between units of length, mass, volume, data size, time, speed and temperature, using mathjs with exact definitions (1 in = 2.54 cm, 1 lb = 0.45359237 kg, 1 US gal = 3.785411784 L, 1 mi = 1609.344 m, 1 kn = 1852 m/h). Unit names are mathjs names (m, km, cm, mm, inch, ft, yd, mile, kg, g, lb, oz, ton, L, mL, gal, qt, pt, cup, floz, s, min, h, day, week, m/s, km/h, mph, knot, degC, degF, K, B, kB, MB, GB, KiB, MiB, GiB, b, ...) with aliases C/F/celsius/fahrenheit/kelvin. Data sizes: kB = 1000 B, KiB = 1024 B. Temperatures convert with offsets. Incompatible or unknown units are a 422.',
  category: 'math',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.001),
  model: 'none',
  input: t.Object(
    {
      value: t.Number({ minimum: -1e300, maximum: 1e300, description: 'The quantity.' }),
      from: t.String({ minLength: 1, maxLength: 32, description: 'Unit of value, e.g. mile, kg, degF, GiB, km/h.' }),
      to: t.String({
        minLength: 1,
        maxLength: 32,
        description: 'Target unit of the same dimension, e.g. km, lb, degC, MB, mph.',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      amount: 'value',
      quantity: 'value',
      from_unit: 'from',
      to_unit: 'to',
      source_unit: 'from',
      target_unit: 'to',
    },
  },
  output: t.Object({
    value: t.Number({ description: 'The input quantity.' }),
    from: t.String({ description: 'Source unit as understood (aliases resolved, e.g. C -> degC).' }),
    to: t.String({ description: 'Target unit as understood.' }),
    result: t.Number({ description: 'The converted quantity (double precision, not rounded).' }),
    dimension: t.Union(
      ['LENGTH', 'MASS', 'VOLUME', 'TIME', 'TEMPERATURE', 'BIT', 'VELOCITY', 'OTHER'].map((x) => t.Literal(x)),
      {
        description: 'Physical dimension: LENGTH, MASS, VOLUME, TIME, TEMPERATURE, BIT (data size), VELOCITY or OTHER.',
      },
    ),
  }),
  examples: [
    {
      name: 'Marathon in km',
      input: { value: 26.2, from: 'mile', to: 'km' },
      output: { value: 26.2, from: 'mile', to: 'km', result: 42.1648128, dimension: 'LENGTH' },
    },
  ],
})
