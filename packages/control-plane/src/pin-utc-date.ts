/**
 * Replaces `scope.Date` with a `Date` whose local time is UTC: the local getters read the UTC ones, the time-zone
 * offset is 0, and `new Date(year, month, ...)` means a UTC time. QuickJS (compiled with Emscripten) asks its host's
 * `Date` for the local time zone, so a sandbox thread pins its own `Date` this way and every script sees UTC,
 * whatever the host's TZ: two workers in different zones replay a script the same way. Only for a thread that runs
 * nothing but the sandbox.
 */
export function pinUtcDate(scope: { Date: DateConstructor }): void {
  const HostDate = scope.Date;
  class UtcDate extends HostDate {
    constructor(...args: unknown[]) {
      if (args.length > 1) super(HostDate.UTC(...(args as [number, number])));
      else super(...(args as []));
    }
    override getTimezoneOffset(): number {
      return 0;
    }
    override getFullYear(): number {
      return this.getUTCFullYear();
    }
    override getMonth(): number {
      return this.getUTCMonth();
    }
    override getDate(): number {
      return this.getUTCDate();
    }
    override getDay(): number {
      return this.getUTCDay();
    }
    override getHours(): number {
      return this.getUTCHours();
    }
    override getMinutes(): number {
      return this.getUTCMinutes();
    }
    override getSeconds(): number {
      return this.getUTCSeconds();
    }
    override getMilliseconds(): number {
      return this.getUTCMilliseconds();
    }
  }
  scope.Date = UtcDate as unknown as DateConstructor;
}
