/** Mounts the age popup island into `#age-popup` (labels and locale from its data attributes). */
import { createRoot } from 'react-dom/client'
import AgePopup, { type AgeLabels } from './AgePopup.tsx'
import { $age } from '../../lib/shell/stores.ts'

export function mountAgePopup(closed: () => void) {
  const host = document.getElementById('age-popup')
  if (!host) return closed()
  const labels = JSON.parse(host.dataset.labels ?? '{}') as AgeLabels
  const container = document.createElement('div')
  host.appendChild(container)
  const root = createRoot(container)
  const onClose = () => {
    root.unmount()
    container.remove()
    closed()
    // spec §4: "no" closes the popup and calls the cancel handler: the age store's answer
    $age.set(null)
  }
  root.render(<AgePopup labels={labels} locale={host.dataset.locale ?? document.documentElement.lang} onClose={onClose} />)
}
