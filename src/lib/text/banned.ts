import { foldText } from './fold.ts'

/**
 * Spec §5 prohibited words (comments and nicknames): the first word found in `text`, also inside longer words,
 * both folded (`foldText`: case, fullwidth, invisible characters such as soft hyphens, confusable letters such as
 * Cyrillic lookalikes), so no spelling a reader reads as the word passes.
 */
export function bannedWordIn(text: string, bannedWords: readonly string[]): string | null {
  const folded = foldText(text)
  return (
    bannedWords.find((word) => {
      const w = foldText(word.trim())
      return w !== '' && folded.includes(w)
    }) ?? null
  )
}
