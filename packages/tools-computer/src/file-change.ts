import type { PresentationEvent } from '@core/runtime';

/** What happened to a file: `write_file` created or updated it, `edit_file` edited it. */
export type FileChangeAction = 'created' | 'updated' | 'edited';

/**
 * The presentation event `write_file` and `edit_file` results carry, so a UI can show the files a
 * turn changed: `{ kind: 'file', path, action, bytes }`, with `path` relative to the home and `bytes`
 * the file's size after the change. The model never sees it.
 */
export interface FileChangeEvent extends PresentationEvent {
  kind: 'file';
  /** The file, relative to the home (as the tools show paths). */
  path: string;
  action: FileChangeAction;
  /** The file's size after the change. */
  bytes: number;
}

/** A `file` presentation event for a changed file. */
export function fileChange(path: string, action: FileChangeAction, bytes: number): FileChangeEvent {
  return { kind: 'file', path, action, bytes };
}
