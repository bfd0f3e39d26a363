/**
 * Rich-text labels (spec §2): the banner titles, notice titles and event texts an operator writes may carry a little
 * markup. They are parsed by htmlparser2 and written out again from its events: what the browser receives is only
 * the tags and attributes written here and escaped text, never the operator's text as typed.
 *
 * - Tags `span`, `br`, `a`, `div`; any other tag goes and its text stays, except the tags whose content is not text
 *   (script, style, textarea, svg…), which go with their content. Comments, doctypes and every other attribute go.
 *   Tags left open are closed at the end; closing tags that close nothing go; nesting stops at `MAX_DEPTH`.
 * - `style` (span, div, a): the page's CSP allows no style attribute, so each declaration the site knows becomes one of
 *   the `rt-*` classes of src/styles/global.css (`richClasses`): colours snap to the palette's readable red, orange,
 *   green and grey (light and dark), weight, italics, underline and strike-through, a larger or smaller size, and for
 *   a `div` the alignment. Anything else in a style is dropped.
 * - `href` (a): http, https and mailto, or a path of this site. A link to this site (its origin or a path) stays in the
 *   tab as a path; any other opens in a new one (`target="_blank" rel="noopener noreferrer"`). A link is underlined
 *   (`rt-link`) whatever its style. Where the label is itself inside a link (a banner, a notice in the list),
 *   `links: false` keeps a link's text only.
 * - A label starting with `@:` is the key of a message of the edition (`@:banner.welcome`), rendered by the same rules.
 * - The label `##null##` renders nothing.
 */
import { Parser } from 'htmlparser2'

/** Spec §2: this exact label renders nothing. */
const NULL_LABEL = '##null##'
/** Spec §2's translation marker: `@:key` is the edition's message `key`. */
const TRANSLATION_MARKER = '@:'
/** Tags whose content is not text a reader should see: dropped with it. */
const DROPPED = new Set([
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'noscript',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'template',
  'svg',
  'math',
  'object',
  'head',
])
/** Open tags kept at most (deeper ones keep their text only). */
const MAX_DEPTH = 16

export type RichTextContext = {
  /** The edition's messages, for a label that is a key. */
  messages: Record<string, string>
  /** This site's origin (`https://…`): links to it stay in the tab. */
  origin: string
  /** Whether `a` is kept (false where the label sits inside a link of its own). */
  links?: boolean
}

/** The label as safe HTML for `set:html`; '' for nothing to show. */
export function richText(label: string | null | undefined, ctx: RichTextContext): string {
  const source = sourceOf(label, ctx)
  return source === '' ? '' : render(source, ctx, false)
}

/** The label's text alone (an image's alt text, a page title, a share text). */
export function richPlain(label: string | null | undefined, ctx: RichTextContext): string {
  const source = sourceOf(label, ctx)
  return source === '' ? '' : render(source, ctx, true).replace(/\s+/g, ' ').trim()
}

/** The label's markup to render: the message of `@:key`, and '' for nothing (`##null##`, empty). */
function sourceOf(label: string | null | undefined, ctx: RichTextContext): string {
  const text = (label ?? '').trim()
  const source = text.startsWith(TRANSLATION_MARKER) ? (ctx.messages[text.slice(TRANSLATION_MARKER.length).trim()] ?? '') : text
  return source.trim() === NULL_LABEL ? '' : source
}

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttr = (value: string) => escapeText(value).replace(/"/g, '&quot;')

/** `source` as HTML of the kept tags, or (`plain`) as its text alone, a space where a line or block ends. */
function render(source: string, ctx: RichTextContext, plain: boolean): string {
  let out = ''
  let dropping = 0
  // per element the parser opened: the tag written for it (its end tag is written when the parser closes it), or null
  const written: (string | null | 'dropped')[] = []
  const depth = () => written.filter((w) => w !== null && w !== 'dropped').length
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (dropping > 0 || DROPPED.has(name)) {
          dropping++
          written.push('dropped')
          return
        }
        const tag = keptTag(name, attribs, ctx)
        if (plain) {
          if (name === 'br' || name === 'div') out += ' '
          written.push(null)
        } else if (tag === null || depth() >= MAX_DEPTH) written.push(null)
        else if (name === 'br') {
          out += '<br />'
          written.push(null)
        } else {
          out += `<${tag.name}${Object.entries(tag.attrs)
            .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
            .join('')}>`
          written.push(tag.name)
        }
      },
      ontext(text) {
        if (dropping === 0) out += plain ? text : escapeText(text)
      },
      onclosetag() {
        const was = written.pop()
        if (was === 'dropped') dropping--
        else if (was) out += `</${was}>`
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(source)
  parser.end()
  return out
}

/** The tag written for an operator's `name` with `attribs` (see the module's comment), or null for its text alone. */
function keptTag(
  name: string,
  attribs: Record<string, string>,
  ctx: RichTextContext,
): { name: string; attrs: Record<string, string> } | null {
  if (name === 'br') return { name, attrs: {} }
  if (name !== 'span' && name !== 'div' && !(name === 'a' && ctx.links !== false)) return null
  const classes = richClasses(attribs.style ?? '', name === 'div')
  if (name !== 'a') return { name, attrs: classes.length > 0 ? { class: classes.join(' ') } : {} }
  const href = linkOf(attribs.href ?? '', ctx.origin)
  if (href === null) return { name: 'span', attrs: classes.length > 0 ? { class: classes.join(' ') } : {} }
  const attrs = { class: ['rt-link', ...classes].join(' '), href: href.path }
  return { name, attrs: href.own ? attrs : { ...attrs, target: '_blank', rel: 'noopener noreferrer' } }
}

/** Where a label's link goes: a path of this site (`own`), an http(s) or mail address, or null (dropped). */
function linkOf(raw: string, origin: string): { path: string; own: boolean } | null {
  const href = raw.trim()
  if (href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\')) return { path: href, own: true }
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  if (url.origin === origin) return { path: url.pathname + url.search + url.hash, own: true }
  return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? { path: url.href, own: false } : null
}

/** A CSS colour a label may write: #rgb(a), #rrggbb(aa), rgb()/rgba() or one of the common names, as [r, g, b]. */
function colourOf(value: string): [number, number, number] | null {
  const named = NAMED[value]
  if (named) return colourOf(named)
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value)?.[1]
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
  }
  const fn = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(value)
  return fn ? ([Number(fn[1]), Number(fn[2]), Number(fn[3])].map((v) => Math.min(v, 255)) as [number, number, number]) : null
}

const NAMED: Record<string, string> = {
  red: '#ff0000',
  crimson: '#dc143c',
  pink: '#ffc0cb',
  hotpink: '#ff69b4',
  magenta: '#ff00ff',
  orange: '#ffa500',
  gold: '#ffd700',
  yellow: '#ffff00',
  brown: '#a52a2a',
  green: '#008000',
  lime: '#00ff00',
  teal: '#008080',
  blue: '#0000ff',
  navy: '#000080',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  black: '#000000',
  white: '#ffffff',
}

/**
 * The palette colour a label's colour snaps to (its hue; a colour without one is grey), or null for black, white,
 * blue and purple, which keep the text's own colour.
 */
function paletteOf([r, g, b]: [number, number, number]): 'red' | 'orange' | 'green' | 'grey' | null {
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  if (max - min < 40) return max < 40 || min > 215 ? null : 'grey'
  const hue =
    max === r
      ? (((g - b) / (max - min)) * 60 + 360) % 360
      : max === g
        ? ((b - r) / (max - min)) * 60 + 120
        : ((r - g) / (max - min)) * 60 + 240
  if (hue < 15 || hue >= 320) return 'red'
  if (hue < 65) return 'orange'
  if (hue < 190) return 'green'
  return null
}

/** The `rt-*` classes of a label's `style` (see the module's comment); `block`: a div, which may be aligned. */
function richClasses(style: string, block: boolean): string[] {
  const classes = new Set<string>()
  for (const declaration of style.toLowerCase().split(';')) {
    const colon = declaration.indexOf(':')
    if (colon < 0) continue
    const name = declaration.slice(0, colon).trim()
    const value = declaration
      .slice(colon + 1)
      .replace(/!important\s*$/, '')
      .trim()
    if (name === 'color') {
      const rgb = colourOf(value)
      const hue = rgb && paletteOf(rgb)
      if (hue) classes.add(`rt-${hue}`)
    } else if (name === 'background-color' || name === 'background') {
      const rgb = colourOf(value)
      if (rgb && !(rgb[0] > 240 && rgb[1] > 240 && rgb[2] > 240)) classes.add('rt-mark')
    } else if (name === 'font-weight') {
      if (value === 'bold' || value === 'bolder' || Number(value) >= 600) classes.add('rt-bold')
    } else if (name === 'font-style') {
      if (value === 'italic' || value === 'oblique') classes.add('rt-italic')
    } else if (name === 'text-decoration' || name === 'text-decoration-line') {
      if (value.includes('underline')) classes.add('rt-underline')
      if (value.includes('line-through')) classes.add('rt-strike')
    } else if (name === 'font-size') {
      const size = fontScale(value)
      if (size !== null && size > 1.05) classes.add('rt-large')
      if (size !== null && size < 0.95) classes.add('rt-small')
    } else if (name === 'text-align' && block) {
      const align = { center: 'center', left: 'start', start: 'start', right: 'end', end: 'end' }[value]
      if (align) classes.add(`rt-${align}`)
    }
  }
  return [...classes]
}

/** A font size relative to the text around it (16 px = 1), or null when it is not one the site reads. */
function fontScale(value: string): number | null {
  const keyword = { smaller: 0.85, small: 0.85, 'x-small': 0.75, larger: 1.2, large: 1.2, 'x-large': 1.5, medium: 1 }[value]
  if (keyword !== undefined) return keyword
  const m = /^(\d{1,3}(?:\.\d+)?)(px|em|rem|%)$/.exec(value)
  if (!m) return null
  const n = Number(m[1])
  return m[2] === 'px' ? n / 16 : m[2] === '%' ? n / 100 : n
}
