import { ServiceError } from './errors'

/** The JSON pointer of the first NaN/±Infinity in `v` (depth-capped at 256), or null when every number is finite. */
export function nonFinitePath(v: unknown, path = '', depth = 0): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : path || '/'
  if (!v || typeof v !== 'object' || depth >= 256) return null
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = nonFinitePath(v[i], `${path}/${i}`, depth + 1)
      if (p !== null) return p
    }
  } else {
    for (const k in v) {
      const p = nonFinitePath((v as Record<string, unknown>)[k], `${path}/${k}`, depth + 1)
      if (p !== null) return p
    }
  }
  return null
}

/**
 * Returns `out` unchanged when every number in it is finite; otherwise a 422 RESULT_OUT_OF_RANGE (JSON would turn
 * NaN/±Infinity into null silently). The runtime applies it to every answer; a service may call it earlier.
 * @example return assertFinite({ payment })
 */
export function assertFinite<T>(out: T): T {
  const where = nonFinitePath(out)
  if (where !== null) {
    throw new ServiceError(422, 'RESULT_OUT_OF_RANGE', `The result is outside the range of double-precision numbers (at ${where}); use smaller inputs.`, {
      details: [{ path: where, message: 'not a finite number' }],
    })
  }
  return out
}
