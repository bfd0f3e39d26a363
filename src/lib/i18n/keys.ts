/**
 * The message keys, as types: the keys of fr, the source catalogue (every other edition has the same keys,
 * tests/unit/editions.test.ts), read from its JSON files by the type checker only, so a mistyped key fails
 * `tsc` and `astro check` instead of showing the key to a reader. One import per file of
 * `editions/fr/messages/` (a test checks none is left out).
 */
import type account from '../../../editions/fr/messages/account.json'
import type age from '../../../editions/fr/messages/age.json'
import type auth from '../../../editions/fr/messages/auth.json'
import type catalogue from '../../../editions/fr/messages/catalogue.json'
import type community from '../../../editions/fr/messages/community.json'
import type errors from '../../../editions/fr/messages/errors.json'
import type roulette from '../../../editions/fr/messages/roulette.json'
import type ui from '../../../editions/fr/messages/ui.json'
import type viewer from '../../../editions/fr/messages/viewer.json'
import type wallet from '../../../editions/fr/messages/wallet.json'

type SourceKey = keyof (typeof account &
  typeof age &
  typeof auth &
  typeof catalogue &
  typeof community &
  typeof errors &
  typeof roulette &
  typeof ui &
  typeof viewer &
  typeof wallet) &
  string

/** A key whose wording depends on a number: i18next picks `<key>_<category>` from `count` (src/lib/i18n/plural.ts). */
export type PluralKey = SourceKey extends infer K ? (K extends `${infer Base}_other` ? Base : never) : never

/** One plural form of a plural key; each edition has the categories of its own language (ar: zero…other). */
export type PluralFormKey = `${PluralKey}_${Intl.LDMLPluralRule}`

/** What `t` accepts: every key of the source catalogue, a plural key by its base (`t('roulette.tickets', { count })`). */
export type MessageKey = Exclude<SourceKey, `${string}_${Intl.LDMLPluralRule}`> | PluralKey
