import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'tone-shift',
  name: 'Tone shift',
  description:
    'Rewrites text in another tone (e.g. formal, casual, friendly, confident, empathetic, concise, persuasive, professional) while ' +
    'keeping its meaning, facts and language. `tone` is a short free-form description (at most 60 characters). Text: at most 12,000 characters.',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.007),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 45_000,
  input: t.Object(
    {
      text: t.String({ minLength: 1, maxLength: 12_000, description: 'Text to rewrite (at most 12,000 characters).' }),
      tone: t.String({ minLength: 2, maxLength: 60, description: 'Target tone, e.g. formal, friendly, concise.' }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', style: 'tone', target_tone: 'tone' } },
  output: t.Object({ text: t.String({ description: 'The rewritten text.' }), tone: t.String(), ...modelFields }),
  examples: [
    {
      name: 'Formal',
      input: { text: "hey, can't make it tmrw, sorry!", tone: 'formal' },
      output: {
        text: 'Hello, I regret that I will be unable to attend tomorrow. My apologies.',
        tone: 'formal',
        model: 'gpt-4.1-mini',
        tokens_used: 120,
      },
    },
  ],
})
