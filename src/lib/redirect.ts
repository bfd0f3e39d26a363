/**
 * Spec §2/§8 callback rule: only a same-site relative path is a redirect target (no scheme, no `//host`,
 * no backslash or control character tricks); anything else gives `/`.
 */
export function safeCallback(callback: string | null | undefined): string {
  if (!callback || !callback.startsWith('/') || callback.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(callback)) return '/'
  try {
    const base = 'https://same.invalid'
    const url = new URL(callback, base)
    if (url.origin !== base) return '/'
    return url.pathname + url.search + url.hash
  } catch {
    return '/'
  }
}
