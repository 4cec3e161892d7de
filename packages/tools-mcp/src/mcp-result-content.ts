import type { ToolContent, ToolContentPart } from '@core/runtime';

/** How MCP result content is turned into tool output. */
export interface McpContentOptions {
  /** Characters of text kept (the rest is cut with a note). */
  maxTextChars: number;
}

/**
 * Maps an MCP `CallToolResult` to the content the model sees: text stays text, images become
 * `input_image` parts with a `data:` URL, embedded resources become their text (or a line describing
 * binary data; images among them become images), resource links a line with their URI, audio a line
 * saying it is not shown. With no content, `structuredContent` is shown as JSON. Text only → one string.
 */
export function mcpResultContent(result: unknown, options: McpContentOptions): ToolContent {
  const record = typeof result === 'object' && result !== null ? (result as Record<string, unknown>) : {};
  const parts: ToolContentPart[] = [];
  const items = Array.isArray(record.content) ? record.content : [];
  for (const item of items) parts.push(...contentPart(item));
  if (parts.length === 0) {
    if (record.structuredContent !== undefined) parts.push(text(JSON.stringify(record.structuredContent, null, 2)));
    else if (record.toolResult !== undefined) parts.push(text(JSON.stringify(record.toolResult, null, 2)));
    else parts.push(text('(the tool returned no content)'));
  }
  let budget = options.maxTextChars;
  const capped = parts.map((part) => {
    if (part.type !== 'input_text') return part;
    if (part.text.length <= budget) {
      budget -= part.text.length;
      return part;
    }
    const kept = part.text.slice(0, Math.max(0, budget));
    const cut = part.text.length - kept.length;
    budget = 0;
    return text(`${kept}\n[… ${cut} characters cut: the tool's output is longer than ${options.maxTextChars} characters]`);
  });
  if (capped.every((part) => part.type === 'input_text')) return capped.map((part) => (part as { text: string }).text).join('\n');
  return capped;
}

function contentPart(item: unknown): ToolContentPart[] {
  if (typeof item !== 'object' || item === null) return [];
  const part = item as Record<string, unknown>;
  switch (part.type) {
    case 'text':
      return [text(typeof part.text === 'string' ? part.text : '')];
    case 'image':
      return typeof part.data === 'string' ? [image(String(part.mimeType ?? 'image/png'), part.data)] : [];
    case 'audio':
      return [text(`[audio content (${String(part.mimeType ?? 'unknown type')}, ${base64Bytes(part.data)} bytes) is not shown]`)];
    case 'resource_link': {
      const description = typeof part.description === 'string' ? `: ${part.description}` : '';
      return [text(`Resource link ${String(part.name ?? part.uri ?? '')} <${String(part.uri ?? '')}>${description}`)];
    }
    case 'resource': {
      const resource = (typeof part.resource === 'object' && part.resource !== null ? part.resource : {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? '');
      const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
      if (typeof resource.text === 'string') return [text(`Resource ${uri}${mimeType === undefined ? '' : ` (${mimeType})`}:\n${resource.text}`)];
      if (typeof resource.blob === 'string') {
        if (mimeType !== undefined && /^image\/(png|jpeg|gif|webp)$/.test(mimeType)) return [text(`Resource ${uri}:`), image(mimeType, resource.blob)];
        return [text(`[resource ${uri} (${mimeType ?? 'binary'}, ${base64Bytes(resource.blob)} bytes) is not shown]`)];
      }
      return [text(`Resource ${uri}`)];
    }
    default:
      return [text(JSON.stringify(part))];
  }
}

function text(value: string): ToolContentPart {
  return { type: 'input_text', text: value };
}

function image(mimeType: string, data: string): ToolContentPart {
  return { type: 'input_image', image_url: `data:${mimeType};base64,${data}`, detail: 'auto' };
}

function base64Bytes(data: unknown): number {
  return typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0;
}
