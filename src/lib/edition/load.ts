/**
 * Node-side edition loader (build, scripts, unit tests). The worker gets the parsed edition
 * through the `virtual:edition` module made by `editionPlugin` and parses it again at start.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { EDITION_IDS, parseEdition, type Edition } from './schema.ts'
import { themeCss } from './palette.ts'

export type Messages = Record<string, string>

const root = new URL('../../../editions/', import.meta.url).pathname

/** Reads `editions/<id>/edition.json` and `editions/<id>/messages/*.json`; throws naming edition and field. */
export function loadEdition(id: string): { edition: Edition; messages: Messages } {
  if (!(EDITION_IDS as readonly string[]).includes(id)) {
    throw new Error(`Unknown edition "${id}": expected one of ${EDITION_IDS.join(', ')}`)
  }
  const dir = join(root, id)
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(join(dir, 'edition.json'), 'utf8'))
  } catch (e) {
    throw new Error(`Edition "${id}": cannot read editions/${id}/edition.json: ${(e as Error).message}`, { cause: e })
  }
  const edition = parseEdition(id, raw)
  return { edition, messages: loadMessages(id) }
}

/** All message files of an edition merged into one flat catalogue. */
function loadMessages(id: string): Messages {
  const dir = join(root, id, 'messages')
  const messages: Messages = {}
  if (!existsSync(dir)) return messages
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>
    for (const [key, value] of Object.entries(data)) {
      if (typeof value !== 'string') throw new Error(`Edition "${id}": messages/${file} key "${key}" is not a string`)
      if (key in messages) throw new Error(`Edition "${id}": key "${key}" is defined twice (messages/${file})`)
      messages[key] = value
    }
  }
  return messages
}

/**
 * Vite plugin: `import { edition, messages } from 'virtual:edition'` in worker and page code, and
 * `import 'virtual:edition-theme.css'` for the theme tokens, light and dark (palette.ts).
 */
export function editionPlugin(id: string) {
  const { edition, messages } = loadEdition(id)
  const modules: Record<string, string> = {
    'virtual:edition':
      `export const edition = ${JSON.stringify(edition)};\nexport const messages = ${JSON.stringify(messages)};\n` +
      `export const buildId = ${JSON.stringify(Date.now().toString(36))};\n`,
    'virtual:edition-theme.css': themeCss(edition.theme),
  }
  return {
    name: 'webtoon-edition',
    resolveId(source: string) {
      return source in modules ? '\0' + source : undefined
    },
    load(moduleId: string) {
      return moduleId.startsWith('\0') ? modules[moduleId.slice(1)] : undefined
    },
  }
}
