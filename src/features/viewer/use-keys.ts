/**
 * The viewer's keyboard shortcuts (the rule is `keyCommand` in keys.ts): one keydown listener that runs the
 * command a key gives, with the default action prevented.
 */
import { useEffect, useEffectEvent, type Dispatch, type SetStateAction } from 'react'
import { keyCommand, type KeyPlace } from './keys.ts'
import type { ReadingDirection } from './reading.ts'

/** The f key and the fullscreen tool: the whole page fullscreen, or back. */
export function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined)
  else void document.documentElement.requestFullscreen?.().catch(() => undefined)
}

/**
 * Where a key was pressed: an open dialog; the viewer (inside the viewer region `[data-viewer]`, or on an
 * element holding it: the page body, `main` after a click on the episode); or elsewhere on the page.
 */
function placeOf(target: EventTarget | null): KeyPlace {
  const el = target instanceof Element ? target : null
  if (el?.closest('dialog, [role="dialog"], [role="alertdialog"]')) return 'dialog'
  const viewer = document.querySelector('[data-viewer]')
  return !el || !viewer || el.contains(viewer) || viewer.contains(el) ? 'viewer' : 'outside'
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))
}

type Options = {
  helpOpen: boolean
  setHelpOpen: Dispatch<SetStateAction<boolean>>
  /** The reader's setting: single-character shortcuts on. */
  letters: boolean
  autoScroll: boolean
  toggleAutoScroll: () => void
  stopAutoScroll: () => void
  stepSpeed: (dir: 1 | -1) => void
  paper: boolean
  isText: boolean
  direction: ReadingDirection
  /** PAPER: turn by `step` pages. */
  turn: (step: number) => void
  zoomBy: (dir: 1 | -1) => void
  applyZoom: (zoom: number) => void
  /** n / p: the next or previous episode (read when the key is pressed). */
  goEpisode: (dir: 1 | -1) => void
}

export function useKeys(o: Options) {
  const {
    helpOpen,
    setHelpOpen,
    letters,
    autoScroll,
    toggleAutoScroll,
    stopAutoScroll,
    stepSpeed,
    paper,
    isText,
    direction,
    turn,
    zoomBy,
    applyZoom,
  } = o
  const goEpisode = useEffectEvent((dir: 1 | -1) => o.goEpisode(dir))

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      const command = keyCommand(
        {
          key: e.key,
          shiftKey: e.shiftKey,
          modified: e.ctrlKey || e.metaKey || e.altKey,
          defaultPrevented: e.defaultPrevented,
          typing: isTyping(e.target),
          onControl: !!target?.closest?.('button, a, summary, input'),
          where: placeOf(e.target),
        },
        { helpOpen, autoScroll, paper, isText, direction, letters },
      )
      if (!command) return
      e.preventDefault()
      switch (command.do) {
        case 'stopAutoScroll':
          stopAutoScroll()
          return
        case 'toggleHelp':
          setHelpOpen((open) => !open)
          return
        case 'episode':
          goEpisode(command.dir)
          return
        case 'fullscreen':
          toggleFullscreen()
          return
        case 'zoom':
          zoomBy(command.dir)
          return
        case 'resetZoom':
          applyZoom(1)
          return
        case 'toggleAutoScroll':
          toggleAutoScroll()
          return
        case 'speed':
          stepSpeed(command.dir)
          return
        case 'turn':
          turn(command.step)
          return
        case 'scroll':
          scrollBy({ top: Math.round(innerHeight * command.dy), behavior: 'auto' })
      }
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [
    helpOpen,
    letters,
    autoScroll,
    paper,
    isText,
    direction,
    turn,
    zoomBy,
    applyZoom,
    setHelpOpen,
    toggleAutoScroll,
    stopAutoScroll,
    stepSpeed,
  ])
}
