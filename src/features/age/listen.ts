/**
 * The age popup's only up-front code (docs/QUALITY.md ≤ 5 KB JS on catalogue pages): it waits for
 * `document.dispatchEvent(new CustomEvent('age:required', { detail: { returnTo } }))` — page code sends it on an
 * ADULT_ONLY_CONTENTS error (spec §8 follow-up "adult popup") — or a click on `[data-age-required]`, and only
 * then loads React and the island. An adult gate that asks for the age check (`[data-age-auto]`) opens it at once. Its few style rules ride in the page stylesheet (no script needed).
 */
import './AgePopup.css'

let open = false

function openPopup(returnTo: unknown) {
  if (open) return
  open = true
  const target = typeof returnTo === 'string' && returnTo ? returnTo : location.pathname + location.search
  import('./mount.tsx').then(
    (m) => m.mountAgePopup(target, () => (open = false)),
    () => (open = false),
  )
}

document.addEventListener('age:required', (e) => openPopup((e as CustomEvent<{ returnTo?: string } | null>).detail?.returnTo))
document.addEventListener('click', (e) => {
  const trigger = (e.target as Element | null)?.closest?.('[data-age-required]')
  if (!trigger) return
  e.preventDefault()
  openPopup(trigger.getAttribute('data-age-required'))
})

const auto = document.querySelector('[data-age-auto]')
if (auto) openPopup(auto.getAttribute('data-age-required'))
