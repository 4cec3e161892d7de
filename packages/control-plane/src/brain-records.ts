import { ControlPlaneInputError, type BrainPage, type BrainPageSlice, type BrainPageSummary } from '@core/control-plane-client';
import { isoTime } from './records.js';

/** A `brain_page` row as the Brain API selects it (`size` is `char_length(body)`). */
export interface BrainPageRow {
  id: string;
  agent_id: string;
  title: string;
  body?: string;
  size: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A row without its body as the summary the API returns. */
export function brainPageSummary(row: BrainPageRow): BrainPageSummary {
  return { id: row.id, title: row.title, size: Number(row.size), createdAt: isoTime(row.created_at), updatedAt: isoTime(row.updated_at) };
}

/** A full row as the page the API returns. */
export function brainPage(row: BrainPageRow): BrainPage {
  const summary = brainPageSummary(row);
  return { id: summary.id, agentId: row.agent_id, title: summary.title, body: row.body ?? '', size: summary.size, createdAt: summary.createdAt, updatedAt: summary.updatedAt };
}

/**
 * `limit` characters (code points) of the body from `offset`. A window that does not reach the end is cut
 * after the last line break in its final fifth, when there is one, so a reader continues at a line start.
 * @throws ControlPlaneInputError (`offset_out_of_range`) for an offset past the end of the page.
 */
export function pageSlice(row: BrainPageRow, offset: number, limit: number): BrainPageSlice {
  const characters = Array.from(row.body ?? '');
  const size = characters.length;
  if (offset > 0 && offset >= size) {
    throw new ControlPlaneInputError(
      'offset_out_of_range',
      `The page "${row.title}" has ${size} characters, so offset ${offset} is past its end. Read it from offset 0.`,
      { field: 'offset' },
    );
  }
  let end = Math.min(size, offset + limit);
  if (end < size) {
    const floor = offset + Math.floor(limit * 0.8);
    for (let index = end - 1; index >= floor; index -= 1) {
      if (characters[index] === '\n') {
        end = index + 1;
        break;
      }
    }
  }
  return {
    ...brainPageSummary({ ...row, size }),
    text: characters.slice(offset, end).join(''),
    offset,
    nextOffset: end < size ? end : null,
  };
}
