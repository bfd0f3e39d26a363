import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  adultAuthentication,
  adultGate,
  audienceClass,
  audienceSees,
  calendarYears,
  yearNamer,
  checkBirthday,
  daysInMonth,
  isAdult,
  isKoreanIp,
  popupMode,
  safeReturnTo,
  todayIn,
  toggleAllowed,
  type AudienceFlags,
} from './age.ts'
import { ToggleValue } from './age.schema.ts'
import { parseEdition, EDITION_IDS, type Edition } from '../../lib/edition/schema.ts'
import fr from '../../../editions/fr/edition.json'
import de from '../../../editions/de/edition.json'
import th from '../../../editions/th/edition.json'
import tw from '../../../editions/tw/edition.json'
import jp from '../../../editions/jp/edition.json'
import kr from '../../../editions/kr/edition.json'
import ar from '../../../editions/ar/edition.json'
import type { AudienceClass } from '../../lib/cache.ts'

const raw = { fr, de, th, tw, jp, kr, ar }
const E = Object.fromEntries(EDITION_IDS.map((id) => [id, parseEdition(id, raw[id])])) as Record<(typeof EDITION_IDS)[number], Edition>

const NOW = new Date('2026-11-22T12:00:00Z')
/** Spec §4: the yes/no popup confirms "yes" with this fixed epoch date. */
const YES_NO_BIRTH_DATE = '1970-01-01'
/** Whole years from `birth` to `today` (both 'YYYY-MM-DD'), counted as people do: a year more once the day is reached. */
const yearsBetween = (birth: string, today: string) =>
  Number(today.slice(0, 4)) - Number(birth.slice(0, 4)) - (today.slice(5) < birth.slice(5) ? 1 : 0)
const adult = { isAdult: true, isKrIpUser: false, isAdultKr: false, birthedAt: '1990-05-01', adultVerifiedAt: '2026-10-23T00:00:00.000Z' }

describe('calendar dates', () => {
  it('accepts real dates only', () => {
    // twenty years on, a real birth date is an adult's; anything else is asked again
    const today = '2045-06-01'
    expect(checkBirthday('2024-02-29', E.fr, today)).toBe('adult')
    expect(checkBirthday('1990-05-01', E.fr, today)).toBe('adult')
    for (const bad of ['2023-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '', '1990-5-1', '1990-05-01T00:00'])
      expect(checkBirthday(bad, E.fr, today), bad).toBe('confirm')
    expect(daysInMonth(2024, 2)).toBe(29)
    expect(daysInMonth(2100, 2)).toBe(28)
  })

  it('counts age in whole years, a birthday counting on its day', () => {
    // fr: adult from 18
    expect(checkBirthday('2008-11-22', E.fr, '2026-11-22')).toBe('adult') // 18
    expect(checkBirthday('2008-11-23', E.fr, '2026-11-22')).toBe('confirm') // 17
    expect(checkBirthday('2008-02-29', E.fr, '2026-02-28')).toBe('confirm') // 17
    expect(checkBirthday('2008-02-29', E.fr, '2026-03-01')).toBe('adult') // 18
  })

  it("today is the edition's calendar day (Tokyo is already tomorrow)", () => {
    const late = new Date('2026-11-22T20:00:00Z')
    expect(todayIn('Europe/Paris', late)).toBe('2026-11-22')
    expect(todayIn('Asia/Tokyo', late)).toBe('2026-11-23')
  })

  it('offers this year and the 100 before it (spec §9)', () => {
    const years = calendarYears('2026-11-22')
    expect(years).toHaveLength(101)
    expect(years[0]).toBe(2026)
    expect(years.at(-1)).toBe(1926)
  })

  it('names the years as each edition counts them: the Buddhist era in th (issue 35 point 1)', () => {
    expect(yearNamer('th-TH')(2026)).toBe('2569')
    expect(yearNamer('th-TH')(1926)).toBe('2469')
    for (const locale of ['fr-FR', 'de-DE', 'ja-JP', 'ko-KR', 'zh-TW']) expect(yearNamer(locale)(2026)).toBe('2026')
  })
})

describe('birthday check of the popup (spec §5)', () => {
  it('empty, invalid, future, too old or under age → confirm; 18 today → adult', () => {
    const today = '2026-11-22'
    for (const b of [null, '', 'abc', '2027-01-01', '1900-01-01', '2008-11-23']) expect(checkBirthday(b, E.fr, today)).toBe('confirm')
    expect(checkBirthday('2008-11-22', E.fr, today)).toBe('adult')
  })

  it('kr counts from 19', () => {
    expect(checkBirthday('2008-11-22', E.kr, '2026-11-22')).toBe('confirm')
    expect(checkBirthday('2007-11-22', E.kr, '2026-11-22')).toBe('adult')
  })

  it('property: adult exactly when the age is between the edition age and 100', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2030 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), (y, m, d) => {
        const b = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
        const age = yearsBetween(b, '2026-11-22')
        expect(checkBirthday(b, E.fr, '2026-11-22') === 'adult').toBe(b <= '2026-11-22' && age >= 18 && age <= 100)
      }),
    )
  })
})

describe('isAdult per edition rule (spec §5)', () => {
  it('fr/de/ar: isAdult within a year of the verification', () => {
    for (const e of [E.fr, E.de, E.ar]) {
      expect(isAdult(e, adult, undefined, NOW)).toBe(true)
      expect(isAdult(e, { ...adult, isAdult: false }, undefined, NOW)).toBe(false)
      expect(isAdult(e, null, 'Y', NOW)).toBe(false)
    }
  })

  it('adult verification is valid 1 year (spec §4)', () => {
    const at = '2025-11-22T12:00:00.000Z'
    expect(isAdult(E.fr, { ...adult, adultVerifiedAt: at }, undefined, new Date('2026-11-22T11:59:59Z'))).toBe(true)
    expect(isAdult(E.fr, { ...adult, adultVerifiedAt: at }, undefined, new Date('2026-11-22T12:00:00Z'))).toBe(false)
    expect(isAdult(E.fr, { ...adult, adultVerifiedAt: 'garbage' }, undefined, NOW)).toBe(false)
    // callers that did not read the verification time, or accounts without one, keep the flag's answer
    expect(isAdult(E.fr, { ...adult, adultVerifiedAt: null }, undefined, NOW)).toBe(true)
    const { adultVerifiedAt: _, ...withoutTime } = adult
    expect(isAdult(E.fr, withoutTime, undefined, NOW)).toBe(true)
  })

  it('th/tw: the birth date must be present', () => {
    for (const e of [E.th, E.tw]) {
      expect(isAdult(e, adult, undefined, NOW)).toBe(true)
      expect(isAdult(e, { ...adult, birthedAt: null }, undefined, NOW)).toBe(false)
    }
    expect(isAdult(E.fr, { ...adult, birthedAt: null }, undefined, NOW)).toBe(true)
  })

  it('kr: a Korean-IP user also needs isAdultKr; others do not', () => {
    expect(isAdult(E.kr, { ...adult, isKrIpUser: true }, undefined, NOW)).toBe(false)
    expect(isAdult(E.kr, { ...adult, isKrIpUser: true, isAdultKr: true }, undefined, NOW)).toBe(true)
    expect(isAdult(E.kr, adult, undefined, NOW)).toBe(true)
    expect(isAdult(E.fr, { ...adult, isKrIpUser: true }, undefined, NOW)).toBe(true)
    expect(isKoreanIp('kr')).toBe(true)
    expect(isKoreanIp('FR')).toBe(false)
    expect(isKoreanIp(undefined)).toBe(false)
  })

  it('jp: a guest is adult with the not-logged-in-adult cookie at Y, never elsewhere', () => {
    expect(isAdult(E.jp, null, 'Y', NOW)).toBe(true)
    expect(isAdult(E.jp, null, 'N', NOW)).toBe(false)
    expect(isAdult(E.jp, null, undefined, NOW)).toBe(false)
    for (const id of ['fr', 'de', 'th', 'tw', 'kr', 'ar'] as const) expect(isAdult(E[id], null, 'Y', NOW)).toBe(false)
    // a member is judged by the account, not by the cookie
    expect(isAdult(E.jp, { ...adult, isAdult: false }, 'Y', NOW)).toBe(false)
  })
})

describe('audience classes (issue 11): one table, edition by edition', () => {
  const flags = (over: Partial<NonNullable<AudienceFlags>> = {}): AudienceFlags => ({
    ...adult,
    showAdult: true,
    isBlToggle: true,
    ...over,
  })
  const minorBirth = '2012-03-04'
  // [reader, jp cookie, expected class per edition fr de th tw jp kr ar]
  const rows: [string, AudienceFlags, string | undefined, Record<(typeof EDITION_IDS)[number], AudienceClass>][] = [
    ['guest', null, undefined, { fr: 'guest', de: 'guest', th: 'guest', tw: 'guest', jp: 'guest', kr: 'guest', ar: 'guest' }],
    [
      'guest with the adult cookie',
      null,
      'Y',
      { fr: 'guest', de: 'guest', th: 'guest', tw: 'guest', jp: 'guest-adult', kr: 'guest', ar: 'guest' },
    ],
    [
      'guest with a forged cookie value',
      null,
      'yes',
      { fr: 'guest', de: 'guest', th: 'guest', tw: 'guest', jp: 'guest', kr: 'guest', ar: 'guest' },
    ],
    ['verified adult', flags(), undefined, { fr: 'adult', de: 'adult', th: 'adult', tw: 'adult', jp: 'adult', kr: 'adult', ar: 'adult' }],
    [
      'verified adult, adult content off',
      flags({ showAdult: false }),
      undefined,
      { fr: 'adult-off', de: 'adult-off', th: 'adult-off', tw: 'adult-off', jp: 'adult-off', kr: 'adult-off', ar: 'adult-off' },
    ],
    [
      'member never checked',
      flags({ isAdult: false, birthedAt: null, adultVerifiedAt: null }),
      'Y',
      { fr: 'member', de: 'member', th: 'member', tw: 'member', jp: 'member', kr: 'member', ar: 'member' },
    ],
    [
      'check older than a year',
      flags({ adultVerifiedAt: '2025-11-01T00:00:00.000Z' }),
      undefined,
      { fr: 'member', de: 'member', th: 'member', tw: 'member', jp: 'member', kr: 'member', ar: 'member' },
    ],
    [
      'minor by birth date',
      flags({ isAdult: false, birthedAt: minorBirth }),
      undefined,
      { fr: 'minor', de: 'minor', th: 'minor', tw: 'minor', jp: 'minor', kr: 'minor', ar: 'minor' },
    ],
    [
      'adult flag without birth date',
      flags({ birthedAt: null }),
      undefined,
      { fr: 'adult', de: 'adult', th: 'member', tw: 'member', jp: 'adult', kr: 'adult', ar: 'adult' },
    ],
    [
      'Korean IP without phone check',
      flags({ isKrIpUser: true }),
      undefined,
      { fr: 'adult', de: 'adult', th: 'adult', tw: 'adult', jp: 'adult', kr: 'member', ar: 'adult' },
    ],
    [
      'Korean IP with phone check',
      flags({ isKrIpUser: true, isAdultKr: true }),
      undefined,
      { fr: 'adult', de: 'adult', th: 'adult', tw: 'adult', jp: 'adult', kr: 'adult', ar: 'adult' },
    ],
    [
      'adult with BL off',
      flags({ isBlToggle: false }),
      undefined,
      { fr: 'adult', de: 'adult', th: 'adult', tw: 'adult', jp: 'adult', kr: 'adult', ar: 'adult-nobl' },
    ],
    [
      'minor with BL off',
      flags({ isAdult: false, birthedAt: minorBirth, isBlToggle: false }),
      undefined,
      { fr: 'minor', de: 'minor', th: 'minor', tw: 'minor', jp: 'minor', kr: 'minor', ar: 'minor-nobl' },
    ],
  ]
  it.each(rows)('%s', (_name, reader, cookie, expected) => {
    for (const id of EDITION_IDS) expect(audienceClass(E[id], reader, cookie, NOW), id).toBe(expected[id])
  })

  it('what each class lists and what an adult-only page shows it', () => {
    expect(audienceSees('adult')).toEqual({ showAdult: true, showBl: true })
    expect(audienceSees('guest-adult')).toEqual({ showAdult: true, showBl: true })
    for (const c of ['guest', 'member', 'minor', 'adult-off'] as const) expect(audienceSees(c).showAdult, c).toBe(false)
    expect(audienceSees('adult-nobl')).toEqual({ showAdult: true, showBl: false })
    expect(adultGate(E.fr, 'guest')).toBe('login')
    expect(adultGate(E.jp, 'guest')).toBe('ageCheck') // the jp guest answers the yes/no popup
    expect(adultGate(E.fr, 'member')).toBe('ageCheck')
    expect(adultGate(E.fr, 'minor-nobl')).toBe('minor')
    expect(adultGate(E.fr, 'adult-off')).toBe('open')
    expect(adultGate(E.ar, 'adult-nobl')).toBe('open')
    expect(adultGate(E.jp, 'guest-adult')).toBe('open')
  })
})

describe('adult and BL switches (spec §5/§6)', () => {
  it('toggles: members only; BL only where the edition has it', () => {
    expect(toggleAllowed('adult', E.fr, false)).toBe('NOT_LOGIN_USER')
    expect(toggleAllowed('adult', E.fr, true)).toBe('ok')
    expect(toggleAllowed('bl', E.fr, true)).toBe('NOT_EXIST')
    expect(toggleAllowed('bl', E.ar, false)).toBe('NOT_LOGIN_USER')
    expect(toggleAllowed('bl', E.ar, true)).toBe('ok')
    expect(ToggleValue.parse('true')).toBe(true)
    expect(ToggleValue.parse('N')).toBe(false)
    expect(ToggleValue.safeParse('maybe').success).toBe(false)
  })
})

describe('adult authentication (spec §4)', () => {
  it('BIRTHDAY: a date at least adultAge years ago; nothing else', () => {
    expect(adultAuthentication(E.fr, null, '1990-05-01', NOW)).toEqual({ ok: true, birthedAt: '1990-05-01' })
    expect(adultAuthentication(E.fr, null, '2010-05-01', NOW).ok).toBe(false)
    expect(adultAuthentication(E.fr, null, undefined, NOW).ok).toBe(false)
    expect(adultAuthentication(E.fr, null, '1990-02-30', NOW).ok).toBe(false)
    expect(adultAuthentication(E.kr, null, '2008-01-01', NOW).ok).toBe(false) // 18 in kr is not adult
  })

  it('a birth date on the account cannot be replaced: a minor stays a minor', () => {
    expect(adultAuthentication(E.fr, '2011-10-12', '1990-05-01', NOW).ok).toBe(false)
    expect(adultAuthentication(E.fr, '2011-10-12', '2011-10-12', NOW).ok).toBe(false)
    expect(adultAuthentication(E.fr, '1990-05-01', '1990-05-01', NOW).ok).toBe(true)
    expect(adultAuthentication(E.jp, '2011-10-12', YES_NO_BIRTH_DATE, NOW).ok).toBe(false)
    expect(adultAuthentication(E.jp, '2011-10-12', undefined, NOW).ok).toBe(false)
  })

  it('YES_NO: "yes" confirms with the fixed epoch date', () => {
    expect(adultAuthentication(E.jp, null, undefined, NOW)).toEqual({ ok: true, birthedAt: YES_NO_BIRTH_DATE })
    expect(adultAuthentication(E.jp, null, YES_NO_BIRTH_DATE, NOW)).toEqual({ ok: true, birthedAt: YES_NO_BIRTH_DATE })
    expect(adultAuthentication(E.jp, '1990-05-01', undefined, NOW)).toEqual({ ok: true, birthedAt: '1990-05-01' })
    expect(adultAuthentication(E.jp, null, '2015-01-01', NOW).ok).toBe(false)
  })
})

describe('popup mode and return path', () => {
  const minor = { isAdult: false, isKrIpUser: false, isAdultKr: false }
  it('per edition and reader', () => {
    expect(popupMode(E.fr, null)).toBe('login')
    expect(popupMode(E.jp, null)).toBe('guestYesNo')
    expect(popupMode(E.jp, minor)).toBe('yesNo')
    expect(popupMode(E.fr, minor)).toBe('birthday')
    expect(popupMode(E.kr, { isAdult: true, isKrIpUser: true, isAdultKr: false })).toBe('krPhone')
    expect(popupMode(E.kr, { ...minor, isKrIpUser: true })).toBe('birthday')
  })
  it('returns only to own-site paths', () => {
    expect(safeReturnTo('/detail/3?x=1')).toBe('/detail/3?x=1')
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil', 'javascript:alert(1)', 42, null])
      expect(safeReturnTo(bad)).toBe('/')
  })
})
