import { defineService, flat, t } from '../../runtime/sdk'
import { FORMAT_CONVERT_FIELD_ALIASES } from '../_lib/format-aliases'

const fmt = (d: string) => t.Union([t.Literal('xml'), t.Literal('json')], { description: d })

export default defineService({
  slug: 'xml-json-convert',
  name: 'XML ⇄ JSON',
  description:
    'Converts XML to JSON and JSON to XML with fast-xml-parser. Convention: attributes become keys prefixed `@`, text beside attributes or child elements is `#text`, a repeated child element becomes an array, an empty element is "", the root element is the single top-level key; values stay strings unless `parse_values` is set. ' +
    'The XML declaration, comments and processing instructions are dropped; CDATA becomes text; text is trimmed, and pieces of text around child elements are joined. Safety: no entity is ever expanded — documents declaring entities (`<!ENTITY`) are refused, only the five predefined entities and numeric character references are decoded; elements nest at most 64 levels. ' +
    'JSON to XML: an object with one key names the root element, anything else is wrapped in `root_name` (arrays as repeated <item>); keys must be XML names; arrays become repeated elements; text is escaped. ' +
    '`from` defaults to auto (XML when the text starts with <). Malformed XML is a 422 with line and column. Up to 1,000,000 characters. An answer longer than 10,000,000 characters (deep indentation, long element names over long arrays) is a 422 INPUT_TOO_LARGE.',
  category: 'data',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      input: t.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The XML or JSON text (at most 1,000,000 characters).',
      }),
      from: t.Optional(
        t.Union([t.Literal('auto'), t.Literal('xml'), t.Literal('json')], {
          default: 'auto',
          description: 'Source format: auto (default; XML when the text starts with <), xml or json.',
        }),
      ),
      to: t.Optional(fmt('Target format (default: the other one).')),
      parse_values: t.Optional(
        t.Boolean({
          default: false,
          description:
            'XML to JSON: turn numeric and true/false text into numbers and booleans (default false: strings).',
        }),
      ),
      indent: t.Optional(
        t.Integer({
          minimum: 0,
          maximum: 8,
          default: 2,
          description: 'Indentation of the output, 0-8 spaces (default 2; 0 = one line).',
        }),
      ),
      root_name: t.Optional(
        t.String({
          minLength: 1,
          maxLength: 64,
          pattern: '^[A-Za-z_][A-Za-z0-9._-]*$',
          default: 'root',
          description: 'JSON to XML: root element used when the JSON is not a single-key object (default root).',
        }),
      ),
      declaration: t.Optional(
        t.Boolean({
          default: false,
          description: 'JSON to XML: start with <?xml version="1.0" encoding="UTF-8"?> (default false).',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: FORMAT_CONVERT_FIELD_ALIASES },
  output: t.Object({
    output: t.String({ description: 'The converted text.' }),
    from: fmt('Source format used.'),
    to: fmt('Target format.'),
    data: t.Optional(
      t.Record(t.String(), t.Unknown(), {
        description: 'XML to JSON: the converted document as a JSON object (same as `output`).',
      }),
    ),
  }),
  examples: [
    {
      name: 'XML to JSON',
      input: { input: '<order id="7"><item sku="A1">Pen</item><item sku="B2">Ink</item><note/></order>', indent: 0 },
      output: {
        output: '{"order":{"@id":"7","item":[{"@sku":"A1","#text":"Pen"},{"@sku":"B2","#text":"Ink"}],"note":""}}',
        from: 'xml',
        to: 'json',
        data: {
          order: {
            '@id': '7',
            item: [
              { '@sku': 'A1', '#text': 'Pen' },
              { '@sku': 'B2', '#text': 'Ink' },
            ],
            note: '',
          },
        },
      },
    },
    {
      name: 'JSON to XML',
      input: { input: '{"order":{"@id":"7","item":["Pen","Ink"]}}' },
      output: { output: '<order id="7">\n  <item>Pen</item>\n  <item>Ink</item>\n</order>\n', from: 'json', to: 'xml' },
    },
  ],
})
