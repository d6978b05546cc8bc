/**
 * The two JSON-RPC wires of A2A this endpoint speaks, over one task model (./tasks.ts): v1.0 (`SendMessage`,
 * `GetTask`; proto-JSON: `ROLE_USER`, `TASK_STATE_COMPLETED`, parts as `{text}` / `{data}`) and v0.3
 * (`message/send`, `tasks/get`; `kind`-tagged objects, `input-required`), the one x402's A2A transport is written in.
 * @module a2a/wire
 */
import type { A2aTask } from './tasks'

export type Wire = '1.0' | '0.3'

/** The JSON-RPC methods by wire. */
export const METHODS: Record<string, { wire: Wire; op: 'send' | 'get' | 'cancel' }> = {
  SendMessage: { wire: '1.0', op: 'send' },
  GetTask: { wire: '1.0', op: 'get' },
  CancelTask: { wire: '1.0', op: 'cancel' },
  'message/send': { wire: '0.3', op: 'send' },
  'tasks/get': { wire: '0.3', op: 'get' },
  'tasks/cancel': { wire: '0.3', op: 'cancel' },
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** An incoming message, whatever the wire: its task (if it continues one), its first data part, its metadata. */
export interface Incoming {
  taskId?: string
  contextId?: string
  data?: Record<string, unknown>
  metadata: Record<string, unknown>
}

/** Reads `params.message` of a send (both wires put parts' JSON under `data`); undefined when it is not a message. */
export function readMessage(params: unknown): Incoming | undefined {
  const m = isRecord(params) ? params.message : undefined
  if (!isRecord(m) || !Array.isArray(m.parts)) return undefined
  const part = m.parts.find((p) => isRecord(p) && isRecord(p.data)) as { data: Record<string, unknown> } | undefined
  return {
    taskId: typeof m.taskId === 'string' && m.taskId ? m.taskId : undefined,
    contextId: typeof m.contextId === 'string' && m.contextId ? m.contextId : undefined,
    data: part?.data,
    metadata: isRecord(m.metadata) ? m.metadata : {},
  }
}

/** The task id of a get or cancel (`id` in both wires). */
export const taskIdOf = (params: unknown): string | undefined =>
  isRecord(params) && typeof params.id === 'string' ? params.id : undefined

const V1_STATE = {
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
} as const

/** A task on the wire. */
export function taskOut(t: A2aTask, wire: Wire) {
  const timestamp = new Date(t.updatedAt).toISOString()
  const messageId = `${t.id}:${t.updatedAt}`
  if (wire === '1.0') {
    return {
      id: t.id,
      contextId: t.contextId,
      status: {
        state: V1_STATE[t.state],
        message: {
          messageId,
          taskId: t.id,
          contextId: t.contextId,
          role: 'ROLE_AGENT',
          parts: [{ text: t.text }],
          metadata: t.metadata,
        },
        timestamp,
      },
      artifacts:
        t.result === undefined
          ? []
          : [
              {
                artifactId: `${t.id}-result`,
                name: t.skill,
                parts: [{ data: t.result, mediaType: 'application/json' }],
              },
            ],
    }
  }
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: {
      state: t.state,
      message: {
        kind: 'message',
        messageId,
        taskId: t.id,
        contextId: t.contextId,
        role: 'agent',
        parts: [{ kind: 'text', text: t.text }],
        metadata: t.metadata,
      },
      timestamp,
    },
    ...(t.result === undefined
      ? {}
      : { artifacts: [{ artifactId: `${t.id}-result`, name: t.skill, parts: [{ kind: 'data', data: t.result }] }] }),
  }
}

/** The result of a send: v1.0 wraps the task (`{task}`), v0.3 answers it as is. */
export const sendResult = (t: A2aTask, wire: Wire) => (wire === '1.0' ? { task: taskOut(t, wire) } : taskOut(t, wire))
