import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_BRAIN_PAGE_CHARS, MAX_BRAIN_TITLE_CHARS } from '@core/control-plane-client';

/** A Markdown file read as a Brain page. */
export interface MarkdownPage {
  title: string;
  body: string;
  /** The file, relative to the folder. */
  file: string;
}

/** What `readMarkdownPages` found. */
export interface MarkdownPages {
  pages: MarkdownPage[];
  /** Files left out, and why (too long, not text). */
  skipped: Array<{ file: string; reason: string }>;
}

const MARKDOWN = /\.(md|markdown)$/i;

/**
 * Reads every Markdown file (`.md`, `.markdown`) under `folder`, recursively, in path order; hidden files and
 * folders (a leading `.`) and `node_modules` are left out. Each page's title is `markdownTitle`'s.
 * @throws the file system's error when the folder cannot be read.
 */
export async function readMarkdownPages(folder: string): Promise<MarkdownPages> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && MARKDOWN.test(entry.name))
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => part.startsWith('.') || part === 'node_modules'))
    .sort();
  const result: MarkdownPages = { pages: [], skipped: [] };
  for (const file of files) {
    const body = (await readFile(path.join(folder, file), 'utf8')).replace(/^\uFEFF/, '');
    const size = Array.from(body).length;
    if (body.includes('\u0000')) result.skipped.push({ file, reason: 'not a text file (it has NUL bytes)' });
    else if (size > MAX_BRAIN_PAGE_CHARS) result.skipped.push({ file, reason: `${size} characters, more than the ${MAX_BRAIN_PAGE_CHARS} a page may hold; split it` });
    else result.pages.push({ title: markdownTitle(body, file), body, file });
  }
  return result;
}

/**
 * A page title for a Markdown file: its first heading (`# Title`, any level, outside code fences), else the
 * file name without its extension; one line, at most the longest title allowed.
 */
export function markdownTitle(text: string, file: string): string {
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$/.exec(line)?.[1]?.trim();
    if (heading !== undefined && heading !== '') return clip(heading);
  }
  return clip(path.basename(file).replace(MARKDOWN, '').trim() || file);
}

function clip(title: string): string {
  const characters = Array.from(title.replace(/\s+/g, ' '));
  return characters.length > MAX_BRAIN_TITLE_CHARS ? `${characters.slice(0, MAX_BRAIN_TITLE_CHARS - 1).join('')}…` : characters.join('');
}
