/**
 * Age check and adult rules without I/O (spec §4 age check, §5 adult status and BL toggle, §6 events,
 * §9 adult age, calendar range and cookies). The one place that decides who is an adult and who may see
 * adult or BL series; catalogue, viewer and library delegate here. No dependency: the age popup island imports it.
 */
import type { AudienceBase, AudienceClass } from '../../lib/cache.ts'

/** The edition switches these rules read (editions/<id>/edition.json). */
export type AgeEdition = {
  /** BIRTHDAY picker or YES_NO question (spec §4). */
  adultCheckType: 'BIRTHDAY' | 'YES_NO'
  /** Age from which a reader is adult (spec §9: 18; kr 19). */
  adultAge: number
  /** kr: a Korean-IP user also needs isAdultKr (spec §5). */
  krAdultAuth: boolean
  /** {product}-me: the BL toggle applies (spec §5). */
  blToggle: boolean
  /** jp: a guest answering yes gets the not-logged-in-adult cookie (spec §4/§5). */
  notLoggedInAdultCookie: boolean
  /** th/tw: a birth date must be known for the reader to count as adult (spec §5). */
  adultNeedsBirthDate: boolean
  /** IANA time zone: a birthday counts from midnight in the edition's zone. */
  timeZone?: string
}

/** Spec §4/§5 (jp): the cookie a guest gets by answering "yes"; "Y" shows adult series. */
export const NOT_LOGGED_IN_ADULT_COOKIE = 'not-login-adult'
/** Spec §9: the adult popup cookie lives 86400 s (the jp guest answer is kept that long). */
export const ADULT_POPUP_COOKIE_SECONDS = 86_400
/** Spec §4/§9: adult verification is valid 1 year. */
const ADULT_VERIFICATION_YEARS = 1
/** Spec §9: the birthday calendar covers the past 100 years. */
const CALENDAR_YEARS = 100
/** Spec §4: the yes/no popup confirms "yes" with a fixed epoch date. */
const YES_NO_BIRTH_DATE = '1970-01-01'

/** A calendar date 'YYYY-MM-DD'. */
export type IsoDate = string

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** The date parts of a real calendar date, or null (2023-02-29, 2024-13-01 and '' are not dates). */
function parseIsoDate(value: string): { y: number; m: number; d: number } | null {
  const match = ISO_DATE.exec(value)
  if (!match) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null
  return { y, m, d }
}

/** Days of `month` (1–12) in `year`, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** Today's calendar date in `timeZone` (a birthday counts in the edition's zone, not the server's). */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): IsoDate {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timeZone ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/** Whole years between `birth` and `today`; someone born on 29 February turns a year older on 1 March. */
function ageOn(birth: IsoDate, today: IsoDate): number {
  const b = parseIsoDate(birth)
  const t = parseIsoDate(today)
  if (!b || !t) return -1
  const hadBirthday = t.m > b.m || (t.m === b.m && t.d >= b.d)
  return t.y - b.y - (hadBirthday ? 0 : 1)
}

/** The years the birthday picker offers: this year and the 100 before it, newest first (spec §9). */
export function calendarYears(today: IsoDate): number[] {
  const year = Number(today.slice(0, 4))
  return Array.from({ length: CALENDAR_YEARS + 1 }, (_, i) => year - i)
}

/**
 * The picker's name of a (Gregorian) year as the edition's readers count years: 2569 for 2026 in th (the Buddhist
 * era of th-TH's calendar), 2026 elsewhere. The picker's values stay Gregorian.
 */
export function yearNamer(locale: string): (year: number) => string {
  const f = new Intl.DateTimeFormat(locale, { year: 'numeric', timeZone: 'UTC' })
  return (year) => f.formatToParts(Date.UTC(year, 6, 1)).find((p) => p.type === 'year')?.value ?? String(year)
}

/**
 * Spec §5 birthday check of the popup: empty, not a date, in the future, older than the calendar's 100
 * years, or younger than the edition's adult age → 'confirm' (the popup shows "Merci de confirmer votre
 * date de naissance."); else 'adult'.
 */
export function checkBirthday(
  birth: string | null | undefined,
  edition: Pick<AgeEdition, 'adultAge'>,
  today: IsoDate,
): 'adult' | 'confirm' {
  if (!birth || !parseIsoDate(birth) || birth > today) return 'confirm'
  const age = ageOn(birth, today)
  return age >= edition.adultAge && age <= CALENDAR_YEARS ? 'adult' : 'confirm'
}

/** The reader's flags of spec §3 User that decide adult status (null: a guest). */
export type AdultFlags = {
  isAdult: boolean
  isKrIpUser: boolean
  isAdultKr: boolean
  birthedAt: string | null
  /**
   * When the adult verification happened: it counts for 1 year (spec §4). Absent or null (callers that do not
   * read it, accounts flagged adult before verification times were kept): the flag alone decides.
   */
  adultVerifiedAt?: string | null
} | null

/** End of an adult verification made at `verifiedAt`: one year later (spec §4/§9). */
function verificationExpiresAt(verifiedAt: string): Date {
  const end = new Date(verifiedAt)
  end.setUTCFullYear(end.getUTCFullYear() + ADULT_VERIFICATION_YEARS)
  return end
}

/**
 * Spec §5 adult status. A signed-in reader is adult when `isAdult` is true and
 * - the verification is less than a year old (spec §4; when its time is known),
 * - with Korean adult auth on (kr), a Korean-IP user also has `isAdultKr`,
 * - on editions that need a birth date (th, tw), the birth date is known.
 * A guest is adult only on editions with the not-logged-in-adult cookie (jp) when it says Y.
 */
export function isAdult(
  edition: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>,
  user: AdultFlags,
  adultCookie?: string | undefined,
  now: Date = new Date(),
): boolean {
  if (!user) return edition.notLoggedInAdultCookie && adultCookie === 'Y'
  if (!user.isAdult) return false
  if (user.adultVerifiedAt != null) {
    const end = verificationExpiresAt(user.adultVerifiedAt).getTime()
    if (Number.isNaN(end) || end <= now.getTime()) return false
  }
  if (edition.krAdultAuth && user.isKrIpUser && !user.isAdultKr) return false
  if (edition.adultNeedsBirthDate && user.birthedAt === null) return false
  return true
}

/**
 * Spec §6: an adult series opens to an adult reader only (`isAdult`; ADULT_ONLY_CONTENTS otherwise, which asks for
 * the age check), every other series to anyone. The one reading of that rule for the viewer, purchases, gifts and
 * wait-until-free unlocks.
 */
export const mayOpen = (seriesIsAdult: boolean, readerIsAdult: boolean): boolean => !seriesIsAdult || readerIsAdult

/** Spec §6: only logged-in readers toggle adult or BL; BL only where the edition has the toggle. */
export function toggleAllowed(
  kind: 'adult' | 'bl',
  edition: Pick<AgeEdition, 'blToggle'>,
  signedIn: boolean,
): 'ok' | 'NOT_LOGIN_USER' | 'NOT_EXIST' {
  if (kind === 'bl' && !edition.blToggle) return 'NOT_EXIST'
  return signedIn ? 'ok' : 'NOT_LOGIN_USER'
}

/**
 * Spec §4 adult authentication: the birth date that counts and whether it makes the reader adult.
 * - A birth date already on the account cannot be changed by declaring another (a minor stays a minor).
 * - YES_NO editions confirm "yes" with the fixed epoch date, unless the account already has a birth date.
 * - BIRTHDAY editions need a real date, over the past 100 years, at least `adultAge` years ago.
 * On refusal nothing is stored (INVALID_PARAMETER, the popup's "confirm your birth date").
 */
export function adultAuthentication(
  edition: Pick<AgeEdition, 'adultCheckType' | 'adultAge' | 'timeZone'>,
  stored: string | null,
  declared: string | undefined,
  now: Date = new Date(),
): { ok: true; birthedAt: IsoDate } | { ok: false; code: 'INVALID_PARAMETER' } {
  const today = todayIn(edition.timeZone, now)
  let birth: string | undefined
  if (edition.adultCheckType === 'YES_NO') {
    if (declared !== undefined && declared !== YES_NO_BIRTH_DATE && declared !== stored) return { ok: false, code: 'INVALID_PARAMETER' }
    birth = stored ?? YES_NO_BIRTH_DATE
    if (birth === YES_NO_BIRTH_DATE) return { ok: true, birthedAt: birth }
  } else {
    if (declared === undefined || (stored !== null && declared !== stored)) return { ok: false, code: 'INVALID_PARAMETER' }
    birth = declared
  }
  return checkBirthday(birth, edition, today) === 'adult' ? { ok: true, birthedAt: birth } : { ok: false, code: 'INVALID_PARAMETER' }
}

/**
 * What the age popup shows (spec §4): a guest on the jp edition answers yes/no (the cookie); any other guest
 * is asked to log in first (adult authentication belongs to an account); a Korean-IP member on kr who is
 * adult by birth date still needs the phone verification; else the edition's BIRTHDAY picker or YES_NO.
 */
export type PopupMode = 'birthday' | 'yesNo' | 'guestYesNo' | 'login' | 'krPhone'
export function popupMode(
  edition: Pick<AgeEdition, 'adultCheckType' | 'notLoggedInAdultCookie' | 'krAdultAuth'>,
  viewer: { isAdult: boolean; isKrIpUser: boolean; isAdultKr: boolean } | null,
): PopupMode {
  if (!viewer) return edition.notLoggedInAdultCookie ? 'guestYesNo' : 'login'
  if (edition.krAdultAuth && viewer.isKrIpUser && viewer.isAdult && !viewer.isAdultKr) return 'krPhone'
  return edition.adultCheckType === 'YES_NO' ? 'yesNo' : 'birthday'
}

/** Spec §5: a reader is a Korean-IP user when the edge reports the request's country as KR. */
export function isKoreanIp(country: string | null | undefined): boolean {
  return (country ?? '').toUpperCase() === 'KR'
}

/** Only own-site paths are places to return to after the popup (no open redirect). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/'
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\u0000-\u001f\\]/.test(value)) return '/'
  return value
}

// ───────────────────────────── audience classes (issue 11) ─────────────────────────────

/** The reader's row as the audience needs it: adult flags and the two switches (null: a guest). */
export type AudienceFlags = (NonNullable<AdultFlags> & { showAdult: boolean; isBlToggle: boolean }) | null

export function audienceClass(
  edition: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie' | 'blToggle' | 'adultAge' | 'timeZone'>,
  reader: AudienceFlags,
  adultCookie?: string | undefined,
  now: Date = new Date(),
): AudienceClass {
  if (!reader) return isAdult(edition, null, adultCookie, now) ? 'guest-adult' : 'guest'
  const base: AudienceBase = isAdult(edition, reader, undefined, now)
    ? reader.showAdult
      ? 'adult'
      : 'adult-off'
    : reader.birthedAt !== null &&
        reader.birthedAt !== YES_NO_BIRTH_DATE &&
        ageOn(reader.birthedAt, todayIn(edition.timeZone, now)) < edition.adultAge
      ? 'minor'
      : 'member'
  return edition.blToggle && !reader.isBlToggle ? (`${base}-nobl` as AudienceClass) : base
}

/** What a class may see in lists, search, ranking and detail pages. */
export function audienceSees(cls: AudienceClass): { showAdult: boolean; showBl: boolean } {
  const base = baseOf(cls)
  return { showAdult: base === 'adult' || base === 'guest-adult', showBl: base === cls }
}

const baseOf = (cls: AudienceClass) => cls.replace(/-nobl$/, '') as AudienceBase

/** Whether a class is a signed-in reader's: its pages may hold empty slots for the reader's personal part (issue 25 §5). */
export function isSignedInClass(cls: AudienceClass): boolean {
  return !baseOf(cls).startsWith('guest')
}

/**
 * What an adult-only page (a series, an adults-only event) shows each class (spec §4/§5/§8): the page itself
 * for adults (the adult-content switch only hides adult series from lists; a link followed on purpose opens,
 * as the viewer and the purchase do), the login route for a guest (on jp the guest's yes/no popup instead),
 * the age check popup for a member who only lacks it, a refusal for a minor.
 */
export function adultGate(
  edition: Pick<AgeEdition, 'notLoggedInAdultCookie'>,
  cls: AudienceClass,
): 'open' | 'login' | 'ageCheck' | 'minor' {
  const base = baseOf(cls)
  if (base === 'adult' || base === 'adult-off' || base === 'guest-adult') return 'open'
  if (base === 'guest') return edition.notLoggedInAdultCookie ? 'ageCheck' : 'login'
  return base === 'minor' ? 'minor' : 'ageCheck'
}
