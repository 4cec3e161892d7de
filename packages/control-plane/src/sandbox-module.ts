import type { QuickJSWASMModule } from 'quickjs-emscripten';

/** The QuickJS WebAssembly module of one control plane: loaded once, on first use, and replaced when a run broke it. */
export interface SandboxModule {
  /** The loaded module (loads it on the first call). */
  get(): Promise<QuickJSWASMModule>;
  /** Drops a module a host-level failure left unusable; the next `get` loads a fresh one. */
  discard(module: QuickJSWASMModule): void;
}

/** Creates the lazily loaded QuickJS module holder (the release build, synchronous variant). */
export function createSandboxModule(): SandboxModule {
  let loading: Promise<QuickJSWASMModule> | undefined;
  let current: QuickJSWASMModule | undefined;
  return {
    get() {
      loading ??= import('quickjs-emscripten').then(async ({ newQuickJSWASMModule }) => {
        current = await newQuickJSWASMModule();
        return current;
      });
      loading.catch(() => {
        loading = undefined;
      });
      return loading;
    },
    discard(module) {
      if (module === current) {
        current = undefined;
        loading = undefined;
      }
    },
  };
}
