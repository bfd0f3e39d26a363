/**
 * The reader's part of /detail/{id}, after first paint (issue 5): the page HTML is the same for every reader of an
 * audience class (edge cached per class), so this asks the session first (a guest: `{}`, no error logged), then `/api/v1/contents/{id}/me`,
 * and fills the hidden slots the page already holds: episode badges, "continue reading", the favourite toggle.
 */
import { formatUntil } from './until.ts'

type Me = {
  favorite: boolean
  continueReading: { episodeId: number; no: number } | null
  ownerships: { episodeId: number; kind: string; expiresAt: string | null }[]
}

const root = document.querySelector<HTMLElement>('[data-series]')
if (root) void load(root)

async function getJson(url: string): Promise<{ user?: unknown; data?: Me } | null> {
  const res = await fetch(url, { headers: { accept: 'application/json' } })
  return res.ok ? res.json() : null
}

async function load(root: HTMLElement) {
  const d = root.dataset
  try {
    if (!(await getJson('/api/auth/session'))?.user) return
    const me: Me | undefined = (await getJson(`/api/v1/contents/${d.series}/me`))?.data
    if (!me) return
    for (const o of me.ownerships) {
      const badge = root.querySelector<HTMLElement>(`[data-ep="${o.episodeId}"] .own`)
      if (!badge) continue
      badge.textContent = o.expiresAt === null ? d.owned! : d.rented!.replace('{d}', formatUntil(o.expiresAt, d.tz!))
      badge.hidden = false
    }
    const box = root.querySelector<HTMLElement>('.me')!
    const go = box.querySelector<HTMLAnchorElement>('.continue')!
    if (me.continueReading) {
      go.href = `/viewer/${me.continueReading.episodeId}`
      go.textContent = go.dataset.label!.replace('{n}', String(me.continueReading.no))
      go.hidden = false
    }
    const fav = box.querySelector<HTMLButtonElement>('.fav')!
    let on = me.favorite
    const show = () => fav.setAttribute('aria-pressed', String(on))
    show()
    let busy = false
    fav.addEventListener('click', async () => {
      if (busy) return // keeps focus on the button (a disabled one would lose it)
      busy = true
      on = !on
      show()
      const res = await fetch(`/api/v1/library/favorite/${d.series}`, { method: on ? 'POST' : 'DELETE' }).catch(() => null)
      if (!res?.ok) {
        on = !on
        show()
      }
      busy = false
    })
    box.hidden = false
  } catch {
    // personal bits are an extra: the page stays as the server sent it
  }
}
