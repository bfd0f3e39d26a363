/**
 * Live suggestions on /search (spec §9: search delay 1000 ms), an enhancement of the GET form: 1000 ms
 * after the last keystroke the API's first results appear as links under the box; an empty box clears
 * them. Text only through textContent; a newer keystroke aborts the previous request. The page loads this module with
 * the first keystroke (issue 40 point 1: a reader who does not type pays nothing for it), which `suggest` then answers.
 */
import { api } from '../session/api.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

export function suggest(): void {
  const form = document.querySelector<HTMLFormElement>('form.search-form')
  const input = form?.querySelector<HTMLInputElement>('input[name="keyword"]')
  const list = document.getElementById('search-suggest')
  const status = document.getElementById('search-status')
  if (!form || !input || !list || !status) return
  const delay = Number(form.dataset.delay) || 1000
  const label = JSON.parse(form.dataset.labelCount ?? '') as Plural
  let timer: ReturnType<typeof setTimeout> | undefined
  let pending: AbortController | undefined

  const render = (items: { id: number; title: string }[]) => {
    list.replaceChildren(
      ...items.slice(0, 8).map((s) => {
        const li = document.createElement('li')
        const a = document.createElement('a')
        a.href = `/detail/${s.id}`
        a.textContent = s.title
        li.appendChild(a)
        return li
      }),
    )
    list.hidden = items.length === 0
    status.textContent = pluralText(label, Math.min(items.length, 8))
  }

  input.addEventListener('input', () => {
    clearTimeout(timer)
    pending?.abort()
    const keyword = input.value.trim()
    if (!keyword) return render([])
    timer = setTimeout(async () => {
      pending = new AbortController()
      const { signal } = pending
      const res = await api<{ items: { id: number; title: string }[] }>(`/search?${new URLSearchParams({ keyword, suggest: '1' })}`, {
        signal,
        quiet: true,
      })
      if (!signal.aborted) render(res.ok ? res.data.items : []) // offline: no suggestions, the form still works
    }, delay)
  })
  input.dispatchEvent(new Event('input')) // the keystroke that loaded this module
}
