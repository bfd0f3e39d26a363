/**
 * Text a person typed, as it is stored and shown (support questions and their replies by mail, notices, events,
 * coupons, banners): NFC, line breaks as `\n`, no control characters but line breaks (ANSI escapes lose their ESC),
 * no bidi overrides or isolates, trimmed.
 */
export function cleanText(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
}
