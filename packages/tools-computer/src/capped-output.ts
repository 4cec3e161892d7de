import { StringDecoder } from 'node:string_decoder';

/**
 * Collects a stream's bytes within a budget, keeping the head and the tail: the first half of the
 * budget and the last half. `text()` shows both with a line saying how many bytes were cut.
 */
export class CappedOutput {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #total = 0;

  constructor(maxBytes: number) {
    this.#headLimit = Math.ceil(maxBytes / 2);
    this.#tailLimit = Math.floor(maxBytes / 2);
  }

  /** Bytes received in all. */
  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes received but not kept. */
  get omittedBytes(): number {
    return this.#total - this.#headBytes - Math.min(this.#tailBytes, this.#tailLimit);
  }

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(this.#headLimit - this.#headBytes, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    if (this.#tailBytes > this.#tailLimit * 2) this.#trimTail();
  }

  /** The kept text: everything when it fit, else head, a line saying what was cut, and tail. */
  text(): string {
    this.#trimTail();
    const head = new StringDecoder('utf8').write(Buffer.concat(this.#head));
    const tailBuffer = Buffer.concat(this.#tail);
    if (this.omittedBytes === 0) return new StringDecoder('utf8').end(Buffer.concat([...this.#head, tailBuffer]));
    let start = 0;
    while (start < tailBuffer.length && start < 4 && ((tailBuffer[start] ?? 0) & 0xc0) === 0x80) start += 1;
    const tail = tailBuffer.subarray(start).toString('utf8');
    return `${head}\n[… ${this.omittedBytes} bytes cut of ${this.#total}: the first ${this.#headBytes} and the last ${this.#tailBytes} are shown …]\n${tail}`;
  }

  #trimTail(): void {
    if (this.#tailBytes <= this.#tailLimit) return;
    const joined = Buffer.concat(this.#tail);
    const kept = joined.subarray(joined.length - this.#tailLimit);
    this.#tail = [kept];
    this.#tailBytes = kept.length;
  }
}
