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
  beforeEach(() => {
    vi.stubGlobal('history', history)
    $layers.set([])
  })
  afterEach(() => {
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

  it('a popup Back already closed takes no second step back', () => {
    enterLayer(modal('help'))
    removeLayer('help') // closed by Back (the shell's popstate)
    leaveLayer('help') // then its state follows
    expect(history.back).not.toHaveBeenCalled()
    expect(isOwnStep()).toBe(false)
  })
})
