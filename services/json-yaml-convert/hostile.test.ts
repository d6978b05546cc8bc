/**
 * json-yaml-convert stays linear on the inputs that were quadratic (yaml's duplicate-key check over 90,000 keys,
 * the quote pre-scan) and refuses answers past the cap (deep indentation) before building them.
 */
import { growsLinearly } from '../../test/support/large-inputs'

const yamlKeys = (n: number) => Array.from({ length: n }, (_, i) => `k${i.toString(36)}: 1`).join('\n')

growsLinearly('json-yaml-convert', [
  { name: '90,000 distinct YAML keys', n: 45_000, reps: 2, input: (n) => ({ input: yamlKeys(n), from: 'yaml' }) },
  {
    name: 'YAML escaped quotes never closed',
    n: 240_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({ input: '"\\'.repeat(n), from: 'yaml' }),
  },
  {
    name: '90 aliases of a large anchor (billion laughs)',
    n: 20_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({ input: `a: &a [${'x,'.repeat(n)}x]\nb: [${Array(90).fill('*a').join(',')}]`, from: 'yaml' }),
  },
  {
    name: 'YAML 1.1 merge keys of a large anchor (read as plain keys)',
    n: 20_000,
    reps: 2,
    refused: 'INVALID_INPUT',
    input: (n) => ({
      input: `%YAML 1.1\n---\nb: &b {${Array.from({ length: n }, (_, i) => `k${i}: 1`).join(', ')}}\n${Array.from({ length: 200 }, (_, i) => `m${i}: {<<: *b}`).join('\n')}`,
      from: 'yaml',
    }),
  },
  {
    name: 'JSON array nested 63 deep to YAML, indent 8',
    n: 240_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ input: '['.repeat(63) + '1,'.repeat(n) + '1' + ']'.repeat(63), indent: 8 }),
  },
])
