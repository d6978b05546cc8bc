/**
 * The field names agents use for the three format converters' `input`, `from` and `to` (data-format-convert,
 * json-yaml-convert, xml-json-convert), declared once: each manifest's `aliases.fields`.
 */
export const FORMAT_CONVERT_FIELD_ALIASES = {
  data: 'input',
  text: 'input',
  format: 'to',
  to_format: 'to',
  output_format: 'to',
  target: 'to',
  from_format: 'from',
  input_format: 'from',
  source: 'from',
}
