import { describe, expect, it } from 'vitest'
import { isProtectedPath, loginRedirect, skipsUser } from './routes.ts'

const url = (p: string) => new URL(p, 'https://fr.example')

describe('spec §2 login redirect', () => {
  it('encodes the target path and query into callback', () => {
    const to = new URL(loginRedirect(url('/history/use?cursor=a b'))!, 'https://fr.example')
    expect(to.pathname).toBe('/user/login')
    expect(to.searchParams.get('callback')).toBe('/history/use?cursor=a%20b')
  })
  it('carries porch over and leaves it out when absent', () => {
    expect(new URL(loginRedirect(url('/gift?porch=app'))!, 'https://x').searchParams.get('porch')).toBe('app')
    expect(loginRedirect(url('/gift'))).not.toContain('porch')
  })
  it('gives an empty callback for the login-error route', () => {
    expect(new URL(loginRedirect(url('/callback/login-error?x=1'))!, 'https://x').searchParams.get('callback')).toBe('')
  })
  it('never redirects the login route to itself', () => {
    expect(loginRedirect(url('/user/login'))).toBeNull()
    expect(loginRedirect(url('/user/login?callback=%2Fgift'))).toBeNull()
  })
  it('protects the pages that need login and not the public ones', () => {
    for (const p of [
      '/gift',
      '/coupon',
      '/library/my',
      '/history/charge',
      '/setting',
      '/setting/push',
      '/user/changePassword',
      '/comment/my',
      '/qna/register',
    ])
      expect(isProtectedPath(p), p).toBe(true)
    for (const p of [
      '/',
      '/home/weekly',
      '/detail/1',
      '/viewer/1',
      '/shop',
      '/my',
      '/search',
      '/notice',
      '/faq',
      '/user/login',
      '/user/signup',
      '/giftcard',
    ])
      expect(isProtectedPath(p), p).toBe(false)
  })
  it('lists the pages that skip loading the user', () => {
    for (const p of [
      '/_/health',
      '/404',
      '/error',
      '/prepare',
      '/callback/login-error',
      '/callback/login-newuser',
      '/callback/logout-success',
      '/error/',
    ])
      expect(skipsUser(p), p).toBe(true)
    expect(skipsUser('/')).toBe(false)
    expect(skipsUser('/callback/login-success')).toBe(false)
  })
})
