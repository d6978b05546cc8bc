import { defineService, flat, t } from '../../runtime/sdk'
import { MAX_B64_CHARS } from '../_lib/media-input'

export const MAX_PDF_BYTES = 780_000

const Value = t.Union([t.String({ maxLength: 10_000 }), t.Number(), t.Boolean()], {
  description: 'Text for a text field; true/false for a check box; an option for a dropdown, list or radio group.',
})

export default defineService({
  slug: 'pdf-form-fill',
  name: 'PDF form filler (AcroForm)',
  description:
    'Fills the AcroForm fields of a PDF (pdf-lib) and returns the filled PDF as base64, the names of the fields set, and every form field with its value as read back from the saved file. Text fields take strings (numbers are written as text); check boxes take true/false; dropdowns, option lists and radio groups take one of their options. Field names are the full names (e.g. "applicant.name"). A name that is not in the form is reported, never silently ignored: with on_unknown "error" (default) the call is a 422 listing the unknown names (error.unknown_fields) and nothing is filled; with "skip" the known fields are filled and the others are returned in unknown_fields. Send fields {} to list a form\'s fields. Appearances are regenerated with Helvetica, so values must use WinAnsi (Latin-1) characters; flatten true burns the values into the pages and removes the form. Encrypted PDFs, non-PDF data and PDFs over 780,000 bytes (1,040,000 base64 characters, within the 1 MiB request limit) are a 422. Document metadata is left unchanged.',
  category: 'media',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.006),
  model: 'none',
  input: t.Object(
    {
      pdf_b64: t.String({
        minLength: 1,
        maxLength: MAX_B64_CHARS,
        description:
          'The PDF, base64 (standard or URL-safe; a data:application/pdf;base64, prefix is accepted). At most 780,000 bytes decoded (1,040,000 characters).',
      }),
      fields: t.Record(t.String({ maxLength: 500 }), Value, {
        maxProperties: 500,
        description: 'Field name → value (at most 500 fields). {} lists the form fields without changing them.',
      }),
      on_unknown: t.Optional(
        t.Union([t.Literal('error'), t.Literal('skip')], {
          default: 'error',
          description:
            '"error" (default): any unknown field name makes the call a 422 listing them; "skip": fill the known ones and list the others in unknown_fields.',
        }),
      ),
      flatten: t.Optional(
        t.Boolean({
          default: false,
          description:
            'Flatten the form after filling (values become page content, fields are removed). Default false.',
        }),
      ),
    },
    { additionalProperties: true },
  ),
  aliases: { fields: { pdf: 'pdf_b64', pdf_base64: 'pdf_b64', file: 'pdf_b64', values: 'fields', data: 'fields' } },
  output: t.Object({
    pdf_b64: t.String({ description: 'The filled PDF, base64 (standard alphabet, padded).' }),
    bytes: t.Integer({ description: 'Size of the filled PDF in bytes.' }),
    pages: t.Integer({ description: 'Number of pages.' }),
    fields_set: t.Array(t.String(), { description: 'Names of the fields that were set, in request order.' }),
    unknown_fields: t.Array(t.String(), {
      description: 'Requested names with no such field (only with on_unknown "skip"; otherwise always empty).',
    }),
    flattened: t.Boolean({ description: 'Whether the form was flattened.' }),
    fields: t.Array(
      t.Object({
        name: t.String({ description: 'Full field name.' }),
        type: t.Union(
          ['text', 'checkbox', 'dropdown', 'option_list', 'radio', 'button', 'signature', 'unknown'].map((x) =>
            t.Literal(x),
          ),
          { description: 'Field type.' },
        ),
        value: t.Union([t.String(), t.Boolean(), t.Array(t.String()), t.Null()], {
          description:
            'Value read back from the saved PDF: text, check state, selected options (dropdown/list), selected option (radio, or null), null for buttons and signatures.',
        }),
      }),
      { description: 'Every field of the saved form (empty after flattening).' },
    ),
  }),
  examples: [
    {
      name: 'Fill two text fields',
      input: {
        pdf_b64:
          'JVBERi0xLjcKJYGBgYEKCjggMCBvYmoKPDwKL0JCb3ggWyAwIDAgMjAxIDIxIF0KL01hdHJpeCBbIDEgMCAwIDEgMCAwIF0KL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhIDcgMCBSCj4+Cj4+Ci9UeXBlIC9YT2JqZWN0Ci9TdWJ0eXBlIC9Gb3JtCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTUzCj4+CnN0cmVhbQp4nDNUMABCQzCZnMtliMotBEJDBRAsSucyAIsGuQNFyrmiY4HsFIR6PVMwxjQCjQuiQKSRgUIOl5EBEgNEZ3A5cQVyGSkYAdUYKRhaAoUMLS0RDCOwmnCuPC79kAoFJ19noPucQqAuAzpR3yM1pyy1JDM5UcHQVCEkDW67kYKpniFIKJfLxk4hJIvLNQRokSvQgEAuAG6dNAAKZW5kc3RyZWFtCmVuZG9iagoKMTEgMCBvYmoKPDwKL0JCb3ggWyAwIDAgMjAxIDIxIF0KL01hdHJpeCBbIDEgMCAwIDEgMCAwIF0KL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhIDcgMCBSCj4+Cj4+Ci9UeXBlIC9YT2JqZWN0Ci9TdWJ0eXBlIC9Gb3JtCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTUzCj4+CnN0cmVhbQp4nDNUMABCQzCZnMtliMotBEJDBRAsSucyAIsGuQNFyrmiY4HsFIR6PVMwxjQCjQuiQKSRgUIOl5EBEgNEZ3A5cQVyGSkYAdUYKRhaAoUMLS0RDCOwmnCuPC79kAoFJ19noPucQqAuAzpR3yM1pyy1JDM5UcHQVCEkDW67kYKpniFIKJfLxk4hJIvLNQRokSvQgEAuAG6dNAAKZW5kc3RyZWFtCmVuZG9iagoKMTIgMCBvYmoKPDwKL0ZpbHRlciAvRmxhdGVEZWNvZGUKL1R5cGUgL09ialN0bQovTiA5Ci9GaXJzdCA1MQovTGVuZ3RoIDQwNQo+PgpzdHJlYW0KeJy1kV9LwzAUxd/7Kc6jvpikbboVhtDNdcJQx1ZQGHuoXRyV2Uibyfz23qTdP8FHCTc0N+em9/yuAIePMESAOEQIP+hDwo/6iBDICD3IgCNGJHwIjh6XGAw8ln1/KrBZvlGNx6blusGSXuCYY+Wxkd5VBsK7vfVO2lFu8q3eeG0RhBV7LClqner6g/5szxcVVmjltbKvtfq5avSuLugBq0s13dAHlbGXp9d3VRyP472ZLExuVJewuQe1LvOh3lOvnFbA26COk6rSxnqInAfBOytdP2mpts6idPn4120Glu2PGKIDhgyDdJymnEdjCkFxRyGpkbsEV9z1UBOQe7X9UqYscgiJ7O36koJrzWOL3atx5+dyvVHGkiCzS4j4hsYVut3ndu/ZfXUEJ1tws3Y8BGHq0A0nttgt0s7BKTXqwPDWGxsunPS5HSVLERKpmcs9on8Y2EW3diJnzdqkoIfyRrlZnbzShKpCr8tqYy1VSdWUh8QfXI9DOQMrO6gWbkwx+g+44gxueAk3/ie4QpzR/QH9v+BxCmVuZHN0cmVhbQplbmRvYmoKCjEzIDAgb2JqCjw8Ci9TaXplIDE0Ci9Sb290IDIgMCBSCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9UeXBlIC9YUmVmCi9MZW5ndGggNTEKL1cgWyAxIDIgMiBdCi9JbmRleCBbIDAgMTQgXQo+PgpzdHJlYW0KeJwlyqkVACAMRMEfboGgT8pEUFbIPsyoAdwTE4SJJLIooopmrF+6GGab2DcoBx6t7ASxCmVuZHN0cmVhbQplbmRvYmoKCnN0YXJ0eHJlZgoxMjE5CiUlRU9G',
        fields: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
      output: {
        pdf_b64:
          'JVBERi0xLjcKJYGBgYEKCjEgMCBvYmoKPDwKL1R5cGUgL1BhZ2VzCi9LaWRzIFsgMyAwIFIgXQovQ291bnQgMQo+PgplbmRvYmoKCjIgMCBvYmoKPDwKL1R5cGUgL0NhdGFsb2cKL1BhZ2VzIDEgMCBSCi9BY3JvRm9ybSA0IDAgUgo+PgplbmRvYmoKCjMgMCBvYmoKPDwKL1R5cGUgL1BhZ2UKL1BhcmVudCAxIDAgUgovUmVzb3VyY2VzIDw8Ci9Gb250IDw8Cj4+Ci9YT2JqZWN0IDw8Cj4+Ci9FeHRHU3RhdGUgPDwKPj4KPj4KL01lZGlhQm94IFsgMCAwIDMwMCAzMDAgXQovQW5ub3RzIFsgNiAwIFIgMTAgMCBSIF0KPj4KZW5kb2JqCgo0IDAgb2JqCjw8Ci9GaWVsZHMgWyA1IDAgUiA5IDAgUiBdCj4+CmVuZG9iagoKNSAwIG9iago8PAovRlQgL1R4Ci9LaWRzIFsgNiAwIFIgXQovVCA8RkVGRjAwNkUwMDYxMDA2RDAwNjU+Ci9EQSAoMCAwIDAgcmcKL0hlbHZldGljYSAxNSBUZikKL0ZmIDAKL1YgPEZFRkYwMDQxMDA2NDAwNjEwMDIwMDA0QzAwNkYwMDc2MDA2NTAwNkMwMDYxMDA2MzAwNjU+Cj4+CmVuZG9iagoKNiAwIG9iago8PAovVHlwZSAvQW5ub3QKL1N1YnR5cGUgL1dpZGdldAovUmVjdCBbIDE5LjUgMjQ5LjUgMjIwLjUgMjcwLjUgXQovUGFyZW50IDUgMCBSCi9QIDMgMCBSCi9NSyA8PAovQkcgWyAxIDEgMSBdCi9SIDAKL0JDIFsgMCAwIDAgXQo+PgovQlMgPDwKL1cgMQo+PgovRiA0Ci9BUCA8PAovTiAxMyAwIFIKPj4KPj4KZW5kb2JqCgo3IDAgb2JqCjw8Ci9UeXBlIC9Gb250Ci9TdWJ0eXBlIC9UeXBlMQovQmFzZUZvbnQgL0hlbHZldGljYQovRW5jb2RpbmcgL1dpbkFuc2lFbmNvZGluZwo+PgplbmRvYmoKCjggMCBvYmoKPDwKL0JCb3ggWyAwIDAgMjAxIDIxIF0KL01hdHJpeCBbIDEgMCAwIDEgMCAwIF0KL1Jlc291cmNlcyA8PAovRm9udCA8PAovSGVsdmV0aWNhIDcgMCBSCj4+Cj4+Ci9UeXBlIC9YT2JqZWN0Ci9TdWJ0eXBlIC9Gb3JtCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTUzCj4+CnN0cmVhbQp4nDNUMABCQzCZnMtliMotBEJDBRAsSucyAIsGuQNFyrmiY4HsFIR6PVMwxjQCjQuiQKSRgUIOl5EBEgNEZ3A5cQVyGSkYAdUYKRhaAoUMLS0RDCOwmnCuPC79kAoFJ19noPucQqAuAzpR3yM1pyy1JDM5UcHQVCEkDW67kYKpniFIKJfLxk4hJIvLNQRokSvQgEAuAG6dNAAKZW5kc3RyZWFtCmVuZG9iagoKOSAwIG9iago8PAovRlQgL1R4Ci9LaWRzIFsgMTAgMCBSIF0KL1QgPEZFRkYwMDY1MDA2RDAwNjEwMDY5MDA2Qz4KL0RBICgwIDAgMCByZwovSGVsdmV0aWNhIDE1IFRmKQovRmYgMAovViA8RkVGRjAwNjEwMDY0MDA2MTAwNDAwMDY1MDA3ODAwNjEwMDZEMDA3MDAwNkMwMDY1MDAyRTAwNjMwMDZGMDA2RD4KPj4KZW5kb2JqCgoxMCAwIG9iago8PAovVHlwZSAvQW5ub3QKL1N1YnR5cGUgL1dpZGdldAovUmVjdCBbIDE5LjUgMjE5LjUgMjIwLjUgMjQwLjUgXQovUGFyZW50IDkgMCBSCi9QIDMgMCBSCi9NSyA8PAovQkcgWyAxIDEgMSBdCi9SIDAKL0JDIFsgMCAwIDAgXQo+PgovQlMgPDwKL1cgMQo+PgovRiA0Ci9BUCA8PAovTiAxNCAwIFIKPj4KPj4KZW5kb2JqCgoxMSAwIG9iago8PAovQkJveCBbIDAgMCAyMDEgMjEgXQovTWF0cml4IFsgMSAwIDAgMSAwIDAgXQovUmVzb3VyY2VzIDw8Ci9Gb250IDw8Ci9IZWx2ZXRpY2EgNyAwIFIKPj4KPj4KL1R5cGUgL1hPYmplY3QKL1N1YnR5cGUgL0Zvcm0KL0ZpbHRlciAvRmxhdGVEZWNvZGUKL0xlbmd0aCAxNTMKPj4Kc3RyZWFtCnicM1QwAEJDMJmcy2WIyi0EQkMFECxK5zIAiwa5A0XKuaJjgewUhHo9UzDGNAKNC6JApJGBQg6XkQESA0RncDlxBXIZKRgB1RgpGFoChQwtLREMI7CacK48Lv2QCgUnX2eg+5xCoC4DOlHfIzWnLLUkMzlRwdBUISQNbruRgqmeIUgol8vGTiEki8s1BGiRK9CAQC4Abp00AAplbmRzdHJlYW0KZW5kb2JqCgoxMiAwIG9iago8PAovVHlwZSAvRm9udAovU3VidHlwZSAvVHlwZTEKL0Jhc2VGb250IC9IZWx2ZXRpY2EKL0VuY29kaW5nIC9XaW5BbnNpRW5jb2RpbmcKPj4KZW5kb2JqCgoxMyAwIG9iago8PAovQkJveCBbIDAgMCAyMDEgMjEgXQovTWF0cml4IFsgMSAwIDAgMSAwIDAgXQovUmVzb3VyY2VzIDw8Ci9Gb250IDw8Ci9IZWx2ZXRpY2EgMTIgMCBSCj4+Cj4+Ci9UeXBlIC9YT2JqZWN0Ci9TdWJ0eXBlIC9Gb3JtCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTcwCj4+CnN0cmVhbQp4nGVOywrCQAy85yvyBe0mdiMF8dBS9eKhsuBBPEhtfdAKiqifb3YR64MhyWQYkiE0Cgq96oC+17OC0OOyAxPUxVSVO6zWyre9P7Kh/k/8rH74zgZbYPNB/NxDBiUwsnoYKVWJ0rQnHDxLOEHsHpjNc82XuVcyjRjP6vZWXw/VBsmia97fGW1EXupglJAkQmySXCZDESu5kAzEjtEdoXAaoNDDJTwBjqQ5FwplbmRzdHJlYW0KZW5kb2JqCgoxNCAwIG9iago8PAovQkJveCBbIDAgMCAyMDEgMjEgXQovTWF0cml4IFsgMSAwIDAgMSAwIDAgXQovUmVzb3VyY2VzIDw8Ci9Gb250IDw8Ci9IZWx2ZXRpY2EgMTIgMCBSCj4+Cj4+Ci9UeXBlIC9YT2JqZWN0Ci9TdWJ0eXBlIC9Gb3JtCi9GaWx0ZXIgL0ZsYXRlRGVjb2RlCi9MZW5ndGggMTczCj4+CnN0cmVhbQp4nGVOywrCQAy85yvyBXYTu6kF8dCHevFQWfAgHqTWF62giPr5ZotYHwxJJsOQDKFRUNvLBuh7PSsIPS47MK06n6hyh+VK+abz92xb/yd+Vj98Z4M1sPkgfu4hgQIYWT2MFKtEcdwRbj0LOEHgHpjMUs2XuFcyjRhMq/pWXQ/lGsmi276/M9oeeamBoZCEQqERGw2UZ5GRVCzn0pexZCN0R8idxsj1fAFP6us6eAplbmRzdHJlYW0KZW5kb2JqCgp4cmVmCjAgMTUKMDAwMDAwMDAwMCA2NTUzNSBmIAowMDAwMDAwMDE2IDAwMDAwIG4gCjAwMDAwMDAwNzYgMDAwMDAgbiAKMDAwMDAwMDE0MiAwMDAwMCBuIAowMDAwMDAwMzAyIDAwMDAwIG4gCjAwMDAwMDAzNDggMDAwMDAgbiAKMDAwMDAwMDUxNiAwMDAwMCBuIAowMDAwMDAwNzA3IDAwMDAwIG4gCjAwMDAwMDA4MDUgMDAwMDAgbiAKMDAwMDAwMTE1MiAwMDAwMCBuIAowMDAwMDAxMzM3IDAwMDAwIG4gCjAwMDAwMDE1MjkgMDAwMDAgbiAKMDAwMDAwMTg3NyAwMDAwMCBuIAowMDAwMDAxOTc2IDAwMDAwIG4gCjAwMDAwMDIzNDIgMDAwMDAgbiAKCnRyYWlsZXIKPDwKL1NpemUgMTUKL1Jvb3QgMiAwIFIKPj4KCnN0YXJ0eHJlZgoyNzExCiUlRU9G',
        bytes: 3078,
        pages: 1,
        fields_set: ['name', 'email'],
        unknown_fields: [],
        flattened: false,
        fields: [
          { name: 'name', type: 'text', value: 'Ada Lovelace' },
          { name: 'email', type: 'text', value: 'ada@example.com' },
        ],
      },
    },
  ],
})
