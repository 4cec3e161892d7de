import { createOpenAIResponsesGateway, type ModelGateway } from '@core/runtime';
import { describeModelFailures } from '@core/worker';
import { CliError } from './cli-error.js';

/** The model used when neither `--model` nor `ANKOLE_MODEL` names one. */
export const DEFAULT_MODEL = 'gpt-5-mini';

/** The model name the offline demo reports. */
export const OFFLINE_DEMO_MODEL = 'ankole-offline-demo';

/** The model a turn talks to, and how to describe and close it. */
export interface ModelSetup {
  gateway: ModelGateway;
  /** True when the scripted offline demo model answers instead of a real one. */
  offlineDemo: boolean;
  model: string;
  /** The endpoint (for messages); the SDK's default when unset. */
  baseURL: string;
  /** The first line the CLI prints: which model it runs, in plain words. */
  notice: string;
  /** The last error the endpoint threw (to turn it into one clear sentence). */
  lastError(): unknown;
  close(): Promise<void>;
}

/** Options of `openModel`. */
export interface OpenModelOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** `--model`. */
  model?: string;
  /** `--demo`: use the offline demo model even when a key is set. */
  forceDemo?: boolean;
  /** `previous_response_id` mode: stored responses, each request carries only the new items (`--previous-response-id`). */
  previousResponseId?: boolean;
  /** Where `OPENAI_BASE_URL` came from, as messages name it: `OPENAI_BASE_URL` (the default) or `baseURL in <config file>` (`baseURLSource`). */
  baseURLFrom?: string | undefined;
  /** Server-side compaction (`context.management` in the config): sent as `context_management` with every request. */
  contextManagement?: { compactThreshold?: number };
}

/** The key sent to a server given only a base URL (Ollama, vLLM and the like take none; the SDK needs one to send). */
export const KEYLESS_API_KEY = 'no-key';

/**
 * A real model when `OPENAI_API_KEY` is set (at `OPENAI_BASE_URL` when set: any Responses-compatible server) or when only
 * `OPENAI_BASE_URL` is set (a local server that takes no key: `KEYLESS_API_KEY` is sent), otherwise the offline demo
 * model: a scripted local server, started in-process, that drives the real tools.
 * @throws CliError when `OPENAI_BASE_URL` is not an http(s) URL (naming where it came from).
 */
export async function openModel(options: OpenModelOptions): Promise<ModelSetup> {
  const givenKey = nonEmpty(options.env.OPENAI_API_KEY);
  const baseURLEnv = nonEmpty(options.env.OPENAI_BASE_URL);
  const baseURLFrom = options.baseURLFrom ?? 'OPENAI_BASE_URL';
  if (options.forceDemo !== true && (givenKey !== undefined || baseURLEnv !== undefined)) {
    const apiKey = givenKey ?? KEYLESS_API_KEY;
    const model = options.model ?? nonEmpty(options.env.ANKOLE_MODEL) ?? DEFAULT_MODEL;
    const baseURL = baseURLEnv ?? 'https://api.openai.com/v1';
    if (!isHttpURL(baseURL)) {
      throw new CliError('base_url_invalid', `${baseURLFrom} ${JSON.stringify(baseURL)} is not an http(s) URL: set it to the server's API root, e.g. http://localhost:8000/v1.`);
    }
    const recorded = recordErrors(describeModelFailures(createOpenAIResponsesGateway({ apiKey, baseURL, model, maxRetries: 2, ...(options.previousResponseId === true ? { previousResponseId: true } : {}), ...(options.contextManagement === undefined ? {} : { contextManagement: options.contextManagement }) }), { baseURL, model, baseURLFrom }));
    return {
      ...recorded,
      offlineDemo: false,
      model,
      baseURL,
      notice: `Running ${model} at ${baseURL}${givenKey === undefined ? ` (from ${baseURLFrom}, without a key: OPENAI_API_KEY is not set)` : ''}.`,
      close: async () => undefined,
    };
  }
  // The scripted server (testkit) is loaded only for the offline demo, not when a real model answers.
  const [{ reply, startTestModelServer }, { demoScenario }] = await Promise.all([import('@core/testkit'), import('../demo/demo-scenario.js')]);
  const server = await startTestModelServer({
    script: demoScenario(),
    model: OFFLINE_DEMO_MODEL,
    onExhausted: reply.text('(The offline demo model has nothing more to say: set OPENAI_API_KEY to talk to a real model.)'),
    // Not a test: the requests are the runtime's own, and compiling the testkit's request schema would cost more than the turn.
    checkRequestSchema: false,
  });
  const recorded = recordErrors(
    describeModelFailures(createOpenAIResponsesGateway({
      apiKey: 'offline-demo',
      baseURL: server.baseURL,
      model: OFFLINE_DEMO_MODEL,
      maxRetries: 0,
      ...(options.previousResponseId === true ? { previousResponseId: true } : {}),
    }), {
      baseURL: server.baseURL,
      model: OFFLINE_DEMO_MODEL,
    }),
  );
  const why = options.forceDemo === true ? '' : ' (OPENAI_API_KEY is not set)';
  return {
    ...recorded,
    offlineDemo: true,
    model: OFFLINE_DEMO_MODEL,
    baseURL: server.baseURL,
    notice: `Running the offline demo model${why}: a scripted local model drives the real tools; your prompt is not sent anywhere.`,
    close: () => server.close(),
  };
}

function isHttpURL(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function recordErrors(gateway: ModelGateway): { gateway: ModelGateway; lastError(): unknown } {
  let last: unknown;
  return {
    lastError: () => last,
    gateway: {
      get usesPreviousResponseId() {
        return gateway.usesPreviousResponseId;
      },
      get model() {
        return gateway.model;
      },
      get endpoint() {
        return gateway.endpoint;
      },
      ...(gateway.compact === undefined ? {} : { compact: gateway.compact.bind(gateway) }),
      async createResponse(request, callOptions) {
        try {
          return await gateway.createResponse(request, callOptions);
        } catch (error) {
          last = error;
          throw error;
        }
      },
    },
  };
}
