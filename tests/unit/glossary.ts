/** Each edition's glossary (`editions/<id>/glossary.json`, issue 25 "one word per thing") and its matching rule, for the catalogue test and the demo-text test. */
import { readFileSync } from 'node:fs'

export type Term = { words: string[]; not: string[] }

/** currency and mileage in every edition; an edition may name more things (de: episode, not "Folge"). */
export const glossary = (id: string) =>
  JSON.parse(readFileSync(new URL(`../../editions/${id}/glossary.json`, import.meta.url), 'utf8')) as Record<'currency' | 'mileage', Term> &
    Record<string, Term | string>

/** Latin-script synonyms match at a word start (a capitalised one only capitalised), other scripts anywhere. */
export const finds = (synonym: string) =>
  /^[\p{Script=Latin}\s-]+$/u.test(synonym)
    ? new RegExp(`(?<![\\p{L}])${synonym}`, /^\p{Lu}/u.test(synonym) ? 'u' : 'iu')
    : new RegExp(synonym, 'u')

/** The glossary's things of an edition (currency, mileage, …) with their terms. */
export const terms = (id: string): [string, Term][] =>
  Object.entries(glossary(id)).filter((e): e is [string, Term] => !e[0].startsWith('$'))
