/**
 * The address form of spec §3 (city, name, zipCode, address1, address2, phone, country — 29 European countries
 * with dial codes), asked by the coin shop for invoices. Country names come from `Intl.DisplayNames` in the
 * edition's locale, so no catalogue key is needed per country.
 */
import { z } from 'zod'

/** The 29 countries (EU 27, United Kingdom, Switzerland), ISO 3166-1 alpha-2, with their dial codes. */
const COUNTRIES = [
  ['AT', '+43'],
  ['BE', '+32'],
  ['BG', '+359'],
  ['HR', '+385'],
  ['CY', '+357'],
  ['CZ', '+420'],
  ['DK', '+45'],
  ['EE', '+372'],
  ['FI', '+358'],
  ['FR', '+33'],
  ['DE', '+49'],
  ['GR', '+30'],
  ['HU', '+36'],
  ['IE', '+353'],
  ['IT', '+39'],
  ['LV', '+371'],
  ['LT', '+370'],
  ['LU', '+352'],
  ['MT', '+356'],
  ['NL', '+31'],
  ['PL', '+48'],
  ['PT', '+351'],
  ['RO', '+40'],
  ['SK', '+421'],
  ['SI', '+386'],
  ['ES', '+34'],
  ['SE', '+46'],
  ['GB', '+44'],
  ['CH', '+41'],
] as const satisfies readonly (readonly [string, `+${number}`])[]
export type CountryCode = (typeof COUNTRIES)[number][0]

const CODES = COUNTRIES.map(([c]) => c) as [CountryCode, ...CountryCode[]]

/** The dial code of a country of the list. */
export function dialCode(country: CountryCode): string {
  return COUNTRIES.find(([c]) => c === country)![1]
}

/** The countries with their names in `locale`, sorted by name. */
export function countryOptions(locale: string): { code: CountryCode; dial: string; name: string }[] {
  const names = new Intl.DisplayNames([locale], { type: 'region' })
  return COUNTRIES.map(([code, dial]) => ({ code, dial, name: names.of(code) ?? code })).sort((a, b) =>
    a.name.localeCompare(b.name, locale),
  )
}

const text = (max: number) => z.string().trim().min(1).max(max)

/**
 * The form's fields. `phone` is the local number (digits, spaces, dots, dashes, parentheses; 4–20 characters),
 * stored with the country's dial code in front; a number already starting with `+` must start with that code.
 */
export const AddressRequest = z
  .object({
    name: text(100),
    city: text(100),
    zipCode: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 -]{2,12}$/),
    address1: text(200),
    address2: z.string().trim().max(200).optional().default(''),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9 ().-]{4,20}$/),
    country: z.enum(CODES),
  })
  .refine((a) => !a.phone.startsWith('+') || a.phone.replace(/[ ().-]/g, '').startsWith(dialCode(a.country)), {
    path: ['phone'],
    message: 'dial code of another country',
  })
export type AddressRequest = z.infer<typeof AddressRequest>

/** The phone as stored: dial code + digits (E.164-like). */
export function normalizePhone(phone: string, country: CountryCode): string {
  const digits = phone.replace(/[^0-9]/g, '')
  const dial = dialCode(country)
  return phone.trim().startsWith('+') ? `+${digits}` : `${dial}${digits.replace(/^0+/, '')}`
}

export type Address = {
  name: string
  city: string
  zipCode: string
  address1: string
  address2: string | null
  phone: string
  country: CountryCode
}
