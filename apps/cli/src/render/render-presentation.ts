import type { PresentationEvent } from '@core/runtime';
import { oneLine } from './display-text.js';
import { formatBytes } from './format.js';

/** The symbols and colours the text renderers use. */
export interface Style {
  green(text: string): string;
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
}

/** The most links of one event drawn; the rest are counted. */
export const MAX_LINKS_SHOWN = 8;

const CHECK_MARKS: Record<string, string> = { completed: '✓', in_progress: '▸', pending: '○' };

/** A changed file, as `write_file` / `edit_file` report it: `{ kind: 'file', path, action, bytes }`. */
export interface FileChange {
  path: string;
  /** `created`, `updated` or `edited`. */
  action: string;
  /** The file's size after the change, when known. */
  bytes?: number;
}

/** The file change a `file` presentation event describes, or `undefined` when it is not one. */
export function fileChangeOf(event: PresentationEvent): FileChange | undefined {
  if (event.kind !== 'file' || typeof event.path !== 'string' || event.path === '') return undefined;
  return {
    path: event.path,
    action: typeof event.action === 'string' && event.action !== '' ? event.action : 'changed',
    ...(typeof event.bytes === 'number' && Number.isFinite(event.bytes) && event.bytes >= 0 ? { bytes: event.bytes } : {}),
  };
}

/** One line for a changed file: `▤ created notes/a.md (214 B)`. */
export function renderFileChange(change: FileChange, style: Style): string {
  const size = change.bytes === undefined ? '' : ` ${style.dim(`(${formatBytes(change.bytes)})`)}`;
  return `  ▤ ${oneLine(change.action, 20)} ${oneLine(change.path)}${size}`;
}

/**
 * A presentation event as lines of text: the plan checklist (`{ kind: 'checklist', title, items }`),
 * links (`{ kind: 'links', links: [{ title, url }] }`, at most `MAX_LINKS_SHOWN`), a changed file
 * (`{ kind: 'file', path, action, bytes }`), anything else as its kind and fields. Text from tools and
 * the web is printed as single lines without control characters.
 */
export function renderPresentation(event: PresentationEvent, style: Style): string[] {
  if (event.kind === 'checklist' && Array.isArray(event.items)) return renderChecklist(event, event.items, style);
  if (event.kind === 'links' && Array.isArray(event.links)) return renderLinks(event.links, style);
  const change = fileChangeOf(event);
  if (change !== undefined) return [renderFileChange(change, style)];
  const { kind, ...rest } = event;
  return [`  ${style.dim(`[${oneLine(String(kind), 40)}]`)} ${oneLine(JSON.stringify(rest) ?? '', 200)}`];
}

function renderChecklist(event: PresentationEvent, entries: unknown[], style: Style): string[] {
  const items = entries.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { content?: unknown; status?: unknown }) : {}));
  const done = items.filter((item) => item.status === 'completed').length;
  const title = typeof event.title === 'string' ? oneLine(event.title, 80) : 'Checklist';
  return [
    `  ${style.bold(title)} ${style.dim(`(${done}/${items.length} done)`)}`,
    ...items.map((item) => {
      const status = String(item.status);
      const text = `${CHECK_MARKS[status] ?? '•'} ${oneLine(String(item.content ?? ''))}`;
      return `    ${status === 'completed' ? style.green(text) : status === 'in_progress' ? style.bold(text) : text}`;
    }),
  ];
}

function renderLinks(entries: unknown[], style: Style): string[] {
  const links = entries.flatMap((entry) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { title, url } = entry as { title?: unknown; url?: unknown };
    if (typeof url !== 'string' || url === '') return [];
    return [{ url: oneLine(url, 300), title: typeof title === 'string' ? oneLine(title, 120) : '' }];
  });
  const lines = links.slice(0, MAX_LINKS_SHOWN).map(({ title, url }) => `  ↗ ${title === '' ? url : `${title} ${style.dim(`<${url}>`)}`}`);
  if (links.length > MAX_LINKS_SHOWN) lines.push(`  ${style.dim(`… ${links.length - MAX_LINKS_SHOWN} more`)}`);
  return lines;
}
