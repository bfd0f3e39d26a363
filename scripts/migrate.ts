/** `npm run db:migrate`: applies the D1 migrations to the local database (.wrangler/state or --persist-to). */
import { existsSync } from 'node:fs'
import { args, run, wranglerConfig } from './lib.ts'

const persist = String(args()['persist-to'] ?? '.wrangler/state')
const config = existsSync(wranglerConfig()) ? wranglerConfig() : 'wrangler.jsonc'
await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '-c', config])
