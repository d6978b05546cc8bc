import { defineService, flat, t } from '../../runtime/sdk'
import { RATE_UNIT_ALIASES, rateUnitField } from '../_lib/finance'

const money = (description: string) => t.Number({ description })
const summary = t.Object({
  months: t.Union([t.Integer(), t.Null()], {
    description: 'Months to pay everything off (null if not within 1200 months).',
  }),
  total_interest: t.Union([t.Number(), t.Null()], {
    description: 'Total interest paid (null if not within 1200 months).',
  }),
})

export default defineService({
  slug: 'debt-payoff-planner',
  name: 'Debt payoff planner (snowball / avalanche)',
  description:
    'Month-by-month payoff plan for up to 50 debts with a fixed monthly budget = sum of minimum payments + extra_payment (minimums freed by paid-off debts roll over). Each month: interest accrues on every balance (balance × apr/12, rounded to cents), every debt gets its minimum (or what is left of it), and the rest goes to the target debt: "avalanche" (default) orders debts by highest APR first, "snowball" by smallest starting balance first (ties by the other key). Runs until everything is paid, at most 1200 months. Returns the full schedule, payoff month and interest per debt, payoff order, totals, and a snowball-vs-avalanche comparison. A budget that cannot cover the first month\'s interest is a 422. APRs are decimals (0.199 = 19.9 %) unless rate_unit is "percent".',
  category: 'finance',
  kind: 'utility',
  method: 'POST',
  pricing: flat(0.003),
  model: 'none',
  input: t.Object(
    {
      debts: t.Array(
        t.Object(
          {
            name: t.Optional(
              t.String({
                minLength: 1,
                maxLength: 100,
                description: 'Label, unique in the list (default "Debt 1", "Debt 2", …).',
              }),
            ),
            balance: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Current balance (> 0).' }),
            apr: t.Number({
              description: 'Annual percentage rate, compounded monthly (decimal 0 … 1; or percent with rate_unit).',
            }),
            min_payment: t.Number({ minimum: 0, maximum: 1e12, description: 'Minimum monthly payment (≥ 0).' }),
          },
          { additionalProperties: true },
        ),
        { minItems: 1, maxItems: 50, description: '1 to 50 debts.' },
      ),
      extra_payment: t.Optional(
        t.Number({
          minimum: 0,
          maximum: 1e12,
          default: 0,
          description: 'Monthly amount on top of the minimums (default 0).',
        }),
      ),
      strategy: t.Optional(
        t.Union([t.Literal('avalanche'), t.Literal('snowball')], {
          default: 'avalanche',
          description: '"avalanche" (default): highest APR first; "snowball": smallest balance first.',
        }),
      ),
      rate_unit: rateUnitField("the debts' apr values"),
    },
    { additionalProperties: true },
  ),
  aliases: {
    fields: {
      loans: 'debts',
      accounts: 'debts',
      extra: 'extra_payment',
      extra_monthly: 'extra_payment',
      method: 'strategy',
      'debts[].rate': 'apr',
      'debts[].interest_rate': 'apr',
      'debts[].interest': 'apr',
      'debts[].minimum_payment': 'min_payment',
      'debts[].minimum': 'min_payment',
      'debts[].min': 'min_payment',
      'debts[].payment': 'min_payment',
      'debts[].amount': 'balance',
      'debts[].principal': 'balance',
      'debts[].label': 'name',
    },
    values: RATE_UNIT_ALIASES,
  },
  output: t.Object({
    strategy: t.String({ description: 'Strategy used.' }),
    monthly_budget: money('Sum of minimum payments + extra_payment, paid every month until the last one.'),
    months_to_payoff: t.Integer({ description: 'Months until every debt is paid.' }),
    total_interest: money('Interest paid over the plan.'),
    total_paid: money('Total of all payments.'),
    payoff_order: t.Array(t.String(), { description: 'Debt names in the order they are paid off.' }),
    debts: t.Array(
      t.Object({
        name: t.String({ description: 'Debt name.' }),
        starting_balance: money('Balance at the start.'),
        apr: money('APR (decimal).'),
        min_payment: money('Minimum payment.'),
        payoff_month: t.Integer({ description: 'Month in which it is paid off (1-based).' }),
        interest_paid: money('Interest paid on this debt.'),
        total_paid: money('Total paid on this debt.'),
      }),
      { description: 'Per-debt results, in input order.' },
    ),
    schedule: t.Array(
      t.Object({
        month: t.Integer({ description: 'Month number, 1-based.' }),
        payment: money('Total paid this month.'),
        interest: money('Interest charged this month.'),
        principal: money('payment − interest.'),
        remaining_balance: money('Total balance after the payment.'),
        paid_off: t.Array(t.String(), { description: 'Debts paid off this month.' }),
      }),
      { description: 'Every month until payoff (at most 1200).' },
    ),
    comparison: t.Object(
      { avalanche: summary, snowball: summary },
      { description: 'Both strategies with the same budget.' },
    ),
  }),
  examples: [
    {
      name: 'Single card',
      input: { debts: [{ name: 'Card', balance: 1000, apr: 0.12, min_payment: 500 }] },
      output: {
        strategy: 'avalanche',
        monthly_budget: 500,
        months_to_payoff: 3,
        total_interest: 15.25,
        total_paid: 1015.25,
        payoff_order: ['Card'],
        debts: [
          {
            name: 'Card',
            starting_balance: 1000,
            apr: 0.12,
            min_payment: 500,
            payoff_month: 3,
            interest_paid: 15.25,
            total_paid: 1015.25,
          },
        ],
        schedule: [
          { month: 1, payment: 500, interest: 10, principal: 490, remaining_balance: 510, paid_off: [] },
          { month: 2, payment: 500, interest: 5.1, principal: 494.9, remaining_balance: 15.1, paid_off: [] },
          { month: 3, payment: 15.25, interest: 0.15, principal: 15.1, remaining_balance: 0, paid_off: ['Card'] },
        ],
        comparison: { avalanche: { months: 3, total_interest: 15.25 }, snowball: { months: 3, total_interest: 15.25 } },
      },
    },
  ],
})
