/** jsonpath-extract bounds visits and the answer over all paths ($..* × 100 made a 3 GB answer before). */
import { growsLinearly } from '../../test/support/large-inputs'

const nested = (n: number) => {
  let d: unknown = Array(n).fill(1)
  for (let i = 0; i < 60; i++) d = [d]
  return d
}

growsLinearly('jsonpath-extract', [
  {
    name: '$..* a hundred times over nested arrays',
    n: 20_000,
    refused: 'INPUT_TOO_LARGE',
    input: (n) => ({ data: nested(n), paths: Array(100).fill('$..*') }),
  },
  {
    name: 'descendant name over many objects',
    n: 5_000,
    input: (n) => ({ data: Array.from({ length: n }, (_, i) => ({ x: i, y: [i] })), paths: ['$..x', '$[*].y[0]'] }),
  },
  {
    name: 'descendant search past the visit budget',
    n: 300_000,
    refused: 'INVALID_INPUT',
    input: (n) => ({ data: Array(n).fill(0), paths: Array(10).fill('$..nothing') }),
  },
])
