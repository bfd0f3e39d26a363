/**
 * Panels a screen reader can read (issue 14 part 5): per slice, an optional transcript — its speech balloons,
 * captions and sound effects in reading order. One shape for the import format (`npm run ops -- import`), the
 * seed, the D1 column `episode_images.transcript` (JSON) and the viewer. The island imports only the types
 * (no zod in the browser bundle).
 */
import { z } from 'zod'

/** speech: a balloon (with its speaker when known); caption: a narration box; sfx: a drawn sound. */
const TRANSCRIPT_KINDS = ['speech', 'caption', 'sfx'] as const

export const TranscriptLine = z
  .object({
    kind: z.enum(TRANSCRIPT_KINDS),
    speaker: z.string().trim().min(1).max(100).optional(),
    text: z.string().trim().min(1).max(2000),
  })
  .strict()
export type TranscriptLine = z.infer<typeof TranscriptLine>

/** One slice's lines, in reading order. */
export const SliceTranscript = z.array(TranscriptLine).max(100)

/** The value stored in D1: JSON of the lines, or null when the slice has none (an empty list is none). */
export function transcriptJson(lines: readonly TranscriptLine[] | null | undefined): string | null {
  return lines && lines.length > 0 ? JSON.stringify(lines) : null
}

/**
 * Lines from the D1 column: null when absent, or when the stored value is not a valid transcript (a bad row
 * written by hand shows as no transcript, never as an error page).
 */
export function parseTranscript(raw: string | null | undefined): TranscriptLine[] | null {
  if (!raw) return null
  try {
    const parsed = SliceTranscript.safeParse(JSON.parse(raw))
    return parsed.success && parsed.data.length > 0 ? parsed.data : null
  } catch {
    return null
  }
}

/** Whether any slice carries a transcript (the viewer then offers its toggle; the JSON-LD declares it). */
export function hasTranscript(slices: readonly { transcript?: readonly TranscriptLine[] | null }[]): boolean {
  return slices.some((s) => (s.transcript?.length ?? 0) > 0)
}

/** The whole transcript as plain text, one line per balloon, slice after slice (`speaker: text` for speech). */
export function transcriptText(slices: readonly { transcript?: readonly TranscriptLine[] | null }[]): string {
  return slices
    .flatMap((s) => s.transcript ?? [])
    .map((l) => (l.kind === 'speech' && l.speaker ? `${l.speaker}: ${l.text}` : l.text))
    .join('\n')
}
