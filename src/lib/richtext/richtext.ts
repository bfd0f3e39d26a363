/**
 * Rich-text labels (spec §2): banner titles, notices and other admin-written labels that may carry a little
 * markup. A pure sanitiser with a small hand-written tokenizer, so it runs in Workers, Node and the browser
 * alike (no DOM, no DOMPurify).
 *
 * Rules (spec §2, as implemented):
 * - Allowed tags: `span`, `br`, `a`, `div`. `span`/`div` keep `style`; `a` keeps `style` and `href`.
 *   Every other tag is dropped and its text kept (escaped); comments, doctypes and processing
 *   instructions vanish; all other attributes are dropped.
 * - `style` keeps only `color`, `background-color`, `font-weight`, `font-size`, `text-decoration` and
 *   `text-align`, each value matched against a strict pattern (no `url()`, functions other than
 *   rgb/hsl, comments, escapes, quotes or `;`).
 * - `href` keeps only http(s), `mailto:` and root-relative `/…` (not `//…` or `/\…`). Own-site links
 *   (same origin or relative) become in-app links: relative `href` plus a `data-inapp` attribute that the
 *   client router intercepts. Others get `target="_blank" rel="noopener noreferrer"`.
 * - A label whose text starts with the translation marker (default `@:`, see below) is a translation key;
 *   the translation is sanitised by the same rules (one level: a translation is never resolved again).
 * - The exact text `##null##` renders nothing.
 * - Every value the output carries is re-escaped, so the browser parses exactly what was checked here;
 *   unclosed and misnested tags are closed in order; nesting stops at {@link MAX_DEPTH}; nothing here throws.
 */

export type RichTextOptions = {
  /** Translator of the current edition; used for labels that start with the marker. */
  t: (key: string) => string
  /** Origin of this site (`Astro.url.origin`): links to it become in-app links. */
  siteOrigin: string
  /** Prefix that turns a label into a translation key; `''` disables it. Default {@link DEFAULT_TRANSLATION_MARKER}. */
  translationMarker?: string
}

/**
 * Default translation marker. `@:` is the linked-message prefix of vue-i18n, which admins of the original
 * product's tooling already know; it never begins a real label in any of the seven languages.
 * A label `@:banner.title` renders `t('banner.title')`.
 */
export const DEFAULT_TRANSLATION_MARKER = '@:'

/** Spec §2: this exact text renders nothing (an admin's way of hiding a label). */
const NULL_LABEL = '##null##'

/** Renders a rich-text label to safe HTML (spec §2). `null`, `undefined` and `''` render `''`. */
export function renderRichText(input: string | null | undefined, opts: RichTextOptions): string {
  return render(input, opts, true)
}

function render(input: string | null | undefined, opts: RichTextOptions, resolveKeys: boolean): string {
  if (typeof input !== 'string' || input === '') return ''
  const trimmed = input.trim()
  if (trimmed === NULL_LABEL) return ''
  const marker = opts.translationMarker ?? DEFAULT_TRANSLATION_MARKER
  if (resolveKeys && marker !== '' && trimmed.startsWith(marker)) {
    const key = trimmed.slice(marker.length).trim()
    if (key === '') return ''
    let translated: unknown
    try {
      translated = opts.t(key)
    } catch {
      translated = key
    }
    return render(typeof translated === 'string' ? translated : key, opts, false)
  }
  return sanitize(input, normaliseOrigin(opts.siteOrigin))
}

// ── Tokenizer ─────────────────────────────────────────────────────────────────────────────────────

type Attr = readonly [name: string, value: string]
type Token =
  | { readonly kind: 'text'; readonly raw: string }
  | { readonly kind: 'start'; readonly name: string; readonly attrs: Attr[]; readonly selfClosing: boolean }
  | { readonly kind: 'end'; readonly name: string }

const isAsciiLetter = (ch: string | undefined) => ch !== undefined && /^[A-Za-z]$/.test(ch)
const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f'

/**
 * Splits HTML into text, start-tag and end-tag tokens, following the HTML tokenizer where it matters:
 * `<` not followed by a letter, `/` or `!` is text; comments (`<!-- -->`, `<!-->`), `<!…>` and `<?…>` are
 * skipped; a tag still open at the end of input is dropped, as browsers do. Linear in the input length.
 */
function tokenize(html: string): Token[] {
  const tokens: Token[] = []
  const n = html.length
  let i = 0
  while (i < n) {
    const lt = html.indexOf('<', i)
    if (lt === -1) {
      tokens.push({ kind: 'text', raw: html.slice(i) })
      break
    }
    if (lt > i) tokens.push({ kind: 'text', raw: html.slice(i, lt) })
    const next = html[lt + 1]
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 2)
      i = end === -1 ? n : end + 3
    } else if (next === '!' || next === '?') {
      const end = html.indexOf('>', lt + 2)
      i = end === -1 ? n : end + 1
    } else if (next === '/') {
      if (isAsciiLetter(html[lt + 2])) {
        const tag = readTag(html, lt + 2)
        if (!tag) break
        tokens.push({ kind: 'end', name: tag.name })
        i = tag.end
      } else if (html[lt + 2] === '>') {
        i = lt + 3 // `</>` is ignored
      } else {
        const end = html.indexOf('>', lt + 2)
        i = end === -1 ? n : end + 1
      }
    } else if (isAsciiLetter(next)) {
      const tag = readTag(html, lt + 1)
      if (!tag) break
      tokens.push({ kind: 'start', name: tag.name, attrs: tag.attrs, selfClosing: tag.selfClosing })
      i = tag.end
    } else {
      tokens.push({ kind: 'text', raw: '<' })
      i = lt + 1
    }
  }
  return tokens
}

/** Reads a tag name and its attributes from `start`; `null` when the input ends inside the tag. */
function readTag(html: string, start: number): { name: string; attrs: Attr[]; selfClosing: boolean; end: number } | null {
  const n = html.length
  let i = start
  while (i < n && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i++
  const name = html.slice(start, i).toLowerCase()
  const attrs: Attr[] = []
  let selfClosing = false
  while (i < n) {
    const ch = html[i]
    if (isSpace(ch)) {
      i++
      continue
    }
    if (ch === '>') return { name, attrs, selfClosing, end: i + 1 }
    if (ch === '/') {
      selfClosing = html[i + 1] === '>'
      i++
      continue
    }
    selfClosing = false
    // Attribute name: up to space, `/`, `>` or `=` (a leading `=` belongs to the name, as in HTML).
    const nameStart = i
    i++
    while (i < n && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++
    const attrName = html.slice(nameStart, i).toLowerCase()
    while (i < n && isSpace(html[i])) i++
    let value = ''
    if (html[i] === '=') {
      i++
      while (i < n && isSpace(html[i])) i++
      const quote = html[i]
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1)
        if (close === -1) return null
        value = html.slice(i + 1, close)
        i = close + 1
      } else {
        const valueStart = i
        while (i < n && !isSpace(html[i]) && html[i] !== '>') i++
        value = html.slice(valueStart, i)
      }
    }
    attrs.push([attrName, value])
  }
  return null
}

// ── Entities and escaping ─────────────────────────────────────────────────────────────────────────

/** Named references decoded; any other `&name;` stays as written (and is shown literally). */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '\u00ad',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  bull: '•',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  euro: '€',
  yen: '¥',
  pound: '£',
  cent: '¢',
  deg: '°',
  times: '×',
  divide: '÷',
  para: '¶',
  sect: '§',
  hearts: '♥',
  star: '☆',
  starf: '★',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  colon: ':',
  semi: ';',
  comma: ',',
  period: '.',
  excl: '!',
  quest: '?',
  num: '#',
  percnt: '%',
  plus: '+',
  equals: '=',
  lowbar: '_',
  commat: '@',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lcub: '{',
  rcub: '}',
  verbar: '|',
  ast: '*',
  Tab: '\t',
  NewLine: '\n',
  eacute: 'é',
  Eacute: 'É',
  egrave: 'è',
  Egrave: 'È',
  ecirc: 'ê',
  euml: 'ë',
  agrave: 'à',
  Agrave: 'À',
  acirc: 'â',
  auml: 'ä',
  Auml: 'Ä',
  ccedil: 'ç',
  Ccedil: 'Ç',
  icirc: 'î',
  iuml: 'ï',
  ocirc: 'ô',
  ouml: 'ö',
  Ouml: 'Ö',
  ugrave: 'ù',
  ucirc: 'û',
  uuml: 'ü',
  Uuml: 'Ü',
  szlig: 'ß',
  oelig: 'œ',
  OElig: 'Œ',
}

/** The references HTML also decodes without the closing `;`. */
const LEGACY_NO_SEMICOLON = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg'])

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(/&(?:#[xX]([0-9a-fA-F]{1,8})|#([0-9]{1,10})|([A-Za-z][A-Za-z0-9]{1,31}))(;?)/g, (match, hex, dec, name, semi) => {
    if (hex !== undefined || dec !== undefined) {
      const cp = hex !== undefined ? parseInt(hex as string, 16) : parseInt(dec as string, 10)
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd'
      return String.fromCodePoint(cp)
    }
    const key = name as string
    if (!Object.hasOwn(NAMED_ENTITIES, key)) return match
    if (semi === '' && !LEGACY_NO_SEMICOLON.has(key)) return match
    return NAMED_ENTITIES[key]!
  })
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

// ── Attributes ────────────────────────────────────────────────────────────────────────────────────

/**
 * A colour: hex, a keyword, or rgb()/hsl() holding only 3–4 numbers with units and separators (no nested
 * function, no `url`). Bounded repetitions and mandatory separators keep the pattern free of backtracking blow-ups.
 */
const NUMBER = String.raw`[+-]?(?:\d{1,3}(?:\.\d{1,4})?|\.\d{1,4})(?:%|deg|turn|rad|grad)?`
const COLOUR = new RegExp(
  String.raw`^(?:#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|[a-z]{3,24}|(?:rgba?|hsla?)\(\s*${NUMBER}(?:\s*[,/]\s*${NUMBER}|\s+${NUMBER}){2,3}\s*\))$`,
)

const STYLE_RULES: Readonly<Record<string, (value: string) => boolean>> = {
  color: (v) => COLOUR.test(v),
  'background-color': (v) => COLOUR.test(v),
  'font-weight': (v) => /^(?:normal|bold|bolder|lighter|[1-9]00)$/.test(v),
  'font-size': (v) =>
    /^(?:0|\d{1,3}(?:\.\d{1,3})?(?:px|em|rem|%|pt)|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger)$/.test(v),
  'text-decoration': (v) => /^(?:none|(?:underline|overline|line-through)(?:\s(?:underline|overline|line-through))*)$/.test(v),
  'text-align': (v) => /^(?:left|right|center|justify|start|end)$/.test(v),
}

/** Keeps the allowed declarations of a decoded `style` value, normalised to `prop: value; …`. */
export function sanitizeStyle(style: string): string {
  const kept: string[] = []
  const seen = new Set<string>()
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':')
    if (colon === -1) continue
    const prop = declaration.slice(0, colon).trim().toLowerCase()
    const value = declaration
      .slice(colon + 1)
      .trim()
      .toLowerCase()
      .replace(/\s*!\s*important$/, '')
      .replace(/\s+/g, ' ')
    const rule = Object.hasOwn(STYLE_RULES, prop) ? STYLE_RULES[prop] : undefined
    if (!rule || !rule(value)) continue
    if (seen.has(prop)) {
      const at = kept.findIndex((d) => d.startsWith(`${prop}:`))
      kept.splice(at, 1) // the last declaration wins, as in CSS
    }
    seen.add(prop)
    kept.push(`${prop}: ${value}`)
  }
  return kept.join('; ')
}

type Link = { href: string; inApp: boolean }

/** Placeholder base for relative links when the site origin is unusable; never emitted. */
const FALLBACK_ORIGIN = 'https://site.invalid'

function normaliseOrigin(siteOrigin: string): string | null {
  try {
    const origin = new URL(siteOrigin).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

/**
 * Spec §2 link rule on a decoded `href`: http(s), mailto: and root-relative paths only; own-site links
 * become relative in-app links. `null` drops the attribute.
 */
export function sanitizeHref(raw: string, siteOrigin: string | null): Link | null {
  // URL parsing strips leading/trailing C0 controls and spaces and removes tabs and newlines anywhere.
  const value = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '')
  if (value === '' || /[\u0000-\u001f\u007f]/.test(value)) return null
  const base = siteOrigin ?? FALLBACK_ORIGIN
  if (value.startsWith('/')) {
    if (value.startsWith('//') || value.startsWith('/\\')) return null
    const url = parseUrl(value, base)
    if (!url || url.origin !== base) return null
    return { href: inAppHref(url), inApp: true }
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase()
  if (scheme === 'mailto') return /^mailto:[^\s]+$/i.test(value) ? { href: value, inApp: false } : null
  if (scheme !== 'http' && scheme !== 'https') return null
  const url = parseUrl(value)
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null
  if (siteOrigin !== null && url.origin === siteOrigin) return { href: inAppHref(url), inApp: true }
  // Userinfo only serves to disguise the host (`https://our.site@evil.example/`).
  url.username = ''
  url.password = ''
  return { href: url.href, inApp: false }
}

/** Own-site URL as a root-relative href; leading slashes collapse so it can never read as `//other.host`. */
function inAppHref(url: URL): string {
  return '/' + url.pathname.replace(/^\/+/, '') + url.search + url.hash
}

function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base)
  } catch {
    return null
  }
}

/** First occurrence of each attribute wins, as in HTML. */
function firstAttrs(attrs: Attr[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const [name, value] of attrs) if (!map.has(name)) map.set(name, value)
  return map
}

function openTag(name: 'span' | 'div' | 'a', attrs: Attr[], siteOrigin: string | null): string {
  const given = firstAttrs(attrs)
  let out = `<${name}`
  if (name === 'a' && given.has('href')) {
    const link = sanitizeHref(decodeEntities(given.get('href')!), siteOrigin)
    if (link) {
      out += ` href="${escapeAttr(link.href)}"`
      out += link.inApp ? ' data-inapp' : ' target="_blank" rel="noopener noreferrer"'
    }
  }
  if (given.has('style')) {
    const style = sanitizeStyle(decodeEntities(given.get('style')!))
    if (style !== '') out += ` style="${escapeAttr(style)}"`
  }
  return `${out}>`
}

// ── Tree rules ────────────────────────────────────────────────────────────────────────────────────

type Container = 'span' | 'div' | 'a'
const isContainer = (name: string): name is Container => name === 'span' || name === 'div' || name === 'a'

/** Deeper nesting is never meant; containers past it are dropped (text kept), which keeps the work linear. */
export const MAX_DEPTH = 32

function sanitize(html: string, siteOrigin: string | null): string {
  const open: Container[] = []
  let out = ''
  const closeDownTo = (index: number) => {
    while (open.length > index) out += `</${open.pop()}>`
  }
  for (const token of tokenize(html)) {
    if (token.kind === 'text') {
      out += escapeText(decodeEntities(token.raw))
    } else if (token.kind === 'start') {
      if (token.name === 'br') {
        out += '<br>'
      } else if (isContainer(token.name)) {
        // Links do not nest: a new <a> closes the open one (and what is inside it), as browsers do.
        if (token.name === 'a' && open.includes('a')) closeDownTo(open.lastIndexOf('a'))
        if (open.length >= MAX_DEPTH) continue
        out += openTag(token.name, token.attrs, siteOrigin)
        if (token.selfClosing) out += `</${token.name}>`
        else open.push(token.name)
      }
    } else if (token.name === 'br') {
      out += '<br>' // `</br>` is a line break in HTML too
    } else if (isContainer(token.name)) {
      const index = open.lastIndexOf(token.name)
      if (index !== -1) closeDownTo(index) // misnested: close the inner ones first; stray end tags vanish
    }
  }
  closeDownTo(0)
  return out
}
