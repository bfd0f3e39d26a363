/**
 * The viewer's two panels, the shortcut help (a modal dialog) and the reading settings: open state, and focus
 * moved into a panel when it opens and back to the button that opened it when it closes.
 */
import { useEffect, useRef, useState } from 'react'

export function useOverlays() {
  const [helpOpen, setHelpOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const helpButton = useRef<HTMLButtonElement | null>(null)
  const closeButton = useRef<HTMLButtonElement | null>(null)
  const settingsButton = useRef<HTMLButtonElement | null>(null)
  const settingsPanel = useRef<HTMLDivElement | null>(null)

  const wasOpen = useRef(false)
  useEffect(() => {
    if (helpOpen) closeButton.current?.focus()
    else if (wasOpen.current) helpButton.current?.focus()
    wasOpen.current = helpOpen
  }, [helpOpen])

  const settingsWasOpen = useRef(false)
  useEffect(() => {
    if (settingsOpen) settingsPanel.current?.querySelector<HTMLElement>('input:checked, select, button')?.focus()
    else if (settingsWasOpen.current) settingsButton.current?.focus()
    settingsWasOpen.current = settingsOpen
  }, [settingsOpen])

  return { helpOpen, setHelpOpen, settingsOpen, setSettingsOpen, helpButton, closeButton, settingsButton, settingsPanel }
}
