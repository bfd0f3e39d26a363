import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_TRANSLATION_MARKER, MAX_DEPTH, renderRichText, sanitizeHref, sanitizeStyle, type RichTextOptions } from './richtext.ts'

const SITE = 'https://fr.bomtoon.example'
const messages: Record<string, string> = {
  'banner.title': '<span style="color: red">Nouveau</span> <b>chaque</b> jour',
  'banner.hidden': '##null##',
  'banner.evil': '<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>',
  'banner.loop': '@:banner.loop',
}
const t = (key: string) => messages[key] ?? key
const opts: RichTextOptions = { t, siteOrigin: SITE }
const render = (input: string | null | undefined, extra: Partial<RichTextOptions> = {}) => renderRichText(input, { ...opts, ...extra })

describe('allowed tags (spec §2)', () => {
  it('keeps span, br, a and div', () => {
    expect(render('<span>a</span><br><div>b</div><a>c</a>')).toBe('<span>a</span><br><div>b</div><a>c</a>')
  })

  it('drops every other tag but keeps its text, escaped', () => {
    expect(render('<b>bold</b> <i>it</i> <p>para</p> <h1>x &lt; y</h1>')).toBe('bold it para x &lt; y')
    expect(render('<script>alert(1)</script>')).toBe('alert(1)')
    expect(render('<style>body{}</style>')).toBe('body{}')
  })

  it('matches tag names case-insensitively and normalises them', () => {
    expect(render('<SPAN>a</SPAN><Br/><DiV>b</dIv>')).toBe('<span>a</span><br><div>b</div>')
  })

  it('treats </br> as a line break and self-closing containers as empty', () => {
    expect(render('a</br>b')).toBe('a<br>b')
    expect(render('a<span/>b')).toBe('a<span></span>b')
  })

  it('drops comments, doctypes and processing instructions', () => {
    expect(render('a<!-- <script>x</script> -->b<!DOCTYPE html>c<?xml ?>d<!-->e')).toBe('abcde')
  })
})

describe('attributes', () => {
  it('keeps style on span and div, style and href on a, nothing else', () => {
    expect(render('<span style="color:red" class="x" id="y" title="t">a</span>')).toBe('<span style="color: red">a</span>')
    expect(render('<div style="text-align:center" data-x="1">a</div>')).toBe('<div style="text-align: center">a</div>')
    expect(render('<a href="https://example.com/" style="font-weight:bold" title="t" target="_self">a</a>')).toBe(
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer" style="font-weight: bold">a</a>',
    )
  })

  it('drops href on span and div', () => {
    expect(render('<span href="https://example.com">a</span>')).toBe('<span>a</span>')
  })

  it('drops every event handler attribute', () => {
    expect(render('<span onclick="alert(1)" onmouseover=alert(1) ONLOAD=\'x\'>a</span>')).toBe('<span>a</span>')
    expect(render('<br onload="x">')).toBe('<br>')
  })

  it('keeps the first of duplicated attributes, as browsers do', () => {
    expect(render('<a href="/first" href="javascript:alert(1)">a</a>')).toBe('<a href="/first" data-inapp>a</a>')
    expect(render('<a href="javascript:alert(1)" href="/second">a</a>')).toBe('<a>a</a>')
  })

  it('reads unquoted, single-quoted and valueless attributes', () => {
    expect(render("<a href=/x style='color:blue' download>a</a>")).toBe('<a href="/x" data-inapp style="color: blue">a</a>')
  })
})

describe('style filtering', () => {
  it.each([
    ['color: red', 'color: red'],
    ['COLOR: #FF0000', 'color: #ff0000'],
    ['background-color: rgb(255, 0, 0)', 'background-color: rgb(255, 0, 0)'],
    ['background-color: rgba(0 0 0 / 50%)', 'background-color: rgba(0 0 0 / 50%)'],
    ['color: hsl(120deg, 50%, 50%)', 'color: hsl(120deg, 50%, 50%)'],
    ['font-weight: 700', 'font-weight: 700'],
    ['font-size: 14px', 'font-size: 14px'],
    ['font-size: 1.5em', 'font-size: 1.5em'],
    ['font-size: large', 'font-size: large'],
    ['text-decoration: underline line-through', 'text-decoration: underline line-through'],
    ['text-align: right', 'text-align: right'],
    ['color: red !important', 'color: red'],
    ['color: red; color: blue', 'color: blue'],
    ['color:red;font-weight:bold;text-align:center', 'color: red; font-weight: bold; text-align: center'],
  ])('keeps %j as %j', (input, output) => {
    expect(sanitizeStyle(input)).toBe(output)
  })

  it.each([
    'background-image: url(javascript:alert(1))',
    'background-color: url(https://evil.example/x.png)',
    'color: expression(alert(1))',
    'color: red/**/',
    'color: re\\64',
    'color: rgb(url(x), 0, 0)',
    'color: rgb(1,2,3);',
    'position: fixed',
    'display: none',
    'width: 100%',
    'behavior: url(x.htc)',
    '-moz-binding: url(x)',
    'font-family: "x"',
    'font-size: calc(100vh)',
    'color: "red"',
    'color: red background: url(x)',
  ])('drops %j', (input) => {
    expect(sanitizeStyle(input)).not.toMatch(/url|expression|position|display|width|binding|behavior|calc|"|\\/)
  })

  it('cannot smuggle a declaration through a semicolon, quote or escape', () => {
    expect(render('<span style="color: red; background-image: url(x)">a</span>')).toBe('<span style="color: red">a</span>')
    expect(render('<span style="color: red\\;background: url(x)">a</span>')).toBe('<span>a</span>')
    expect(render('<span style="color: &quot;red;position:fixed&quot;">a</span>')).toBe('<span>a</span>')
    expect(render('<span style="color&#58;red&#59;position&#58;fixed">a</span>')).toBe('<span style="color: red">a</span>')
  })

  it('drops an empty style attribute', () => {
    expect(render('<span style="position:absolute">a</span>')).toBe('<span>a</span>')
  })
})

describe('links', () => {
  it('turns relative paths into in-app links', () => {
    expect(render('<a href="/detail/12?tab=1#ep">x</a>')).toBe('<a href="/detail/12?tab=1#ep" data-inapp>x</a>')
  })

  it('turns own-origin absolute links into relative in-app links', () => {
    expect(render(`<a href="${SITE}/event?x=1">x</a>`)).toBe('<a href="/event?x=1" data-inapp>x</a>')
    expect(render('<a href="HTTPS://FR.BOMTOON.EXAMPLE:443/shop">x</a>')).toBe('<a href="/shop" data-inapp>x</a>')
  })

  it('never turns an own-origin link into a protocol-relative one (found by the property test)', () => {
    expect(render(`<a href="${SITE}//">x</a>`)).toBe('<a href="/" data-inapp>x</a>')
    expect(render(`<a href="${SITE}//evil.example/x">x</a>`)).toBe('<a href="/evil.example/x" data-inapp>x</a>')
    expect(render('<a href="/a/..//evil.example">x</a>')).toBe('<a href="/evil.example" data-inapp>x</a>')
  })

  it('opens other sites in a new tab without opener', () => {
    expect(render('<a href="http://example.com/a?b=1&amp;c=2">x</a>')).toBe(
      '<a href="http://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">x</a>',
    )
    // Another edition is another site.
    expect(render('<a href="https://de.bomtoon.example/">x</a>')).toContain('target="_blank"')
  })

  it('keeps mailto links', () => {
    expect(render('<a href="mailto:help@bomtoon.example">x</a>')).toBe(
      '<a href="mailto:help@bomtoon.example" target="_blank" rel="noopener noreferrer">x</a>',
    )
  })

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    '\u0001javascript:alert(1)',
    'java\tscript:alert(1)',
    'java&#x09;script:alert(1)',
    'java&Tab;script:alert(1)',
    'java&NewLine;script:alert(1)',
    '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
    '&#x6A;avascript&#x3A;alert(1)',
    '&#106avascript&#58alert(1)',
    'javascript&colon;alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    '/\\evil.example/x',
    '\\\\evil.example',
    'ftp://example.com',
    'relative/path',
    '#top',
  ])('removes href %j', (href) => {
    const out = render(`<a href="${href}">x</a>`)
    expect(out).toBe('<a>x</a>')
  })

  it('sanitizeHref reports in-app and external links', () => {
    expect(sanitizeHref('/a b', SITE)).toEqual({ href: '/a%20b', inApp: true })
    expect(sanitizeHref('https://example.com', SITE)).toEqual({ href: 'https://example.com/', inApp: false })
    expect(sanitizeHref('/x', null)).toEqual({ href: '/x', inApp: true })
  })

  it('does not nest links', () => {
    expect(render('<a href="/a">1<a href="/b">2</a>3</a>')).toBe('<a href="/a" data-inapp>1</a><a href="/b" data-inapp>2</a>3')
  })
})

describe('translation marker and ##null##', () => {
  it(`uses ${DEFAULT_TRANSLATION_MARKER} by default and sanitises the translation`, () => {
    expect(render('@:banner.title')).toBe('<span style="color: red">Nouveau</span> chaque jour')
    expect(render('  @: banner.title ')).toBe('<span style="color: red">Nouveau</span> chaque jour')
  })

  it('sanitises a hostile translation', () => {
    expect(render('@:banner.evil')).toBe('<a>x</a>')
  })

  it('resolves one level only', () => {
    expect(render('@:banner.loop')).toBe('@:banner.loop')
  })

  it('shows the key when the translator does not know it, and survives a throwing translator', () => {
    expect(render('@:missing.key')).toBe('missing.key')
    expect(
      render('@:x.y', {
        t: () => {
          throw new Error('boom')
        },
      }),
    ).toBe('x.y')
  })

  it('accepts another marker, or none', () => {
    expect(render('$t:banner.title', { translationMarker: '$t:' })).toContain('Nouveau')
    expect(render('@:banner.title', { translationMarker: '$t:' })).toBe('@:banner.title')
    expect(render('@:banner.title', { translationMarker: '' })).toBe('@:banner.title')
  })

  it('does not treat the marker in the middle of a label as a key', () => {
    expect(render('Écrivez à @:support')).toBe('Écrivez à @:support')
  })

  it('renders ##null## and empty input as nothing', () => {
    expect(render('##null##')).toBe('')
    expect(render(' ##null## ')).toBe('')
    expect(render('@:banner.hidden')).toBe('')
    expect(render('')).toBe('')
    expect(render(null)).toBe('')
    expect(render(undefined)).toBe('')
    expect(render('##null## ici')).toBe('##null## ici')
  })
})

describe('entities and malformed markup', () => {
  it('decodes and re-escapes entities', () => {
    expect(render('Tom &amp; Jerry &lt;3 &eacute;t&eacute; &#233; &#x1F600; &copy 2026')).toBe('Tom &amp; Jerry &lt;3 été é 😀 © 2026')
    expect(render('&unknown; &#0; &#xD800;')).toBe('&amp;unknown; \ufffd \ufffd')
    expect(render('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('escapes stray angle brackets', () => {
    expect(render('1 < 2 > 0')).toBe('1 &lt; 2 &gt; 0')
    expect(render('a <3 b')).toBe('a &lt;3 b')
  })

  it('closes unclosed tags at the end', () => {
    expect(render('<div><span style="color:red">a')).toBe('<div><span style="color: red">a</span></div>')
  })

  it('closes misnested tags in order and drops stray end tags', () => {
    expect(render('<span><div>a</span>b</div>')).toBe('<span><div>a</div></span>b')
    expect(render('</span>a</div></a>')).toBe('a')
  })

  it('drops a tag left open at the end of input', () => {
    expect(render('a<span style="color:red')).toBe('a')
    expect(render('a<a href="/x"')).toBe('a')
    expect(render('a</span')).toBe('a')
  })

  it(`stops nesting at ${MAX_DEPTH} levels, keeping the text`, () => {
    const out = render('<span>'.repeat(MAX_DEPTH + 5) + 'deep')
    expect(out).toBe('<span>'.repeat(MAX_DEPTH) + 'deep' + '</span>'.repeat(MAX_DEPTH))
  })

  it('stays fast on large hostile input', () => {
    const hostile = [
      '<span>'.repeat(20000) + '</div>'.repeat(20000),
      '<a title="'.repeat(20000),
      '<span style="color: rgb(' + '1 '.repeat(20000) + 'x)">a</span>',
      '&#1'.repeat(20000) + '<!--'.repeat(20000),
    ]
    const started = performance.now()
    for (const input of hostile) render(input)
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('keeps > inside quoted attribute values inside the tag', () => {
    expect(render('<span title="a>b" style="color:red">c</span>')).toBe('<span style="color: red">c</span>')
  })
})

describe('XSS payloads', () => {
  const payloads = [
    '<script>alert(1)</script>',
    '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
    '<scr<script>ipt>alert(1)</scr</script>ipt>',
    '<img src=x onerror=alert(1)>',
    '<img src="x" onerror="alert(1)"/>',
    '<span onmouseover="alert(1)">x</span>',
    '<div/onmouseover=alert(1)>x</div>',
    '<span\tonclick=alert(1)>x</span>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="jav&#x09;ascript:alert(1)">x</a>',
    '<a href="  &#14;javascript:alert(1)">x</a>',
    '<a href=javascript&colon;alert(1)>x</a>',
    '<a href="data:text/html,<script>alert(1)</script>">x</a>',
    '<a href="vbscript:msgbox(1)">x</a>',
    '<a href="//evil.example">x</a>',
    '<span style="background:url(javascript:alert(1))">x</span>',
    '<span style="background-color: url(javascript:alert(1))">x</span>',
    '<div style="width: expression(alert(1))">x</div>',
    '<span style="color: red; background-image: url(\'javascript:alert(1)\')">x</span>',
    '<svg onload=alert(1)><script>alert(1)</script></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="javascript:alert(1)">',
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    '<a href="x" style="x:expression(alert(1))">x</a>',
    '<div><span><a href="javascript:alert(1)"><div onclick=alert(1)>',
    '"><script>alert(1)</script>',
    "'><img src=x onerror=alert(1)>",
    '<span title="&quot;><script>alert(1)</script>">x</span>',
    '<!--<script>alert(1)//--><script>alert(1)</script>',
    '<a href="&#x2F;&#x2F;evil.example">x</a>',
    '<a href="https://fr.bomtoon.example@evil.example/">x</a>',
  ]

  it.each(payloads)('neutralises %j', (payload) => {
    const out = render(payload)
    expect(out).not.toMatch(/<script/i)
    expect(out).not.toMatch(/<(?:img|svg|iframe|object|embed|form|meta|base|math|style|button|table)\b/i)
    assertSafeTags(out)
  })

  it('keeps the userinfo trick external', () => {
    expect(render('<a href="https://fr.bomtoon.example@evil.example/">x</a>')).toBe(
      '<a href="https://evil.example/" target="_blank" rel="noopener noreferrer">x</a>',
    )
  })
})

// ── Properties ──────────────────────────────────────────────────────────────────────────────────────

const ALLOWED_TAG = /^<(?:br|(span|div|a)((?: (?:href|style|target|rel)="[^"<>]*"| data-inapp)*))>$|^<\/(?:span|div|a)>$/
const SAFE_HREF = /^(?:\/(?![/\\])|https?:\/\/|mailto:)/i

/** Every tag in the output is one the sanitiser may write, with allowed attributes and safe values. */
function assertSafeTags(out: string) {
  expect(out).not.toMatch(/<script/i)
  const tags = out.match(/<[^>]*>?/g) ?? []
  const stack: string[] = []
  for (const tag of tags) {
    expect(tag).toMatch(ALLOWED_TAG)
    expect(tag).not.toMatch(/\son\w*=/i)
    // An href may carry any text in its path or query (`/search?q=javascript:`); what matters is its scheme.
    const href = /href="([^"]*)"/.exec(tag)?.[1]
    if (href !== undefined) expect(href.replace(/&amp;/g, '&')).toMatch(SAFE_HREF)
    expect(tag.replace(/href="[^"]*"/, '')).not.toMatch(/javascript:|vbscript:|data:|url\(|expression|\\/i)
    const open = /^<(span|div|a)[ >]/.exec(tag)?.[1]
    const close = /^<\/(span|div|a)>$/.exec(tag)?.[1]
    if (open) stack.push(open)
    if (close) expect(stack.pop()).toBe(close)
  }
  expect(stack).toEqual([])
}

const htmlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '<',
        '>',
        '</',
        '/>',
        '"',
        "'",
        '=',
        ' ',
        '\t',
        '\n',
        '&',
        ';',
        '#',
        ':',
        '/',
        '\\',
        '(',
        ')',
        'script',
        'span',
        'div',
        'a',
        'br',
        'img',
        'svg',
        'style',
        'href',
        'src',
        'onerror',
        'onclick',
        'on',
        'javascript',
        'java',
        'script:',
        'vbscript:',
        'data:',
        'url(',
        'expression(',
        'alert(1)',
        '&#106;',
        '&#x6A;',
        '&colon;',
        '&Tab;',
        '&#58',
        '&lt;',
        '&gt;',
        '&quot;',
        '&amp;',
        '<!--',
        '-->',
        '<!',
        '<?',
        'color:',
        'red',
        'background-color:',
        'font-size:',
        '12px',
        '//',
        'https://evil.example',
        SITE,
        '@:',
        '##null##',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''))

describe('properties', () => {
  it('arbitrary strings never yield scripts, handlers or unsafe URLs', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (input) => {
        assertSafeTags(render(input))
      }),
      { numRuns: 500 },
    )
  })

  it('HTML-like strings never yield scripts, handlers or unsafe URLs', () => {
    fc.assert(
      fc.property(htmlish, (input) => {
        assertSafeTags(render(input))
      }),
      { numRuns: 3000 },
    )
  })

  it('attribute values built from hostile fragments stay safe', () => {
    fc.assert(
      fc.property(htmlish, htmlish, (href, style) => {
        const out = render(`<a href="${href}" style="${style}">x</a><span style='${style}'>y</span>`)
        assertSafeTags(out)
      }),
      { numRuns: 2000 },
    )
  })

  it('is idempotent: sanitised output renders to itself', () => {
    fc.assert(
      fc.property(htmlish, (input) => {
        const once = render(input, { translationMarker: '' })
        fc.pre(once.trim() !== '##null##')
        expect(render(once, { translationMarker: '' })).toBe(once)
      }),
      { numRuns: 1000 },
    )
  })

  it('plain text without markup characters comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 100 }).filter((s) => !/[<>&]/.test(s) && s.trim() !== '##null##' && !s.trim().startsWith('@:')),
        (s) => {
          expect(render(s)).toBe(s)
        },
      ),
    )
  })
})
