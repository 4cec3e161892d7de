/** Image types `read_file` returns as images, found by their magic bytes. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** The image type of a file's first bytes, if it is a PNG, JPEG, GIF or WebP. */
export function detectImageType(head: Uint8Array): ImageType | undefined {
  const starts = (...bytes: number[]): boolean => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50) return 'image/webp';
  return undefined;
}

/**
 * Decodes bytes as UTF-8 text, or returns `undefined` when they are binary: a NUL byte, or bytes that
 * are not valid UTF-8 (a sequence cut at the very end, as in a capped sample, is tolerated).
 */
export function decodeText(bytes: Uint8Array, { truncated = false }: { truncated?: boolean } = {}): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return undefined;
  }
}

/** A short description of a binary file's type from its magic bytes, for the model. */
export function describeBinary(head: Uint8Array): string {
  const starts = (text: string): boolean => [...text].every((char, index) => head[index] === char.charCodeAt(0));
  if (starts('%PDF')) return 'a PDF document';
  if (starts('PK\x03\x04')) return 'a ZIP archive (or a format built on ZIP: docx, xlsx, jar, …)';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip archive';
  if (starts('\x7fELF')) return 'an ELF executable or library';
  if (starts('SQLite format 3')) return 'an SQLite database';
  if (starts('BM')) return 'a BMP image (not returned as an image)';
  return 'binary data';
}
