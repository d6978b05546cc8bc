import { DateTime } from 'luxon'
import { handlerFor, invalid } from '../../runtime/sdk'
import manifest from './manifest'

export default handlerFor(manifest, ({ value, unit = 'auto', to = 'all', timezone = 'UTC' }) => {
  let dt: DateTime
  let detected: 's' | 'ms' | 'iso'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid('value', 'must be a finite number')
    const ms = unit === 'ms' || (unit === 'auto' && Math.abs(value) >= 1e11)
    detected = ms ? 'ms' : 's'
    dt = DateTime.fromMillis(ms ? value : value * 1000, { zone: 'utc' })
  } else {
    detected = 'iso'
    dt = DateTime.fromISO(value.trim(), { zone: 'utc', setZone: true })
    if (!dt.isValid)
      throw invalid('value', `is not an ISO-8601 date-time (${dt.invalidExplanation ?? dt.invalidReason})`)
  }
  if (!dt.isValid) throw invalid('value', 'is outside the supported range (±8.64e15 ms)')
  const local = dt.setZone(timezone)
  if (!local.isValid) throw invalid('timezone', `unknown IANA time zone '${timezone}'`)
  const utc = dt.toUTC()
  const unix_ms = utc.toMillis()
  const forms = { iso: local.toISO()!, unix: unix_ms / 1000, unix_ms }
  return {
    result: to === 'all' ? forms.iso : forms[to],
    unix: unix_ms / 1000,
    unix_ms,
    iso_utc: utc.toISO()!,
    iso_local: forms.iso,
    timezone: local.zoneName ?? timezone,
    utc_offset: local.toFormat('ZZ'),
    utc_offset_minutes: local.offset,
    weekday: local.toFormat('cccc'),
    rfc2822: local.toRFC2822()!,
    detected_unit: detected,
  }
})
