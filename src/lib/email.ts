/** E-mail as stored and looked up: trimmed, lower case (the column is also NOCASE). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}
