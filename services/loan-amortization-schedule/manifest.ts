import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const money = (description: string) => t.Number({ description })
const row = t.Object({
  period: t.Integer({ description: 'Payment number, 1-based.' }),
  date: t.Union([t.String(), t.Null()], { description: 'Due date YYYY-MM-DD (null without start_date).' }),
  payment: money('Total paid this month (scheduled payment + extra; the last payment only what is owed).'),
  interest: money('Interest part: balance × apr/12, rounded to cents.'),
  principal: money('Principal repaid, including the extra payment.'),
  extra: money('Extra principal paid this month.'),
  balance: money('Balance after the payment.'),
})

export default defineService({
  slug: 'loan-amortization-schedule',
  name: 'Loan amortization schedule',
  description:
    'Fixed-rate loan with monthly payments: the standard annuity payment P·i/(1 − (1+i)^−n) with i = apr/12 and n = term_years·12, rounded to cents; a complete month-by-month schedule (interest rounded to cents each month, final payment adjusted to clear the balance), totals, and payoff date. `extra_payment` is added to every payment as principal and shortens the term (interest and months saved are reported). `start_date` is the loan date; payment k is due k months later (day clamped to month end). apr is a decimal (0.065 = 6.5 %) unless rate_unit is "percent". At most 1200 monthly periods (100 years); a 30-year loan gives 360 rows.',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      principal: t.Number({ exclusiveMinimum: 0, maximum: 1e11, description: 'Amount borrowed (> 0).' }),
      apr: t.Number({
        description:
          'Nominal annual rate, compounded monthly (decimal 0 … 1, i.e. 0 … 100 %; or percent with rate_unit).',
      }),
      term_years: t.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description:
          'Term in years; term_years × 12 must be a whole number of months (e.g. 30, 15, 2.5). At most 100 (1200 months).',
      }),
      extra_payment: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e11,
          default: 0,
          description: 'Extra principal paid with every monthly payment. Default 0.',
        }),
      ),
      start_date: t.Optional(
        t.String({
          maxLength: 10,
          description:
            'Loan start date YYYY-MM-DD; the first payment is due one month later. Gives payment dates and payoff_date.',
        }),
      ),
      rate_unit: rateUnitField('apr'),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      amount: 'principal',
      loan_amount: 'principal',
      loan: 'principal',
      rate: 'apr',
      interest_rate: 'apr',
      annual_rate: 'apr',
      years: 'term_years',
      term: 'term_years',
      loan_term: 'term_years',
      extra: 'extra_payment',
    },
    values: RATE_UNIT_ALIASES,
  },
  output: t.Object({
    monthly_payment: money('Scheduled monthly payment (principal + interest), rounded to cents, without extra.'),
    monthly_payment_exact: money('The annuity formula before rounding.'),
    scheduled_months: t.Integer({ description: 'term_years × 12.' }),
    months_to_payoff: t.Integer({ description: 'Number of payments actually made (fewer with extra_payment).' }),
    total_paid: money('Sum of all payments.'),
    total_interest: money('Sum of all interest.'),
    total_extra: money('Sum of extra principal paid.'),
    interest_saved: money('Interest saved by extra_payment versus the scheduled loan (0 without extra).'),
    months_saved: t.Integer({ description: 'Months saved by extra_payment.' }),
    first_payment_date: t.Union([t.String(), t.Null()], { description: 'YYYY-MM-DD, null without start_date.' }),
    payoff_date: t.Union([t.String(), t.Null()], { description: 'Date of the last payment, null without start_date.' }),
    apr: money('apr as a decimal.'),
    monthly_rate: money('apr/12.'),
    schedule: t.Array(row, { description: 'Every payment, in order (at most 1200 rows).' }),
  }),
  examples: [
    {
      name: 'Short loan',
      input: { principal: 1000, apr: 0.12, term_years: 0.25, start_date: '2025-01-31' },
      output: {
        monthly_payment: 340.02,
        monthly_payment_exact: 340.0221,
        scheduled_months: 3,
        months_to_payoff: 3,
        total_paid: 1020.07,
        total_interest: 20.07,
        total_extra: 0,
        interest_saved: 0,
        months_saved: 0,
        first_payment_date: '2025-02-28',
        payoff_date: '2025-04-30',
        apr: 0.12,
        monthly_rate: 0.01,
        schedule: [
          {
            period: 1,
            date: '2025-02-28',
            payment: 340.02,
            interest: 10,
            principal: 330.02,
            extra: 0,
            balance: 669.98,
          },
          {
            period: 2,
            date: '2025-03-31',
            payment: 340.02,
            interest: 6.7,
            principal: 333.32,
            extra: 0,
            balance: 336.66,
          },
          { period: 3, date: '2025-04-30', payment: 340.03, interest: 3.37, principal: 336.66, extra: 0, balance: 0 },
        ],
      },
    },
  ],
})
