/** One raw server-sent event: its `event:` name and its parsed `data:` JSON. */
export interface RawEvent {
  event: string | undefined;
  data: Record<string, unknown>;
}

/** Posts `body` and parses the SSE answer by hand (to check the wire framing, not just what the SDK makes of it). */
export async function postAndReadSse(baseURL: string, body: unknown): Promise<RawEvent[]> {
  const response = await fetch(`${baseURL}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      let event: string | undefined;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice('event: '.length);
        if (line.startsWith('data: ')) data += line.slice('data: '.length);
      }
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}
