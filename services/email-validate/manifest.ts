import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'email-validate',
  name: 'Email validation',
  description: 'Checks an email address without sending anything or looking up DNS: syntax (a practical RFC 5321/5322 subset — dot-atom local part up to 64 octets, no quoted strings or comments; a domain of LDH labels up to 63 characters with a 2+ letter TLD, or an IDN that converts to punycode; total up to 254 octets), plus flags for disposable providers (a bundled list of common throwaway domains), role accounts (admin, info, support, sales, ...) and free mailbox providers (gmail.com, outlook.com, yahoo.com, ...). Returns the normalised address (domain lower-cased, local part kept as sent).',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object({ email: t.String({ minLength: 1, maxLength: 320, description: 'The address.' }) }, { additionalProperties: true }),
  output: t.Object({
    email: t.String(), valid_syntax: t.Boolean(), reason: t.Union([t.String(), t.Null()], { description: 'Why the syntax is invalid.' }),
    local: t.String(), domain: t.String(), domain_ascii: t.String(), normalized: t.String(),
    disposable: t.Boolean(), role_account: t.Boolean(), free_provider: t.Boolean(), plus_tag: t.Union([t.String(), t.Null()]),
  }),
  examples: [{ name: 'Gmail with a tag', input: { email: 'Jane.Doe+news@Gmail.com' } }],
})
