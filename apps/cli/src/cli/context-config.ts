import { defaultCompactor, localCompactor, serverCompactor, type AgentLoopOptions, type ModelGateway } from '@core/runtime';
import { configSetting, type LoadedConfig } from './ankole-config.js';

/**
 * The loop's `context` option from the config files' `context` settings (the agent file's over the user file's, one
 * setting at a time): `windows`, `threshold`, and `compaction` (`auto`: the server's `/responses/compact`, else local;
 * `server`; `local`; `off`: never compact). `undefined` when nothing is set (the loop's defaults).
 */
export function contextBudgetOf(loaded: LoadedConfig, gateway: ModelGateway): AgentLoopOptions['context'] {
  const windows = configSetting(loaded, 'context.windows')?.value as Record<string, number> | undefined;
  const threshold = configSetting(loaded, 'context.threshold')?.value as number | undefined;
  const compaction = configSetting(loaded, 'context.compaction')?.value as 'auto' | 'server' | 'local' | 'off' | undefined;
  if (windows === undefined && threshold === undefined && compaction === undefined) return undefined;
  const compactor =
    compaction === 'off' ? false : compaction === 'server' ? serverCompactor(gateway) : compaction === 'local' ? localCompactor() : defaultCompactor(gateway);
  return {
    ...(windows === undefined ? {} : { windows }),
    ...(threshold === undefined ? {} : { threshold }),
    compactor,
  };
}

/** The gateway's `contextManagement` from the `context.management` setting (server-side compaction), if set. */
export function contextManagementOf(loaded: LoadedConfig): { compactThreshold: number } | undefined {
  const threshold = configSetting(loaded, 'context.management')?.value as number | undefined;
  return threshold === undefined ? undefined : { compactThreshold: threshold };
}
