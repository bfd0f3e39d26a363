/**
 * Panels a screen reader can read (issue 14 part 5). Each slice with a transcript carries it right after its
 * image, in the server HTML: visually hidden but read in order by a screen reader (image description, then
 * its balloons), before and without hydration. The toggle (a pressed/unpressed button, remembered with the
 * reading settings) shows the same text to everyone: beside each slice on wide screens, below it otherwise.
 */
import type { TranscriptLine } from '../catalogue/transcript.ts'

export type TranscriptLabels = {
  /** The toggle's name. */
  transcript: string
  /** Name of the region holding the slices and their transcripts. */
  transcriptRegion: string
  /** "{who} : {text}" — one line of the transcript. */
  transcriptLine: string
  /** `who` of a narration box, of a sound effect, of a balloon without a known speaker. */
  transcriptCaption: string
  transcriptSfx: string
  transcriptVoice: string
}

/** Id of the element the toggle controls (the strip's wrapper). */
export const TRANSCRIPT_REGION_ID = 'viewer-strip'

export function TranscriptToggle({ on, onToggle, label }: { on: boolean; onToggle: () => void; label: string }) {
  return (
    <p className="viewer-transcript-bar">
      <button
        type="button"
        className="btn btn-secondary viewer-transcript-toggle"
        aria-pressed={on}
        aria-controls={TRANSCRIPT_REGION_ID}
        onClick={onToggle}
      >
        <svg
          aria-hidden="true"
          focusable="false"
          width="20"
          height="20"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <path d="M4 5h16v11H9l-5 4z" />
          <path d="M8 9h8M8 12h5" />
        </svg>
        {label}
      </button>
    </p>
  )
}

function Line({ line, labels }: { line: TranscriptLine; labels: TranscriptLabels }) {
  const who =
    line.kind === 'speech'
      ? (line.speaker ?? labels.transcriptVoice)
      : line.kind === 'caption'
        ? labels.transcriptCaption
        : labels.transcriptSfx
  return (
    <p className={`viewer-tr-line viewer-tr-${line.kind}`}>
      {labels.transcriptLine
        .split(/(\{who\}|\{text\})/)
        .map((part, i) => (part === '{who}' ? <b key={i}>{who}</b> : part === '{text}' ? <span key={i}>{line.text}</span> : part))}
    </p>
  )
}

/**
 * One slice's transcript, after its image. The image description is repeated for sighted readers only (a
 * screen reader already heard it as the image's alt text). `dir="auto"`: the text keeps its own direction
 * even inside a page-mode strip laid out in the series' reading direction.
 */
export function SliceTranscript({ alt, lines, labels }: { alt: string; lines: TranscriptLine[]; labels: TranscriptLabels }) {
  return (
    <div className="viewer-transcript" dir="auto">
      {alt && (
        <p className="viewer-tr-alt" aria-hidden="true">
          {alt}
        </p>
      )}
      {lines.map((line, i) => (
        <Line key={i} line={line} labels={labels} />
      ))}
    </div>
  )
}
