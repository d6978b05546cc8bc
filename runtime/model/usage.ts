/**
 * The tokens one provider call used: the provider's reported usage when it is usable, else counted here with the
 * `o200k_base` tokenizer (gpt-tokenizer: the GPT-4o / GPT-4.1 family the catalog's models belong to; other families
 * are counted with it as an estimate). Many OpenAI-compatible servers omit usage, in streams especially: the answer
 * is then never billed as if it had used no tokens (docs/channels.md "Pay for tokens used").
 * @module model/usage
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import type OpenAI from 'openai'

type Msg = OpenAI.Chat.Completions.ChatCompletionMessageParam

/** Chat framing per message (role and separators), as OpenAI counts it. */
const PER_MESSAGE = 4

/** The reported total when usable: a finite, positive count (a zero or missing total with an answer is not). */
export function reportedTokens(u: OpenAI.CompletionUsage | undefined | null): number | null {
  if (!u) return null
  const total = Number.isFinite(u.total_tokens)
    ? u.total_tokens
    : (Number(u.prompt_tokens) || 0) + (Number(u.completion_tokens) || 0)
  return Number.isFinite(total) && total > 0 ? Math.ceil(total) : null
}

/** The text of a message (its text parts; an image is counted by the provider only). */
function textOf(m: Msg): string {
  const c = (m as { content?: unknown }).content
  if (typeof c === 'string') return c
  if (!Array.isArray(c)) return ''
  return c.map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text ?? '') : '')).join('\n')
}

/** Tokens of the prompt (every message sent) plus the answer, counted here. */
export function countedTokens(messages: Msg[], answer: string): number {
  let n = 0
  for (const m of messages) n += PER_MESSAGE + countTokens(textOf(m))
  return n + countTokens(answer)
}

/** The tokens of one call: reported when usable, else counted. */
export function tokensOf(u: OpenAI.CompletionUsage | undefined | null, messages: Msg[], answer: string): number {
  return reportedTokens(u) ?? countedTokens(messages, answer)
}
