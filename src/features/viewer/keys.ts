/**
 * The viewer's keyboard shortcuts as a rule without I/O (spec §2 viewer): which command a key press gives in
 * the viewer's current state. `use-keys.ts` reads the event and runs the command; the help panel lists them.
 *
 * Arrows, space, PageUp/PageDown scroll (SCROLL) or turn pages (PAPER, in the series' reading direction); n / p
 * change episode; + / − zoom and 0 resets it (SCROLL, images only); a toggles auto-scroll and [ ] set its speed
 * (SCROLL); f fullscreen; ? opens the help; Esc stops auto-scroll.
 *
 * Keys act only while the reader is in the viewer (focus on the page itself or inside the viewer region), never
 * from a text field, a dialog (the dialog closes itself on Esc; ? closes the help) or the rest of the page;
 * the single-character keys can be switched off in the reading settings (WCAG 2.1.4).
 */
import { pageStep, type ReadingDirection } from './reading.ts'

/** Where the key was pressed: the viewer (or the page body), an open dialog, or elsewhere on the page. */
export type KeyPlace = 'viewer' | 'dialog' | 'outside'

/** The key press: its key and modifiers, whether it was already handled, and where it happened. */
export type KeyPress = {
  key: string
  shiftKey: boolean
  /** Ctrl, Meta or Alt held: the browser's shortcut, not the viewer's. */
  modified: boolean
  defaultPrevented: boolean
  /** In a text field, a select or editable content. */
  typing: boolean
  /** On a button, link, summary or input (space activates it). */
  onControl: boolean
  where: KeyPlace
}

export type KeyState = {
  helpOpen: boolean
  autoScroll: boolean
  paper: boolean
  isText: boolean
  direction: ReadingDirection
  /** The reader's setting: single-character shortcuts on. */
  letters: boolean
}

/** What a key asks for; every command is the viewer's (its default action is prevented). */
export type KeyCommand =
  | { do: 'stopAutoScroll' }
  | { do: 'toggleHelp' }
  | { do: 'episode'; dir: 1 | -1 }
  | { do: 'fullscreen' }
  | { do: 'zoom'; dir: 1 | -1 }
  | { do: 'resetZoom' }
  | { do: 'toggleAutoScroll' }
  | { do: 'speed'; dir: 1 | -1 }
  /** PAPER: turn by this many pages. */
  | { do: 'turn'; step: number }
  /** SCROLL: scroll by this fraction of the screen height. */
  | { do: 'scroll'; dy: number }

/** A single printable character (not space): the keys WCAG 2.1.4 lets a reader switch off. */
function isCharacterKey(key: string): boolean {
  return [...key].length === 1 && key !== ' '
}

/** The command of a key press, or null when the viewer leaves it to the browser. */
export function keyCommand(press: KeyPress, state: KeyState): KeyCommand | null {
  if (press.defaultPrevented || press.modified || press.where === 'outside') return null
  if (press.where === 'dialog') return press.key === '?' && state.helpOpen && state.letters && !press.typing ? { do: 'toggleHelp' } : null
  if (press.key === 'Escape') return state.autoScroll ? { do: 'stopAutoScroll' } : null
  if (press.typing) return null
  if (isCharacterKey(press.key) && !state.letters) return null
  const zoomable = !state.paper && !state.isText
  const scrolling = !state.paper
  let dy = 0
  switch (press.key) {
    case '?':
      return { do: 'toggleHelp' }
    case 'n':
    case 'N':
      return { do: 'episode', dir: 1 }
    case 'p':
    case 'P':
      return { do: 'episode', dir: -1 }
    case 'f':
    case 'F':
      return { do: 'fullscreen' }
    case '+':
    case '=':
      return zoomable ? { do: 'zoom', dir: 1 } : null
    case '-':
    case '_':
      return zoomable ? { do: 'zoom', dir: -1 } : null
    case '0':
      return zoomable ? { do: 'resetZoom' } : null
    case 'a':
    case 'A':
      return scrolling ? { do: 'toggleAutoScroll' } : null
    case '[':
      return scrolling ? { do: 'speed', dir: -1 } : null
    case ']':
      return scrolling ? { do: 'speed', dir: 1 } : null
    case 'ArrowDown':
      dy = 0.2
      break
    case 'ArrowUp':
      dy = -0.2
      break
    case 'PageDown':
      dy = 0.9
      break
    case 'PageUp':
      dy = -0.9
      break
    case ' ':
      if (press.onControl) return null
      dy = press.shiftKey ? -0.9 : 0.9
      break
    case 'ArrowLeft':
    case 'ArrowRight':
      if (state.paper) break
      return null
    default:
      return null
  }
  return state.paper ? { do: 'turn', step: pageStep(press.key, press.shiftKey, state.direction) } : { do: 'scroll', dy }
}
