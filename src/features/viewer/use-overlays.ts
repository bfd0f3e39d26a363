/**
 * The viewer's two panels, the shortcut help and the reading settings: open state, each a modal `<dialog>`
 * (use-dialog.ts) with focus moved into it when it opens and back to the button that opened it when it closes.
 */
import { useState } from 'react'
import { useDialog } from './use-dialog.ts'

export function useOverlays() {
  const [helpOpen, setHelpOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const help = useDialog(helpOpen, () => setHelpOpen(false), '[data-close]')
  const settings = useDialog(settingsOpen, () => setSettingsOpen(false), 'input:checked, select, button')
  return { helpOpen, setHelpOpen, settingsOpen, setSettingsOpen, help, settings }
}
