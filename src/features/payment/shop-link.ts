/**
 * The shop link that brings the reader back to `returnTo` after paying (issue 25 §2). Kept apart from
 * return.ts so islands can use it without the server's checks: the shop keeps the path only if
 * `shopReturnPath` accepts it.
 */
export function shopHref(returnTo: string): string {
  return `/shop?return=${encodeURIComponent(returnTo)}`
}
