/**
 * USD price (at most 6 decimals) to USDC atomic units as an integer string, without float error:
 * 0.005 -> "5000", 1.5 -> "1500000". Throws when the price has more than 6 decimals or is not positive.
 */
export function usdToAtomic(price: number): string {
  if (!Number.isFinite(price) || price <= 0) throw new Error(`price must be a positive number (got ${price})`)
  const fixed = price.toFixed(6)
  if (Number(fixed) !== price) throw new Error(`price ${price} has more than 6 decimals`)
  const [whole, frac] = fixed.split('.')
  return (BigInt(whole) * 1_000_000n + BigInt(frac)).toString()
}

/** Atomic USDC units to a decimal USD string with 6 decimals ("5000" -> "0.005000"). */
export function atomicToUsd(atomic: string | bigint): string {
  const v = BigInt(atomic)
  return `${v / 1_000_000n}.${(v % 1_000_000n).toString().padStart(6, '0')}`
}
