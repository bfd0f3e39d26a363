/** The age popup's texts for the page shell (rendered once into `#age-popup`, read by the lazy island). */
import type { AgeLabels } from './AgePopup.tsx'
import type { Translate } from '../../lib/i18n/i18n.ts'
import type { PluralKey } from '../../lib/i18n/keys.ts'
import type { Plural } from '../../lib/i18n/plural.ts'

export function ageLabels(t: Translate, plural: (key: PluralKey, params: Record<string, unknown>) => Plural): AgeLabels {
  return {
    title: t('age.title'),
    introBirthday: t('age.introBirthday'),
    introYesNo: plural('age.introYesNo', { count: '{count}' }),
    year: t('age.year'),
    month: t('age.month'),
    day: t('age.day'),
    selected: t('age.selected', { date: '{date}' }),
    confirm: t('age.confirm'),
    cancel: t('age.cancel'),
    yes: t('age.yes'),
    no: t('age.no'),
    invalid: t('age.invalid'),
    loginText: t('age.loginText'),
    loginButton: t('age.loginButton'),
    krText: t('age.krText'),
    krAgree: t('age.kr.agree'),
    krStart: t('age.kr.start'),
    failed: t('age.failed'),
    close: t('age.close'),
    loading: t('age.loading'),
  }
}
