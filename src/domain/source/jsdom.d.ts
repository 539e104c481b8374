/** The part of jsdom (which ships no type declarations) the Mermaid importer uses: a window for Mermaid's sanitiser. */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: object;
  }
}
