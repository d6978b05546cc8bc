import {
  PDFButton,
  PDFCheckBox,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFSignature,
  PDFTextField,
  type PDFField,
} from 'pdf-lib'
import { invalid } from '../../runtime/sdk'

/** Most form fields a PDF may have (each one's appearance is redrawn: 8,000 fields took seconds). */
export const MAX_FORM_FIELDS = 1000

export type FieldValue = string | number | boolean
export type FieldType = 'text' | 'checkbox' | 'dropdown' | 'option_list' | 'radio' | 'button' | 'signature' | 'unknown'

export function fieldType(f: PDFField): FieldType {
  if (f instanceof PDFTextField) return 'text'
  if (f instanceof PDFCheckBox) return 'checkbox'
  if (f instanceof PDFDropdown) return 'dropdown'
  if (f instanceof PDFOptionList) return 'option_list'
  if (f instanceof PDFRadioGroup) return 'radio'
  if (f instanceof PDFButton) return 'button'
  if (f instanceof PDFSignature) return 'signature'
  return 'unknown'
}

/** The field's current value: text, check state, selected option(s), or null. */
export function readValue(f: PDFField): string | boolean | string[] | null {
  if (f instanceof PDFTextField) return f.getText() ?? ''
  if (f instanceof PDFCheckBox) return f.isChecked()
  if (f instanceof PDFDropdown || f instanceof PDFOptionList) return f.getSelected()
  if (f instanceof PDFRadioGroup) return f.getSelected() ?? null
  return null
}

const err = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200)

/** Sets one field; a value the field cannot take is a 422 on fields/<name>. */
export function fill(f: PDFField, name: string, value: FieldValue): void {
  const at = `/fields/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`
  if (f instanceof PDFTextField) {
    const text = String(value)
    const max = f.getMaxLength()
    if (max !== undefined && text.length > max)
      throw invalid(at, `is ${text.length} characters; the field allows at most ${max}`)
    try {
      f.setText(text)
    } catch (e) {
      throw invalid(at, `cannot be set: ${err(e)}`)
    }
  } else if (f instanceof PDFCheckBox) {
    const on =
      typeof value === 'boolean'
        ? value
        : /^(true|yes|on|1)$/i.test(String(value))
          ? true
          : /^(false|no|off|0|)$/i.test(String(value))
            ? false
            : undefined
    if (on === undefined) throw invalid(at, 'is a check box: give true or false')
    if (on) f.check()
    else f.uncheck()
  } else if (f instanceof PDFDropdown || f instanceof PDFOptionList || f instanceof PDFRadioGroup) {
    const v = String(value)
    const options = f.getOptions()
    const editable = f instanceof PDFDropdown && f.isEditable()
    if (!options.includes(v) && !editable)
      throw invalid(
        at,
        `must be one of: ${options
          .slice(0, 50)
          .map((o) => JSON.stringify(o))
          .join(', ')}`,
      )
    try {
      f.select(v)
    } catch (e) {
      throw invalid(at, `cannot be set: ${err(e)}`)
    }
  } else {
    throw invalid(at, `is a ${fieldType(f)} field, which cannot be filled`)
  }
}
