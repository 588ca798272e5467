/** The types of ./imports.mjs, for the tests written in TypeScript that read the import graph. */
export function valueImports(root: string, dir?: string): Map<string, string[]>;
export function allImports(root: string, dir?: string): Map<string, string[]>;
export function cycles(graph: Map<string, string[]>): string[][];
