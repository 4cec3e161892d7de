import type { PresentationEvent } from '@core/runtime';

/** The symbols and colours the text renderers use. */
export interface Style {
  green(text: string): string;
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
}

const CHECK_MARKS: Record<string, string> = { completed: '✓', in_progress: '▸', pending: '○' };

/** A presentation event as lines of text: a checklist, links, files; anything else as its fields. */
export function renderPresentation(event: PresentationEvent, style: Style): string[] {
  if (event.kind === 'checklist' && Array.isArray(event.items)) {
    const items = event.items as Array<{ content?: unknown; status?: unknown }>;
    const done = items.filter((item) => item.status === 'completed').length;
    const title = typeof event.title === 'string' ? event.title : 'Checklist';
    return [
      `  ${style.bold(title)} ${style.dim(`(${done}/${items.length} done)`)}`,
      ...items.map((item) => {
        const status = String(item.status);
        const mark = CHECK_MARKS[status] ?? '•';
        const text = `${mark} ${String(item.content)}`;
        return `    ${status === 'completed' ? style.green(text) : status === 'in_progress' ? style.bold(text) : text}`;
      }),
    ];
  }
  const links = listOf(event, ['links', 'results', 'sources']);
  if (event.kind.startsWith('link') || event.kind === 'sources' || event.kind === 'search_results') {
    const entries = links ?? [event];
    return entries.map((entry) => `  ↗ ${describeLink(entry)}`);
  }
  const files = listOf(event, ['files']);
  if (event.kind.startsWith('file')) {
    const entries = files ?? [event];
    return entries.map((entry) => `  ▤ ${describeFile(entry)}`);
  }
  const { kind, ...rest } = event;
  return [`  ${style.dim(`[${kind}]`)} ${JSON.stringify(rest)}`];
}

function listOf(event: PresentationEvent, fields: string[]): Array<Record<string, unknown>> | undefined {
  for (const field of fields) {
    const value = event[field];
    if (Array.isArray(value)) return value.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null);
  }
  return undefined;
}

function describeLink(entry: Record<string, unknown>): string {
  const url = typeof entry.url === 'string' ? entry.url : '';
  const title = typeof entry.title === 'string' ? entry.title : undefined;
  return title === undefined || title === '' ? url : `${title} <${url}>`;
}

function describeFile(entry: Record<string, unknown>): string {
  const filePath = typeof entry.path === 'string' ? entry.path : typeof entry.name === 'string' ? entry.name : JSON.stringify(entry);
  const action = typeof entry.action === 'string' ? `${entry.action} ` : '';
  const bytes = typeof entry.bytes === 'number' ? ` (${entry.bytes} bytes)` : '';
  return `${action}${filePath}${bytes}`;
}
