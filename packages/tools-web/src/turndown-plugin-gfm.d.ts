// The parts of @joplin/turndown-plugin-gfm (no bundled types) this package uses.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  /** `<del>`, `<s>`, `<strike>` as `~~text~~`. */
  export function strikethrough(service: TurndownService): void;
  /** Checkboxes in list items as `[x]` / `[ ]`. */
  export function taskListItems(service: TurndownService): void;
}
