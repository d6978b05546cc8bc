/**
 * data-format-validate stays linear on the inputs that were quadratic: YAML with many distinct keys (yaml's
 * duplicate-key check), an unclosed YAML quote after escaped quotes (the pre-scan), XML CDATA sections, processing
 * instructions inside CDATA and newline runs (the normalizing regexes), and refuses a normalized copy past the cap.
 */
import { growsLinearly } from '../../test/support/large-inputs'

const yamlKeys = (n: number) => Array.from({ length: n }, (_, i) => `k${i.toString(36)}: 1`).join('\n')

growsLinearly('data-format-validate', [
  { name: '90,000 distinct YAML keys', n: 45_000, reps: 2, input: (n) => ({ input: yamlKeys(n), format: 'yaml' }) },
  { name: 'YAML escaped quotes never closed', n: 240_000, input: (n) => ({ input: '"\\'.repeat(n), format: 'yaml' }) },
  {
    name: 'XML CDATA sections between elements',
    n: 20_000,
    input: (n) => ({ input: `<a>${'<![CDATA[x]]><b/>'.repeat(n)}</a>`, format: 'xml' }),
  },
  {
    name: 'XML <? inside CDATA',
    n: 240_000,
    input: (n) => ({ input: `<a><![CDATA[${'<?'.repeat(n)}]]></a>`, format: 'xml' }),
  },
  {
    name: 'XML newline run in text',
    n: 450_000,
    input: (n) => ({ input: `<a>x${'\n'.repeat(n)}y</a>`, format: 'xml' }),
  },
  {
    name: 'deep JSON array normalized with indentation',
    n: 240_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ input: '['.repeat(500) + '1,'.repeat(n) + '1' + ']'.repeat(500), format: 'json' }),
  },
  {
    name: 'small XML elements nested 60 deep',
    n: 120_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ input: '<a>'.repeat(60) + '<b/>'.repeat(n) + '</a>'.repeat(60), format: 'xml' }),
  },
])
