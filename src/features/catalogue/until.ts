/** "dd.MM.yyyy HH:mm" of an instant in a time zone (spec §2 detail: "rented until …"); '' for a bad date. */
export function formatUntil(iso: string, timeZone: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  const p: Record<string, string> = {}
  for (const x of f.formatToParts(d)) p[x.type] = x.value
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`
}
