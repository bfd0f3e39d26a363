/**
 * The settings page's "data saved on this device" (spec §2 app settings "clear cache"): the episodes the
 * service worker (public/sw.js, scope /viewer/) keeps for offline reading, each with a remove button, and
 * clearing the viewer's reading settings (localStorage and cookie) or everything after a confirmation. The
 * worker owns its cache's layout: this page only sends it messages. Without JavaScript the section says so.
 */
import { formatDateTime, type DateEdition } from '../../lib/i18n/dates.ts'
import { fillIn } from '../../lib/i18n/plural.ts'
import { forgetSettingsCookie } from '../viewer/reading.ts'
import { savedEpisodes, type SavedEpisode } from './saved.ts'

export type SavedDataLabels = {
  empty: string
  failed: string
  owned: string
  /** `{date}` */
  rentedUntil: string
  /** `{id}` */
  unnamed: string
  remove: string
  /** `{episode}`, `{series}` */
  removeLabel: string
  removing: string
  /** `{episode}` */
  removed: string
  readingCleared: string
  clearConfirm: string
  clearing: string
  cleared: string
  clearFailed: string
}

/** A worker that does not answer within this time (an old sw.js, a stuck browser) counts as a failure. */
const ANSWER_MS = 10_000

const root = document.querySelector<HTMLElement>('[data-saved-data]')
if (root) start(root)

function start(root: HTMLElement) {
  const labels = JSON.parse(root.dataset.labels!) as SavedDataLabels
  const edition = JSON.parse(root.dataset.dates!) as DateEdition
  const settingsKey = root.dataset.settingsKey!
  const list = root.querySelector<HTMLUListElement>('[data-saved-list]')!
  const empty = root.querySelector<HTMLElement>('[data-saved-empty]')!
  const status = root.querySelector<HTMLElement>('[data-saved-status]')!
  const heading = root.querySelector<HTMLElement>('[data-saved-heading]')!
  const clearAll = root.querySelector<HTMLButtonElement>('[data-clear-all]')!
  root.querySelector<HTMLElement>('[data-js-off]')!.hidden = true
  root.querySelector<HTMLElement>('[data-js-on]')!.hidden = false

  const say = (text: string) => (status.textContent = text)
  const names = (e: SavedEpisode) => ({
    episode: e.episode ?? fillIn(labels.unnamed, { id: e.episodeId }),
    series: e.series ?? '',
  })

  function render(items: SavedEpisode[]) {
    list.replaceChildren(...items.map(row))
    empty.hidden = items.length > 0
  }

  function row(e: SavedEpisode): HTMLLIElement {
    const { episode, series } = names(e)
    const li = document.createElement('li')
    const link = document.createElement('a')
    link.href = `/viewer/${e.episodeId}`
    const title = document.createElement('strong')
    title.textContent = episode
    link.replaceChildren(title, ...(series ? [document.createElement('br'), series] : []))
    const until = document.createElement('span')
    until.className = 'until'
    until.textContent = e.expiresAt === null ? labels.owned : fillIn(labels.rentedUntil, { date: formatDateTime(e.expiresAt, edition) })
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'btn secondary'
    button.textContent = labels.remove
    button.setAttribute('aria-label', fillIn(labels.removeLabel, { episode, series }))
    button.addEventListener('click', () => void remove(e, li, button))
    li.replaceChildren(link, until, button)
    return li
  }

  async function remove(e: SavedEpisode, li: HTMLLIElement, button: HTMLButtonElement) {
    button.disabled = true
    button.textContent = labels.removing
    say(labels.removing)
    try {
      await ask({ type: 'remove', episodeId: e.episodeId })
      // focus goes to the next row's button (or the heading once the list is empty), not to the page's top
      const next = (li.nextElementSibling ?? li.previousElementSibling)?.querySelector('button')
      li.remove()
      empty.hidden = list.children.length > 0
      ;(next ?? heading).focus()
      say(fillIn(labels.removed, { episode: names(e).episode }))
    } catch {
      button.disabled = false
      button.textContent = labels.remove
      say(labels.failed)
    }
  }

  function forgetReading() {
    try {
      localStorage.removeItem(settingsKey)
    } catch {
      /* storage blocked: nothing kept there */
    }
    document.cookie = forgetSettingsCookie(settingsKey)
  }

  root.querySelector('[data-clear-reading]')!.addEventListener('click', () => {
    forgetReading()
    say(labels.readingCleared)
  })

  clearAll.addEventListener('click', async () => {
    if (!window.confirm(labels.clearConfirm)) return
    clearAll.disabled = true
    clearAll.setAttribute('aria-busy', 'true')
    say(labels.clearing)
    try {
      await ask({ type: 'clear' })
      forgetReading()
      render([])
      say(labels.cleared)
    } catch {
      say(labels.clearFailed)
    } finally {
      clearAll.disabled = false
      clearAll.removeAttribute('aria-busy')
    }
  })

  ask({ type: 'list' }).then(
    (items) => {
      render(savedEpisodes(items, edition.locale))
      say('')
    },
    () => say(labels.failed),
  )
}

/**
 * One message to the offline worker and its answer's `items`. No worker registered: nothing was ever saved on
 * this device, so there is nothing to list or remove.
 */
async function ask(message: { type: 'list' | 'clear' } | { type: 'remove'; episodeId: number }): Promise<unknown> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/viewer/') : undefined
  const worker = registration?.active ?? registration?.waiting ?? registration?.installing
  if (!worker) return []
  const channel = new MessageChannel()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), ANSWER_MS)
    channel.port1.onmessage = (e: MessageEvent<{ ok: boolean; items?: unknown }>) => {
      clearTimeout(timer)
      if (e.data.ok) resolve(e.data.items)
      else reject(new Error('refused'))
    }
    worker.postMessage(message, [channel.port2])
  })
}
