/**
 * The `payment-identifier` extension as runtime/pay/server/payment-id.ts writes it (without the package's module, which
 * loads ajv at boot) is the package's own: the same declaration, constants, extraction and format check.
 */
import { expect, test } from 'bun:test'
import * as official from '@x402/extensions/payment-identifier'
import {
  extractPaymentIdentifier,
  isValidPaymentId,
  PAYMENT_ID_MAX_LENGTH,
  PAYMENT_ID_MIN_LENGTH,
  PAYMENT_IDENTIFIER,
  PAYMENT_IDENTIFIER_DECLARATION,
} from '../../runtime/pay/server/payment-id'

test('the declaration and the constants are the package’s', () => {
  expect(PAYMENT_IDENTIFIER).toBe(official.PAYMENT_IDENTIFIER)
  expect(PAYMENT_ID_MIN_LENGTH).toBe(official.PAYMENT_ID_MIN_LENGTH)
  expect(PAYMENT_ID_MAX_LENGTH).toBe(official.PAYMENT_ID_MAX_LENGTH)
  expect(PAYMENT_IDENTIFIER_DECLARATION).toEqual({
    [official.PAYMENT_IDENTIFIER]: official.declarePaymentIdentifierExtension(false),
  })
})

test('the format check and the extraction agree with the package on good, bad and odd input', () => {
  const ids: unknown[] = [
    'pay_0123456789abcdef',
    'a'.repeat(15),
    'a'.repeat(16),
    'a'.repeat(128),
    'a'.repeat(129),
    'with space 0123456789',
    'dots.are.not.allowed.x',
    'ünïcode-0123456789ab',
    '0123456789abcdef\n',
    '',
    42,
    null,
    undefined,
    { id: 'x' },
  ]
  for (const id of ids) expect([id, isValidPaymentId(id)]).toEqual([id, official.isValidPaymentId(id as string)])
  const payloads: unknown[] = [
    {},
    { extensions: undefined },
    { extensions: {} },
    { extensions: { [PAYMENT_IDENTIFIER]: null } },
    { extensions: { [PAYMENT_IDENTIFIER]: 'x' } },
    { extensions: { [PAYMENT_IDENTIFIER]: {} } },
    { extensions: { [PAYMENT_IDENTIFIER]: { info: 'x' } } },
    { extensions: { [PAYMENT_IDENTIFIER]: { info: { id: 7 } } } },
    { extensions: { [PAYMENT_IDENTIFIER]: { info: { id: 'short' } } } },
    { extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false, id: 'pay_0123456789abcdef' } } } },
  ]
  for (const p of payloads)
    expect([p, extractPaymentIdentifier(p as never)]).toEqual([p, official.extractPaymentIdentifier(p as never, false)])
})
