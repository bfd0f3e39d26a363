/** `EDITION=<id> npm run build`: validates the edition, then builds its worker into dist/<id>. */
import { loadEdition } from '../src/lib/edition/load.ts'
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
console.log(`Built edition ${id} into ${distDir(id)}`)
