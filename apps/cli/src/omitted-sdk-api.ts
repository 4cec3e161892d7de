/**
 * A stand-in for one API of a bundled SDK that the `ankole` CLI never calls (build-cli.mjs puts one in place of
 * each openai SDK resource other than `responses`): a class the SDK's client can build (`new Chat(client)`) and
 * keep as a property, whose every use — a property or method of the class or of an instance — throws an error
 * naming what is missing. Symbol keys, `then` and `toJSON` read as `undefined`, so inspecting, awaiting or
 * serialising a client does not throw.
 */
export function omittedSdkApi(name: string): unknown {
  const fail = (key: string): never => {
    throw new Error(`The ankole CLI bundles only the Responses API of the openai SDK: ${name}.${key} is not included.`);
  };
  const quiet = (key: string | symbol) => typeof key === 'symbol' || key === 'then' || key === 'toJSON';
  const Omitted = class {
    constructor() {
      return new Proxy(this, { get: (target, key) => (quiet(key) ? undefined : fail(String(key))) });
    }
  };
  return new Proxy(Omitted, {
    get: (target, key) => (quiet(key) || key === 'prototype' || key === 'name' || key === 'length' ? Reflect.get(target, key) : fail(String(key))),
  });
}
