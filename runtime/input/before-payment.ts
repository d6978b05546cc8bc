import type { TSchema } from '@sinclair/typebox'
import { parseJson, requireJson } from '../http/body'
import { ServiceError } from '../sdk/errors'
import { passesAsIs, prepareInputReport } from './validate'

/** Bodies that only ask for the price (discovery probes send these): no body, whitespace, or exactly `{}`. */
const PRICE_PROBE = /^\s*(\{\s*\})?\s*$/

/**
 * Small bodies already found valid, per schema (the check is a pure function of schema and body): agents and
 * probes repeat the same body unpaid, so its 402 costs a lookup, not a parse and a validation. Bounded: at most
 * KEEP bodies of KEEP_CHARS per service.
 */
const valid = new WeakMap<TSchema, Set<string>>()
const KEEP = 32
const KEEP_CHARS = 1024

/**
 * The body of an unpaid call, checked before the 402 asks for money: a body that would be refused once paid
 * (malformed JSON 400, not JSON 415, fields that fail validation 422) is refused now, with what to send.
 * An empty body or `{}` passes (it reads the price). Throws the same ServiceError the paid call would; a body that
 * is not JSON (400, 415) also gets `example`, a body that works.
 */
export function checkBeforePayment(schema: TSchema, req: Request, raw: string, example?: unknown): void {
  if (PRICE_PROBE.test(raw)) return
  let seen: Set<string> | undefined
  try {
    requireJson(req)
    seen = valid.get(schema)
    if (seen?.has(raw)) return
    // Most valid bodies pass as they are (no copy, no defaults); anything else is checked in full for its 422.
    if (!passesAsIs(schema, parseJson(raw))) prepareInputReport(schema, parseJson(raw))
  } catch (e) {
    // Not JSON at all: show a body that works (a 422's details already say what each field needs).
    if (!(e instanceof ServiceError) || e.status === 422 || example === undefined) throw e
    throw new ServiceError(e.status, e.code, e.message, { extra: { ...e.extra, example } })
  }
  if (raw.length > KEEP_CHARS) return
  if (!seen) valid.set(schema, (seen = new Set()))
  if (seen.size >= KEEP) seen.delete(seen.values().next().value!)
  seen.add(raw)
}
