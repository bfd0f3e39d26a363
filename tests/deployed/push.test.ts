/** Web Push on a deployed worker (no local switch): the local-run test push does not exist. */
import { describe, it } from 'vitest'
import { expectError } from '../worker/app.ts'
import { call, newReader } from '../worker/comment.helpers.ts'

describe('a deployed worker', () => {
  it('answers 404 NOT_EXIST on the local-run test push', async () => {
    const reader = await newReader()
    await expectError(
      await call(reader, 'POST', '/api/v1/app/push/test', { kind: 'notice', title: 'T', body: '', url: '/my' }),
      404,
      'NOT_EXIST',
    )
  })
})
