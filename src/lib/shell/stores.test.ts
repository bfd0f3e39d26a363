import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { $layers, enterLayer, isOwnStep, layerToClose, leaveLayer, removeLayer, type Layer } from './stores.ts'

const modal = (id: string): Layer => ({ id, kind: 'modal', type: 'main' })
const panel = (id: string): Layer => ({ id, kind: 'panel', type: 'default' })

describe('layerToClose (spec §2 back order)', () => {
  it('closes the newest modal first, then the newest panel, then nothing', () => {
    expect(layerToClose([panel('menu'), modal('age'), panel('filters'), modal('help')])?.id).toBe('help')
    expect(layerToClose([panel('menu'), panel('filters')])?.id).toBe('filters')
    expect(layerToClose([])).toBeNull()
  })
})

describe('a popup’s history entry', () => {
  const history = { pushState: vi.fn(), back: vi.fn() }
  /** The window's popstate: the browser takes a step back after the script that asked for it. */
  const win = new EventTarget()
  const popstate = () => win.dispatchEvent(new Event('popstate'))
  beforeEach(() => {
    vi.stubGlobal('history', history)
    vi.stubGlobal('addEventListener', win.addEventListener.bind(win))
    $layers.set([])
  })
  afterEach(async () => {
    popstate() // the steps a test asked for are taken
    await new Promise((resolve) => setTimeout(resolve))
    vi.unstubAllGlobals()
    vi.clearAllMocks()
    while (isOwnStep());
  })

  it('opening puts the popup on top of the stack with one history entry', () => {
    enterLayer(modal('age'))
    expect($layers.get().map((l) => l.id)).toEqual(['age'])
    expect(history.pushState).toHaveBeenCalledOnce()
  })

  it('closing by its own button or Esc takes the entry back once, and that step closes nothing else', () => {
    enterLayer(panel('menu'))
    enterLayer(modal('age'))
    leaveLayer('age')
    expect($layers.get().map((l) => l.id)).toEqual(['menu'])
    expect(history.back).toHaveBeenCalledOnce()
    expect(isOwnStep()).toBe(true) // the popstate of that step: the menu stays open
    expect(isOwnStep()).toBe(false) // the reader's next Back is a real one
  })

  it('a popup opened before the browser took the last one’s step back gets its entry after that step', async () => {
    enterLayer(modal('settings'))
    leaveLayer('settings') // Esc: one step back asked for
    enterLayer(modal('settings-again')) // reopened at once, before the step is taken
    expect(history.pushState).toHaveBeenCalledOnce() // not yet: that entry would be the one taken back
    popstate()
    expect(isOwnStep()).toBe(true)
    await vi.waitFor(() => expect(history.pushState).toHaveBeenCalledTimes(2))
    leaveLayer('settings-again')
    expect(history.back).toHaveBeenCalledTimes(2) // its own entry, not the page's
  })

  it('a popup closed before its entry was pushed takes no step back', async () => {
    enterLayer(modal('a'))
    leaveLayer('a')
    enterLayer(modal('b'))
    leaveLayer('b')
    expect(history.back).toHaveBeenCalledOnce()
    popstate()
    await Promise.resolve()
    expect(history.pushState).toHaveBeenCalledOnce()
  })

  it('a popup Back already closed takes no second step back', () => {
    enterLayer(modal('help'))
    removeLayer('help') // closed by Back (the shell's popstate)
    leaveLayer('help') // then its state follows
    expect(history.back).not.toHaveBeenCalled()
    expect(isOwnStep()).toBe(false)
  })
})
