/**
 * The long values of a refused plain form (a support question's text, up to 2,000 characters: too big for the
 * flash cookie in any script) kept for the flash's minute in the `SESSION` KV under a random id the flash names
 * (src/lib/forms/flash.ts), read once by the form's page. Nothing of it goes into a URL.
 */
import { env } from 'cloudflare:workers'
import { FLASH_SECONDS } from './flash.ts'

/** Longest kept text (a question's text is at most 2,000 characters; the form refuses more, up to twice that). */
const TEXT_MAX = 4000
const keyOf = (id: string) => `form-draft:${id}`
const kv = () => (env as unknown as { SESSION?: KVNamespace }).SESSION

/** Keeps the `names` fields of `raw` (strings, cut to TEXT_MAX); the draft's id, or undefined when none is posted. */
export async function saveDraft(raw: Record<string, unknown>, names: readonly string[]): Promise<string | undefined> {
  const values: Record<string, string> = {}
  for (const name of names) if (typeof raw[name] === 'string' && raw[name] !== '') values[name] = raw[name].slice(0, TEXT_MAX)
  const store = kv()
  if (!store || Object.keys(values).length === 0) return undefined
  const id = crypto.randomUUID()
  await store.put(keyOf(id), JSON.stringify(values), { expirationTtl: FLASH_SECONDS })
  return id
}

/** The draft's values, deleted once read ({} when absent, expired or malformed). */
export async function takeDraft(id: string | undefined): Promise<Record<string, string>> {
  const store = kv()
  if (!id || !store) return {}
  const stored = await store.get(keyOf(id))
  if (stored === null) return {}
  await store.delete(keyOf(id))
  try {
    const parsed: unknown = JSON.parse(stored)
    if (parsed === null || typeof parsed !== 'object') return {}
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'))
  } catch {
    return {}
  }
}
