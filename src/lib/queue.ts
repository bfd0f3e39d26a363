/** The retry rules every queue consumer shares. */
/** Longest delay Queues accepts for a message (12 hours). */
export const QUEUE_MAX_DELAY_S = 12 * 3600
/** Retries of a queue message before it goes to its dead-letter queue (wrangler.jsonc `max_retries` of every consumer). */
export const QUEUE_MAX_RETRIES = 5
/** Wait before a failed job's next attempt: 30 s, 1, 2, 4… minutes, at most an hour (the queue's own retry). */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1))
