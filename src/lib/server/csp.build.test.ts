import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cspOnce } from './csp.build.ts'

const a = '"sha256-9gYQ6gi52JaWhI7yaJV11XRagcvz8+J/wQsHO7Pcu4g="'
const b = '"sha256-hep6N2rmzsNzmlJOqaOxRMJmbbfPyztIJv3mzVhxY0I="'
const c = '"sha384-kept"'

/** The integration's build steps run over a server directory holding `files`; the files as it leaves them. */
async function built(files: Record<string, string>): Promise<Record<string, string>> {
  const server = await mkdtemp(join(tmpdir(), 'csp-once-'))
  await mkdir(join(server, 'chunks'))
  for (const [name, code] of Object.entries(files)) await writeFile(join(server, name), code)
  const hooks = cspOnce().hooks as Record<string, (options: unknown) => unknown>
  await hooks['astro:config:done']!({ config: { build: { server: pathToFileURL(`${server}/`) } } })
  await hooks['astro:build:done']!({ logger: { info() {} } })
  return Object.fromEntries(await Promise.all(Object.keys(files).map(async (name) => [name, await readFile(join(server, name), 'utf8')])))
}

describe('the server manifest’s hash lists, written without repeats', () => {
  it('keeps each hash of each list once, in its first place, and the rest of the code as it is', async () => {
    const manifest = `const m = {"csp":{"scriptHashes":[${a},${a}],"styleHashes":[${b},${a},${b},${c},${a}],"styleDirective":{"resources":["'self'","'self'"],"hashes":[${b},${b}]}},"routes":["/a","/a"]};`
    const other = `export const hashes = {"hashes":[${a},${a}]}`
    expect(await built({ 'chunks/entrypoints.mjs': manifest, 'chunks/other.mjs': other })).toEqual({
      'chunks/entrypoints.mjs': `const m = {"csp":{"scriptHashes":[${a}],"styleHashes":[${b},${a},${c}],"styleDirective":{"resources":["'self'","'self'"],"hashes":[${b}]}},"routes":["/a","/a"]};`,
      'chunks/other.mjs': other,
    })
  })

  it('fails the build when no manifest holds the hash lists (Astro changed its shape)', async () => {
    await expect(built({ 'chunks/entrypoints.mjs': 'const m = {"csp":{}}' })).rejects.toThrow(/no manifest with CSP hashes/)
  })
})
