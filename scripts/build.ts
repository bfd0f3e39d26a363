/** `EDITION=<id> npm run build`: validates the edition, then builds its worker into dist/<id>. */
import { loadEdition } from '../src/lib/edition/load.ts'
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { withOwnMetaHashes } from '../src/lib/server/csp.ts'
import { distDir, editionId, run } from './lib.ts'

const id = editionId()
try {
  loadEdition(id)
} catch (e) {
  console.error((e as Error).message)
  process.exit(1)
}
await run('astro', ['build'], { env: { EDITION: id, CLOUDFLARE_ENV: id === 'fr' ? '' : id } }).catch((e) => {
  console.error(e.message)
  process.exit(1)
})
// each pre-rendered page's policy keeps the hashes of its own inline scripts and styles (src/lib/server/csp.ts)
const client = join(distDir(id), 'client')
for (const file of await readdir(client, { recursive: true }))
  if (file.endsWith('.html')) {
    const path = join(client, file)
    const html = await readFile(path, 'utf8')
    const trimmed = await withOwnMetaHashes(html)
    if (trimmed !== html) await writeFile(path, trimmed)
  }
console.log(`Built edition ${id} into ${distDir(id)}`)
