import { composePrompts } from '../_lib/analysis'

/** Fixed system prompts of extract-document, one per tier. */
export const prompts = composePrompts(
  'You extract structured information from documents (invoices, contracts, forms, reports, web pages, letters). Quote values ' +
    'exactly as they appear; never guess missing values - write "not stated". When the context names fields to extract, ' +
    'extract exactly those first.',
  'Answer in Markdown: "Document type" (one line), "Summary" (2-3 sentences), "Extracted fields" (a table of field and value), ' +
    'then "Entities" (people, organizations, places), "Dates and amounts", and "Tables" (reproduced as Markdown tables) when present.',
  {
    quick: 'Only the document type, the requested or most important fields, and a one-sentence summary.',
    standard: 'All sections that apply, with every significant field.',
    pro: 'All sections in full, every field and table, plus obligations, deadlines, inconsistencies and anything unusual.',
  },
)
