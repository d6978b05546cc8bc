import { handlerFor, ServiceError } from '../../runtime/sdk'
import { checkBic, checkIban } from './lib'
import manifest from './manifest'

export default handlerFor(manifest, (input) => {
  if (input.iban === undefined && input.bic === undefined) {
    throw new ServiceError(422, 'INVALID_INPUT', 'Give an iban, a bic, or both.', {
      details: [
        { path: '/iban', message: 'iban or bic required' },
        { path: '/bic', message: 'iban or bic required' },
      ],
    })
  }
  const iban = input.iban !== undefined ? checkIban(input.iban) : null
  const bic = input.bic !== undefined ? checkBic(input.bic) : null
  const countryMatch = iban?.country && bic?.valid ? iban.country === bic.country : null
  return { iban, bic, country_match: countryMatch, valid: (iban?.valid ?? true) && (bic?.valid ?? true) }
})
