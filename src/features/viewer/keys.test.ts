import { describe, expect, it } from 'vitest'
import { keyCommand, type KeyPress, type KeyState } from './keys.ts'

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  modified: false,
  defaultPrevented: false,
  typing: false,
  onControl: false,
  where: 'viewer',
  ...more,
})
const scroll: KeyState = { helpOpen: false, autoScroll: false, paper: false, isText: false, direction: 'ltr', letters: true }
const paper: KeyState = { ...scroll, paper: true }

describe('keyboard shortcuts of the viewer (spec §2 viewer)', () => {
  it('scroll the strip in SCROLL mode: arrows a fifth of the screen, space and PageUp/PageDown most of it', () => {
    expect(keyCommand(press('ArrowDown'), scroll)).toEqual({ do: 'scroll', dy: 0.2 })
    expect(keyCommand(press('ArrowUp'), scroll)).toEqual({ do: 'scroll', dy: -0.2 })
    expect(keyCommand(press('PageDown'), scroll)).toEqual({ do: 'scroll', dy: 0.9 })
    expect(keyCommand(press('PageUp'), scroll)).toEqual({ do: 'scroll', dy: -0.9 })
    expect(keyCommand(press(' '), scroll)).toEqual({ do: 'scroll', dy: 0.9 })
    expect(keyCommand(press(' ', { shiftKey: true }), scroll)).toEqual({ do: 'scroll', dy: -0.9 })
    expect(keyCommand(press('ArrowLeft'), scroll)).toBeNull() // the browser's own horizontal scroll
  })

  it("turn pages in PAPER mode, in the series' reading direction", () => {
    expect(keyCommand(press('ArrowRight'), paper)).toEqual({ do: 'turn', step: 1 })
    expect(keyCommand(press('ArrowRight'), { ...paper, direction: 'rtl' })).toEqual({ do: 'turn', step: -1 })
    expect(keyCommand(press('ArrowLeft'), { ...paper, direction: 'rtl' })).toEqual({ do: 'turn', step: 1 })
    expect(keyCommand(press(' ', { shiftKey: true }), paper)).toEqual({ do: 'turn', step: -1 })
    expect(keyCommand(press('PageDown'), paper)).toEqual({ do: 'turn', step: 1 })
  })

  it('zoom and auto-scroll only in SCROLL mode, zoom only on images', () => {
    expect(keyCommand(press('+'), scroll)).toEqual({ do: 'zoom', dir: 1 })
    expect(keyCommand(press('='), scroll)).toEqual({ do: 'zoom', dir: 1 })
    expect(keyCommand(press('-'), scroll)).toEqual({ do: 'zoom', dir: -1 })
    expect(keyCommand(press('0'), scroll)).toEqual({ do: 'resetZoom' })
    expect(keyCommand(press('a'), scroll)).toEqual({ do: 'toggleAutoScroll' })
    expect(keyCommand(press(']'), scroll)).toEqual({ do: 'speed', dir: 1 })
    expect(keyCommand(press('['), scroll)).toEqual({ do: 'speed', dir: -1 })
    for (const key of ['+', '-', '0', 'a', '[', ']']) expect(keyCommand(press(key), paper)).toBeNull()
    for (const key of ['+', '-', '0']) expect(keyCommand(press(key), { ...scroll, isText: true })).toBeNull()
    expect(keyCommand(press('a'), { ...scroll, isText: true })).toEqual({ do: 'toggleAutoScroll' })
  })

  it('change episode, go fullscreen and toggle the help in both modes', () => {
    for (const state of [scroll, paper]) {
      expect(keyCommand(press('n'), state)).toEqual({ do: 'episode', dir: 1 })
      expect(keyCommand(press('P'), state)).toEqual({ do: 'episode', dir: -1 })
      expect(keyCommand(press('f'), state)).toEqual({ do: 'fullscreen' })
      expect(keyCommand(press('?'), state)).toEqual({ do: 'toggleHelp' })
    }
  })

  it('Esc stops auto-scroll, else is left alone (an open dialog closes itself)', () => {
    expect(keyCommand(press('Escape'), { ...scroll, autoScroll: true })).toEqual({ do: 'stopAutoScroll' })
    expect(keyCommand(press('Escape'), scroll)).toBeNull()
    expect(keyCommand(press('Escape', { where: 'dialog' }), { ...scroll, helpOpen: true, autoScroll: true })).toBeNull()
  })

  it('act only in the viewer: nothing from a dialog (but ? closes the help) or from the rest of the page', () => {
    for (const key of ['ArrowDown', ' ', 'PageDown', 'n', 'p', 'f', '+', '0', 'a', ']', '?']) {
      expect(keyCommand(press(key, { where: 'outside' }), scroll)).toBeNull()
      expect(keyCommand(press(key, { where: 'dialog' }), scroll)).toBeNull()
    }
    expect(keyCommand(press('ArrowRight', { where: 'dialog' }), paper)).toBeNull()
    expect(keyCommand(press('?', { where: 'dialog' }), { ...scroll, helpOpen: true })).toEqual({ do: 'toggleHelp' })
    expect(keyCommand(press('?', { where: 'dialog', typing: true }), { ...scroll, helpOpen: true })).toBeNull()
  })

  it('single-character shortcuts switched off in the settings: n p a f ? + 0 [ ] do nothing, arrows and space still scroll', () => {
    const off = { ...scroll, letters: false }
    for (const key of ['n', 'N', 'p', 'a', 'f', '?', '+', '-', '0', '[', ']']) expect(keyCommand(press(key), off)).toBeNull()
    expect(keyCommand(press('?', { where: 'dialog' }), { ...off, helpOpen: true })).toBeNull()
    expect(keyCommand(press('ArrowDown'), off)).toEqual({ do: 'scroll', dy: 0.2 })
    expect(keyCommand(press(' '), off)).toEqual({ do: 'scroll', dy: 0.9 })
    expect(keyCommand(press('PageDown'), { ...paper, letters: false })).toEqual({ do: 'turn', step: 1 })
    expect(keyCommand(press('Escape'), { ...off, autoScroll: true })).toEqual({ do: 'stopAutoScroll' })
  })

  it('leaves the browser its keys: with Ctrl/Meta/Alt, already handled, in a text field, space on a control', () => {
    expect(keyCommand(press('f', { modified: true }), scroll)).toBeNull()
    expect(keyCommand(press('Escape', { modified: true }), { ...scroll, autoScroll: true })).toBeNull()
    expect(keyCommand(press('n', { defaultPrevented: true }), scroll)).toBeNull()
    expect(keyCommand(press('n', { typing: true }), scroll)).toBeNull()
    expect(keyCommand(press('?', { typing: true }), scroll)).toBeNull()
    expect(keyCommand(press(' ', { onControl: true }), scroll)).toBeNull()
    expect(keyCommand(press(' ', { onControl: true }), paper)).toBeNull()
    expect(keyCommand(press('ArrowDown', { onControl: true }), scroll)).toEqual({ do: 'scroll', dy: 0.2 })
    expect(keyCommand(press('x'), scroll)).toBeNull()
  })
})
