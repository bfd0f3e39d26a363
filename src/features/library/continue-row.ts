/**
 * Fills home's "continue reading" row (ContinueRow.astro) after first paint: the reader's recent series from
 * GET /api/v1/library/recent, each card linking straight to the episode to read next (resumeTarget). When there is
 * nothing to continue or the answer fails, the row keeps its place and its note says why: removing it would move
 * everything below (issue 40).
 */
import { api } from '../session/api.ts'
import { imageUrl, srcset } from '../catalogue/images.ts'
import type { RecentRead } from './library.server.ts'
import { resumeTarget } from './resume.ts'

/** Cards shown (the first page of /library/recent holds more; "see more" leads there). */
const SHOWN = 10

const row = document.querySelector<HTMLElement>('[data-continue-row]')
if (row) void fill(row)

async function fill(row: HTMLElement) {
  const list = row.querySelector('ul')!
  const res = await api<{ items: RecentRead[] }>('/library/recent')
  const items = res.ok ? res.data.items.slice(0, SHOWN) : []
  if (items.length === 0) {
    const note = row.querySelector<HTMLElement>('[data-continue-note]')!
    if (!res.ok) note.textContent = res.message ?? row.dataset.failed!
    note.hidden = false
    row.removeAttribute('aria-busy')
    return
  }
  const card = row.querySelector('template')!.content.firstElementChild!
  list.replaceChildren(
    ...items.map((r) => {
      const li = card.cloneNode(true) as HTMLElement
      const go = resumeTarget(r)
      li.querySelector('a')!.href = go.href
      const img = li.querySelector('img')!
      if (r.coverKey) {
        img.srcset = srcset(r.coverKey)
        img.src = imageUrl(r.coverKey, 256)
      }
      li.querySelector('.title')!.textContent = r.seriesTitle
      li.querySelector('.episode')!.textContent = (go.next ? row.dataset.next! : row.dataset.resume!).replace('{n}', String(go.no))
      return li
    }),
  )
  row.removeAttribute('aria-busy')
}
