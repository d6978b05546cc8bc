/**
 * jsonschema-validate stays linear: uniqueItems over objects was pairwise (120,000 items > 150 s), and branches of
 * anyOf tried on every item (or a $ref that branches at each level) are counted and refused past a budget.
 */
import { growsLinearly } from '../../test/support/large-inputs'

const branching = {
  $defs: { a: { anyOf: [{ items: { $ref: '#/$defs/a' } }, { items: { $ref: '#/$defs/a' } }] } },
  $ref: '#/$defs/a',
}
const nestedArray = (depth: number) => {
  let d: unknown = [1]
  for (let i = 0; i < depth; i++) d = [d]
  return d
}

growsLinearly('jsonschema-validate', [
  {
    name: 'uniqueItems over 120,000 objects',
    n: 60_000,
    input: (n) => ({ schema: { uniqueItems: true }, instance: Array.from({ length: n }, (_, i) => ({ a: i })) }),
  },
  {
    name: 'anyOf of 1,000 branches on every item',
    n: 1_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({
      schema: { items: { anyOf: Array.from({ length: 1_000 }, (_, i) => ({ const: `v${i}` })) } },
      instance: Array(n).fill('nope'),
    }),
  },
  {
    name: '$ref branching at every level (2^depth)',
    n: 30,
    refused: 'INVALID_INPUT',
    input: (n) => ({ schema: branching, instance: nestedArray(n) }),
  },
  {
    name: 'an object schema over many items',
    n: 40_000,
    input: (n) => ({
      schema: {
        items: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, required: ['a'] },
      },
      instance: Array.from({ length: n }, (_, i) => ({ a: i, b: 'x' })),
    }),
  },
])
