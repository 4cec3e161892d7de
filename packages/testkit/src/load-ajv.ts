import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type addFormatsFunction from 'ajv-formats';

// Ajv and ajv-formats (CommonJS) are loaded when a validator is first made, not with the testkit: a server
// started with `checkRequestSchema: false` (the `ankole` CLI's offline demo) never loads them. Resolved from
// this file's folder: the testkit's own dist (or src), or the folder of a bundle that inlines it.
const requireFromHere = createRequire(import.meta.url);

/** Ajv's JSON Schema 2020-12 class (`ajv/dist/2020.js`), loaded on first use. */
export function loadAjv2020(): typeof Ajv2020Class {
  return (requireFromHere('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020Class }).Ajv2020;
}

/** `ajv-formats`' plugin, loaded on first use. */
export function loadAddFormats(): typeof addFormatsFunction {
  const loaded = requireFromHere('ajv-formats') as typeof addFormatsFunction & { default?: typeof addFormatsFunction };
  return typeof loaded.default === 'function' ? loaded.default : loaded;
}
