/**
 * The ModelClient services reach through `ctx.model`: one OpenAI-compatible chat endpoint (OpenAI, OpenRouter,
 * Ollama, vLLM, llama.cpp) via the `openai` package. Structured answers are parsed, validated, retried once.
 * @module model/client
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import { ServiceError, upstreamError, type ModelClient, type ModelRequest, type ModelResult } from '../sdk'
import { checkJson } from './json'
import { retryText, systemText, userContent } from './messages'
import { tokensOf } from './usage'

export interface ModelClientOptions {
  /** OpenAI-compatible base URL including `/v1` (e.g. `http://127.0.0.1:11434/v1`). Default: OpenAI when a key is set. */
  baseUrl?: string
  apiKey?: string
  /** Model label sent to the provider (the service's manifest model or the operator's override). */
  model: string
  /** Time cap of one provider call in ms. Default 60 000. */
  timeoutMs?: number
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch
  /** How structured answers are requested. `json_schema` falls back to `json_object` once a provider refuses it. */
  jsonMode?: 'json_schema' | 'json_object'
  /** Transport retries inside the openai client (429/5xx). Default 0: the request's time budget is short. */
  maxRetries?: number
  /** Output budget when a request gives none (utilities have no tier budget). Default 1024. */
  defaultMaxTokens?: number
}

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam

/** Maps anything the provider call throws to a 502/504 ServiceError. */
export function providerError(e: unknown, timeoutMs: number): ServiceError {
  if (e instanceof ServiceError) return e
  if (e instanceof APIConnectionTimeoutError)
    return upstreamError('model', `the model provider did not answer within ${timeoutMs} ms`, { timeout: true })
  if (e instanceof APIUserAbortError)
    return upstreamError('model', 'the model call was cancelled when the request time budget ran out', {
      timeout: true,
    })
  if (e instanceof APIConnectionError) return upstreamError('model', 'the model provider could not be reached')
  if (e instanceof APIError && typeof e.status === 'number') {
    const retryable = e.status === 408 || e.status === 429 || e.status >= 500
    return upstreamError('model', `the model provider answered HTTP ${e.status}`, { retryable })
  }
  if ((e as Error)?.name === 'AbortError' || (e as Error)?.name === 'TimeoutError')
    return upstreamError('model', 'the model call was cancelled', { timeout: true })
  return upstreamError('model', 'the model provider call failed')
}

/**
 * Builds the model client. `available` is false without a base URL or an API key; then `complete()` throws 503.
 * @example
 * const model = createModelClient({ baseUrl: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, model: 'gpt-4.1-mini' })
 * const { text, tokensUsed } = await model.complete({ system: 'Explain the code.', user: code, maxTokens: 1000 })
 */
export function createModelClient(opts: ModelClientOptions): ModelClient {
  const available = Boolean(opts.baseUrl || opts.apiKey)
  const timeoutMs = opts.timeoutMs ?? 60_000
  let jsonMode = opts.jsonMode ?? 'json_schema'
  const client = available
    ? new OpenAI({
        baseURL: opts.baseUrl || 'https://api.openai.com/v1',
        apiKey: opts.apiKey || 'none',
        timeout: timeoutMs,
        maxRetries: opts.maxRetries ?? 0,
        fetch: opts.fetch,
      })
    : undefined

  async function call(req: ModelRequest, messages: Msg[]) {
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: opts.model,
      messages,
      max_tokens: req.maxTokens || opts.defaultMaxTokens || 1024,
    }
    if (req.jsonSchema) {
      body.response_format =
        jsonMode === 'json_schema'
          ? {
              type: 'json_schema',
              json_schema: { name: 'answer', schema: JSON.parse(JSON.stringify(req.jsonSchema)), strict: false },
            }
          : { type: 'json_object' }
    }
    try {
      if (req.stream) return await streamed(body, req)
      return await client!.chat.completions.create(body, { signal: req.signal, timeout: timeoutMs })
    } catch (e) {
      // Some OpenAI-compatible servers reject json_schema; fall back to json_object for good.
      if (req.jsonSchema && jsonMode === 'json_schema' && e instanceof APIError && e.status === 400) {
        jsonMode = 'json_object'
        return call(req, messages)
      }
      throw e
    }
  }

  /**
   * The same call with `stream: true`: each content chunk goes to `req.stream` as it arrives; the usage comes in the
   * last chunk (`stream_options.include_usage`). Answered as the completion it adds up to. A stream that ends
   * without a finish reason broke off: that is a provider failure, never a (short) answer.
   *
   * Delivered output is paid (docs/streaming.md): the last content chunk is held back until the next one or the
   * finish reason arrives, so the caller never has the whole answer before the model's answer is complete; once it
   * is complete (finish reason seen), a cancellation (the client left) no longer undoes it: the completion is
   * answered (its usage counted here when the provider's last chunks were cut off), and the call is charged.
   */
  async function streamed(
    body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming,
    req: ModelRequest,
  ): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    const chunks = await client!.chat.completions.create(
      { ...body, stream: true, stream_options: { include_usage: true } },
      { signal: req.signal, timeout: timeoutMs },
    )
    const parts: string[] = []
    let refusal: string | null = null
    let finish: OpenAI.Chat.Completions.ChatCompletion.Choice['finish_reason'] | null = null
    let usage: OpenAI.CompletionUsage | undefined
    let model = ''
    let held: string | null = null
    const send = () => {
      if (held !== null) req.stream!.delta(held)
      held = null
    }
    try {
      for await (const chunk of chunks) {
        if (typeof chunk.model === 'string' && chunk.model) model = chunk.model
        if (chunk.usage) usage = chunk.usage
        const choice = chunk.choices?.[0]
        if (!choice) continue
        const text = choice.delta?.content
        if (typeof text === 'string' && text) {
          parts.push(text)
          send()
          held = text
        }
        if (choice.delta?.refusal) refusal = (refusal ?? '') + choice.delta.refusal
        if (choice.finish_reason && !finish) {
          finish = choice.finish_reason
          send()
        }
      }
    } catch (e) {
      // cut off (cancelled, or the connection broke) after the answer was complete: it stands
      if (!finish) throw e
    }
    if (finish) send()
    if (!finish)
      throw upstreamError('model', 'the model stream ended before the answer was complete', { retryable: true })
    return {
      id: 'streamed',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: parts.join(''), refusal },
          finish_reason: finish,
          logprobs: null,
        },
      ],
      usage,
    }
  }

  async function complete(req: ModelRequest): Promise<ModelResult> {
    if (!client) throw new ServiceError(503, 'MODEL_UNAVAILABLE', 'No model provider is configured on this server.')
    const messages: Msg[] = [
      { role: 'system', content: systemText(req) },
      { role: 'user', content: userContent(req) as string },
    ]
    let tokensUsed = 0
    let model = opts.model
    for (let attempt = 0; attempt < 2; attempt++) {
      let res: OpenAI.Chat.Completions.ChatCompletion
      try {
        res = await call(req, messages)
      } catch (e) {
        throw providerError(e, timeoutMs)
      }
      if (typeof res.model === 'string' && res.model) model = res.model
      const choice = res.choices?.[0]
      const text = typeof choice?.message?.content === 'string' ? choice.message.content : ''
      // the provider's usage, or (none reported, or unusable) the prompt and answer counted here
      tokensUsed += tokensOf(res.usage, messages, text)
      if (!req.jsonSchema) {
        if (!text.trim())
          throw upstreamError(
            'model',
            choice?.message?.refusal ? 'the model refused to answer' : 'the model returned an empty answer',
          )
        return { text, model, tokensUsed }
      }
      const checked = await checkJson(text, req.jsonSchema, req.validate)
      if (checked.ok) return { text, json: checked.value, model, tokensUsed }
      if (attempt === 1)
        throw upstreamError('model', `the model returned an invalid structured answer twice (${checked.reason})`, {
          retryable: true,
        })
      req.stream?.restart(checked.reason)
      messages.push(
        { role: 'assistant', content: text.slice(0, 20_000) },
        { role: 'user', content: retryText(checked.reason) },
      )
    }
    throw upstreamError('model', 'unreachable')
  }

  return { available, model: opts.model, complete }
}
