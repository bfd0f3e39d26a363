/**
 * The age popup's only up-front code (docs/QUALITY.md ≤ 5 KB JS on catalogue pages): it waits for the age check to
 * be asked for — the `$age` store (`requireAge`, src/lib/shell/stores.ts: the API client on an ADULT_ONLY_CONTENTS
 * answer, spec §8 follow-up "adult popup") or a click on `[data-age-required]` — and only then loads React and the
 * island. An adult gate that asks for the age check (`[data-age-auto]`) opens it at once. Its few style rules ride in
 * the page stylesheet (no script needed).
 */
import './AgePopup.css'
import { $age, requireAge } from '../../lib/shell/stores.ts'

let open = false

function openPopup() {
  if (open) return
  open = true
  import('./mount.tsx').then(
    (m) => m.mountAgePopup(() => (open = false)),
    () => (open = false),
  )
}

$age.subscribe((returnTo) => returnTo && openPopup())
document.addEventListener('click', (e) => {
  const trigger = (e.target as Element | null)?.closest?.('[data-age-required]')
  if (!trigger) return
  e.preventDefault()
  requireAge(trigger.getAttribute('data-age-required'))
})

const auto = document.querySelector('[data-age-auto]')
if (auto) requireAge(auto.getAttribute('data-age-required'))
