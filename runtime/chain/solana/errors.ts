/** A transaction error as Solana's JSON-RPC writes it: a name, or `{ Name: detail }`. */
export type TransactionErrorJson = string | number | { [name: string]: unknown }

interface InstructionErrorLike {
  index: number
  err(): unknown
}

/**
 * LiteSVM's transaction error (a numeric enum, or a class instance such as `TransactionErrorInstructionError`) in
 * the RPC's shape: `{InstructionError: [index, detail]}`, `{Custom: code}`, or the enum number under `TransactionError`.
 * Callers only need it non-null and readable; the exact names stay LiteSVM's.
 */
export function errorJson(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return { TransactionError: err }
  if (err && typeof err === 'object') {
    if ('index' in err && typeof (err as InstructionErrorLike).err === 'function') {
      const e = err as InstructionErrorLike
      const detail = e.err()
      return { InstructionError: [e.index, typeof detail === 'number' ? detail : errorJson(detail)] }
    }
    if ('code' in err) return { Custom: (err as { code: unknown }).code }
    const name = err.constructor?.name?.replace(/^TransactionError|^InstructionError/, '') || 'Error'
    return { [name]: { ...err } }
  }
  return String(err)
}
