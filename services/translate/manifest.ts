import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'translate',
  name: 'Translate',
  description:
    'Translates text into the language `to` (a name such as "German" or a code such as "de" or "pt-BR"), keeping meaning, tone, ' +
    'formatting, Markdown, code and placeholders. `from` is optional (detected when omitted); the detected source language is ' +
    'reported. Text: at most 12,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.008),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45_000,
  input: t.Object(
    {
      text: t.String({
        minLength: 1,
        maxLength: 12_000,
        description: 'Text to translate (at most 12,000 characters).',
      }),
      to: t.String({
        minLength: 2,
        maxLength: 40,
        pattern: '^[^\\r\\n]+$',
        description: 'Target language name or code.',
      }),
      from: t.Optional(
        t.String({
          minLength: 2,
          maxLength: 40,
          pattern: '^[^\\r\\n]+$',
          description: 'Source language; detected when omitted.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      target: 'to',
      target_language: 'to',
      language: 'to',
      source: 'from',
      source_language: 'from',
      input: 'text',
    },
  },
  output: t.Object({
    translation: t.String(),
    source_language: t.String({ description: 'Detected or given source language (English name).' }),
    target_language: t.String({ description: 'Target language (English name).' }),
    ...modelFields,
  }),
  examples: [
    {
      name: 'To French',
      input: { text: 'Good morning, how are you?', to: 'fr' },
      output: {
        translation: 'Bonjour, comment allez-vous ?',
        source_language: 'English',
        target_language: 'French',
        model: 'gpt-4.1-mini',
        tokens_used: 142,
      },
    },
  ],
})
