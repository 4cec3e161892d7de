import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { omittedSdkApi } from './omitted-sdk-api.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

describe('omittedSdkApi', () => {
  it('builds like a resource class, and any use of the class or an instance throws an error naming it', () => {
    const Chat = omittedSdkApi('Chat') as new (client: unknown) => Record<string, unknown>;
    const client = new Proxy({}, { get: () => expect.unreachable('the client is not read while building') });
    const chat = new Chat(client);
    expect(() => chat.completions).toThrow('The ankole CLI bundles only the Responses API of the openai SDK: Chat.completions is not included.');
    expect(() => (Chat as unknown as Record<string, unknown>).Completions).toThrow('Chat.Completions is not included.');
    // Inspecting, awaiting or serialising a client that holds one does not throw.
    expect(chat.then).toBeUndefined();
    expect(JSON.stringify({ chat: 1 })).toBe('{"chat":1}');
    expect(chat[Symbol.toStringTag as unknown as string]).toBeUndefined();
    expect(typeof Chat.prototype).toBe('object');
  });
});

describe('the CLI bundle', () => {
  it("holds the openai SDK's Responses code and none of the APIs the CLI never calls", async () => {
    const chunks = (await readdir(dist)).filter((name) => /^cli-.*\.cjs$/.test(name));
    const texts = await Promise.all(chunks.map((name) => readFile(path.join(dist, name), 'utf8')));
    const sdk = texts.filter((text) => text.includes('omittedSdkApi('));
    expect(sdk).toHaveLength(1);
    expect(sdk[0]).toContain('("/responses"');
    for (const omitted of ['("/chat/completions"', '("/embeddings"', '("/audio/speech"', '("/images/generations"', 'class ChatCompletionStream']) expect(sdk[0]).not.toContain(omitted);
    for (const name of ['Chat', 'Audio', 'Files', 'Beta', 'Embeddings']) expect(sdk[0]).toContain(`omittedSdkApi("${name}")`);
  });
});
