/** Placeholder until the dev chain module lands: the paid-call comparison needs a local anvil. */
export async function paidComparison(_smoke: boolean): Promise<string[]> {
  return ['Not measured yet: needs the embedded dev chain (runtime/chain).']
}
