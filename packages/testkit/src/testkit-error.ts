/**
 * An error thrown by the testkit itself (bad options, an unreadable OpenAPI file), with a stable `code`.
 *
 * The testkit does not depend on `@core/runtime` (the runtime's own tests depend on the testkit), so
 * it carries its own small error class shaped like the runtime's `UsageError`.
 */
export class TestkitError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TestkitError';
    this.code = code;
  }
}
