/**
 * The reader's settings (spec §2/§3 viewer modes): the server renders the cookie's settings (or the defaults),
 * localStorage applies once the island runs, and each change is remembered in both. Also whether the screen
 * is wide enough for double pages, and whether the island has run (`ready`: its tools are shown).
 */
import { useEffect, useState } from 'react'
import { DEFAULT_SETTINGS, parseSettings, settingsCookie, type ViewerSettings } from './reading.ts'

/** Double pages only where two pages fit side by side. */
const WIDE = '(min-width: 960px)'

export function useSettings(settingsKey: string, initialSettings: ViewerSettings | null) {
  const [ready, setReady] = useState(false)
  const [settings, setSettings] = useState<ViewerSettings>(initialSettings ?? DEFAULT_SETTINGS)
  /** Settings known (from the cookie on the server, or read on the client): PAPER may apply. */
  const [loaded, setLoaded] = useState(initialSettings !== null)
  const [wide, setWide] = useState(false)

  // Stored settings and the screen width, read once on the client.
  useEffect(() => {
    let stored: string | null = null
    try {
      stored = localStorage.getItem(settingsKey)
    } catch {
      /* storage blocked: defaults */
    }
    if (initialSettings === null && stored !== null) {
      const parsed = parseSettings(stored)
      setSettings(parsed)
      document.cookie = settingsCookie(settingsKey, parsed) // the server renders them from now on
    }
    setLoaded(true)
    setReady(true)
    const mq = matchMedia(WIDE)
    setWide(mq.matches)
    const onChange = () => setWide(mq.matches)
    mq.addEventListener('change', onChange)
    return () => mq.removeEventListener('change', onChange)
  }, [settingsKey, initialSettings])

  const update = (patch: Partial<ViewerSettings>) => {
    setSettings((s) => {
      const next = { ...s, ...patch }
      try {
        localStorage.setItem(settingsKey, JSON.stringify(next))
      } catch {
        /* not remembered here */
      }
      document.cookie = settingsCookie(settingsKey, next)
      return next
    })
  }

  return { settings, update, loaded, ready, wide }
}

/**
 * TEXT episodes: the chosen font and size on the server-rendered paragraphs and on the appended ones
 * (`appended`: how many episodes continuous reading added, so new paragraphs get them too).
 */
export function useTextFont(on: boolean, font: ViewerSettings['font'], fontSize: number, appended: number) {
  useEffect(() => {
    if (!on) return
    document.querySelectorAll<HTMLElement>('#viewer-content, .viewer-episode .viewer-text').forEach((content) => {
      content.classList.toggle('viewer-serif', font === 'serif')
      content.style.fontSize = `${fontSize}px`
    })
  }, [on, font, fontSize, appended])
}
