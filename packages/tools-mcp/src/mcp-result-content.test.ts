import { expect, test } from 'vitest';
import { mcpResultContent } from './mcp-result-content.js';

const options = { maxTextChars: 1000 };

test('text only becomes one string', () => {
  expect(mcpResultContent({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, options)).toBe('a\nb');
});

test('images become input_image parts; resources become text', () => {
  const content = mcpResultContent(
    {
      content: [
        { type: 'text', text: 'here' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
        { type: 'resource', resource: { uri: 'file:///a.gz', mimeType: 'application/gzip', blob: 'AAAAAAAA' } },
        { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', description: 'B' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    },
    options,
  );
  expect(content).toEqual([
    { type: 'input_text', text: 'here' },
    { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
    { type: 'input_text', text: 'Resource file:///a.txt (text/plain):\nhello' },
    { type: 'input_text', text: '[resource file:///a.gz (application/gzip, 6 bytes) is not shown]' },
    { type: 'input_text', text: 'Resource link b.md <file:///b.md>: B' },
    { type: 'input_text', text: '[audio content (audio/wav, 3 bytes) is not shown]' },
  ]);
});

test('structured content is shown when there is no content; long text is cut with a note', () => {
  expect(mcpResultContent({ content: [], structuredContent: { sum: 3 } }, options)).toBe('{\n  "sum": 3\n}');
  const cut = mcpResultContent({ content: [{ type: 'text', text: 'x'.repeat(30) }] }, { maxTextChars: 10 });
  expect(cut).toBe(`${'x'.repeat(10)}\n[… 20 characters cut: the tool's output is longer than 10 characters]`);
});
