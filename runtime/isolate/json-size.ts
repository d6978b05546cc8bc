/**
 * About how long a value is as JSON, counted only as far as needed: the walk stops once the count passes `limit`, so a
 * huge value costs no more than a small one. Strings count their length (escapes not counted), numbers 8, `true`,
 * `false` and `null` their words, each key its length and punctuation. `unsendable` is set when the value holds what
 * JSON cannot carry as data (a function, a symbol, a bigint): an answer the worker pool would refuse to send.
 */
export function jsonSize(value: unknown, limit: number): { size: number; unsendable: boolean } {
  let size = 0
  const stack: unknown[] = [value]
  while (stack.length && size <= limit) {
    const v = stack.pop()
    switch (typeof v) {
      case 'string':
        size += v.length + 2
        break
      case 'number':
        size += 8
        break
      case 'boolean':
        size += 5
        break
      case 'undefined':
        break
      case 'object':
        if (v === null) size += 4
        else if (Array.isArray(v)) {
          size += 2 + v.length
          for (let i = v.length - 1; i >= 0 && size <= limit; i--) stack.push(v[i])
        } else {
          size += 2
          for (const k in v) {
            size += k.length + 4
            stack.push((v as Record<string, unknown>)[k])
            if (size > limit) break
          }
        }
        break
      default:
        return { size, unsendable: true }
    }
  }
  return { size, unsendable: false }
}
