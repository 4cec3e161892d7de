import { describe, expect, it } from 'vitest';
import { MAX_LINKS_SHOWN, renderPresentation, type Style } from './render-presentation.js';

const plain: Style = { green: (t) => t, red: (t) => t, dim: (t) => t, bold: (t) => t, cyan: (t) => t };
const marked: Style = { green: (t) => `<g>${t}</g>`, red: (t) => `<r>${t}</r>`, dim: (t) => `<d>${t}</d>`, bold: (t) => `<b>${t}</b>`, cyan: (t) => `<c>${t}</c>` };

describe('renderPresentation', () => {
  it("draws web_search's links event, one line a link, the URL dimmed", () => {
    const event = {
      kind: 'links',
      links: [
        { title: 'Ankole cattle', url: 'https://en.wikipedia.org/wiki/Ankole-Watusi' },
        { title: '', url: 'https://example.com/untitled' },
      ],
    };
    expect(renderPresentation(event, plain)).toEqual([
      '  ↗ Ankole cattle <https://en.wikipedia.org/wiki/Ankole-Watusi>',
      '  ↗ https://example.com/untitled',
    ]);
    expect(renderPresentation(event, marked)[0]).toBe('  ↗ Ankole cattle <d><https://en.wikipedia.org/wiki/Ankole-Watusi></d>');
  });

  it(`shows at most ${MAX_LINKS_SHOWN} links and counts the rest; entries without a URL are left out`, () => {
    const links = Array.from({ length: 11 }, (_, index) => ({ title: `Result ${index + 1}`, url: `https://example.com/${index + 1}` }));
    const lines = renderPresentation({ kind: 'links', links: [{ title: 'no url' }, ...links] }, plain);
    expect(lines).toHaveLength(MAX_LINKS_SHOWN + 1);
    expect(lines[0]).toBe('  ↗ Result 1 <https://example.com/1>');
    expect(lines.at(-1)).toBe(`  … ${11 - MAX_LINKS_SHOWN} more`);
  });

  it('prints a page title that carries escape sequences and line breaks as one harmless line', () => {
    const [line] = renderPresentation({ kind: 'links', links: [{ title: 'Evil\u001b[2J\u001b]0;pwned\u0007 title\nsecond line', url: 'https://e.com/\u001b[31m' }] }, plain);
    expect(line).toBe('  ↗ Evil[2J]0;pwned title second line <https://e.com/[31m>');
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("draws write_file / edit_file's file event: action, path and size", () => {
    expect(renderPresentation({ kind: 'file', path: 'notes/README.md', action: 'created', bytes: 214 }, plain)).toEqual(['  ▤ created notes/README.md (214 B)']);
    expect(renderPresentation({ kind: 'file', path: 'notes/big.csv', action: 'updated', bytes: 3 * 1024 * 1024 }, plain)).toEqual(['  ▤ updated notes/big.csv (3.0 MB)']);
    expect(renderPresentation({ kind: 'file', path: 'a.ts', action: 'edited', bytes: 2048 }, marked)).toEqual(['  ▤ edited a.ts <d>(2.0 KB)</d>']);
  });

  it('shows any other event as its kind and fields', () => {
    expect(renderPresentation({ kind: 'chart', values: [1, 2] }, plain)).toEqual(['  [chart] {"values":[1,2]}']);
    expect(renderPresentation({ kind: 'file', name: 'no path' }, plain)).toEqual(['  [file] {"name":"no path"}']);
  });
});
