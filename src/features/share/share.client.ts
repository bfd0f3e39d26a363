/**
 * The Share button of the series and episode pages (issue 19 point 3), in the browser: the system share sheet
 * (`navigator.share`) where `shareMethod` says so, else the canonical link copied to the clipboard and the
 * shell's toast in the reader's language. A closed share sheet shows nothing.
 */
import { isCancel, shareMethod, type ShareData } from './share.ts'

/** The share text, for the viewer's island, which loads this module on use. */
export { shareText } from './share.ts'
import { showToast } from '../../lib/shell/stores.ts'

/** The toast texts, in the reader's language. */
export type ShareMessages = { copied: string; failed: string }

/**
 * Copies `text`: the Clipboard API, else (no clipboard permission, a page not served over https) a selected
 * field and the copy command, focus given back to the button.
 */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const focused = document.activeElement as HTMLElement | null
    const field = document.createElement('textarea')
    field.value = text
    field.readOnly = true
    field.setAttribute('aria-hidden', 'true')
    field.style.cssText = 'position:fixed;inset-block-start:0;opacity:0;pointer-events:none'
    document.body.appendChild(field)
    field.select()
    try {
      return document.execCommand('copy')
    } catch {
      return false
    } finally {
      field.remove()
      focused?.focus({ preventScroll: true })
    }
  }
}

/** Shares `data` (the sheet, else a copy with its toast); what happened, for the caller and the tests. */
export async function shareLink(data: ShareData, messages: ShareMessages): Promise<'shared' | 'cancelled' | 'copied' | 'failed'> {
  if (shareMethod(navigator, data) === 'sheet') {
    try {
      await navigator.share(data)
      return 'shared'
    } catch (error) {
      if (isCancel(error)) return 'cancelled'
      // any other refusal (no user gesture left, a sheet that failed): the link is copied instead
    }
  }
  const copied = await copy(data.url)
  showToast(copied ? messages.copied : messages.failed) // the shell shows the toast store's message
  return copied ? 'copied' : 'failed'
}
