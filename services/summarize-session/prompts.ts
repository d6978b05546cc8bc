import { composePrompts } from '../_lib/analysis'

/** Fixed system prompts of summarize-session, one per tier. */
export const prompts = composePrompts(
  'You summarize work sessions: chat transcripts, AI-agent logs, terminal sessions and meeting notes. Report only what the ' +
    'transcript shows; do not invent outcomes. Keep identifiers (file names, commands, ticket numbers) exactly as written.',
  'Answer in Markdown with these sections: "Goal", "What was done", "Decisions", "Problems and errors", "Open items" and ' +
    '"Next steps". Leave out a section that would be empty.',
  {
    quick: 'One or two bullet points per section at most.',
    standard: 'Cover every substantive step and decision with short bullets.',
    pro: 'Give a chronological timeline first, then the sections in full detail, including the commands or changes made and the reasoning behind decisions.',
  },
)
