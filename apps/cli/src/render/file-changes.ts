import type { FileChange } from './render-presentation.js';

/** The files a turn changed, one entry per path in the order first seen. */
export interface FileChanges {
  /** Records a change; a file created earlier in the turn stays `created`, with its latest size. */
  add(change: FileChange): void;
  /** The changes so far. */
  list(): FileChange[];
}

/** Collects the `file` presentation events of a turn for its closing list of changed files. */
export function createFileChanges(): FileChanges {
  const byPath = new Map<string, FileChange>();
  return {
    add(change) {
      const earlier = byPath.get(change.path);
      byPath.set(change.path, earlier?.action === 'created' ? { ...change, action: 'created' } : change);
    },
    list: () => [...byPath.values()],
  };
}
