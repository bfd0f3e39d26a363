/** An episode's label in the edition's words (issue 25), apart from format.ts: the viewer needs this and no date or price code. */

/** Titles compared as a reader sees them: width forms, spaces and case do not count ("第 2 話" is "第2話"). */
const asRead = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase()

/**
 * An episode's label (issue 25: a label never repeats its own number): `full` ("Épisode 6 : Le retour") for a
 * titled episode, `numberLabel` alone ("Épisode 6") when the title is empty or is that label itself.
 */
export function episodeLabel(title: string, numberLabel: string, full: string): string {
  return isNumberLabel(title, numberLabel) ? numberLabel : full
}

/** Whether an episode's title says nothing but its number label ("第 2 話" for "第2話"), or nothing at all. */
export function isNumberLabel(title: string, numberLabel: string): boolean {
  return title.trim() === '' || asRead(title) === asRead(numberLabel)
}
