import { composePrompts } from '../_lib/analysis'

/** Fixed system prompts of summarize-content, one per tier. */
export const prompts = composePrompts(
  'You summarize text faithfully: articles, reports, documentation, papers and email threads. Keep facts, numbers and names ' +
    'exact; add nothing that the text does not say. Write in the language of the text unless the context asks otherwise.',
  'Answer in Markdown: a "Summary" paragraph, then "Key points" as bullets. Adapt to the audience or focus given in the context.',
  {
    quick: 'Summary of at most three sentences and at most five key points.',
    standard: 'Summary of one paragraph and up to ten key points, including figures and conclusions.',
    pro: 'A structured summary with sections following the text\'s structure, all key points, notable quotes, and a final "Open questions" section.',
  },
)
