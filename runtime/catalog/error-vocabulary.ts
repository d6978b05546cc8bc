import type { RegistryEntry } from './registry-types'
import type { DeclaredError } from '../sdk'
import { ERROR_CODES } from '../sdk/error-codes'

const CODE = /^[A-Z][A-Z0-9_]{0,63}$/

/**
 * The closed error vocabulary: the runtime's codes (runtime/sdk/error-codes.ts) merged with the codes each service
 * declares in its manifest's `errors`. A declared code must be UPPER_SNAKE, answer a 4xx/5xx, and be neither one of
 * the runtime's nor declared by another service (a code several services answer belongs in the runtime's list).
 */
export function errorVocabulary(entries: readonly RegistryEntry[]): {
  codes: Map<string, { status?: number; description?: string; service?: string }>
  problems: string[]
} {
  const codes = new Map<string, { status?: number; description?: string; service?: string }>(
    ERROR_CODES.map((c) => [c, {}]),
  )
  const problems: string[] = []
  for (const e of entries) {
    for (const [code, d] of Object.entries((e.manifest?.errors ?? {}) as Record<string, DeclaredError>)) {
      const at = `services/${e.folder}: error code '${code}'`
      if (!CODE.test(code)) problems.push(`${at} must be UPPER_SNAKE (A-Z, 0-9, _)`)
      if (!Number.isInteger(d?.status) || d.status < 400 || d.status > 599)
        problems.push(`${at}: status must be an integer from 400 to 599`)
      if (typeof d?.description !== 'string' || !d.description.trim()) problems.push(`${at}: description is required`)
      const taken = codes.get(code)
      if (taken)
        problems.push(
          taken.service
            ? `${at} is also declared by services/${taken.service}: a code several services answer goes in runtime/sdk/error-codes.ts`
            : `${at} is one of the runtime's codes (runtime/sdk/error-codes.ts): throw it with ServiceError, do not declare it`,
        )
      else codes.set(code, { status: d?.status, description: d?.description, service: e.folder })
    }
  }
  return { codes, problems }
}
