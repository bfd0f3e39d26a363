import { describe, expect, it } from 'vitest'
import { richPlain, richText } from './rich-text.ts'

const ctx = {
  messages: { 'banner.welcome': 'Bienvenue <span style="color:red">!</span>', 'banner.hidden': '##null##' },
  origin: 'https://webtoon.example',
}
const html = (label: string, links = true) => richText(label, { ...ctx, links })

describe('rich-text labels (spec §2)', () => {
  it('keeps span, br, a and div; an operator style becomes classes, never a style attribute', () => {
    expect(html('<span style="color:#e60012;font-weight:bold">Gratuit</span><br>ce soir')).toBe(
      '<span class="rt-red rt-bold">Gratuit</span><br />ce soir',
    )
    expect(html('<div style="text-align:center; font-size: 20px">Titre</div>')).toBe('<div class="rt-center rt-large">Titre</div>')
    expect(html('<span style="color: blue">bleu</span>')).toBe('<span>bleu</span>')
  })

  it('drops every other tag but keeps its text, and drops the text of tags whose content is not text', () => {
    expect(html('<b>gras</b> <i>it</i> <h1>h</h1>')).toBe('gras it h')
    expect(html('avant<script>alert(1)</script>après')).toBe('avantaprès')
    expect(html('<style>body{display:none}</style>texte')).toBe('texte')
    expect(html('<textarea></textarea><img src=x onerror=alert(1)></textarea>ok')).not.toMatch(/<img|onerror/)
    expect(html('<svg><script>alert(1)</script></svg>x')).toBe('x')
    expect(html('<!-- un commentaire -->texte<!DOCTYPE html>')).toBe('texte')
  })

  it('drops event handlers, classes and ids the operator wrote', () => {
    const out = html('<span onclick="alert(1)" class="admin" id="x" onmouseover=alert(1)>a</span><div onload="x">b</div>')
    expect(out).toBe('<span>a</span><div>b</div>')
  })

  it('drops CSS that is not one the site reads: expressions, url(), imports, escapes', () => {
    for (const style of [
      'color: expression(alert(1))',
      'background: url(javascript:alert(1))',
      'background-image: url(https://evil.example/x.png)',
      '@import "x"; color: red\\',
      'position: fixed; top: 0; left: 0; width: 100%; height: 100%',
      'behavior: url(x.htc)',
    ]) {
      expect(html(`<span style='${style}'>t</span>`)).toBe('<span>t</span>')
    }
  })

  it('keeps http, https and mail links (a new tab for another site) and drops javascript:, data: and the like', () => {
    expect(html('<a href="https://other.example/x">x</a>')).toBe(
      '<a class="rt-link" href="https://other.example/x" target="_blank" rel="noopener noreferrer">x</a>',
    )
    expect(html('<a href="mailto:aide@webtoon.example">m</a>')).toContain('href="mailto:aide@webtoon.example"')
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      '//evil.example/x',
      '/\\evil.example',
    ]) {
      expect(html(`<a href="${href}">lien</a>`)).toBe('<span>lien</span>')
    }
  })

  it('keeps a link to this site in the tab, as a path', () => {
    expect(html('<a href="https://webtoon.example/detail/3?x=1#top">série</a>')).toBe(
      '<a class="rt-link" href="/detail/3?x=1#top">série</a>',
    )
    expect(html('<a href="/event" style="font-weight:700" target="_top">événement</a>')).toBe(
      '<a class="rt-link rt-bold" href="/event">événement</a>',
    )
  })

  it('inside a link of its own, keeps a link’s text only', () => {
    expect(html('voir <a href="/event">ici</a>', false)).toBe('voir ici')
  })

  it('closes what is left open and drops closing tags that close nothing', () => {
    expect(html('<span><div>a')).toBe('<span><div>a</div></span>')
    expect(html('a</span></div></a></li></ul>b')).toBe('ab')
  })

  it('escapes text, so nothing in it becomes markup', () => {
    expect(html('5 < 6 & "x" > 3')).toBe('5 &lt; 6 &amp; "x" &gt; 3')
    expect(html('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('renders nothing for ##null##, and a message of the edition for @:key (by the same rules)', () => {
    expect(html('##null##')).toBe('')
    expect(html('  ##null##  ')).toBe('')
    expect(html('@:banner.welcome')).toBe('Bienvenue <span class="rt-red">!</span>')
    expect(html('@:banner.hidden')).toBe('')
    expect(html('@:banner.unknown')).toBe('')
    expect(html('')).toBe('')
  })

  it('gives the text alone for an attribute or a title', () => {
    expect(richPlain('<span style="color:red">Gratuit</span><br>ce <b>soir</b> &amp; demain <script>x</script>', ctx)).toBe(
      'Gratuit ce soir & demain',
    )
    expect(richPlain('##null##', ctx)).toBe('')
  })

  it('snaps colours to the palette by hue: red, orange, green, grey; blue, purple, black and white keep the text colour', () => {
    const colour = (c: string) => html(`<span style="color: ${c}">t</span>`).replace(/^<span(?: class="(.*)")?>t<\/span>$/, '$1')
    expect(['#f00', 'crimson', 'rgb(230, 0, 18)', '#ff69b4'].map(colour)).toEqual(['rt-red', 'rt-red', 'rt-red', 'rt-red'])
    expect(['orange', '#ffa500', 'gold'].map(colour)).toEqual(['rt-orange', 'rt-orange', 'rt-orange'])
    expect(['green', '#0a0', 'teal'].map(colour)).toEqual(['rt-green', 'rt-green', 'rt-green'])
    expect(colour('#777')).toBe('rt-grey')
    expect(['blue', 'purple', 'black', 'white', '#abcdeg', 'red!', 'var(--x)'].map(colour)).toEqual(['', '', '', '', '', '', ''])
    expect(html('<span style="text-align: center">t</span>')).toBe('<span>t</span>')
  })
})
