/**
 * A value built on its first use, then kept: the ABIs the payment modules declare in human-readable form, whose
 * parsing (abitype) at module load was ~2.5 % of a self-settling boot's CPU for reads and events used only once
 * payments flow (issue #38).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined
  return () => (value ??= make())
}
