/**
 * base64url (RFC 4648 §5, no padding) for the signatures and signed payloads we put in URLs and forms. Decoding
 * accepts only the one canonical spelling of a value: the last character of a 32-byte signature carries 2 unused
 * bits, and a lenient decoder would let four spellings pass for one signature.
 */
import { base64url } from 'jose'

export const toB64url = (bytes: ArrayBuffer | Uint8Array): string => base64url.encode(new Uint8Array(bytes))

/** The bytes `text` spells when it is their canonical base64url, else null. */
export function fromB64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  try {
    const bytes = new Uint8Array(base64url.decode(text))
    return base64url.encode(bytes) === text ? bytes : null
  } catch {
    return null
  }
}

/** A text (UTF-8) as base64url: the opaque cursors of the list routes. */
export const textToB64url = (text: string): string => toB64url(new TextEncoder().encode(text))

/** The text a cursor spells, or null when it is not canonical base64url of UTF-8. */
export function b64urlToText(text: string): string | null {
  const bytes = fromB64url(text)
  if (!bytes) return null
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}
