/**
 * A real modal for the viewer's panels (help, reading settings, the auto-unlock opt-in): the platform's
 * `<dialog>` opened with `showModal()`, so the page behind it is inert (Tab cycles inside: the page
 * shell's rule for every modal dialog, src/lib/shell/shell.ts) and Esc closes it from any control inside (the `close` event, whatever closed it, brings the state
 * back). On open, focus goes to the first element matching `initial` (else the dialog's own choice); on
 * close, back to what had focus before (the opener). While open it is on the page shell's layer stack
 * (useLayer): browser Back closes it and the page stays.
 */
import { useEffect, useEffectEvent, useLayoutEffect, useRef } from 'react'
import { flushSync } from 'react-dom'
import { useLayer } from '../../lib/shell/use-layer.ts'

export function useDialog(open: boolean, onClosed: () => void, initial?: string) {
  const ref = useRef<HTMLDialogElement | null>(null)
  const opener = useRef<HTMLElement | null>(null)
  useLayer(open, onClosed)

  useLayoutEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
      dialog.showModal()
      if (initial) dialog.querySelector<HTMLElement>(initial)?.focus()
    } else if (!open && dialog.open) dialog.close()
  }, [open, initial])

  // The dialog's `close` event (Esc, or `close()` above): the state follows, focus goes back to the opener.
  const closed = useEffectEvent(() => {
    onClosed()
    const back = opener.current
    opener.current = null
    if (back?.isConnected) back.focus()
  })
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    // Esc: the state follows at once. The browser gives focus back to the opener before its `close` event, so a
    // key pressed in between (Enter on the opener) must find the dialog closed, not closed a moment later.
    const onCancel = () => flushSync(() => closed())
    // A `close` for a dialog opened again since (or already handled on Esc) changes nothing.
    const onClose = () => {
      if (!dialog.open && opener.current) closed()
    }
    dialog.addEventListener('cancel', onCancel)
    dialog.addEventListener('close', onClose)
    return () => {
      dialog.removeEventListener('cancel', onCancel)
      dialog.removeEventListener('close', onClose)
    }
  }, [])

  return ref
}
