import { defineService, flat, t } from '../../runtime/sdk'
import { modelFields } from '../_lib/model-utility'

/** Model: gpt-4.1-mini. */
export default defineService({
  slug: 'eli5',
  name: 'ELI5',
  description:
    'Explains a topic or a passage "like I\'m five": short sentences, everyday words, one concrete analogy, no jargon. `text` is ' +
    'the topic or text to explain (at most 4,000 characters).',
  category: 'language',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'gpt-4.1-mini',
  needs: ['model'],
  timeoutMs: 30_000,
  input: t.Object(
    { text: t.String({ minLength: 1, maxLength: 4_000, description: 'Topic or text to explain.' }) },
    { additionalProperties: true },
  ),
  aliases: { fields: { input: 'text', topic: 'text', question: 'text' } },
  output: t.Object({ explanation: t.String(), analogy: t.String(), ...modelFields }),
  examples: [
    {
      name: 'Blockchain',
      input: { text: 'What is a blockchain?' },
      output: {
        explanation: 'A blockchain is a notebook that lots of people keep copies of. ...',
        analogy: 'Like a class diary that every kid has a copy of, so nobody can secretly change a page.',
        model: 'gpt-4.1-mini',
        tokens_used: 180,
      },
    },
  ],
})
