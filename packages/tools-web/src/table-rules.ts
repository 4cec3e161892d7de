import type TurndownService from 'turndown';
import { attributeOf, containsTag, ELEMENT_NODE, tagOf, type MarkupNode } from './markup-node.js';

// A converted cell's Markdown travels up to its table between these noncharacters (never in real
// text: {@link stripTableMarkers} removes them from the input first).
const CELL_OPEN = '\uFDD0';
const CELL_CLOSE = '\uFDD1';
const MARKERS = /[\uFDD0\uFDD1]/g;
const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT']);
const NESTED_TABLE = new Set(['TABLE']);
// Most columns and rows a span may cover: a typo like colspan="1000" must not build a huge grid.
const MAX_SPAN = 100;

interface TableCell {
  node: MarkupNode;
  header: boolean;
  colspan: number;
  rowspan: number;
}

interface TableRow {
  cells: TableCell[];
  inHead: boolean;
}

/** Removes the table rules' private markers from text before conversion. */
export function stripTableMarkers(text: string): string {
  return text.replace(MARKERS, '');
}

/**
 * Adds Turndown rules that write HTML tables as GFM tables: a header row from `<thead>` or the
 * leading rows of `<th>` cells (several header rows become one, `Group / Column`), an empty header
 * when there is none, `colspan` as empty cells after the content, `rowspan` as the content repeated
 * in each row it covers, `|` escaped and line breaks as `<br>`. A table that cannot be a Markdown
 * table is written in a readable form instead: one holding another table (page layout) as its cells'
 * content, block by block; one with a code block in a cell as one record per row (`**Header:** value`).
 */
export function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', { filter: ['th', 'td'], replacement: (content) => `${CELL_OPEN}${content}${CELL_CLOSE}` });
  service.addRule('tableStructure', { filter: ['thead', 'tbody', 'tfoot', 'tr'], replacement: (content) => content });
  service.addRule('tableExtras', { filter: ['caption', 'colgroup', 'col'], replacement: () => '' });
  service.addRule('table', { filter: 'table', replacement: (content, node) => tableMarkdown(content, node as unknown as MarkupNode) });
}

function tableMarkdown(content: string, table: MarkupNode): string {
  const contents = cellContents(content);
  const rows = ownRows(table);
  const cells = rows.flatMap((row) => row.cells);
  const caption = captionText(table);
  const prefix = caption === '' ? '' : `${caption}\n\n`;
  if (cells.length !== contents.length || cells.length <= 1 || containsTag(table, NESTED_TABLE)) {
    return block(prefix + contents.map((text) => text.trim()).filter((text) => text !== '').join('\n\n'));
  }
  const grid = buildGrid(rows, contents);
  const headerRows = headerRowCount(rows);
  const width = Math.max(...grid.map((row) => row.length));
  const labels = Array.from({ length: width }, (_, column) => columnLabel(grid, headerRows, column));
  const body = grid.slice(headerRows).map((row) => Array.from({ length: width }, (_, column) => row[column]?.body ?? ''));
  if (contents.some((text) => /^\s*(`{3,}|~{3,})/m.test(text))) return block(prefix + records(labels, body));
  const line = (values: string[]): string => `| ${values.map(cellLine).join(' | ')} |`;
  const lines = [line(labels), `|${' --- |'.repeat(width)}`, ...body.map(line)];
  return block(prefix + lines.join('\n'));
}

function block(text: string): string {
  return text === '' ? '' : `\n\n${text}\n\n`;
}

/** The Markdown of the table's own cells, in document order (nested tables are already converted). */
function cellContents(content: string): string[] {
  const result: string[] = [];
  let position = 0;
  for (;;) {
    const open = content.indexOf(CELL_OPEN, position);
    if (open === -1) break;
    const close = content.indexOf(CELL_CLOSE, open + 1);
    if (close === -1) break;
    result.push(content.slice(open + 1, close));
    position = close + 1;
  }
  return result;
}

function children(node: MarkupNode): MarkupNode[] {
  const result: MarkupNode[] = [];
  for (let index = 0; index < node.childNodes.length; index += 1) {
    const child = node.childNodes[index]!;
    if (child.nodeType === ELEMENT_NODE) result.push(child);
  }
  return result;
}

/** The rows of this table (not of tables inside it), in document order. */
function ownRows(table: MarkupNode): TableRow[] {
  const rows: TableRow[] = [];
  const addRow = (row: MarkupNode, inHead: boolean): void => {
    const cells = children(row)
      .filter((cell) => tagOf(cell) === 'TD' || tagOf(cell) === 'TH')
      .map((cell) => ({ node: cell, header: tagOf(cell) === 'TH', colspan: span(cell, 'colspan'), rowspan: span(cell, 'rowspan') }));
    rows.push({ cells, inHead });
  };
  for (const child of children(table)) {
    const tag = tagOf(child);
    if (tag === 'TR') addRow(child, false);
    else if (SECTIONS.has(tag)) for (const row of children(child)) if (tagOf(row) === 'TR') addRow(row, tag === 'THEAD');
  }
  return rows;
}

function span(cell: MarkupNode, name: 'colspan' | 'rowspan'): number {
  const value = Number.parseInt(attributeOf(cell, name) ?? '1', 10);
  // rowspan="0" means "to the end of the section"; the grid clips it to the rows there are.
  if (name === 'rowspan' && value === 0) return MAX_SPAN;
  return Number.isFinite(value) && value >= 1 ? Math.min(value, MAX_SPAN) : 1;
}

interface GridSlot {
  /** The cell's text in a header row (repeated across its columns and rows, for labels). */
  header: string;
  /** The cell's text in a body row: in its first column and every row it spans; '' in the other columns it spans. */
  body: string;
}

function buildGrid(rows: TableRow[], contents: string[]): GridSlot[][] {
  const grid: GridSlot[][] = rows.map(() => []);
  let next = 0;
  rows.forEach((row, rowIndex) => {
    let column = 0;
    for (const cell of row.cells) {
      const text = contents[next] ?? '';
      next += 1;
      while (grid[rowIndex]![column] !== undefined) column += 1;
      const lastRow = Math.min(rows.length, rowIndex + cell.rowspan);
      for (let spanRow = rowIndex; spanRow < lastRow; spanRow += 1) {
        for (let offset = 0; offset < cell.colspan; offset += 1) {
          grid[spanRow]![column + offset] = { header: text, body: offset === 0 ? text : '' };
        }
      }
      column += cell.colspan;
    }
  });
  return grid;
}

/** Header rows: those in `<thead>`, else the leading rows made only of `<th>`; never every row. */
function headerRowCount(rows: TableRow[]): number {
  let count = 0;
  const fromHead = rows.some((row) => row.inHead);
  while (count < rows.length && (fromHead ? rows[count]!.inHead : rows[count]!.cells.length > 0 && rows[count]!.cells.every((cell) => cell.header))) count += 1;
  return count >= rows.length ? Math.min(1, rows.length - 1) : count;
}

function columnLabel(grid: GridSlot[][], headerRows: number, column: number): string {
  const parts: string[] = [];
  for (let row = 0; row < headerRows; row += 1) {
    const text = oneLine(grid[row]?.[column]?.header ?? '');
    if (text !== '' && parts.at(-1) !== text) parts.push(text);
  }
  return parts.join(' / ');
}

function oneLine(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('<br>');
}

function cellLine(markdown: string): string {
  const text = oneLine(markdown).replace(/\|/g, '\\|');
  return text === '' ? ' ' : text;
}

/** One record per row: `**Label:** value`, multi-line values (code blocks) below their label. */
function records(labels: string[], rows: string[][]): string {
  return rows
    .map((row) =>
      row
        .map((value, column) => {
          const text = value.trim();
          if (text === '') return '';
          const label = oneLine(labels[column] ?? '');
          if (label === '') return text;
          return text.includes('\n') ? `**${label}:**\n\n${text}` : `**${label}:** ${text}`;
        })
        .filter((entry) => entry !== '')
        .join('\n\n'),
    )
    .filter((record) => record !== '')
    .join('\n\n* * *\n\n');
}

function captionText(table: MarkupNode): string {
  const caption = children(table).find((child) => tagOf(child) === 'CAPTION');
  return (caption?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
