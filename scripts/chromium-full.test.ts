import { createCleartextMessage, generateKey, readKey, readPrivateKey, sign } from 'openpgp'
import { describe, expect, it } from 'vitest'
import {
  installedPackages,
  parseAptSources,
  parseDepends,
  readAr,
  releaseSums,
  verifiedText,
  resolvePackages,
  type Pkg,
} from './chromium-full.ts'

const pkg = (name: string, depends = '', provides = ''): Pkg => ({
  name,
  version: '1',
  filename: `pool/${name}.deb`,
  sha256: 'x',
  depends: parseDepends(depends),
  provides: parseDepends(provides).map((g) => g[0]!),
  uri: 'http://mirror.test/debian',
})

describe('the full Chromium fetched from the machine’s apt sources', () => {
  it('reads deb822 and one-line sources, keeping their keyrings and skipping deb-src and disabled entries', () => {
    const sources = parseAptSources([
      {
        name: '/etc/apt/sources.list.d/debian.sources',
        text: `Types: deb
URIs: http://mirror.test/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://mirror.test/debian
Suites: bookworm
Components: main

Types: deb
URIs: http://mirror.test/off
Suites: bookworm
Components: main
Enabled: no
`,
      },
      {
        name: '/etc/apt/sources.list',
        text: '# comment\ndeb [arch=amd64 signed-by=/k.gpg] http://mirror.test/debian-security/ bookworm-security main contrib\ndeb-src http://x y z\n',
      },
      { name: '/etc/apt/sources.list.d/other.list.disabled', text: 'deb http://never.test a b' },
    ])
    expect(sources).toEqual([
      {
        uri: 'http://mirror.test/debian',
        suite: 'bookworm',
        components: ['main'],
        signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg',
      },
      {
        uri: 'http://mirror.test/debian',
        suite: 'bookworm-updates',
        components: ['main'],
        signedBy: '/usr/share/keyrings/debian-archive-keyring.gpg',
      },
      { uri: 'http://mirror.test/debian-security', suite: 'bookworm-security', components: ['main', 'contrib'], signedBy: '/k.gpg' },
    ])
  })

  it('takes the sums of the signed Release text only from its SHA256 section', () => {
    const sums = releaseSums(`Origin: Debian
MD5Sum:
 aaaa 10 main/binary-amd64/Packages.gz
SHA256:
 bbbb 10 main/binary-amd64/Packages.gz
 cccc 20 main/binary-amd64/Packages.xz
Acquire-By-Hash: yes
`)
    expect([...sums]).toEqual([
      ['main/binary-amd64/Packages.gz', 'bbbb'],
      ['main/binary-amd64/Packages.xz', 'cccc'],
    ])
  })

  it('fetches only what the machine lacks: installed and provided names are skipped, the first known alternative is taken', () => {
    const index = new Map(
      [
        pkg('chromium', 'libc6 (>= 2.36), chromium-common (= 1), libgtk-3-0 | libgtk-4-1, libasound2 (>= 1.0), libpulse0:any'),
        pkg('chromium-common', 'libc6, x11-utils | virtual-terminal'),
        pkg('libgtk-3-0', 'libgtk-3-common, libc6'),
        pkg('libgtk-3-common'),
        pkg('libgtk-4-1'),
        pkg('libpulse0', 'libsndfile1'),
        pkg('libsndfile1', 'libflac12'),
        pkg('libflac12'),
        pkg('xterm', '', 'virtual-terminal'),
      ].map((p) => [p.name, p]),
    )
    const installed = installedPackages(`Package: libc6
Status: install ok installed

Package: alsa-provider
Status: install ok installed
Provides: libasound2 (= 1.2)

Package: x11-utils
Status: deinstall ok config-files
`)
    expect([...installed].sort()).toEqual(['alsa-provider', 'libasound2', 'libc6'])
    expect(
      resolvePackages('chromium', index, installed)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['chromium', 'chromium-common', 'libflac12', 'libgtk-3-0', 'libgtk-3-common', 'libpulse0', 'libsndfile1', 'xterm'])
    expect(() => resolvePackages('chromium', new Map([['chromium', pkg('chromium', 'libnowhere')]]), new Set())).toThrow(
      'nothing in the apt sources provides libnowhere (needed by chromium)',
    )
  })

  it('reads the members of a .deb (an ar archive), odd sizes padded', () => {
    const member = (name: string, body: string) =>
      Buffer.concat([
        Buffer.from(
          name.padEnd(16) + '0'.padEnd(12) + '0'.padEnd(6) + '0'.padEnd(6) + '100644'.padEnd(8) + String(body.length).padEnd(10) + '`\n',
        ),
        Buffer.from(body),
        Buffer.from(body.length % 2 ? '\n' : ''),
      ])
    const deb = Buffer.concat([
      Buffer.from('!<arch>\n'),
      member('debian-binary', '2.0\n'),
      member('control.tar.xz', 'abc'),
      member('data.tar.xz/', 'data'),
    ])
    const members = readAr(deb)
    expect([...members.keys()]).toEqual(['debian-binary', 'control.tar.xz', 'data.tar.xz'])
    expect(members.get('control.tar.xz')!.toString()).toBe('abc')
    expect(members.get('data.tar.xz')!.toString()).toBe('data')
    expect(() => readAr(Buffer.from('PK\x03\x04'))).toThrow('not an ar archive')
  })

  it('trusts a Release text only when a key of the keyring signed it, and not once it was changed', async () => {
    const key = async () => {
      const { privateKey, publicKey } = await generateKey({ userIDs: [{ name: 'archive' }], format: 'armored' })
      return { privateKey: await readPrivateKey({ armoredKey: privateKey }), publicKey: await readKey({ armoredKey: publicKey }) }
    }
    const [archive, other] = [await key(), await key()]
    const text = 'Origin: Debian\nSHA256:\n bbbb 10 main/binary-amd64/Packages.gz'
    const signed = await sign({ message: await createCleartextMessage({ text }), signingKeys: archive.privateKey })
    expect(await verifiedText(signed, [other.publicKey, archive.publicKey])).toBe(text)
    await expect(verifiedText(signed, [other.publicKey])).rejects.toThrow('no signature verifies against the apt keyring')
    await expect(verifiedText(signed.replace('bbbb', 'eeee'), [archive.publicKey])).rejects.toThrow('no signature verifies')
  })
})
