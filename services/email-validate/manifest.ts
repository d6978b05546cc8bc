import { defineService, flat, t } from '../../runtime/sdk'

export default defineService({
  slug: 'email-validate',
  name: 'Email address validation',
  description:
    'Checks an email address offline (no DNS, no SMTP, nothing sent). Syntax is a practical RFC 5321/5322 subset: a dot-atom local part of at most 64 octets ' +
    "(letters, digits and !#$%&'*+/=?^_`{|}~-, single dots not at either end; quoted strings, comments and non-ASCII local parts are not accepted); " +
    'a domain of at least two LDH labels of up to 63 characters with an alphabetic TLD of 2+ letters (IDNs are converted to punycode first; IP literals are not accepted); at most 254 octets in all. ' +
    'Flags: disposable (a bundled list of about 60 well-known throwaway providers such as mailinator.com, yopmail.com), role_account (RFC 2142 and common team mailboxes: admin, info, support, sales, noreply, ...; a +tag is ignored), ' +
    'free_provider (about 50 webmail providers: gmail.com, outlook.com, yahoo.com, ...). normalized = local part as sent + "@" + the lower-cased ASCII domain. An invalid address is a 200 with valid_syntax false and the reason.',
  category: 'validation',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.002),
  model: 'none',
  input: t.Object(
    {
      email: t.String({
        minLength: 1,
        maxLength: 320,
        description:
          'The address, e.g. jane.doe+news@example.com (surrounding spaces are trimmed; at most 320 characters).',
      }),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { address: 'email', email_address: 'email' } },
  output: t.Object({
    email: t.String({ description: 'The address as checked (trimmed).' }),
    valid_syntax: t.Boolean({ description: 'The address follows the documented syntax rules.' }),
    reason: t.Union([t.String(), t.Null()], { description: 'The first rule the address breaks; null when valid.' }),
    local: t.String({ description: 'Local part (before the last @), as sent.' }),
    domain: t.String({ description: 'Domain (after the last @), lower-cased; empty when there is no @.' }),
    domain_ascii: t.String({ description: 'Domain in ASCII (IDNA/punycode); empty when it is not a valid host name.' }),
    domain_unicode: t.String({ description: 'Domain in Unicode form.' }),
    normalized: t.String({ description: 'local@domain_ascii (local part kept as sent: it may be case-sensitive).' }),
    disposable: t.Boolean({ description: 'Domain is on the bundled throwaway-provider list.' }),
    role_account: t.Boolean({
      description: 'Local part (lower-cased, without +tag) is a role mailbox such as admin, info, support.',
    }),
    free_provider: t.Boolean({ description: 'Domain is a free webmail provider.' }),
    plus_tag: t.Union([t.String(), t.Null()], {
      description: 'Sub-address after the first + in the local part, or null.',
    }),
  }),
  examples: [
    {
      name: 'Gmail with a tag',
      input: { email: 'Jane.Doe+news@Gmail.com' },
      output: {
        email: 'Jane.Doe+news@Gmail.com',
        valid_syntax: true,
        reason: null,
        local: 'Jane.Doe+news',
        domain: 'gmail.com',
        domain_ascii: 'gmail.com',
        domain_unicode: 'gmail.com',
        normalized: 'Jane.Doe+news@gmail.com',
        disposable: false,
        role_account: false,
        free_provider: true,
        plus_tag: 'news',
      },
    },
  ],
})
