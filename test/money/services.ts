import { defineService, handlerFor, serviceRequest, t } from '../../runtime/sdk'
import type { RegistryEntry } from '../../runtime/catalog/registry-types'
import { entries } from '../support/entries'

const manifest = (slug: string) =>
  defineService({
    slug,
    name: slug,
    description: 'Test-only service for the money tests.',
    category: 'text',
    kind: 'utility',
    method: 'POST',
    pricing: { flat: { price_usd: 0.001, max_tokens: 0 } },
    model: 'none',
    input: serviceRequest(),
    output: t.Object({ runs: t.Number() }),
    examples: [{ name: 'one', input: { code: 'x' }, output: { runs: 1 } }],
  })

/** Counts its handler runs (price 0.001 USDC = 1000 atomic). */
export const counted = { runs: 0 }
const countingManifest = manifest('test-counted')
export const countingEntry: RegistryEntry = {
  folder: 'test-counted',
  manifest: countingManifest,
  handler: handlerFor(countingManifest, async () => ({ runs: ++counted.runs })),
}

/** Its handler waits until the test opens the gate; `started` resolves when a run begins. */
export function gatedEntry() {
  let open!: () => void
  let started!: () => void
  const state = {
    runs: 0,
    opened: new Promise<void>((r) => {
      open = r
    }),
    started: new Promise<void>((r) => {
      started = r
    }),
    open: () => open(),
  }
  const m = manifest('test-gated')
  const entry: RegistryEntry = {
    folder: 'test-gated',
    manifest: m,
    handler: handlerFor(m, async () => {
      state.runs++
      started()
      await state.opened
      return { runs: state.runs }
    }),
  }
  return { entry, state }
}

export const withMoneyServices = (...extra: RegistryEntry[]): RegistryEntry[] => [...entries, countingEntry, ...extra]
