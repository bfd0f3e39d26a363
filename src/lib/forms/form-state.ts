/**
 * A refused plain form as its page shows it again (issue 25 point 3): the `?error=` code, the flash the form
 * route left (src/lib/forms/flash.ts, read once, then deleted), the specific message, and the attributes that tie
 * the field concerned to it (`aria-invalid`, `aria-describedby`, `autofocus`: focus lands on it without JavaScript).
 */
import type { AstroGlobal } from 'astro'
import { isErrorCode, type ErrorCode } from '../errors/catalogue.ts'
import { edition, t } from '../i18n/page.ts'
import { localMonth } from '../time.ts'
import { FLASH_COOKIE, readFlash, type Flash } from './flash.ts'

/**
 * The message of a refusal: the specific one its flash allows (a mismatch, terms, tries left, or the form's own
 * `invalid` message for the field an INVALID_PARAMETER names), else the code's.
 */
function messageOf(code: ErrorCode, flash: Flash | null, invalid: Readonly<Record<string, string>>): string {
  if (code === 'INVALID_PARAMETER' && flash?.field && invalid[flash.field]) return invalid[flash.field]!
  if (flash?.attemptsLeft !== undefined)
    return flash.attemptsLeft > 0 ? t('auth.form.wrongCode', { count: flash.attemptsLeft }) : t('auth.form.noTriesLeft')
  if (code === 'INCORRECT_PASSWORD' && flash?.field?.endsWith('Confirm')) return t('auth.form.passwordMismatch')
  if (code === 'INVALID_PARAMETER' && flash?.field === 'agreeTerms') return t('auth.form.termsRequired')
  // the month the limit counts ends for every reader of the edition at once: the page knows when without the refusal
  if (code === 'SPENDING_LIMIT_REACHED')
    return t('error.SPENDING_LIMIT_REACHED', { resetsAt: localMonth(new Date(), edition.timeZone).next })
  return t(`error.${code}`)
}

export type FormState = ReturnType<typeof formState>

/**
 * The page's form after a refusal; `fields`: the names of the fields it shows (another field's error goes on top);
 * `invalid`: the form's specific message per field for an INVALID_PARAMETER (e.g. "choose a category").
 */
export function formState(astro: AstroGlobal, fields: readonly string[], invalid: Readonly<Record<string, string>> = {}) {
  const raw = astro.url.searchParams.get('error')
  const code = raw && isErrorCode(raw) ? raw : null
  const flash = readFlash(astro.cookies.get(FLASH_COOKIE)?.value, code)
  if (astro.cookies.has(FLASH_COOKIE)) astro.cookies.delete(FLASH_COOKIE, { path: astro.url.pathname })
  const message = code ? messageOf(code, flash, invalid) : null
  const field = flash?.field && fields.includes(flash.field) ? flash.field : null
  return {
    code,
    message,
    /** The message shown above the form (none when it stands beside its field). */
    formMessage: field ? null : message,
    field,
    /** The id of the long values kept server-side (`takeDraft`), if any. */
    draft: flash?.draft,
    /** A kept value ('' when none). */
    value: (name: string) => flash?.values[name] ?? '',
    /** A kept checkbox was ticked. */
    checked: (name: string) => flash?.values[name] !== undefined,
    /** The field's attributes: `id` is the input's; `hint` an id it is already described by. */
    attrs: (name: string, id: string, hint?: string) =>
      name === field
        ? { 'aria-invalid': 'true' as const, 'aria-describedby': [`${id}-error`, hint].filter(Boolean).join(' '), autofocus: true }
        : { 'aria-describedby': hint },
  }
}
