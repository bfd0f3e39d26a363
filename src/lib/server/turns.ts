/**
 * Page requests before password hashes, inside one isolate (issue 34 point 5; docs/ARCHITECTURE.md "Password hashing").
 *
 * A hash is ~0.3 s of CPU. Where it runs in the isolate that answers pages (every local run: workerd serves the
 * worker and its Durable Objects on one thread), it runs one at a time (`hashInTurn`) in slices, and between two
 * slices it waits while a request of this isolate that is not itself waiting on a hash is being answered, at most
 * `MAX_WAIT_MS`, so sign-ins still move under a steady stream of pages. The slices are @noble/hashes' own
 * (`argon2idAsync`'s `asyncTick`): between two, it awaits `scheduler.yield()`, which workerd lacks and this module
 * provides. Deployed, a hash runs in a `Hasher` object of its own (src/features/auth/hasher.server.ts), and timers
 * stand still while code runs, so a hash there is one stretch that holds no page.
 */

/** Longest wait of a slice behind other requests: a sign-in then still gets ≥ 1 slice per this many ms. */
const MAX_WAIT_MS = 25
/** How often a waiting slice looks again. */
const LOOK_EVERY_MS = 1
/** How often a queued hash looks again (a hash takes ~0.2–0.3 s: finer costs a timer per waiter per ms). */
const QUEUE_LOOK_MS = 10

/**
 * Requests of this isolate being answered (`answering`), hashes queued or running (`hashInTurn`), and whether one is
 * running. Waiting is done by looking again on a timer of the waiter's own: workerd never completes a promise that
 * another request or object resolves after its own request ended, so no promise crosses from one to another here.
 */
let serving = 0
let hashing = 0
let running = false
/** Whether this isolate hashes (local runs, scripts, tests, a `Hasher` object), and storage work before a hash under way. */
let hashesHere = false
let beforeHash = 0

const othersBusy = () => serving - hashing > 0
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The next turn of a hash slice: at once when nothing else is being answered, else when it is (or `MAX_WAIT_MS`). */
async function nextTurn(): Promise<void> {
  const until = Date.now() + MAX_WAIT_MS
  do await sleep(othersBusy() ? LOOK_EVERY_MS : 0)
  while (othersBusy() && Date.now() < until)
}

const host = globalThis as { scheduler?: { yield?: () => Promise<void> } }
host.scheduler ??= {}
host.scheduler.yield ??= nextTurn

/** Answers one request (the app's outermost middleware), so hash slices wait for it. */
export async function answering<T>(answer: () => Promise<T>): Promise<T> {
  serving++
  try {
    return await answer()
  } finally {
    serving--
  }
}

/** Runs `work` (a hash) when no other hash of this isolate runs; counted while waiting or running. */
export async function hashInTurn<T>(work: () => Promise<T>): Promise<T> {
  hashing++
  hashesHere = true
  try {
    while (running) await sleep(QUEUE_LOOK_MS)
    running = true
    try {
      return await work()
    } finally {
      running = false
    }
  } finally {
    hashing--
  }
}

/** Requests doing their storage work before a hash at once, where that storage runs on this thread too. */
const BEFORE_HASH_AT_ONCE = 2

/**
 * Runs `work`, the storage work of a request before its hash (attempt counter, account look-up: a few ms on a local
 * thread; the address limit comes before, so a refusal never waits), paced where this isolate hashes: at most
 * `BEFORE_HASH_AT_ONCE` at once, each waiting first while a page request is answered (at most `MAX_WAIT_MS`). Twenty
 * sign-ins arriving together then never hold the thread in one burst. Where hashes run elsewhere (a deployed
 * worker), it runs `work` at once.
 */
export async function beforeHashInTurn<T>(work: () => Promise<T>): Promise<T> {
  if (!hashesHere) return work()
  hashing++ // sign-in work, waiting or running: no page or slice waits for it
  try {
    const until = Date.now() + MAX_WAIT_MS
    while (beforeHash >= BEFORE_HASH_AT_ONCE || (othersBusy() && Date.now() < until))
      await sleep(beforeHash >= BEFORE_HASH_AT_ONCE ? QUEUE_LOOK_MS : LOOK_EVERY_MS)
    beforeHash++
    try {
      return await work()
    } finally {
      beforeHash--
    }
  } finally {
    hashing--
  }
}
