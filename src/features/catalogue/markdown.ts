/**
 * A tiny, safe markdown subset for the per-edition policy and privacy files (`editions/<id>/content/*.md`):
 * `# ` / `## ` / `### ` headings, `- ` list items, paragraphs separated by blank lines, `**bold**`.
 * Every character of the source is HTML-escaped first, so the files can never inject markup.
 */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
const inline = (s: string) => escapeHtml(s).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')

export function renderMarkdown(source: string): { html: string; title: string | null } {
  const out: string[] = []
  let paragraph: string[] = []
  let list: string[] = []
  let title: string | null = null
  const flush = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(inline).join(' ')}</p>`)
    if (list.length) out.push(`<ul>${list.map((li) => `<li>${inline(li)}</li>`).join('')}</ul>`)
    paragraph = []
    list = []
  }
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim()
    const heading = /^(#{1,3})\s+(.*)$/.exec(line)
    if (!line) flush()
    else if (heading) {
      flush()
      const level = heading[1]!.length
      if (level === 1 && title === null) title = heading[2]!
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`)
    } else if (/^[-*]\s+/.test(line)) {
      if (paragraph.length) flush()
      list.push(line.replace(/^[-*]\s+/, ''))
    } else {
      if (list.length) flush()
      paragraph.push(line)
    }
  }
  flush()
  return { html: out.join('\n'), title }
}
