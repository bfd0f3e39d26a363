import { describe, expect, it } from 'vitest'
import { answering, beforeHashInTurn, hashInTurn } from './turns.ts'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
/** What @noble/hashes awaits between two slices of a hash. */
const nextSlice = () => (globalThis as unknown as { scheduler: { yield(): Promise<void> } }).scheduler.yield()

/** Runs `n` storage works of `ms` each through `beforeHashInTurn`; the most that ran at once. */
async function mostAtOnce(n: number, ms: number): Promise<number> {
  let now = 0
  let most = 0
  await Promise.all(
    Array.from({ length: n }, () =>
      beforeHashInTurn(async () => {
        most = Math.max(most, ++now)
        await sleep(ms)
        now--
      }),
    ),
  )
  return most
}

// first in the file: the module's state is this file's own
describe('storage work before a hash (issue 34 point 5)', () => {
  it('runs at once, all together, in an isolate that never hashed (a deployed worker)', async () => {
    expect(await mostAtOnce(20, 5)).toBe(20)
  })

  it('runs two at a time once the isolate hashes, so twenty sign-ins never hold the thread together', async () => {
    await hashInTurn(async () => {})
    expect(await mostAtOnce(20, 5)).toBe(2)
  })

  it('waits while a page request is answered', async () => {
    const order: string[] = []
    const page = answering(async () => {
      await sleep(10)
      order.push('page')
    })
    await answering(() =>
      beforeHashInTurn(async () => {
        order.push('sign-in')
      }),
    )
    await page
    expect(order).toEqual(['page', 'sign-in'])
  })
})

describe('hash slices and page requests in one isolate (issue 34 point 5)', () => {
  it('a slice waits until the request being answered is done', async () => {
    let answered = false
    const page = answering(async () => {
      await sleep(10)
      answered = true
    })
    await nextSlice()
    expect(answered).toBe(true)
    await page
  })

  it('a slice waits at most 25 ms behind a long request, so sign-ins still move', async () => {
    let answered = false
    const page = answering(async () => {
      await sleep(200)
      answered = true
    })
    const started = performance.now()
    await nextSlice()
    expect(answered).toBe(false)
    expect(performance.now() - started).toBeLessThan(150)
    await page
  })

  it('a request waiting on a hash does not hold the slices back', async () => {
    const signIn = answering(() => hashInTurn(() => sleep(30)))
    let sliced = false
    const slice = hashInTurn(async () => {
      await nextSlice()
      sliced = true
    })
    await Promise.all([signIn, slice])
    expect(sliced).toBe(true)
  })

  it('hashes run one at a time', async () => {
    const order: string[] = []
    const hash = (name: string) =>
      hashInTurn(async () => {
        order.push(`${name} starts`)
        await sleep(15)
        order.push(`${name} ends`)
      })
    await Promise.all([hash('a'), hash('b'), hash('c')])
    expect(order).toHaveLength(6)
    for (let i = 0; i < 6; i += 2) expect(order[i + 1]).toBe(order[i]!.replace('starts', 'ends'))
  })
})
