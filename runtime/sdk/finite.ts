import { ServiceError } from './errors'

/** True when `v` holds a NaN/±Infinity (depth-capped at 256). Allocation-free: it runs on every answer. */
function hasNonFinite(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return !Number.isFinite(v)
  if (!v || typeof v !== 'object' || depth >= 256) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasNonFinite(v[i], depth + 1)) return true
  } else {
    for (const k in v) if (hasNonFinite((v as Record<string, unknown>)[k], depth + 1)) return true
  }
  return false
}

/** The JSON pointer of the first NaN/±Infinity in `v` (depth-capped at 256), or null when every number is finite. */
export function nonFinitePath(v: unknown): string | null {
  return hasNonFinite(v, 0) ? pathOf(v, '', 0) : null
}

function pathOf(v: unknown, path: string, depth: number): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : path || '/'
  if (!v || typeof v !== 'object' || depth >= 256) return null
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = pathOf(v[i], `${path}/${i}`, depth + 1)
      if (p !== null) return p
    }
  } else {
    for (const k in v) {
      const p = pathOf((v as Record<string, unknown>)[k], `${path}/${k}`, depth + 1)
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
    throw new ServiceError(
      422,
      'RESULT_OUT_OF_RANGE',
      `The result is outside the range of double-precision numbers (at ${where}); use smaller inputs.`,
      {
        details: [{ path: where, message: 'not a finite number' }],
      },
    )
  }
  return out
}
