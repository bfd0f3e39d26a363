import { describe, expect, it } from 'vitest'
import { isCancel, shareMethod, shareText, type ShareData } from './share.ts'

const data: ShareData = {
  title: 'La Reine des ombres',
  text: 'Lisez « La Reine des ombres » sur Bomtoon',
  url: 'https://fr.example/detail/24',
}
const share = () => Promise.resolve()

describe('how a page shares', () => {
  it('opens the share sheet where the browser has one', () => {
    expect(shareMethod({ share }, data)).toBe('sheet')
    expect(shareMethod({ share, canShare: () => true }, data)).toBe('sheet')
  })
  it('copies the link where there is no share sheet, or it refuses this data', () => {
    expect(shareMethod({}, data)).toBe('copy')
    expect(shareMethod({ canShare: () => true }, data)).toBe('copy')
    expect(shareMethod({ share, canShare: () => false }, data)).toBe('copy')
  })
  it('asks canShare about the data it will share', () => {
    const seen: ShareData[] = []
    shareMethod({ share, canShare: (d) => (seen.push(d), true) }, data)
    expect(seen).toEqual([data])
  })
})

describe('a closed share sheet', () => {
  it('is an AbortError, whatever its class', () => {
    expect(isCancel(new DOMException('Share canceled', 'AbortError'))).toBe(true)
    expect(isCancel({ name: 'AbortError' })).toBe(true)
  })
  it('is not any other failure', () => {
    expect(isCancel(new DOMException('no user gesture', 'NotAllowedError'))).toBe(false)
    expect(isCancel(new Error('AbortError'))).toBe(false)
    expect(isCancel(null)).toBe(false)
    expect(isCancel('AbortError')).toBe(false)
  })
})

it('puts the title into the edition text', () => {
  expect(shareText('Lisez « {title} » sur Bomtoon', 'Épisode 2 · Lune')).toBe('Lisez « Épisode 2 · Lune » sur Bomtoon')
  expect(shareText('« {title} »', 'Tom $& Jerry')).toBe('« Tom $& Jerry »')
})
