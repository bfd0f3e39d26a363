/**
 * A React popup on the page shell's layer stack (spec §2 back order; the stack and its history entries are
 * stores.ts, Back is handled by shell.ts). While `open`, the popup is the newest modal with a history entry of its
 * own: Back closes it through `close` (its own state) and the page stays. When it closes otherwise (its button,
 * Esc, success, unmount), the entry is taken back, so the next Back leaves the page. Focus going back to the
 * opener stays the popup's own business.
 */
import { useEffect, useEffectEvent, useId } from 'react'
import { enterLayer, leaveLayer } from './stores.ts'

export function useLayer(open: boolean, close: () => void): void {
  const id = `layer-${useId()}`
  const onBack = useEffectEvent(close)
  useEffect(() => {
    if (!open) return
    enterLayer({ id, kind: 'modal', type: 'main', close: () => onBack() })
    return () => leaveLayer(id)
  }, [open, id])
}
