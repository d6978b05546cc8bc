/**
 * The two JSON-RPC wires of A2A this endpoint speaks, over one task model (./tasks.ts): v1.0 (`SendMessage`,
 * `SendStreamingMessage`, `GetTask`; proto-JSON: `ROLE_USER`, `TASK_STATE_COMPLETED`, parts as `{text}` / `{data}`,
 * stream events as `{task}` / `{statusUpdate}` / `{artifactUpdate}`) and v0.3 (`message/send`, `message/stream`,
 * `tasks/get`; `kind`-tagged objects, `input-required`), the one x402's A2A transport is written in.
 * @module a2a/wire
 */
import type { A2aTask } from './tasks'

export type Wire = '1.0' | '0.3'
export type Op = 'send' | 'stream' | 'get' | 'cancel' | 'subscribe'

/** The JSON-RPC methods by wire. */
export const METHODS: Record<string, { wire: Wire; op: Op }> = {
  SendMessage: { wire: '1.0', op: 'send' },
  SendStreamingMessage: { wire: '1.0', op: 'stream' },
  GetTask: { wire: '1.0', op: 'get' },
  CancelTask: { wire: '1.0', op: 'cancel' },
  SubscribeToTask: { wire: '1.0', op: 'subscribe' },
  'message/send': { wire: '0.3', op: 'send' },
  'message/stream': { wire: '0.3', op: 'stream' },
  'tasks/get': { wire: '0.3', op: 'get' },
  'tasks/cancel': { wire: '0.3', op: 'cancel' },
  'tasks/resubscribe': { wire: '0.3', op: 'subscribe' },
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

/** The task id of a get, cancel or subscribe (`id` in both wires). */
export const taskIdOf = (params: unknown): string | undefined =>
  isRecord(params) && typeof params.id === 'string' ? params.id : undefined

const V1_STATE = {
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
} as const

/** One part: text (a streamed chunk, a status message) or JSON data (a result). */
export type Part = { text: string } | { data: unknown }

const partOut = (p: Part, wire: Wire) =>
  'text' in p
    ? wire === '1.0'
      ? { text: p.text }
      : { kind: 'text', text: p.text }
    : wire === '1.0'
      ? { data: p.data, mediaType: 'application/json' }
      : { kind: 'data', data: p.data }

/** An artifact of a task: the result (`<id>-result`, JSON) or the answer's text as it streams (`<id>-text`). */
export interface Artifact {
  artifactId: string
  name: string
  part: Part
}

const artifactOut = (a: Artifact, wire: Wire) => ({
  artifactId: a.artifactId,
  name: a.name,
  parts: [partOut(a.part, wire)],
})

/** The task's result artifact (a completed task has one). */
export const resultArtifact = (t: A2aTask): Artifact => ({
  artifactId: `${t.id}-result`,
  name: t.skill,
  part: { data: t.result },
})

/** The task's status (state, the agent's message with the x402 metadata, the time of its last change). */
function statusOut(t: A2aTask, wire: Wire) {
  const timestamp = new Date(t.updatedAt).toISOString()
  const messageId = `${t.id}:${t.updatedAt}`
  const parts = [partOut({ text: t.text }, wire)]
  if (wire === '1.0')
    return {
      state: V1_STATE[t.state],
      message: { messageId, taskId: t.id, contextId: t.contextId, role: 'ROLE_AGENT', parts, metadata: t.metadata },
      timestamp,
    }
  return {
    state: t.state,
    message: {
      kind: 'message',
      messageId,
      taskId: t.id,
      contextId: t.contextId,
      role: 'agent',
      parts,
      metadata: t.metadata,
    },
    timestamp,
  }
}

/** A task on the wire. */
export function taskOut(t: A2aTask, wire: Wire) {
  const artifacts = t.result === undefined ? [] : [artifactOut(resultArtifact(t), wire)]
  if (wire === '1.0') return { id: t.id, contextId: t.contextId, status: statusOut(t, wire), artifacts }
  return {
    kind: 'task',
    id: t.id,
    contextId: t.contextId,
    status: statusOut(t, wire),
    ...(artifacts.length ? { artifacts } : {}),
  }
}

/** The result of a send: v1.0 wraps the task (`{task}`), v0.3 answers it as is. */
export const sendResult = (t: A2aTask, wire: Wire) => (wire === '1.0' ? { task: taskOut(t, wire) } : taskOut(t, wire))

/**
 * One event of a stream, whatever the wire: the task as it is (the first event), its new status (`final` on the
 * last: the task is done or waits for the client), or an artifact's chunk (`append`: adds to the artifact, else
 * replaces it).
 */
export type Update =
  | { kind: 'task' }
  | { kind: 'status'; final: boolean }
  | { kind: 'artifact'; artifact: Artifact; append: boolean; lastChunk: boolean }

/** The `result` of one stream event on the wire (the JSON-RPC response each SSE event carries). */
export function updateOut(t: A2aTask, u: Update, wire: Wire) {
  if (u.kind === 'task') return sendResult(t, wire)
  if (u.kind === 'status') {
    const event = { taskId: t.id, contextId: t.contextId, status: statusOut(t, wire) }
    return wire === '1.0' ? { statusUpdate: event } : { kind: 'status-update', ...event, final: u.final }
  }
  const event = {
    taskId: t.id,
    contextId: t.contextId,
    artifact: artifactOut(u.artifact, wire),
    append: u.append,
    lastChunk: u.lastChunk,
  }
  return wire === '1.0' ? { artifactUpdate: event } : { kind: 'artifact-update', ...event }
}
