/**
 * A full Chromium for the one check the headless shell `npm install` brings cannot run: Chromium's own install
 * checks (`Page.getInstallabilityErrors`, docs/ARCHITECTURE.md "Installable app"). No full Chromium is published
 * on the npm registry and Playwright's browser download cannot reach its host from these machines, so on a Debian
 * machine `npm test` takes Debian's `chromium` package and the libraries it needs that the machine lacks, from
 * the machine's own apt sources (read from /etc/apt, never written here), without apt and without root:
 *
 * 1. every source's `InRelease` is checked against the keyring its `Signed-By` names (else apt's trusted keys);
 * 2. the package indexes are checked against the SHA-256 sums of that signed text, each `.deb` against its index;
 * 3. `chromium` and the packages its `Depends` need that dpkg does not list as installed are unpacked into
 *    `node_modules/.cache/chromium-full/<version>/`, started through a wrapper that sets `LD_LIBRARY_PATH`.
 *
 * Ready once per checkout (about 115 MB fetched on this machine, 30 s); then the wrapper's path comes back at once.
 */
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { arch } from 'node:os'
import { join, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { execFileSync } from 'node:child_process'
import { gunzipSync } from 'node:zlib'
import { readCleartextMessage, readKeys, verify, type Key } from 'openpgp'
import { x as untar } from 'tar'
import xz from 'xz-decompress'

const CACHE = resolve('node_modules/.cache/chromium-full')
const READY = 'chromium.sh'
const { XzReadableStream } = xz

/** One `deb` line of the apt sources: `uri`, `suite`, `components`, the keyring it trusts. */
export type AptSource = { uri: string; suite: string; components: string[]; signedBy?: string }

/** The `deb` sources of apt's configuration: deb822 `.sources` files and one-line `.list` files. */
export function parseAptSources(files: { name: string; text: string }[]): AptSource[] {
  const out: AptSource[] = []
  for (const { name, text } of files) {
    if (name.endsWith('.sources')) {
      for (const stanza of parseStanzas(text)) {
        if (!(stanza.Types ?? '').split(/\s+/).includes('deb') || /^no$/i.test(stanza.Enabled ?? 'yes')) continue
        for (const uri of (stanza.URIs ?? '').split(/\s+/).filter(Boolean))
          for (const suite of (stanza.Suites ?? '').split(/\s+/).filter(Boolean))
            out.push({
              uri: uri.replace(/\/$/, ''),
              suite,
              components: (stanza.Components ?? '').split(/\s+/).filter(Boolean),
              ...(stanza['Signed-By'] ? { signedBy: stanza['Signed-By'].trim() } : {}),
            })
      }
    } else if (name.endsWith('.list')) {
      for (const line of text.split('\n')) {
        const m = /^deb\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s+(.+)$/.exec(line.trim())
        if (!m) continue
        const signedBy = /signed-by=(\S+)/.exec(m[1] ?? '')?.[1]
        out.push({ uri: m[2]!.replace(/\/$/, ''), suite: m[3]!, components: m[4]!.split(/\s+/), ...(signedBy ? { signedBy } : {}) })
      }
    }
  }
  return out
}

/** RFC 822-style stanzas (apt sources, `Packages` indexes, dpkg's status): field → value, continuation lines joined. */
export function parseStanzas(text: string): Record<string, string>[] {
  const out: Record<string, string>[] = []
  for (const block of text.split(/\n\s*\n/)) {
    const fields: Record<string, string> = {}
    let last = ''
    for (const line of block.split('\n')) {
      if (line.startsWith('#') || line === '') continue
      if (/^\s/.test(line)) {
        if (last) fields[last] += '\n' + line.trim()
        continue
      }
      const colon = line.indexOf(':')
      if (colon < 0) continue
      last = line.slice(0, colon)
      fields[last] = line.slice(colon + 1).trim()
    }
    if (Object.keys(fields).length) out.push(fields)
  }
  return out
}

/** `path → sha256` of the SHA256 section of a (verified) Release text. */
export function releaseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>()
  const section = /^SHA256:\n((?:[ \t].*\n?)*)/m.exec(text)?.[1] ?? ''
  for (const line of section.split('\n')) {
    const [sum, , path] = line.trim().split(/\s+/)
    if (sum && path) sums.set(path, sum)
  }
  return sums
}

export type Pkg = { name: string; version: string; filename: string; sha256: string; depends: string[][]; provides: string[]; uri: string }

/** A dependency field (`a (>= 1) | b, c:any`) as groups of alternatives, names only (versions are not compared). */
export function parseDepends(field: string | undefined): string[][] {
  if (!field) return []
  return field
    .split(',')
    .map((group) =>
      group
        .split('|')
        .map((alt) => alt.trim().split(/[\s(:]/)[0]!)
        .filter(Boolean),
    )
    .filter((g) => g.length)
}

/** The packages to fetch: `root` and, through Pre-Depends and Depends, every package not installed that it needs. */
export function resolvePackages(root: string, index: Map<string, Pkg>, installed: Set<string>): Pkg[] {
  const providers = new Map<string, string>()
  for (const p of index.values()) for (const v of p.provides) if (!providers.has(v)) providers.set(v, p.name)
  const chosen = new Map<string, Pkg>()
  const queue = [root]
  while (queue.length) {
    const name = queue.shift()!
    if (chosen.has(name)) continue
    const pkg = index.get(name)
    if (!pkg) throw new Error(`Debian package ${name} is in none of the machine's apt sources`)
    chosen.set(name, pkg)
    for (const group of pkg.depends) {
      if (group.some((alt) => installed.has(alt) || chosen.has(alt))) continue
      const pick = group.find((alt) => index.has(alt)) ?? group.map((alt) => providers.get(alt)).find(Boolean)
      if (!pick) throw new Error(`nothing in the apt sources provides ${group.join(' | ')} (needed by ${name})`)
      if (!installed.has(pick)) queue.push(pick)
    }
  }
  return [...chosen.values()]
}

/** What dpkg lists as installed, with what those packages provide. */
export function installedPackages(status: string): Set<string> {
  const names = new Set<string>()
  for (const s of parseStanzas(status)) {
    if (!/\binstalled$/.test(s.Status ?? '') || !s.Package) continue
    names.add(s.Package)
    for (const v of parseDepends(s.Provides)) names.add(v[0]!)
  }
  return names
}

/** The members of a Unix `ar` archive (a `.deb`): name → bytes. */
export function readAr(buf: Buffer): Map<string, Buffer> {
  if (buf.subarray(0, 8).toString('latin1') !== '!<arch>\n') throw new Error('not an ar archive')
  const members = new Map<string, Buffer>()
  let at = 8
  while (at + 60 <= buf.length) {
    const name = buf
      .subarray(at, at + 16)
      .toString('latin1')
      .trim()
      .replace(/\/$/, '')
    const size = Number(
      buf
        .subarray(at + 48, at + 58)
        .toString('latin1')
        .trim(),
    )
    members.set(name, buf.subarray(at + 60, at + 60 + size))
    at += 60 + size + (size % 2)
  }
  return members
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

async function download(url: string, sum?: string): Promise<Buffer> {
  const res = await fetch(url)
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`)
  const body = Buffer.from(await res.arrayBuffer())
  if (sum && sha256(body) !== sum) throw new Error(`${url}: SHA-256 differs from the signed index`)
  return body
}

async function keyring(source: AptSource): Promise<Key[]> {
  const files = source.signedBy
    ? [source.signedBy]
    : existsSync('/etc/apt/trusted.gpg.d')
      ? readdirSync('/etc/apt/trusted.gpg.d').map((f) => join('/etc/apt/trusted.gpg.d', f))
      : []
  const keys: Key[] = []
  for (const f of files) {
    const data = readFileSync(f)
    keys.push(...(f.endsWith('.asc') ? await readKeys({ armoredKeys: data.toString('utf8') }) : await readKeys({ binaryKeys: data })))
  }
  return keys
}

/** The text of a cleartext-signed document (an InRelease) once one of its signatures verifies against `keys`. */
export async function verifiedText(armored: string, keys: Key[]): Promise<string> {
  const message = await readCleartextMessage({ cleartextMessage: armored })
  const { data, signatures } = await verify({ message, verificationKeys: keys })
  const checks = await Promise.allSettled(signatures.map((s) => s.verified))
  if (!checks.some((c) => c.status === 'fulfilled' && c.value)) throw new Error('no signature verifies against the apt keyring')
  return data
}

async function signedRelease(source: AptSource): Promise<string> {
  const url = `${source.uri}/dists/${source.suite}/InRelease`
  return verifiedText((await download(url)).toString('utf8'), await keyring(source)).catch((e: Error) => {
    throw new Error(`${url}: ${e.message}`)
  })
}

async function packageIndex(sources: AptSource[], debArch: string): Promise<Map<string, Pkg>> {
  const index = new Map<string, Pkg>()
  // the sources in order of precedence: security and updates carry newer builds of the same package names
  const ordered = [...sources].sort((a, b) => rank(b.suite) - rank(a.suite))
  for (const source of ordered) {
    const sums = releaseSums(await signedRelease(source))
    for (const component of source.components) {
      const base = `${component}/binary-${debArch}/Packages`
      const gz = sums.get(`${base}.gz`)
      const xz = sums.get(`${base}.xz`)
      const url = `${source.uri}/dists/${source.suite}/${base}`
      const text = gz
        ? gunzipSync(await download(`${url}.gz`, gz)).toString('utf8')
        : xz
          ? await new Response(new XzReadableStream(new Blob([new Uint8Array(await download(`${url}.xz`, xz))]).stream())).text()
          : null
      if (text === null) continue
      for (const s of parseStanzas(text)) {
        if (!s.Package || !s.Filename || !s.SHA256 || index.has(s.Package)) continue
        index.set(s.Package, {
          name: s.Package,
          version: s.Version ?? '',
          filename: s.Filename,
          sha256: s.SHA256,
          depends: [...parseDepends(s['Pre-Depends']), ...parseDepends(s.Depends)],
          provides: parseDepends(s.Provides).map((g) => g[0]!),
          uri: source.uri,
        })
      }
    }
  }
  return index
}

const rank = (suite: string) => (/-security$/.test(suite) ? 2 : /-updates$/.test(suite) ? 1 : 0)

async function unpack(deb: Buffer, into: string): Promise<void> {
  const members = readAr(deb)
  const name = [...members.keys()].find((n) => n.startsWith('data.tar'))
  if (!name) throw new Error('no data.tar member')
  const data = members.get(name)!
  const stream = new Blob([new Uint8Array(data)]).stream()
  const tar = name.endsWith('.xz')
    ? new XzReadableStream(stream)
    : name.endsWith('.gz')
      ? stream.pipeThrough(new DecompressionStream('gzip'))
      : stream
  if (/\.(zst|bz2|lzma)$/.test(name)) throw new Error(`${name}: compression not supported`)
  await pipeline(Readable.fromWeb(tar as import('node:stream/web').ReadableStream), untar({ cwd: into }))
}

/** Every folder under `root` holding a shared library: the wrapper's LD_LIBRARY_PATH. */
function libraryDirs(root: string): string[] {
  const dirs: string[] = []
  const walk = (dir: string) => {
    let has = false
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name))
      else if (/\.so(\.|$)/.test(entry.name)) has = true
    }
    if (has) dirs.push(dir)
  }
  for (const top of ['usr/lib', 'lib']) if (existsSync(join(root, top))) walk(join(root, top))
  return dirs
}

/** An unpacked, working full Chromium (its wrapper script), or null with the reason. */
export async function fullChromium(log: (line: string) => void = () => {}): Promise<{ path: string } | { path: null; reason: string }> {
  const done = existsSync(CACHE) ? readdirSync(CACHE).find((d) => existsSync(join(CACHE, d, READY))) : undefined
  if (done) return { path: join(CACHE, done, READY) }
  if (process.platform !== 'linux' || !existsSync('/var/lib/dpkg/status'))
    return { path: null, reason: 'not a Debian machine (no dpkg status)' }
  const debArch = { x64: 'amd64', arm64: 'arm64' }[arch()]
  if (!debArch) return { path: null, reason: `no Debian build of Chromium for ${arch()}` }
  try {
    const files = ['/etc/apt/sources.list', ...listDir('/etc/apt/sources.list.d')].filter((f) => existsSync(f) && statSync(f).isFile())
    const sources = parseAptSources(files.map((f) => ({ name: f, text: readFileSync(f, 'utf8') })))
    if (!sources.length) return { path: null, reason: 'no apt sources on this machine' }
    const started = performance.now()
    const index = await packageIndex(sources, debArch)
    const installed = installedPackages(readFileSync('/var/lib/dpkg/status', 'utf8'))
    const wanted = resolvePackages('chromium', index, installed)
    const version = index.get('chromium')!.version.replace(/[^\w.+-]/g, '_')
    // a folder of this process's own: two test workers fetching at once do not unpack into each other's
    const work = join(CACHE, `${version}.partial-${process.pid}`)
    mkdirSync(join(work, 'root'), { recursive: true })
    let bytes = 0
    for (const pkg of wanted) {
      const deb = await download(`${pkg.uri}/${pkg.filename}`, pkg.sha256)
      bytes += deb.length
      await unpack(deb, join(work, 'root'))
    }
    const root = join(work, 'root')
    const binary = join(root, 'usr/lib/chromium/chromium')
    if (!existsSync(binary)) throw new Error('the chromium package holds no usr/lib/chromium/chromium')
    const final = join(CACHE, version)
    const libs = libraryDirs(root).map((d) => d.replace(work, final))
    const wrapper = `#!/bin/sh\nexport LD_LIBRARY_PATH=${libs.join(':')}\${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\nexec ${binary.replace(work, final)} "$@"\n`
    if (existsSync(join(final, READY))) {
      rmSync(work, { recursive: true, force: true })
      return { path: join(final, READY) }
    }
    rmSync(final, { recursive: true, force: true })
    renameSync(work, final)
    writeFileSync(join(final, `${READY}.tmp`), wrapper)
    chmodSync(join(final, `${READY}.tmp`), 0o755)
    const reply = execFileSync(join(final, `${READY}.tmp`), ['--headless', '--no-sandbox', '--version'], { encoding: 'utf8' }).trim()
    renameSync(join(final, `${READY}.tmp`), join(final, READY))
    log(
      `${reply}: Debian's chromium ${index.get('chromium')!.version} and ${wanted.length - 1} packages the machine lacks, ` +
        `${(bytes / 2 ** 20).toFixed(0)} MB in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    )
    return { path: join(final, READY) }
  } catch (e) {
    return { path: null, reason: (e as Error).message }
  }
}

function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : []
}
