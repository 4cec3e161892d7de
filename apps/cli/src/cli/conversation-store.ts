import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ResponseInputItem, TokenUsage, TurnEndReason } from '@core/runtime';
import type { TranscriptEventEntry } from '../render/replay-transcript.js';
import { agentDataDir } from './agent-home.js';
import { CliError } from './cli-error.js';

/** How a turn talked to the model: the whole history each request, or only new items after `previous_response_id`. */
export type ConversationMode = 'stateless' | 'previous_response_id';

/** One turn of a conversation, as `ankole conversations show` lists it. */
export interface ConversationTurn {
  /** 1, 2, … */
  number: number;
  prompt: string;
  startedAt: string;
  endedAt: string;
  reason: TurnEndReason;
  /** The final answer. */
  text: string;
  error?: string;
  steps: number;
  toolCalls: number;
  usage: TokenUsage;
  mode: ConversationMode;
  model: string;
}

/** A conversation of `ankole run`: its turns and the history to continue from. */
export interface Conversation {
  version: 1;
  id: string;
  agent: string;
  /** The home its first turn ran in. */
  home: string;
  /** The first prompt's first line (at most 80 characters). */
  title: string;
  createdAt: string;
  updatedAt: string;
  turns: ConversationTurn[];
  /** The whole history after the last turn (every call answered): a stateless turn sends it with the new message. */
  items: ResponseInputItem[];
  /** The last response's id, when the server stored it (`previous_response_id` mode): a chained turn goes on from it. */
  storedResponseId: string | null;
  /** Items after that response no request has carried yet (a chained turn sends them first). */
  pendingItems: ResponseInputItem[];
}

/** A turn's transcript as `ankole run` keeps it (the events, bounded like the control plane's). */
export interface RunTranscript {
  version: 1;
  conversationId: string;
  turn: number;
  startedAt: string;
  entries: TranscriptEventEntry[];
  droppedEvents: number;
  truncatedEvents: number;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Options of `createConversationStore`. */
export interface ConversationStoreOptions {
  agent: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Where an agent's conversations live: `<agent data>/conversations/<id>.json`, transcripts in `<id>/turn-<n>.json`. */
export interface ConversationStore {
  readonly dir: string;
  /** A new, empty conversation (not saved until `save`). */
  create(input: { home: string; prompt: string }): Conversation;
  /** @throws CliError when there is none with that id or its file is not a conversation. */
  load(id: string): Promise<Conversation>;
  /** Writes it atomically (a temporary file renamed over the old one): a crash leaves the old or the new one, whole. */
  save(conversation: Conversation): Promise<void>;
  /** Every conversation, most recently updated first (files that are not conversations are skipped). */
  list(): Promise<Conversation[]>;
  /** The most recently updated conversation, if any. */
  last(): Promise<Conversation | undefined>;
  saveTranscript(transcript: RunTranscript): Promise<void>;
  /** The transcripts of a conversation's turns that have one, in turn order. */
  transcripts(id: string): Promise<RunTranscript[]>;
}

/** The conversations of one agent (see `ConversationStore`). */
export function createConversationStore(options: ConversationStoreOptions): ConversationStore {
  const dir = path.join(agentDataDir(options.agent, options.env), 'conversations');
  const fileOf = (id: string) => path.join(dir, `${id}.json`);

  async function readConversation(file: string): Promise<Conversation | undefined> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<Conversation>;
      if (parsed.version !== 1 || typeof parsed.id !== 'string' || !Array.isArray(parsed.items) || !Array.isArray(parsed.turns)) return undefined;
      return parsed as Conversation;
    } catch {
      return undefined;
    }
  }

  const store: ConversationStore = {
    dir,
    create({ home, prompt }) {
      const now = new Date().toISOString();
      const firstLine = prompt.trim().split('\n')[0] ?? '';
      return {
        version: 1,
        id: randomUUID(),
        agent: options.agent,
        home,
        title: firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine,
        createdAt: now,
        updatedAt: now,
        turns: [],
        items: [],
        storedResponseId: null,
        pendingItems: [],
      };
    },
    async load(id) {
      if (!ID.test(id)) throw new CliError('id_invalid', `"${id}" is not a conversation id.`);
      const conversation = await readConversation(fileOf(id));
      if (conversation === undefined) {
        throw new CliError('conversation_not_found', `Agent ${options.agent} has no conversation ${id} (its file ${fileOf(id)} is missing or not a conversation).`);
      }
      return conversation;
    },
    async save(conversation) {
      await writeAtomically(fileOf(conversation.id), `${JSON.stringify(conversation)}\n`);
    },
    async list() {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
      const found = await Promise.all(names.filter((name) => ID.test(name.replace(/\.json$/, '')) && name.endsWith('.json')).map((name) => readConversation(path.join(dir, name))));
      return found.filter((entry): entry is Conversation => entry !== undefined).sort((left, right) => right.updatedAt.localeCompare(left.updatedAt));
    },
    async last() {
      return (await store.list())[0];
    },
    async saveTranscript(transcript) {
      await writeAtomically(path.join(dir, transcript.conversationId, `turn-${transcript.turn}.json`), `${JSON.stringify(transcript)}\n`);
    },
    async transcripts(id) {
      const folder = path.join(dir, id);
      const names = await readdir(folder).catch(() => [] as string[]);
      const found: RunTranscript[] = [];
      for (const name of names) {
        if (!/^turn-\d+\.json$/.test(name)) continue;
        try {
          const parsed = JSON.parse(await readFile(path.join(folder, name), 'utf8')) as RunTranscript;
          if (parsed.version === 1 && Array.isArray(parsed.entries)) found.push(parsed);
        } catch {
          // Not a transcript: left out.
        }
      }
      return found.sort((left, right) => left.turn - right.turn);
    },
  };
  return store;
}

/** Writes `text` to a temporary file beside `file`, flushes it to disk, then renames it over `file`. */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
